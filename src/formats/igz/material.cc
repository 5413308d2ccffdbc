// An igz material's textures (material.h).
#include "assay/formats/igz/material.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <deque>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include "assay/core/hash.h"
#include "edge_parts.h"

namespace assay::igz {

namespace {

using detail::field_at;
using detail::or_zero;

// The pointer edges of the file sorted by field, and where each memory block (a pointer target
// that is no object) ends: at the next object or block.
struct Reach {
  std::vector<const Edge*> by_field;
  std::vector<std::uint32_t> starts;  // object and block starts, sorted
  std::unordered_map<std::size_t, std::vector<const ExternalRef*>> externals;  // valid ones, by object

  explicit Reach(const Graph& g) {
    for (const ExternalRef& x : g.externals)
      if (x.valid && x.from != kNoObject) externals[x.from].push_back(&x);
    for (const Edge& e : g.edges) {
      if (!e.valid) continue;
      by_field.push_back(&e);
      if (e.to == kNoObject) starts.push_back(e.target);
    }
    for (const Object& o : g.objects) starts.push_back(o.serialized);
    std::sort(by_field.begin(), by_field.end(), [](const Edge* a, const Edge* b) { return a->field < b->field; });
    std::sort(starts.begin(), starts.end());
  }

  // The edges whose field lies in [begin, end).
  template <class F>
  void edges_in(std::uint32_t begin, std::uint32_t end, F&& f) const {
    auto it = std::lower_bound(by_field.begin(), by_field.end(), begin, [](const Edge* e, std::uint32_t v) { return e->field < v; });
    for (; it != by_field.end() && (*it)->field < end; ++it) f(**it);
  }

