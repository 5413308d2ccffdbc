#include "assay/formats/edit_target.h"

namespace assay {

namespace fs = std::filesystem;

Result<fs::path> edit_target(const Input& in, const EditRequest& req) {
  if (req.in_place) {
    if (in.path.empty()) return usage_error(in.name + ": an inner file cannot be edited in place; use -o OUT");
    if (in.is_directory) return usage_error(in.name + ": a folder cannot be edited in place; use -o OUT");
    std::error_code ec;
    fs::path p = fs::canonical(in.path, ec);
    return ec ? in.path : p;
  }
  if (req.output.empty()) return usage_error("give -o OUT or --in-place");
  std::error_code ec;
  if (!in.path.empty() && fs::exists(req.output, ec) && fs::equivalent(req.output, in.path, ec))
    return usage_error(req.output.string() + " is the input; use --in-place to rewrite it");
  return req.output;
}

}  // namespace assay
