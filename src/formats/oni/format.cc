// The oni record for the CLI (placeholder until the format lands).
#include "assay/formats/format.h"

namespace assay {

const Format kOniFormat = {
    .name = "oni",
    .description = "Oni instance file (.dat/.raw/.sep, .oni)",
};

}  // namespace assay
