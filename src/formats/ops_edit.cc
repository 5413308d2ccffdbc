// Changes that name a file inside the edited container (MEMBER::NAME): the member's own family
// edits it, and the container gets a replace of MEMBER with the result (include/assay/ops.h).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <map>

#include "assay/core/folder.h"
#include "assay/core/input.h"
#include "assay/family.h"
#include "assay/formats/edit_input.h"
#include "assay/ops.h"
#include "formats/serialise.h"

namespace assay {

namespace fs = std::filesystem;

namespace {

// Split at the first "::": the member, then the name inside it.
std::pair<std::string, std::string> split_nested(const std::string& name) {
  const auto at = name.find("::");
  return {name.substr(0, at), name.substr(at + 2)};
}

// One member's changes applied by its family, written to `out`.
Result<void> edit_member(const Container& outer, const std::string& member, std::vector<EditChange> changes,
                         const EditRequest& req, const fs::path& out) {
  const Entry* e = outer.find(member);
  if (e == nullptr) return usage_error(fmt::format("{}: no member named '{}'", outer.input().name, member));
  ASSAY_TRY(Input inner, outer.read(*e));
  inner.name = outer.input().name + "::" + member;
  inner.path.clear();
  const Family* f = identify_family(inner);
  if (f == nullptr || f->edit == nullptr)
    return usage_error(fmt::format("{}: {} cannot be edited by name inside it", inner.name, f ? f->name : "an unrecognised file"));
  EditRequest r;
  r.changes = std::move(changes);
  r.output = out;
  r.force = true;
  r.read = req.read;
  ASSAY_CHECK(f->edit(inner, r));
  return {};
}

}  // namespace

NestedEdit::~NestedEdit() {
  std::error_code ec;
  if (!folder.empty()) fs::remove_all(folder, ec);
}

Result<void> fold_nested_changes(const Input& in, EditRequest& req, NestedEdit& scratch) {
  const auto nested = [](const EditChange& c) { return c.name.find("::") != std::string::npos; };
  if (std::none_of(req.changes.begin(), req.changes.end(), nested)) return {};
  std::map<std::string, std::vector<EditChange>> by_member;
  std::vector<EditChange> kept;
  for (EditChange& c : req.changes) {
    if (!nested(c)) {
      kept.push_back(std::move(c));
      continue;
    }
    if (c.op != EditOp::replace) return usage_error(fmt::format("{}: only replace reaches inside a member", c.name));
    auto [member, inner] = split_nested(c.name);
    const auto src = req.read.family.find(edit_source_key(c.name));
    if (src != req.read.family.end()) {
      req.read.family[edit_source_key(inner)] = src->second;  // messages name the FILE
      if (c.data.empty()) {
        ASSAY_TRY(c.data, read_regular_file(src->second));
      }
    }
    c.name = inner;
    by_member[member].push_back(std::move(c));
  }
  ASSAY_TRY(const ContainerOptions opt, container_options(req.read));
  ASSAY_TRY(std::unique_ptr<Container> outer, open(Input(in), opt));
  static std::atomic<unsigned> serial{0};
  scratch.folder = fs::temp_directory_path() / fmt::format("assay-nested-{}-{}", ::getpid(), serial++);
  std::error_code ec;
  fs::create_directories(scratch.folder, ec);
  if (ec) return io_error(scratch.folder.string(), ec.message());
  unsigned k = 0;
  for (auto& [member, changes] : by_member) {
    const fs::path out = scratch.folder / std::to_string(k++);
    ASSAY_CHECK(edit_member(*outer, member, std::move(changes), req, out));
    ASSAY_TRY(ByteBuffer bytes, read_regular_file(out.string()));
    EditChange r;
    r.op = EditOp::replace;
    r.name = member;
    r.data = std::move(bytes);
    req.read.family[edit_source_key(member)] = out.string();
    kept.push_back(std::move(r));
  }
  req.changes = std::move(kept);
  return {};
}

}  // namespace assay
