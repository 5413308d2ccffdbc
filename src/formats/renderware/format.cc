// The renderware Format record (the string-map API the CLI still calls): the family's own
// functions (family.cc) behind it; extract is the container's (ops.h).
#include "assay/container.h"
#include "assay/formats/format.h"
#include "assay/formats/renderware/edit.h"
#include "assay/ops.h"
#include "stream.h"

namespace assay {

namespace {

Result<std::unique_ptr<Container>> open_container(const Input& in, const ReadOptions& ro) {
  ASSAY_TRY(ContainerOptions opt, container_options(ro));
  return assay::open(in, opt, "renderware");
}

Result<Json> info(const Input& in, const ReadOptions& ro) {
  ASSAY_TRY(auto c, open_container(in, ro));
  return info_json(*c);
}

Result<Json> list(const Input& in, const ReadOptions& ro) {
  ASSAY_TRY(auto c, open_container(in, ro));
  return list_json(*c);
}

void verify(const Input& in, const ReadOptions& ro, Diagnostics& out) { rw::detail::verify_input(in, ro.progress, out); }

Result<ExtractStats> extract(const Input& in, const ReadOptions& ro, const ExtractOptions& x, const OutputDir& dir,
                             Diagnostics& diags) {
  ASSAY_TRY(auto c, open_container(in, ro));
  return assay::extract(*c, x, dir, diags);
}

}  // namespace

const Format kRenderWareFormat = {
    .name = "renderware",
    .description = "RenderWare binary stream (.txd .dff)",
    .identify = rw::detail::identify,
    .info = info,
    .list = list,
    .verify = verify,
    .extract = extract,
    .write_samples = rw::detail::write_samples,
    .list_columns = {"index", "name", "platform", "width", "height", "depth", "format", "mips", "triangles",
                     "vertices"},
    .edit = rw::edit_format,
};

}  // namespace assay
