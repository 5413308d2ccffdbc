// The igz record for the CLI (placeholder until the format lands).
#include "assay/formats/format.h"

namespace assay {

const Format kIgzFormat = {
    .name = "igz",
    .description = "Alchemy igz object file",
};

}  // namespace assay
