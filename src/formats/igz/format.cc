// The igz Format record: the family's functions (family.cc) under the string-map API, and
// extract through the container (Container::write_entry). spec: alchemy.md#igz
#include "assay/container.h"
#include "assay/formats/format.h"
#include "assay/ops.h"
#include "family_parts.h"

namespace assay {

namespace {

Result<std::unique_ptr<Container>> open_igz(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(ContainerOptions co, container_options(opt));
  return open(in, co, "igz");
}

Result<Json> igz_info(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_igz(in, opt));
  return info_json(*c);
}

Result<Json> igz_list(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_igz(in, opt));
  return list_json(*c);
}

void igz_verify(const Input& in, const ReadOptions& opt, Diagnostics& out) {
  auto co = container_options(opt);
  if (!co) return out.error(co.error());
  igz::verify_input(in, *co, out);
}

// Each object's bytes (RVTB order) as <index>_<type>.bin.
Result<ExtractStats> igz_extract(const Input& in, const ReadOptions& opt, const ExtractOptions& x, const OutputDir& dir,
                                 Diagnostics& diags) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_igz(in, opt));
  return assay::extract(*c, x, dir, diags);
}

}  // namespace

const Format kIgzFormat = {
    .name = "igz",
    .description = "Alchemy igz object file",
    .identify = igz::identify_input,
    .info = igz_info,
    .list = igz_list,
    .verify = igz_verify,
    .extract = igz_extract,
    .write_samples = igz::write_sample_files,
    .list_columns = {"index", "offset", "pool", "type", "size"},
};

}  // namespace assay
