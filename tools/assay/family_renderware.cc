// CLI verbs specific to renderware (pack, family subcommands, hash algorithms, option hooks).
#include "cli.h"

namespace assay::cli {

void register_renderware(Cli& cli) { (void)cli; }

}  // namespace assay::cli
