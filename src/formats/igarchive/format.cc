// The igarchive Format record: the family's functions (family.cc) under the string-map API, and
// extract through the container (Container::write_entry). spec: alchemy.md#iga
#include "assay/container.h"
#include "assay/formats/format.h"
#include "assay/formats/igarchive/edit.h"
#include "assay/ops.h"
#include "family_parts.h"

namespace assay {

namespace {

Result<std::unique_ptr<Container>> open_archive(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(ContainerOptions co, container_options(opt));
  return open(in, co, "igarchive");
}

Result<Json> info(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_archive(in, opt));
  return info_json(*c);
}

Result<Json> list(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_archive(in, opt));
  return list_json(*c);
}

void verify(const Input& in, const ReadOptions& opt, Diagnostics& out) {
  auto co = container_options(opt);
  if (!co) return out.error(co.error());
  igarchive::verify_input(in, *co, out);
}

Result<ExtractStats> extract(const Input& in, const ReadOptions& opt, const ExtractOptions& x,
                             const OutputDir& dir, Diagnostics& diags) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_archive(in, opt));
  return assay::extract(*c, x, dir, diags);
}

}  // namespace

const Format kIgArchiveFormat = {
    .name = "igarchive",
    .description = "Alchemy igArchive (.bld .pak .arc)",
    .identify = igarchive::identify_input,
    .info = info,
    .list = list,
    .verify = verify,
    .extract = extract,
    .write_samples = igarchive::write_sample_files,
    .list_columns = {"index", "size", "compression", "blocks", "offset", "name"},
    .edit = igarchive::edit_format,
};

}  // namespace assay
