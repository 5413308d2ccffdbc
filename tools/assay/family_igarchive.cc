// CLI verbs specific to igarchive (pack, family subcommands, hash algorithms, option hooks).
#include "cli.h"

namespace assay::cli {

void register_igarchive(Cli& cli) { (void)cli; }

}  // namespace assay::cli