  [[nodiscard]] std::uint32_t block_end(std::uint32_t block) const {
    auto it = std::upper_bound(starts.begin(), starts.end(), block);
    return it == starts.end() ? ~std::uint32_t{0} : *it;
  }
};

// Every object reachable from `from` (itself included), in the order first reached. Work and
// memory grow with what is reached, not with the file (a level holds thousands of materials).
std::vector<std::size_t> reachable(const Graph& g, const Reach& r, std::size_t from) {
  std::unordered_set<std::size_t> seen{from};
  std::unordered_set<std::uint32_t> blocks_seen;
  std::vector<std::size_t> out;
  std::deque<std::pair<std::size_t, std::uint32_t>> todo{{from, 0}};  // object, or kNoObject + block
  while (!todo.empty()) {
    const std::size_t object = todo.front().first;  // not a structured binding: clang 14 cannot capture one
    const std::uint32_t block = todo.front().second;
    todo.pop_front();
    std::uint32_t begin = block, end = r.block_end(block);
    if (object != kNoObject) {
      out.push_back(object);
      const Object& o = g.objects[object];
      begin = o.serialized, end = o.serialized + std::max<std::uint32_t>(o.size, 4);
    }
    r.edges_in(begin, end, [&](const Edge& e) {
      if (object != kNoObject ? e.from != object : e.from != kNoObject) return;
      if (e.to != kNoObject) {
        // Another material is a boundary: its binds are its own (a material animation or list
        // may point from one material to another).
        if (seen.insert(e.to).second && !MaterialReader::is_material_type(g.objects[e.to].type_name)) todo.emplace_back(e.to, 0);
      } else if (blocks_seen.insert(e.target).second) {
        todo.emplace_back(kNoObject, e.target);
      }
    });
  }
  return out;
}

std::uint32_t u32_field(const IgzFile& f, const Object& o, std::uint32_t field, std::uint32_t absent) {
  const auto pos = field_at(f, o, field, 4);
  return pos ? or_zero(f.reader().u32(*pos, "igTextureAttr2")) : absent;
}

// The first object a pointer field of `o` names with type `type`.
std::size_t pointed(const Graph& g, const Reach& r, std::size_t o, std::string_view type) {
  std::size_t found = kNoObject;
  const Object& ob = g.objects[o];
  r.edges_in(ob.serialized, ob.serialized + std::max<std::uint32_t>(ob.size, 4), [&](const Edge& e) {
    if (found == kNoObject && e.from == o && e.to != kNoObject && g.objects[e.to].type_name == type) found = e.to;
  });
  return found;
}

// The igTextureAttr2's _imageHandle: its EXID, or an EXNM named handle.
void image_handle(const Fixups& fx, const Reach& r, std::size_t attr, TextureBinding& b) {
  const auto it = r.externals.find(attr);
  if (it == r.externals.end()) return;
  for (const ExternalRef* p : it->second) {
    const ExternalRef& x = *p;
    if (x.kind == "exid" && x.index < fx.external_ids.size()) {
      b.namespace_hash = fx.external_ids[x.index].namespace_hash, b.name_hash = fx.external_ids[x.index].name_hash;
    } else if (auto h = handle_hashes(x.name)) {
      b.namespace_hash = h->name_space, b.name_hash = h->name;
    } else {
      continue;
    }
    const Dependency* d = dependency_for(fx, b.namespace_hash);
    b.image = x.kind == "exid" && d ? fmt::format("{}::{:08x}", d->name_space, b.name_hash) : x.name;
    if (d) b.file = std::string(dependency_file(d->path));
    return;
  }
}

TextureBinding binding(const IgzFile& f, const Fixups& fx, const Graph& g, const Reach& r, std::size_t bind) {
  const std::uint32_t header = 2 * f.header().pointer_size;  // igObject: vtable, reference count
  TextureBinding b;
  b.object = bind;
  if (const auto pos = field_at(f, g.objects[bind], header, 2))
    b.unit = static_cast<std::int16_t>(or_zero(f.reader().u16(*pos, "igAttr::_cachedUnitID")));
  const std::size_t attr = pointed(g, r, bind, "igTextureAttr2");
  if (attr == kNoObject) return b;
  const Object& a = g.objects[attr];
  b.mag_filter = u32_field(f, a, header + 0x10, 1), b.min_filter = u32_field(f, a, header + 0x14, 1);
  b.wrap_s = u32_field(f, a, header + 0x18, 1), b.wrap_t = u32_field(f, a, header + 0x1C, 1);
  image_handle(fx, r, attr, b);
  return b;
}

std::optional<std::uint32_t> hex_hash(std::string_view s) {
  std::uint32_t v = 0;
  if (s.size() != 8) return std::nullopt;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v, 16);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::optional<std::size_t> named_object(const Graph& g, std::uint32_t name_hash) {
  for (std::size_t i = 0; i < g.names.size() && i < g.root_list.size(); ++i)
    if (g.names[i].hash == name_hash && g.root_list[i] != kNoObject) return g.root_list[i];
  return std::nullopt;
}

struct MaterialReader::Edges : Reach {
  using Reach::Reach;
};

MaterialReader::MaterialReader(const IgzFile& f, const Fixups& fx, const Graph& g)
    : f_(f), fx_(fx), g_(g), edges_(std::make_unique<Edges>(g)) {}
MaterialReader::~MaterialReader() = default;

MaterialTextures MaterialReader::read(std::size_t material) const {
  MaterialTextures m;
  if (material >= g_.objects.size()) return m;
  m.object = material;
  m.type = std::string(g_.objects[material].type_name);
  for (std::size_t o : reachable(g_, *edges_, material))
    if (g_.objects[o].type_name == "igTextureBindAttr2") m.bindings.push_back(binding(f_, fx_, g_, *edges_, o));
  std::stable_sort(m.bindings.begin(), m.bindings.end(), [](const TextureBinding& a, const TextureBinding& b) {
    return (a.unit < 0 ? 0x10000 : a.unit) < (b.unit < 0 ? 0x10000 : b.unit);
  });
  return m;
}

MaterialTextures material_textures(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t material) {
  return MaterialReader(f, fx, g).read(material);
}

bool MaterialReader::is_material_type(std::string_view type) {
  constexpr std::string_view kSuffix = "Material";
  return type.size() >= kSuffix.size() && type.substr(type.size() - kSuffix.size()) == kSuffix;
}

std::string_view dependency_file(std::string_view path) {
  const auto cut = path.find_last_of(":/\\");
  return cut == std::string_view::npos ? path : path.substr(cut + 1);
}

const Dependency* dependency_for(const Fixups& fx, std::uint32_t namespace_hash) {
  for (const Dependency& d : fx.dependencies)
    if (fnv1a32(d.name_space, true) == namespace_hash) return &d;
  return nullptr;
}

std::optional<HandleHashes> handle_hashes(std::string_view handle) {
  const auto sep = handle.find("::");
  if (sep == std::string_view::npos) return std::nullopt;
  const auto hash = [](std::string_view part) { return hex_hash(part).value_or(fnv1a32(part, true)); };
  return HandleHashes{hash(handle.substr(0, sep)), hash(handle.substr(sep + 2))};
}

}  // namespace assay::igz
