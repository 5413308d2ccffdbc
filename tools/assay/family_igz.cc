// CLI verbs specific to igz (pack, family subcommands, hash algorithms, option hooks).
#include "cli.h"

namespace assay::cli {

void register_igz(Cli& cli) { (void)cli; }

}  // namespace assay::cli
