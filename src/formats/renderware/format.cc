// The renderware record for the CLI (placeholder until the format lands).
#include "assay/formats/format.h"

namespace assay {

const Format kRenderWareFormat = {
    .name = "renderware",
    .description = "RenderWare binary stream (.txd .dff)",
};

}  // namespace assay
