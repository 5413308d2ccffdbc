// The igarchive family: identify, open, verify, samples, list columns, edit.
// spec: alchemy.md#iga
#include "assay/family.h"

#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/verify.h"
#include "assay/formats/igarchive/writer.h"
#include "family_parts.h"
#include "json.h"
#include "records.h"
#include "formats/serialise.h"

namespace assay {

namespace igarchive {

int identify_input(const Input& in) {
  Endian e = Endian::little;
  const auto p = records::read_prefix(in.bytes, e);
  if (!p) return 0;
  return is_known_version(p->version) ? 100 : 60;
}

void verify_input(const Input& in, const assay::ContainerOptions& opt, Diagnostics& out) {
  VerifyOptions vo;
  vo.threads = opt.threads;
  vo.member_cap = opt.igarchive.member_cap;
  vo.progress = opt.progress;
  verify(in.bytes, in.name, vo, out);
}

Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir) {
  std::vector<std::string> names;
  for (const auto& [file, opt_files] : sample_archives()) {
    ASSAY_TRY(ByteBuffer bytes, write_archive(opt_files.second, opt_files.first));
    ASSAY_CHECK(write_file_atomic(dir / file, bytes, true));
    names.push_back(file);
  }
  return names;
}

}  // namespace igarchive

namespace {

void verify_unopened(const OpenContext& ctx, Diagnostics& out) {
  igarchive::verify_input(ctx.input, ctx.options, out);
}

}  // namespace

const Family kIgArchiveFamily = {
    .name = "igarchive",
    .description = "Alchemy igArchive (.bld .pak .arc)",
    .identify = igarchive::identify_input,
    .open = open_igarchive_container,
    .verify_unopened = verify_unopened,
    .write_samples = igarchive::write_sample_files,
    .list_columns = {"index", "size", "compression", "blocks", "offset", "name"},
    .edit = edit_document<igarchive::edit_format>,
};

}  // namespace assay
