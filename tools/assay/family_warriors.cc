// CLI verbs specific to warriors (pack, family subcommands, hash algorithms, option hooks).
#include "cli.h"

namespace assay::cli {

void register_warriors(Cli& cli) { (void)cli; }

}  // namespace assay::cli
