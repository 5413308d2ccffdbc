// Which inputs the warriors family claims: a disc (folder, WARRIORS.DIR or ISO; spec:
// warriors.md#wr-1-2) or a loose chunk container (spec: #wr-3).
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/disc.h"
#include "family_parts.h"
#include "records.h"

namespace assay::warriors {

namespace {

bool is_loose_container(const Input& in) {
  if (in.is_directory || in.bytes.size() < 32) return false;
  if (records::u32_at(in.bytes, 0).value_or(0) == 0) return false;  // chunk count
  return check_exact_pack(in.bytes).exact || check_exact_resource(in.bytes).exact;
}

}  // namespace

int identify_input(const Input& in) {
  if (looks_like_disc(in)) return 100;
  if (!in.is_directory && records::has_package_marker(in.bytes) && check_exact_pack(in.bytes).exact)
    return 90;
  if (is_loose_container(in)) return 50;  // strict: C1-C7 over the whole file
  // A .lev that breaks C1-C7 (truncated, say) is still ours: open() says what is missing.
  if (!in.is_directory && in.bytes.size() >= 16 && in.path.extension() == ".lev") return 10;
  return 0;
}

}  // namespace assay::warriors
