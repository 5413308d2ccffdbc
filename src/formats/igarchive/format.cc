// The igarchive record for the CLI (placeholder until the format lands).
#include "assay/formats/format.h"

namespace assay {

const Format kIgArchiveFormat = {
    .name = "igarchive",
    .description = "Alchemy igArchive (.bld .pak .arc)",
};

}  // namespace assay
