// Internal: the JSON of the family verbs' reports (docs/cli.md), for ops_reports.cc and the front
// ends that print them (the CLI streams `rw tree` row by row). Each is defined in its family's
// json.cc (oni_check_json in oni's, the rw tree rows in renderware's); with_problems in
// ops_reports.cc.
#pragma once

#include "assay/ops.h"
#include "formats/serialise.h"

namespace assay {

// `oni check --json`: {"format", "levels": [...], "all", "problems"} (each problem names its file).
Json oni_check_json(const oni::CheckReport& r);
// A report's JSON with "problems" added (notes left out): igz dump.
Json with_problems(Json j, const Diagnostics& d);
// One row of `rw tree --json`.
Json rw_section_json(const rw::Section& s);
// Where a failed walk stopped: {"message", "offset"}.
Json walk_error_json(const Error& e);

}  // namespace assay
