// The warriors record for the CLI (placeholder until the format lands).
#include "assay/formats/format.h"

namespace assay {

const Format kWarriorsFormat = {
    .name = "warriors",
    .description = "The Warriors WARRIORS.DIR/.WAD and chunk containers",
};

}  // namespace assay
