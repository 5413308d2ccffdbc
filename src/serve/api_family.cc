// The family views of `assay serve` (docs/serve.md#api): an Oni instance with its links, and
// the Warriors loader's trace. Both reuse the family libraries the CLI verbs call.
#include <fmt/format.h>

#include <filesystem>

#include "api.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/warriors/warriors.h"

namespace assay::serve {

namespace fs = std::filesystem;

namespace {

// Where a link target can be opened in the viewer: this file when it holds the target's data,
// else level0_Final.dat beside it (spec: oni.md#oni-7-1: names left as placeholders in level N
// are found in level 0). Empty when neither applies.
std::string target_path(const oni::LoadedFile& f, const Target& t, bool root_is_folder, std::uint32_t target) {
  if (f.has_data.size() > target && f.has_data[target] != 0) return fmt::format("{}::#{}", t.file_spec, target);
  const std::string_view name = f.names.size() > target ? f.names[target] : std::string_view{};
  if (name.empty() || f.level() == 0 || !root_is_folder) return {};
  std::error_code ec;
  if (!fs::is_regular_file(t.real.parent_path() / "level0_Final.dat", ec)) return {};
  const auto slash = t.file_spec.find_last_of('/');
  if (slash == std::string::npos) return {};
  return t.file_spec.substr(0, slash + 1) + "level0_Final.dat::" + std::string(name);
}

Json link_json(const oni::LoadedFile& f, const oni::Link& l, const Target& t, bool root_is_folder) {
  const std::uint32_t n = f.file.instance_count();
  Json j{{"offset", l.offset}, {"target", l.target}, {"bad", l.bad}};
  if (l.target < n) {
    j["tag"] = oni::tag_string(f.file.descriptor(l.target).tag);
    j["name"] = f.names.size() > l.target ? Json(std::string(f.names[l.target])) : Json(nullptr);
    const std::string p = l.bad ? std::string() : target_path(f, t, root_is_folder, l.target);
    j["path"] = p.empty() ? Json(nullptr) : Json(p);
  }
  return j;
}

}  // namespace

void Api::oni(const httplib::Request&, httplib::Response& res, const Target& t) {
  if (t.inner.size() != 1) return send_error(res, 400, "usage", "path must be LEVEL_FILE::INSTANCE");
  auto r = entry_of(t);
  if (!r) return send_error(res, r.error());
  if (r->container->format() != "oni") return send_error(res, 400, "usage", "not an Oni level file");
  // The level as its container walked it: a level inside an archive takes its .raw/.sep and
  // layouts from beside it there, as extract does.
  auto walked = oni::walked_file(*r->container);
  if (!walked) return send_error(res, walked.error());
  const oni::LoadedFile* f = *walked;
  const auto index = static_cast<std::uint32_t>(r->entry->index);
  const bool folder = roots_[t.root].is_directory;
  Json links = Json::array(), linked_by = Json::array();
  for (const oni::WalkedInstance& w : f->walked) {
    if (w.index != index) continue;
    for (std::uint64_t k = w.first_link; k < std::uint64_t{w.first_link} + w.link_count && k < f->links.size(); ++k)
      links.push_back(link_json(*f, f->links[k], t, folder));
  }
  for (const oni::Link& l : f->links)  // who points here (the reverse edges)
    if (l.target == index && !l.bad && linked_by.size() < 1000)
      linked_by.push_back({{"instance", l.instance}, {"offset", l.offset},
                           {"path", fmt::format("{}::#{}", t.file_spec, l.instance)}});
  Json out = entry_json(*r->entry);
  out["file"] = t.file_spec;
  out["links"] = std::move(links);
  out["linked_by"] = std::move(linked_by);
  send_json(res, normalise_json(std::move(out)));
}

void Api::warriors(const httplib::Request&, httplib::Response& res, const Target& t) {
  // warriors::load_spec takes FILE or DISC:NAME / DISC:0xHASH.
  std::string spec = t.real.native();
  if (t.inner.size() == 1) {
    auto r = entry_of(t);
    if (!r) return send_error(res, r.error());
    if (r->container->format() != "warriors") return send_error(res, 400, "usage", "not a Warriors disc entry");
    const Entry& e = *r->entry;
    if (e.details.contains("hash") && e.details["hash"].is_number_unsigned())
      spec += fmt::format(":0x{:08x}", e.details["hash"].get<std::uint32_t>());
    else if (e.name)
      spec += ":" + *e.name;
    else
      return send_error(res, 400, "usage", "the entry has neither a name nor a hash");
  } else if (!t.inner.empty() || t.is_directory) {
    return send_error(res, 400, "usage", "path must be a Warriors container file or DISC::ENTRY");
  }
  auto j = warriors::load_spec(spec, warriors::ContainerShape::automatic, opt_.read_options());
  if (!j) {
    Error e = j.error();
    e.file = t.file_spec;  // not the real path
    return send_error(res, e);
  }
  (*j)["file"] = t.file_spec;
  send_json(res, normalise_json(std::move(*j)));
}

}  // namespace assay::serve
