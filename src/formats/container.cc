// Container dispatch: which family opens an input, A::B::C paths, Container::open and
// verify --deep over an open container (each inner file read once from the parsed container).
#include <fmt/format.h>

#include <cctype>
#include <system_error>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/ops.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "dispatch.h"

namespace assay {

namespace {

Error unrecognised(const Input& in) { return unrecognised_error(in.name); }

Error no_entry(const Container& c, std::string_view name) {
  const std::string near = suggest_entry(c, name);
  Error e = make_error(c.format(), "", kNoOffset,
                       near.empty() ? fmt::format("no entry named '{}' (`assay list {}` shows the names)", name, c.input().name)
                                    : fmt::format("no entry named '{}'; did you mean '{}'?", name, near));
  e.file = c.input().name;
  e.kind = ErrorKind::usage;
  return e;
}

// Splits "A::B::C" into its file part and inner names. A real file named with "::" wins, and
// so does the longest existing prefix (a folder or file whose own name has "::").
std::vector<std::string> split_spec(const std::string& spec) {
  std::error_code ec;
  std::vector<std::string> parts;
  std::size_t start = 0;
  // the file part: the longest prefix ending before a "::" that exists on disk
  std::size_t file_end = spec.size();
  if (!std::filesystem::exists(spec, ec)) {
    file_end = std::string::npos;
    for (std::size_t p = spec.find("::"); p != std::string::npos; p = spec.find("::", p + 1))
      if (p > 0 && std::filesystem::exists(spec.substr(0, p), ec)) file_end = p;  // the longest
    if (file_end == std::string::npos) file_end = std::min(spec.find("::"), spec.size());
  }
  parts.push_back(spec.substr(0, file_end));
  start = file_end;
  while (start < spec.size()) {
    start += 2;  // skip "::"
    std::size_t next = spec.find("::", start);
    if (next == std::string::npos) next = spec.size();
    parts.push_back(spec.substr(start, next - start));
    start = next;
  }
  return parts;
}

}  // namespace

Result<std::unique_ptr<Container>> open(Input in, const ContainerOptions& opt, std::string_view family,
                                        const Siblings& siblings) {
  const Family* f = family.empty() ? detail::identify_in_registry(in) : find_family(family);
  if (f == nullptr) {
    if (!family.empty()) return usage_error(fmt::format("unknown format '{}' (`assay formats` lists them)", family));
    return unrecognised(in);
  }
  const std::string name = in.name;
  auto c = f->open(OpenContext{std::move(in), opt, siblings});
  if (!c) return c.error().in_file(name);  // every open error names the file
  return c;
}

Result<std::unique_ptr<Container>> open(Input in, const ContainerOptions& opt, std::string_view family) {
  const std::unique_ptr<Siblings> siblings = folder_siblings(in);
  return open(std::move(in), opt, family, *siblings);
}

namespace {

Result<std::unique_ptr<Container>> open_entry_in_registry(const Container& parent, const Entry& e, Input in,
                                                          const ContainerOptions& opt) {
  const std::unique_ptr<Siblings> siblings = entry_siblings(parent, e);
  return open(std::move(in), opt, {}, *siblings);
}

// The families reach the registry through these (src/formats/dispatch.h).
const bool kDispatchInstalled = [] {
  detail::install_dispatch({&open_entry_in_registry, &detail::identify_in_registry});
  return true;
}();

}  // namespace

Result<Input> resolve_path(const std::string& spec, const ContainerOptions& opt) {
  const std::vector<std::string> parts = split_spec(spec);
  ASSAY_TRY(Input in, Input::open(parts[0]));
  std::unique_ptr<Container> parent;
  const Entry* from = nullptr;  // the entry `in` was read from (its siblings are parent's entries)
  for (std::size_t k = 1; k < parts.size(); ++k) {
    auto c = from == nullptr ? assay::open(std::move(in), opt) : open_entry_in_registry(*parent, *from, std::move(in), opt);
    if (!c) return std::move(c).error();
    const Entry* e = (*c)->find(parts[k]);
    if (e == nullptr) return no_entry(**c, parts[k]);
    ASSAY_TRY(in, (*c)->read(*e));
    parent = std::move(*c);
    from = e;
    std::string name = parts[0];
    for (std::size_t j = 1; j <= k; ++j) name += "::" + parts[j];
    in.name = std::move(name);
  }
  return in;
}

Result<ResolvedInput> resolve_with_siblings(const std::string& spec, const ContainerOptions& opt) {
  const std::vector<std::string> parts = split_spec(spec);
  if (parts.size() == 1) {
    ASSAY_TRY(Input in, Input::open(parts[0]));
    std::unique_ptr<Siblings> siblings = folder_siblings(in);
    return ResolvedInput{std::move(in), nullptr, std::move(siblings)};
  }
  std::string parent_spec = parts[0];
  for (std::size_t k = 1; k + 1 < parts.size(); ++k) parent_spec += "::" + parts[k];
  ASSAY_TRY(std::unique_ptr<Container> parent, open_path(parent_spec, opt));
  const Entry* e = parent->find(parts.back());
  if (e == nullptr) return no_entry(*parent, parts.back());
  ASSAY_TRY(Input in, parent->read(*e));
  in.name = parent_spec + "::" + parts.back();
  std::unique_ptr<Siblings> siblings = entry_siblings(*parent, *e);
  return ResolvedInput{std::move(in), std::move(parent), std::move(siblings)};
}

Result<std::unique_ptr<Container>> open_path(const std::string& spec, const ContainerOptions& opt) {
  const std::vector<std::string> parts = split_spec(spec);
  ASSAY_TRY(Input in, Input::open(parts[0]));
  ASSAY_TRY(std::unique_ptr<Container> c, assay::open(std::move(in), opt));
  std::string name = parts[0];
  for (std::size_t k = 1; k < parts.size(); ++k) {
    const Entry* e = c->find(parts[k]);
    if (e == nullptr) return no_entry(*c, parts[k]);
    name += "::" + parts[k];
    // An inner file no family claims is refused from its first bytes, not decoded whole first.
    ASSAY_TRY(bool maybe, c->may_hold_format(*e));
    if (!maybe) return unrecognised(Input::from_buffer(name, ByteBuffer{}));
    ASSAY_TRY(Input inner, c->read(*e));
    inner.name = name;
    ASSAY_TRY(c, open_entry_in_registry(*c, *e, std::move(inner), opt));
  }
  return c;
}

std::string unrecognised_hint(const Input& in) {
  std::string base = std::filesystem::path(in.name).filename().string();
  if (base.empty()) base = std::filesystem::path(in.name).parent_path().filename().string();
  std::string upper = base;
  for (char& ch : upper) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (in.is_directory)
    return fmt::format("{} is a folder, and not a Warriors disc (a disc folder holds WARRIORS.DIR and WARRIORS.WAD); "
                       "give a file, or the disc's folder, DIR file or ISO image",
                       in.name);
  if (upper.ends_with(".WAD"))
    return fmt::format("{} holds the data of a disc and is read with its directory: give the folder, or the DIR file "
                       "beside it (e.g. assay list {})",
                       base, (std::filesystem::path(in.name).parent_path() / "WARRIORS.DIR").string());
  if (in.bytes.empty()) return "the file is empty";
  return {};
}

// ---- verify --deep ----
namespace {

void prefix_into(Diagnostics& out, const Diagnostics& in, const std::string& label) {
  for (Diagnostic d : in.items()) {
    d.where.structure = d.where.structure.empty() ? label : label + ": " + d.where.structure;
    out.add(std::move(d));
  }
}

void verify_entry(const Container& c, const Entry& e, Diagnostics& out, const DeepOptions& opt) {
  const std::string label = e.name ? *e.name : e.path;
  // Not a format we check (known from its first bytes where the family can tell): nothing to say,
  // and nothing decoded whole.
  auto maybe = c.may_hold_format(e);
  if (maybe.ok() && !*maybe) return;
  auto in = c.read(e, 1);
  if (!in) {
    Error err = in.error();
    err.structure = err.structure.empty() || err.structure == label ? label : label + ": " + err.structure;
    out.error(std::move(err));
    return;
  }
  if (detail::identify_in_registry(*in) == nullptr) return;  // not a format we check: nothing to say
  Diagnostics d;
  ContainerOptions o = c.options();
  o.threads = 1;
  o.progress = false;
  auto inner = open_entry_in_registry(c, e, std::move(*in), o);
  if (!inner) {
    d.error(inner.error());
  } else {
    (*inner)->verify(d);
    if (opt.depth > 1) {
      DeepOptions next = opt;
      next.depth -= 1;
      next.threads = 1;
      next.progress = false;
      verify_deep(**inner, d, next);
    }
  }
  prefix_into(out, d, label);
}

}  // namespace

void verify_deep(const Container& c, Diagnostics& out, const DeepOptions& opt) {
  if (opt.depth == 0) return;
  std::vector<const Entry*> nested;
  for (const Entry& e : c.entries())
    if (e.nested) nested.push_back(&e);
  std::vector<Diagnostics> per(nested.size());
  Progress progress("verify --deep", nested.size(), opt.progress);
  parallel_for(nested.size(), opt.threads ? opt.threads : default_threads(), [&](std::size_t i) {
    progress.set_current(nested[i]->name ? *nested[i]->name : nested[i]->path);
    verify_entry(c, *nested[i], per[i], opt);
    progress.advance();
  });
  progress.finish();
  for (const auto& d : per) out.append(d);  // entry order, whatever the thread order
}

}  // namespace assay
