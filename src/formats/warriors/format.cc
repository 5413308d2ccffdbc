// The warriors family's functions and verbs: disc (DIR/WAD, folder or ISO) and loose
// chunk-container inputs. spec: warriors.md#wr-1-2, #wr-2, #wr-5, #wr-8, #wr-10.
#include "assay/formats/warriors/warriors.h"

#include <fmt/format.h>

#include <mutex>
#include <span>
#include <system_error>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/ops.h"
#include "assay/core/progress.h"
#include "assay/core/thread_pool.h"
#include "assay/formats/warriors/edit.h"
#include "assay/formats/warriors/samples.h"
#include "assay/formats/warriors/writer.h"
#include "family_parts.h"
#include "records.h"

namespace assay::warriors {

namespace {

bool is_loose_container(const Input& in) {
  if (in.is_directory || in.bytes.size() < 32) return false;
  if (records::u32_at(in.bytes, 0).value_or(0) == 0) return false;  // chunk count
  return check_exact_pack(in.bytes).exact || check_exact_resource(in.bytes).exact;
}

int identify(const Input& in) {
  if (looks_like_disc(in)) return 100;
  if (!in.is_directory && records::has_package_marker(in.bytes) && check_exact_pack(in.bytes).exact)
    return 90;
  if (is_loose_container(in)) return 50;  // strict: C1-C7 over the whole file
  // A .lev that breaks C1-C7 (truncated, say) is still ours: open() says what is missing (issue 15 item 5).
  if (!in.is_directory && in.bytes.size() >= 16 && in.path.extension() == ".lev") return 10;
  return 0;
}

struct DiscCtx {
  Disc disc;
  NameTable names;
};

// What the verify rules read: the disc, the names given and each row's kind.
struct DiscRefs {
  const Disc& disc;
  const NameTable& names;
  std::span<const EntryKind> kinds;
};

Result<DiscCtx> open_disc(const Input& in, const Siblings& siblings, const ReadOptions& opt) {
  ASSAY_TRY(Disc d, Disc::open(in, siblings));
  ASSAY_TRY(NameTable n, NameTable::load(opt.names_files));
  return DiscCtx{std::move(d), std::move(n)};
}

EntryKind kind_of(const Disc& disc, const NameTable& names, const DirEntry& e) {
  auto bytes = disc.entry_bytes(e);
  if (!bytes) return EntryKind::other;
  const std::string* n = names.find(e.hash);
  return classify_entry(*bytes, n ? std::optional<std::string_view>(*n) : std::nullopt);
}

Json header_json(const ContainerHeader& h) {
  return Json{{"count", h.count}, {"size", h.size}, {"zero", h.zero}, {"id", h.id}};
}

// A chunk's group: null in a flat container (the record's -1).
Json group_json(std::int32_t group) { return group < 0 ? Json(nullptr) : Json(group); }

unsigned thread_count(const ReadOptions& opt) { return opt.threads ? opt.threads : default_threads(); }


// ---- verify ----
void prefix(Diagnostics& out, const Diagnostics& in, const std::string& label, std::uint64_t base) {
  for (Diagnostic d : in.items()) {
    d.where.structure = d.where.structure.empty() ? label : label + ": " + d.where.structure;
    if (d.where.offset != kNoOffset) d.where.offset += base;
    out.add(std::move(d));
  }
}

bool ends_with_ci(std::string_view s, std::string_view suf) {
  if (s.size() < suf.size()) return false;
  for (std::size_t i = 0; i < suf.size(); ++i) {
    char c = s[s.size() - suf.size() + i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (c != suf[i]) return false;
  }
  return true;
}

// V13: the 18 chunks of spec #wr-6-3 in order, ending with an empty chunk stack and one object.
void check_level_shape(const LoadResult& r, Diagnostics& out) {
  static constexpr std::uint32_t kOrder[18] = {0x53, 0x2A, 0x47, 0x2A, 0x47, 0x2A, 0x47, 0x2A, 0x15,
                                               0x40, 0x52, 0x07, 0x04, 0x05, 0x06, 0x03, 0x17, 0x51};
  bool same = r.chunks.size() == 18;
  for (std::size_t i = 0; same && i < 18; ++i) same = r.chunks[i].header.type == kOrder[i];
  if (!same && r.ok()) out.warning(make_error(kFormat, "level", 0, "V13: chunk order differs from the 18 chunks of spec 6.3"));
  if (r.ok() && (!r.stacks.chunks().empty() || r.stacks.objects().size() != 1))
    out.warning(make_error(kFormat, "level", kNoOffset, "V13: the load does not end with an empty chunk stack and one object"));
}

// V18-V20 over the named streamed-world files (spec #wr-9-2, #wr-9-4).
void verify_worlds(const DiscRefs& c, Diagnostics& out) {
  for (std::uint32_t i = 0; i < c.disc.count(); ++i) {
    const DirEntry e = c.disc.entry(i);
    const std::string* name = c.names.find(e.hash);
    if (name == nullptr || !ends_with_ci(*name, "_sec.mem")) continue;
    auto bytes = c.disc.entry_bytes(e);
    if (!bytes || classify_entry(*bytes) != EntryKind::world_manifest) continue;
    const std::string world = name->substr(0, name->size() - 8);
    const std::string label = entry_label(e, c.names);
    auto w32 = [&](std::uint64_t at) { return records::u32_at(*bytes, at).value_or(0); };  // K5 sized it
    const std::uint32_t parts = w32(8);
    auto size_of = [&](const std::string& n) -> std::optional<std::uint32_t> {
      auto f = c.disc.find(name_hash(n));
      return f ? std::optional<std::uint32_t>(f->size) : std::nullopt;
    };
    if (auto s = size_of(world + "_sec.wld"); s && *s != w32(0))
      out.warning(make_error(kFormat, label, e.offset, fmt::format("V19: worldSize {} but {}_sec.wld is {} bytes", w32(0), world, *s)));
    for (std::uint32_t k = 1; k <= parts; ++k)
      if (auto s = size_of(fmt::format("{}_ms{}.sec", world, k)); s && *s != w32(4 + 8 * k))
        out.warning(make_error(kFormat, label, e.offset + 4 + 8 * k,
                               fmt::format("V19: part {} size {} but {}_ms{}.sec is {} bytes", k, w32(4 + 8 * k), world, k, *s)));
    for (std::uint32_t k = parts + 1, misses = 0; misses < 2; ++k) {  // V20: parts above partCount
      auto f = c.disc.find(name_hash(fmt::format("{}_ms{}.sec", world, k)));
      if (!f) {
        ++misses;
        continue;
      }
      misses = 0;
      out.note(make_error(kFormat, entry_label(*f, c.names), f->offset,
                          fmt::format("V20: world part {} is above the manifest's partCount {}: never loaded", k, parts)));
    }
  }
}

void verify_entry(const DiscRefs& c, const DirEntry& e, const HandlerTable& table, Diagnostics& out) {
  const std::string label = entry_label(e, c.names);
  auto bytes = c.disc.entry_bytes(e);
  if (!bytes) return;  // D5 already reported
  const std::string* name = c.names.find(e.hash);
  const EntryKind kind = c.kinds[e.index];
  auto err = [&](std::string m) { out.error(make_error(kFormat, label, e.offset, std::move(m))); };
  auto warn = [&](std::string m) { out.warning(make_error(kFormat, label, e.offset, std::move(m))); };
  const bool marker = records::has_package_marker(*bytes);
  if (name) {
    const auto expected = kind_from_name(*name);
    if (expected && *expected != kind) {
      if (*expected == EntryKind::resource) err(fmt::format("V2: named {} but not an exact resource ({})", *name, to_string(kind)));
      else if (*expected == EntryKind::pack) err(fmt::format("V1: named {} but not an exact pack: {}", *name, check_exact_pack(*bytes).why));
      else warn(fmt::format("V21: named {} but its structure is {}", *name, to_string(kind)));
    }
  }
  if (name && kind != EntryKind::world_part && ends_with_ci(*name, ".sec") && classify_entry(*bytes) == EntryKind::world_part)
    warn(fmt::format("V18: world part header hash {:08x} is not crc32(\"{}\")", records::u32_at(*bytes, 12).value_or(0), *name));
  if (marker && kind != EntryKind::pack && !(name && kind_from_name(*name) == EntryKind::pack))
    err("V1: carries the pack marker but is not an exact pack: " + check_exact_pack(*bytes).why);
  if (!is_container(kind)) return;
  LoadOptions lo;
  lo.shape = kind == EntryKind::pack ? ContainerShape::grouped : ContainerShape::flat;
  LoadResult r = load_container(*bytes, table, lo);
  Diagnostics local = r.diags;
  if (r.error) local.error(*r.error);
  if (name && name->size() > 4 && ends_with_ci(*name, ".lev")) check_level_shape(r, local);
  prefix(out, local, label, e.offset);
}

void verify_disc_ctx(const DiscRefs& c, const ReadOptions& opt, Diagnostics& out) {
  c.disc.validate(out);
  const std::uint32_t n = c.disc.count();
  const HandlerTable table = HandlerTable::standard();
  Progress progress("verify", n, opt.progress);
  // Blocks of entries keep memory bounded by the problems found, not by the disc.
  constexpr std::uint32_t kBlock = 256;
  for (std::uint32_t b = 0; b < n; b += kBlock) {
    const std::uint32_t m = std::min(kBlock, n - b);
    std::vector<Diagnostics> per(m);
    parallel_for(m, thread_count(opt), [&](std::size_t k) {
      verify_entry(c, c.disc.entry(b + static_cast<std::uint32_t>(k)), table, per[k]);
      progress.advance();
    });
    for (auto& d : per) out.append(d);
  }
  progress.finish();
  verify_worlds(c, out);
}

Result<std::vector<std::string>> write_samples(const std::filesystem::path& dir) {
  const DiscImage d = samples::disc(samples::disc_entries());
  std::error_code ec;
  std::filesystem::create_directories(dir / "warriors", ec);
  if (ec) return io_error((dir / "warriors").string(), ec.message());
  ASSAY_CHECK(write_file_atomic(dir / "warriors" / "WARRIORS.DIR", d.dir, true));
  ASSAY_CHECK(write_file_atomic(dir / "warriors" / "WARRIORS.WAD", d.wad, true));
  ASSAY_CHECK(write_file_atomic(dir / "warriors_level1.lev", samples::level(), true));
  return std::vector<std::string>{"warriors/WARRIORS.DIR", "warriors/WARRIORS.WAD", "warriors_level1.lev"};
}

}  // namespace

// The family's parts (family.cc, container.cc; src/formats/warriors/family_parts.h).
int identify_input(const Input& in) { return identify(in); }

Json disc_info_fields(const Disc& disc) {
  Json j{{"source", to_string(disc.source())}, {"entry_count", disc.count()},
         {"dir_size", disc.dir_bytes().size()}, {"wad_size", disc.wad_bytes().size()}};
  j.update(wad_truncation_fields(disc));
  return j;
}

Result<Json> chunk_info_fields(const Input& in) {
  ByteReader r(in.bytes, Endian::little, kFormat);
  ASSAY_TRY(std::uint32_t count, r.u32(0, "container header"));
  const ExactInfo as_pack = check_exact_pack(in.bytes);
  const bool pack = as_pack.exact;
  const ExactInfo x = pack ? as_pack : check_exact_resource(in.bytes);
  return Json{{"container", pack ? "pack" : "resource"},
              {"header", header_json({count, *r.u32(4, ""), *r.u32(8, ""), *r.u32(12, "")})},
              {"exact", x.exact},
              {"size", in.bytes.size()}};
}

std::vector<EntryKind> classify_entries(const Disc& disc, const NameTable& names, unsigned threads) {
  std::vector<EntryKind> kinds(disc.count(), EntryKind::other);
  parallel_for(kinds.size(), threads ? threads : default_threads(),
               [&](std::size_t i) { kinds[i] = kind_of(disc, names, disc.entry(static_cast<std::uint32_t>(i))); });
  return kinds;
}

void verify_disc(const Disc& disc, const NameTable& names, std::span<const EntryKind> kinds, const ReadOptions& opt,
                 Diagnostics& out) {
  verify_disc_ctx(DiscRefs{disc, names, kinds}, opt, out);
}

void verify_chunks(const Input& in, Diagnostics& out) {
  LoadResult r = load_container(in.bytes, HandlerTable::standard());
  out.append(r.diags);
  if (r.error) out.error(*r.error);
}

void verify_input(const Input& in, const Siblings& siblings, const ReadOptions& opt, Diagnostics& out) {
  if (!looks_like_disc(in)) return verify_chunks(in, out);
  auto c = open_disc(in, siblings, opt);
  if (!c) return out.error(c.error());
  const std::vector<EntryKind> kinds = classify_entries(c->disc, c->names, opt.threads);
  verify_disc_ctx(DiscRefs{c->disc, c->names, kinds}, opt, out);
}
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir) { return write_samples(dir); }

// ---- family verbs ----
Result<Json> classify_disc(const Input& in, const ReadOptions& opt) {
  ASSAY_TRY(DiscCtx c, open_disc(in, *folder_siblings(in), opt));
  const std::uint32_t n = c.disc.count();
  const std::vector<EntryKind> kinds = classify_entries(c.disc, c.names, opt.threads);
  std::array<std::uint64_t, kEntryKindCount> count{}, bytes{};
  for (std::uint32_t i = 0; i < n; ++i) {
    ++count[static_cast<int>(kinds[i])];
    bytes[static_cast<int>(kinds[i])] += c.disc.entry(i).size;
  }
  Json counts = Json::object(), sizes = Json::object();
  for (int k = 0; k < kEntryKindCount; ++k) {
    counts[std::string(to_string(static_cast<EntryKind>(k)))] = count[k];
    sizes[std::string(to_string(static_cast<EntryKind>(k)))] = bytes[k];
  }
  return Json{{"format", kFormat}, {"entry_count", n}, {"counts", counts}, {"bytes", sizes}};
}

Json load_result_json(const LoadResult& r, std::uint64_t base) {
  Json j;
  j["format"] = kFormat;
  j["container"] = to_string(r.shape);  // the loader (as list's "container")
  j["ok"] = r.ok();
  j["header"] = header_json(r.header);
  j["chunks"] = r.chunks.size();
  std::map<std::uint32_t, std::uint64_t> per_type;
  for (const auto& c : r.chunks) ++per_type[c.header.type];
  Json counts = Json::array();
  for (auto [t, n] : per_type) counts.push_back({{"type", t}, {"name", chunk_type_name(t)}, {"count", n}});
  j["chunk_counts"] = counts;
  Json records = Json::array();  // spec: #wr-5-4 step 3: one record per chunk
  for (const auto& c : r.chunks)
    records.push_back({{"index", c.index}, {"group", group_json(c.group)}, {"offset", base + c.offset}, {"type", c.header.type},
                       {"size", c.header.size}, {"zero", c.header.zero}, {"id", c.header.id}, {"stream_read", c.stream_read}});
  j["chunk_records"] = records;
  if (r.shape == ContainerShape::grouped) {
    j["groups"] = r.group_ids.size();
    j["ended_by_zero_group"] = r.ended_by_zero_group;
  }
  Json stack = Json::array();
  for (const auto& c : r.stacks.chunks()) {
    Json s{{"type", c.type}, {"name", chunk_type_name(c.type)}, {"offset", base + c.offset}, {"size", c.data.size()}, {"id", c.id}};
    std::visit([&](const auto& v) {
      using T = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<T, ClumpValue>) s["value"] = {{"kind", "clump"}, {"atomics", v.atomics}, {"stamp", v.section.stamp}};
      else if constexpr (std::is_same_v<T, TexDictValue>) s["value"] = {{"kind", "texture_dictionary"}, {"textures", v.textures}};
      else if constexpr (std::is_same_v<T, WorldValue>) s["value"] = {{"kind", "world"}};
      else if constexpr (std::is_same_v<T, SpritePage>)
        s["value"] = {{"kind", "sprite_page"}, {"rects", v.rects}, {"first_glyph", v.first_glyph}, {"textures", v.dictionary.textures}};
      else s["value"] = nullptr;
    }, c.value);
    stack.push_back(std::move(s));
  }
  j["chunk_stack"] = stack;
  Json objects = Json::array();
  for (const auto& o : r.stacks.objects()) {
    Json oj{{"type", object_kind(o)}};
    std::visit([&](const auto& v) {
      using T = std::decay_t<decltype(v)>;
      if constexpr (std::is_same_v<T, Animation>) oj.update({{"name", v.name}, {"duration", v.duration}, {"channels", v.channels}});
      else if constexpr (std::is_same_v<T, CollisionMesh>)
        oj.update({{"cells", {v.nx, v.ny, v.nz}}, {"triangles", v.triangles}, {"vertices", v.vertices}});
      else if constexpr (std::is_same_v<T, Character>) {
        Json clips = Json::array();
        for (const auto& a : v.clips) clips.push_back(a.name);
        oj.update({{"clips", clips}, {"default_slots", v.default_slots}, {"anim_ranges", v.anim_ranges}});
      } else if constexpr (std::is_same_v<T, WorldObject>) oj["textures"] = v.textures.textures;
      else if constexpr (std::is_same_v<T, GameObjectList>)
        oj.update({{"list_bytes", v.list_bytes}, {"definition_bytes", v.definition_bytes}, {"instance_bytes", v.instance_bytes}});
      else if constexpr (std::is_same_v<T, Level>)
        oj.update({{"triangles", v.mesh.triangles}, {"vertices", v.mesh.vertices}, {"occluders", v.occluders},
                   {"skyline_atomics", v.skyline.atomics}, {"sky_box_atomics", v.sky_box.atomics},
                   {"cloud_box_atomics", v.cloud_box.atomics}});
    }, o);
    objects.push_back(std::move(oj));
  }
  j["objects"] = objects;
  Json stored = Json::array();
  for (const auto& s : r.stored) {
    Json sj{{"type", s.type}, {"name", chunk_type_name(s.type)}, {"slot", s.slot}, {"offset", base + s.offset}, {"size", s.size}};
    for (const auto& [k, v] : s.fields) sj[k] = v;
    if (!s.strings.empty()) sj["strings"] = s.strings;
    stored.push_back(std::move(sj));
  }
  j["stored"] = stored;
  j["consumed"] = r.consumed;
  j["trailing"] = r.trailing;
  Json problems = Json::array();  // docs/cli.md#json: offsets absolute in the file given
  for (Diagnostic d : r.diags.items()) {
    if (d.where.offset != kNoOffset) d.where.offset += base;
    problems.push_back(problem_json(d));
  }
  j["problems"] = std::move(problems);
  if (r.error) {
    const Error& e = *r.error;
    j["error"] = {{"message", e.structure.empty() ? e.message : e.structure + ": " + e.message},
                  {"offset", e.offset == kNoOffset ? Json(nullptr) : Json(base + e.offset)}};
  }
  return j;
}

