// libFuzzer target: the names extract gives entries before OutputDir sees them: Oni's .oni file
// names (oni/oni.h oni_file_name / oni_name_from_file: one safe component, lossless round trip),
// Oni level file names (parse_level_file_name), Warriors' name hashing (normalise_name,
// name_hash, base_name, parse_hash). RenderWare texture names and Warriors entry names are
// exercised through real extracts in extract_formats and warriors_names.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "assay/core/output.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/warriors/disc.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view name(reinterpret_cast<const char*>(data), size);
  // Oni: a full instance name -> NAME.oni, one component, unchanged by the sanitiser
  const std::string file = assay::oni::oni_file_name(name);
  if (file.find('/') != std::string::npos || file.find('\\') != std::string::npos) __builtin_trap();
  bool changed = true;
  auto safe = assay::sanitize_relative_path(file, &changed);
  if (!safe || changed) __builtin_trap();
  if (assay::oni::oni_name_from_file(std::string_view(file).substr(0, file.size() - 4)) != name) __builtin_trap();
  (void)assay::oni::oni_name_from_file(name);
  if (auto l = assay::oni::parse_level_file_name(name)) {
    if (l->level > 127 || assay::oni::file_id_level(l->file_id) != l->level) __builtin_trap();
  }
  (void)assay::oni::is_tools_file(name);
  // Warriors: hashing is case-insensitive in ASCII only, and "0x..." is a raw hash
  const std::string norm = assay::warriors::normalise_name(name);
  if (assay::warriors::normalise_name(norm) != norm) __builtin_trap();
  if (!assay::warriors::parse_hash(name) && assay::warriors::name_hash(name) != assay::warriors::name_hash(norm))
    __builtin_trap();
  const std::string_view base = assay::warriors::base_name(name);
  if (base.size() > name.size()) __builtin_trap();
  return 0;
}
