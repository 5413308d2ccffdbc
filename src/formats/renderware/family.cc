// The renderware family descriptor (include/assay/family.h). spec: renderware.md; docs/cli.md
// "### renderware" documents its JSON.
#include "assay/family.h"

#include "assay/formats/renderware/edit.h"
#include "stream.h"
#include "json.h"
#include "formats/serialise.h"

namespace assay {

namespace {

// A stream that does not open: every problem verify finds in it.
void verify_unopened(const OpenContext& ctx, Diagnostics& out) {
  rw::detail::verify_input(ctx.input, ctx.options.progress, out);
}

}  // namespace

const Family kRenderWareFamily = {
    .name = "renderware",
    .description = "RenderWare binary stream (.txd .dff)",
    .identify = rw::detail::identify,
    .open = open_renderware_container,
    .verify_unopened = verify_unopened,
    .write_samples = rw::detail::write_samples,
    .list_columns = {"index", "name", "platform", "width", "height", "depth", "format", "mips", "triangles",
                     "vertices"},
    .edit = edit_document<rw::edit_format>,  // texture dictionaries: edit.cc
};

}  // namespace assay