Json wad_truncation_fields(const Disc& disc) {
  Json j = Json::object();
  if (auto w = disc.wad_truncation_warning()) {
    j["warning"] = w->where.message;
    j["problems"] = Json::array({problem_json(*w)});
  }
  return j;
}

Result<Json> load_spec(const std::string& spec, ContainerShape shape, const ReadOptions& opt) {
  std::error_code ec;
  LoadOptions lo;
  lo.shape = shape;
  const HandlerTable table = HandlerTable::standard();
  if (std::filesystem::exists(spec, ec) && !std::filesystem::is_directory(spec, ec)) {
    ASSAY_TRY(Input in, Input::open(spec));
    if (!looks_like_disc(in)) {
      Json j = load_result_json(load_container(in.bytes, table, lo));
      j["file"] = spec;
      return j;
    }
  }
  const auto colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0)
    return usage_error(fmt::format("{}: expected DISC:NAME, DISC:0xHASH or a container file", spec));
  ASSAY_TRY(Input in, Input::open(spec.substr(0, colon)));
  ASSAY_TRY(DiscCtx c, open_disc(in, *folder_siblings(in), opt));
  const std::string sel = spec.substr(colon + 1);
  auto e = find_selected(c.disc, sel);  // NAME, 0xHASH, or the <8 hex>.bin that list prints
  if (!e) return usage_error(fmt::format("{}: no entry with hash {:08x}", spec, name_hash(sel)));
  ASSAY_TRY(ByteView bytes, c.disc.entry_bytes(*e));
  const std::string* name = c.names.find(e->hash);
  const EntryKind kind = classify_entry(bytes, name ? std::optional<std::string_view>(*name) : std::nullopt);
  Json j = load_result_json(load_container(bytes, table, lo), e->offset);
  // As list shows the entry (entry.json); the first row of a hash is the one found (no "<index>_").
  j["entry"] = {{"index", e->index}, {"name", name ? Json(*name) : Json(nullptr)}, {"path", entry_file_name(*e, c.names)},
                {"offset", e->offset}, {"size", e->size}, {"stored_size", e->size}, {"kind", to_string(kind)},
                {"hash", e->hash}};
  if (!is_container(kind))
    j["warning"] = fmt::format("entry kind is {}, not a resource or pack (spec: warriors.md#wr-5-3)", to_string(kind));
  return j;
}

}  // namespace assay::warriors

namespace assay {




}  // namespace assay
