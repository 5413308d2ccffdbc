// The igz record for the CLI. spec: alchemy.md#igz, #verify-igz
#include "assay/container.h"
#include "assay/ops.h"
#include "assay/core/bytes.h"
#include "assay/core/progress.h"
#include "assay/formats/format.h"
#include "assay/formats/igz/report.h"
#include "assay/formats/igz/writer.h"
#include "records.h"

namespace assay {

namespace {

int igz_identify(const Input& in) {
  const auto p = probe_byte_order(in.bytes, igz::kMagic);
  if (!p) return 0;
  return p->prefix.version >= 5 && p->prefix.version <= 10 ? 100 : 60;
}

Result<Json> igz_info(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(igz::OpenOptions o, igz::open_options(opt));
  return igz::info_json(in.bytes, o);
}

Result<Json> igz_list(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(igz::OpenOptions o, igz::open_options(opt));
  return igz::list_json(in.bytes, o);
}

// Progress over the file's bytes, drawn with its name before the checks start (igz::verify has
// no steps to report: header, fixups and graph are checked in one call).
void igz_verify(const Input& in, const ReadOptions& opt, Diagnostics& out) {
  auto o = igz::open_options(opt);
  if (!o) return out.error(o.error());
  Progress progress("verify", in.bytes.size(), opt.progress);
  progress.set_bytes();
  progress.set_current(in.name);
  progress.advance(0);
  igz::verify(in.bytes, *o, out);
  progress.advance(in.bytes.size());
  progress.finish();
}

// Each object's bytes (RVTB order) as <index>_<type>.bin, through the shared per-entry loop.
Result<ExtractStats> igz_extract(const Input& in, const ReadOptions& opt, const ExtractOptions& x, const OutputDir& dir,
                                 Diagnostics&) {
  return extract_entries(in, "igz", opt, x, dir);
}

Result<std::vector<std::string>> igz_write_samples(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  const struct {
    const char* name;
    igz::Layout layout;
  } samples[] = {
      {"sample_v9_be.igz", {9, Endian::big, 9}},      // Wii U (cafe), 32-bit
      {"sample_v8_le64.igz", {8, Endian::little, 8}},  // win64
  };
  for (const auto& s : samples) {
    ASSAY_TRY(ByteBuffer b, igz::build_sample(s.layout));
    ASSAY_CHECK(write_file_atomic(dir / s.name, b, true));
    names.emplace_back(s.name);
  }
  return names;
}

}  // namespace

const Format kIgzFormat = {
    .name = "igz",
    .description = "Alchemy igz object file",
    .identify = igz_identify,
    .info = igz_info,
    .list = igz_list,
    .verify = igz_verify,
    .extract = igz_extract,
    .write_samples = igz_write_samples,
    .list_columns = {"index", "offset", "pool", "type", "size"},
};

}  // namespace assay
