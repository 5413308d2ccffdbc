// The warriors family descriptor (include/assay/family.h): discs (folder, DIR file or ISO) and
// loose chunk containers. spec: warriors.md#wr-1-2, #wr-3.
#include "assay/family.h"

#include "assay/formats/warriors/edit.h"
#include "family_parts.h"
#include "formats/serialise.h"

namespace assay {

namespace {

void verify_unopened(const OpenContext& ctx, Diagnostics& out) {
  warriors::verify_input(ctx.input, ctx.siblings, ctx.options.read_options(), out);
}

}  // namespace

const Family kWarriorsFamily = {
    .name = "warriors",
    .description = "The Warriors WARRIORS.DIR/.WAD (folder, DIR file or ISO) and chunk containers",
    .identify = warriors::identify_input,
    .open = open_warriors_container,
    .verify_unopened = verify_unopened,
    .write_samples = warriors::write_sample_files,
    .list_columns = {"index", "file", "offset", "size", "kind"},
    .edit = edit_document<warriors::edit_format>,
};

}  // namespace assay
