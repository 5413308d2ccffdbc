// Internal: the JSON of the family verbs' reports (docs/cli.md), for ops_reports.cc and the front
// ends that print them (the CLI streams `rw tree` row by row). Each is defined in its family's
// json.cc (oni_check_json in oni's, the rw tree rows in renderware's); with_problems in
// ops_reports.cc.
#pragma once

#include <ostream>

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

// `rw tree --json` written as the walk goes, nothing kept but the problems (spec:
// renderware.md#rw-real "Memory"): {"format", "file", "sections": [...], "stream_end",
// "padding", "max_depth" | "error", "problems"}, the same document as rw_tree's.
class RwTreeJsonStream {
 public:
  RwTreeJsonStream(std::ostream& out, std::string_view file);
  void section(const rw::Section& s);
  void problem(const Diagnostic& d);
  void finish(const Result<rw::WalkSummary>& walk);

 private:
  std::ostream& out_;
  bool first_ = true;
  Json problems_ = Json::array();
};

}  // namespace assay
