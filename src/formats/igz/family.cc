// The igz family: identify, open, verify, samples, list columns. spec: alchemy.md#igz, #verify-igz
#include "json.h"
#include "assay/family.h"

#include "assay/core/bytes.h"
#include "assay/core/output.h"
#include "assay/core/progress.h"
#include "assay/formats/igz/graph.h"
#include "assay/formats/igz/image.h"
#include "assay/formats/igz/writer.h"
#include "diag_util.h"
#include "family_parts.h"
#include "records.h"
#include "formats/serialise.h"

namespace assay {

namespace igz {

int identify_input(const Input& in) {
  const auto p = probe_byte_order(in.bytes, kMagic);
  if (!p) return 0;
  return p->prefix.version >= 5 && p->prefix.version <= 10 ? 100 : 60;
}

// Progress over the file's bytes, drawn with its name before the checks start (verify has no
// steps to report: header, fixups and graph are checked in one call).
void verify_input(const Input& in, const assay::ContainerOptions& opt, Diagnostics& out) {
  OpenOptions o;
  o.pointer_size = opt.igz.pointer_size;
  Progress progress("verify", in.bytes.size(), opt.progress);
  progress.set_bytes();
  progress.set_current(in.name);
  progress.advance(0);
  Diagnostics found;
  verify(in.bytes, o, found);
  for (Diagnostic d : found.items()) {
    d.where = detail::coded(std::move(d.where));
    out.add(std::move(d));
  }
  progress.advance(in.bytes.size());
  progress.finish();
}

Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  const struct {
    const char* name;
    Layout layout;
  } samples[] = {
      {"sample_v9_be.igz", {9, Endian::big, 9}},      // Wii U (cafe), 32-bit
      {"sample_v8_le64.igz", {8, Endian::little, 8}},  // win64
  };
  for (const auto& s : samples) {
    ASSAY_TRY(ByteBuffer b, build_sample(s.layout));
    ASSAY_CHECK(write_file_atomic(dir / s.name, b, true));
    names.emplace_back(s.name);
  }
  return names;
}

}  // namespace igz

namespace {

void verify_unopened(const OpenContext& ctx, Diagnostics& out) { igz::verify_input(ctx.input, ctx.options, out); }

}  // namespace

const Family kIgzFamily = {
    .name = "igz",
    .description = "Alchemy igz object file",
    .identify = igz::identify_input,
    .open = open_igz_container,
    .verify_unopened = verify_unopened,
    .write_samples = igz::write_sample_files,
    .list_columns = {"index", "offset", "pool", "type", "size"},
    .edit = edit_document<igz::edit_format>,
};

}  // namespace assay
