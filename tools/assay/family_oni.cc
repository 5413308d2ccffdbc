// CLI verbs specific to oni (pack, family subcommands, hash algorithms, option hooks).
#include "cli.h"

namespace assay::cli {

void register_oni(Cli& cli) { (void)cli; }

}  // namespace assay::cli
