// The family views of `assay serve` (docs/serve.md#api): an Oni instance with its links, and
// the Warriors loader's trace. Both reuse the family libraries the CLI verbs call.
#include <fmt/format.h>

#include <filesystem>

#include "api.h"
#include "assay/ops.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "formats/serialise.h"

namespace assay::serve {

namespace fs = std::filesystem;

namespace {

// Level 0 of a level N's set (spec: oni.md#oni-7-1): level0_Final.dat in the same folder, or for
// a level inside a container that container's entry of that name; nullopt for level 0 itself or
// when there is none.
std::optional<Target> level0_of(const Target& t, const oni::LoadedFile& f, bool root_is_folder) {
  if (f.level() == 0) return std::nullopt;
  Target l0 = t;
  l0.inner.pop_back();  // the instance
  if (!l0.inner.empty()) {
    l0.inner.back() = "level0_Final.dat";
    return l0;
  }
  std::error_code ec;
  const auto slash = t.file_spec.find_last_of('/');
  if (!root_is_folder || slash == std::string::npos || !fs::is_regular_file(t.real.parent_path() / "level0_Final.dat", ec))
    return std::nullopt;
  l0.real = t.real.parent_path() / "level0_Final.dat";
  l0.file_spec = t.file_spec.substr(0, slash + 1) + "level0_Final.dat";
  return l0;
}

std::string spec_of(const Target& t) {
  std::string spec = t.file_spec;
  for (const std::string& s : t.inner) spec += "::" + s;
  return spec;
}

// Where a link target opens in the viewer, by the engine's rule (spec: oni.md#oni-7-1, seed:
// TMrLevel_Load): a named target is level 0's instance when level 0 has data for the name (its copy
// wins, placeholders passed over), else this file's when it has the data; an unnamed one is this
// file's. Empty when the data is nowhere at hand.
struct LinkPaths {
  const oni::LoadedFile& f;
  std::string level;                    // this level's path
  std::optional<std::string> level0;    // level 0's path
  const Container* level0_container = nullptr;

  std::string operator()(std::uint32_t target) const {
    const std::string_view name = f.names.size() > target ? f.names[target] : std::string_view{};
    const bool here = f.has_data.size() > target && f.has_data[target] != 0;
    if (!name.empty() && level0_container != nullptr) {
      const Entry* e = level0_container->find(name);
      if (e != nullptr && e->size) return *level0 + "::" + std::string(name);
    }
    return here ? fmt::format("{}::#{}", level, target) : std::string();
  }
};

Json link_json(const oni::LoadedFile& f, const oni::Link& l, const LinkPaths& paths) {
  const std::uint32_t n = f.file.instance_count();
  Json j{{"offset", l.offset}, {"target", l.target}, {"bad", l.bad}};
  if (l.target < n) {
    j["tag"] = oni::tag_string(f.file.descriptor(l.target).tag);
    j["name"] = f.names.size() > l.target ? Json(std::string(f.names[l.target])) : Json(nullptr);
    const std::string p = l.bad ? std::string() : paths(l.target);
    j["path"] = p.empty() ? Json(nullptr) : Json(p);
  }
  return j;
}

}  // namespace

void Api::oni(const httplib::Request&, httplib::Response& res, const Target& t) {
  if (t.inner.empty()) return send_error(res, 400, "usage", "path must be LEVEL_FILE::INSTANCE");
  auto r = entry_of(t);
  if (!r) return send_error(res, r.error());
  if (r->container->format() != "oni") return send_error(res, 400, "usage", "not an Oni level file");
  // The level as its container walked it: a level inside an archive takes its .raw/.sep and
  // layouts from beside it there, as extract does.
  auto walked = oni::walked_file(*r->container);
  if (!walked) return send_error(res, walked.error());
  const oni::LoadedFile* f = *walked;
  const auto index = static_cast<std::uint32_t>(r->entry->index);
  Target level = t;
  level.inner.pop_back();
  LinkPaths paths{*f, spec_of(level)};
  std::shared_ptr<const Container> l0;  // kept while the paths are made
  if (auto l0t = level0_of(t, *f, roots_[t.root].is_directory)) {
    auto c = container(*l0t);
    if (c && (*c)->format() == "oni") l0 = *c, paths.level0 = spec_of(*l0t), paths.level0_container = l0.get();
  }
  Json links = Json::array(), linked_by = Json::array();
  for (const oni::WalkedInstance& w : f->walked) {
    if (w.index != index) continue;
    for (std::uint64_t k = w.first_link; k < std::uint64_t{w.first_link} + w.link_count && k < f->links.size(); ++k)
      links.push_back(link_json(*f, f->links[k], paths));
  }
  for (const oni::Link& l : f->links)  // who points here (the reverse edges)
    if (l.target == index && !l.bad && linked_by.size() < 1000)
      linked_by.push_back({{"instance", l.instance}, {"offset", l.offset},
                           {"path", fmt::format("{}::#{}", paths.level, l.instance)}});
  Json out = entry_json(*r->container, *r->entry);
  out["file"] = paths.level;
  out["links"] = std::move(links);
  out["linked_by"] = std::move(linked_by);
  send_json(res, normalise_json(std::move(out)));
}

void Api::warriors(const httplib::Request&, httplib::Response& res, const Target& t) {
  // warriors_load takes FILE or DISC:NAME / DISC:0xHASH.
  std::string spec = t.real.native();
  if (t.inner.size() == 1) {
    auto r = entry_of(t);
    if (!r) return send_error(res, r.error());
    if (r->container->format() != "warriors") return send_error(res, 400, "usage", "not a Warriors disc entry");
    const Entry& e = *r->entry;
    const Json fields = entry_json(*r->container, e);
    if (fields.contains("hash") && fields["hash"].is_number_unsigned())
      spec += fmt::format(":0x{:08x}", fields["hash"].get<std::uint32_t>());
    else if (e.name)
      spec += ":" + *e.name;
    else
      return send_error(res, 400, "usage", "the entry has neither a name nor a hash");
  } else if (!t.inner.empty() || t.is_directory) {
    return send_error(res, 400, "usage", "path must be a Warriors container file or DISC::ENTRY");
  }
  auto r = warriors_load(spec, LoadShape::automatic, opt_.read_options());
  if (!r) {
    Error e = r.error();
    e.file = t.file_spec;  // not the real path
    return send_error(res, e);
  }
  json_of(r->document)["file"] = t.file_spec;
  send_json(res, normalise_json(std::move(json_of(r->document))));
}

}  // namespace assay::serve
