// The family verbs' reports (assay/ops.h): oni check, igz dump, rw tree, warriors load.
#include <fmt/format.h>

#include <map>
#include <optional>
#include <system_error>
#include <utility>

#include "igz/json.h"
#include "formats/json_printer.h"
#include "assay/formats/oni/oni.h"
#include "warriors/family_parts.h"
#include "assay/family.h"
#include "assay/ops.h"
#include "formats/ops_json.h"

namespace assay {

namespace fs = std::filesystem;

// ---- oni check ----
Result<oni::CheckReport> oni_check_report(const std::vector<fs::path>& inputs, const ReadOptions& ro, bool progress) {
  if (inputs.empty()) return usage_error("oni check: give a GameDataFolder or level files");
  std::error_code ec;
  const fs::path dir = fs::is_directory(inputs[0], ec) ? inputs[0] : inputs[0].parent_path();
  Diagnostics layout_warnings;
  ASSAY_TRY(oni::LayoutSource layouts, oni::layouts_for(ro.family, dir.empty() ? "." : dir, &layout_warnings));
  ASSAY_TRY(oni::CheckReport r, oni::check_level_set(inputs, layouts, ro.threads, progress));
  r.diags.append(layout_warnings);
  return r;
}

Result<Report> oni_check(const std::vector<fs::path>& inputs, const ReadOptions& ro) {
  ASSAY_TRY(oni::CheckReport r, oni_check_report(inputs, ro));
  Report out{make_document(oni_check_json(r)), std::move(r.diags)};
  return out;
}

// ---- igz dump ----
Json with_problems(Json j, const Diagnostics& d) {
  Json problems = Json::array();
  for (const auto& x : d.items())
    if (x.severity != Severity::note) problems.push_back(problem_json(x));
  j["problems"] = std::move(problems);
  return j;
}

Result<IgzDump> read_igz_dump(const std::string& spec, const ReadOptions& ro) {
  ASSAY_TRY(ContainerOptions co, container_options(ro));
  ASSAY_TRY(Input in, resolve_path(spec, co));  // ARCHIVE::INNER reads the igz from its archive
  const Family* f = identify_family(in);
  if (f == nullptr) return unrecognised_error(in.name);
  if (f->name != "igz") return usage_error(fmt::format("{}: dump reads igz files; this is {}", in.name, f->name));
  return read_igz_dump(std::move(in), ro);
}

Result<IgzDump> read_igz_dump(Input in, const ReadOptions& ro) {
  ASSAY_TRY(igz::OpenOptions opt, igz::open_options(ro));
  Diagnostics diags;
  auto d = igz::read_dump(in.bytes, opt, diags.sink());
  if (!d) return d.error().in_file(in.name);
  return IgzDump{std::move(in), std::move(*d), std::move(diags)};
}

namespace {
Report dump_report(IgzDump d) {
  Json j = detail::printed_json([&](FieldPrinter& p) { igz::print_dump(d.dump, p); });
  return Report{make_document(std::move(j)), std::move(d.diags)};
}
}  // namespace

Result<Report> igz_dump(const std::string& spec, const ReadOptions& ro) {
  ASSAY_TRY(IgzDump d, read_igz_dump(spec, ro));
  return dump_report(std::move(d));
}

Result<Report> igz_dump(const Input& in, const ReadOptions& ro) {
  ASSAY_TRY(IgzDump d, read_igz_dump(in, ro));
  return dump_report(std::move(d));
}

// ---- rw tree ----
Result<Report> rw_tree(const std::string& spec) {
  ASSAY_TRY(Input in, resolve_path(spec));
  Report r;
  Json sections = Json::array();
  auto w = rw::walk_each(in.bytes, 0, r.diags.sink(), {}, [&](const rw::Section& s) { sections.push_back(rw_section_json(s)); });
  Json j = {{"format", "renderware"}, {"file", in.name}, {"sections", std::move(sections)}};
  if (w) {
    j["stream_end"] = w->stream_end;
    j["padding"] = w->padding;
    j["max_depth"] = w->max_depth;
  } else {
    j["error"] = walk_error_json(w.error());
    r.failed = true;
  }
  Json problems = Json::array();  // notes too, as `rw tree --json` prints them
  for (const auto& d : r.diags.items()) problems.push_back(problem_json(d));
  j["problems"] = std::move(problems);
  r.document = make_document(normalise_json(std::move(j)));
  return r;
}

// ---- warriors load ----
namespace {

// Where the disc part of a load spec ends and its selector starts: at the last separator, "::"
// or a single ':' (DISC:NAME; A::B:NAME for a disc inside a container); nullopt when none.
std::optional<std::pair<std::size_t, std::size_t>> load_selector_split(const std::string& spec) {
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0) return std::nullopt;
  if (spec[colon - 1] != ':') return std::pair{colon, colon + 1};
  if (colon == 1) return std::nullopt;
  return std::pair{colon - 1, colon + 1};
}

}  // namespace

Result<warriors::LoadReport> warriors_load_report(const std::string& spec, LoadShape shape, const ReadOptions& ro) {
  const auto wshape = shape == LoadShape::flat      ? warriors::ContainerShape::flat
                      : shape == LoadShape::grouped ? warriors::ContainerShape::grouped
                                                    : warriors::ContainerShape::automatic;
  ASSAY_TRY(const ContainerOptions co, container_options(ro));
  std::error_code ec;
  // DISC::NAME like every verb, DISC:NAME, DISC::0xHASH: DISC a folder, a file or an inner file
  // A::B (whose WAD is then the container's entry beside it).
  if (const auto split = load_selector_split(spec); split && !fs::exists(spec, ec)) {
    auto disc = resolve_with_siblings(spec.substr(0, split->first), co);
    if (disc && warriors::looks_like_disc(disc->input))
      return warriors::load_disc_entry(disc->input, *disc->siblings, spec, spec.substr(split->second), wshape, ro);
    if (!disc && split->second == split->first + 1) return std::move(disc).error();  // DISC:NAME, DISC unread
  }
  // A container file, or an inner file A::B that is one.
  ASSAY_TRY(const ResolvedInput whole, resolve_with_siblings(spec, co));
  if (whole.input.is_directory || warriors::looks_like_disc(whole.input))
    return usage_error(fmt::format("{}: expected DISC:NAME, DISC:0xHASH or a container file", spec));
  return warriors::load_container_input(whole.input, spec, wshape);
}

Result<Report> warriors_load(const std::string& spec, LoadShape shape, const ReadOptions& ro) {
  ASSAY_TRY(const warriors::LoadReport x, warriors_load_report(spec, shape, ro));
  Report r;
  r.failed = !x.ok();
  r.document = make_document(detail::printed_json([&](FieldPrinter& p) { warriors::print_load_report(x, p); }));
  return r;
}

Result<Report> warriors_classify(const Input& disc, const ReadOptions& ro) {
  ASSAY_TRY(Json j, warriors::classify_disc(disc, ro));
  Report r;
  r.document = make_document(std::move(j));
  return r;
}

Result<Report> warriors_classify(const std::string& spec, const ReadOptions& ro) {
  ASSAY_TRY(const ContainerOptions co, container_options(ro));
  ASSAY_TRY(const ResolvedInput disc, resolve_with_siblings(spec, co));
  ASSAY_TRY(Json j, warriors::classify_disc(disc.input, *disc.siblings, ro));
  Report r;
  r.document = make_document(std::move(j));
  return r;
}

}  // namespace assay
