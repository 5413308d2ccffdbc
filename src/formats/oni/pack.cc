// `assay pack oni -o levelN_X.dat DIR`: a level .dat + .raw (+ .sep) from .oni files
// (spec: oni.md#oni-8 placeholders resolved by name in the folder; oni.md#oni-10-4 writer rules).
#include <fmt/format.h>

#include <cstring>
#include <map>
#include <set>
#include <system_error>

#include "assay/core/folder.h"
#include "assay/core/progress.h"
#include "assay/formats/oni/oni.h"
#include "chunks.h"

namespace assay::oni {

namespace {

// Symlinks, FIFOs and devices are refused by name (core/folder.h).
Result<std::vector<std::filesystem::path>> oni_files_under(const std::filesystem::path& dir) {
  auto skip = [](const std::string& rel) {
    const std::string n = rel.substr(rel.rfind('/') + 1);
    return n == "noimport" || n == "_noimport";
  };
  ASSAY_TRY(std::vector<std::string> rel, regular_files_under(dir, skip));
  std::vector<std::filesystem::path> out;
  for (const auto& r : rel)
    if (std::filesystem::path(r).extension() == ".oni") out.push_back(dir / r);
  std::sort(out.begin(), out.end());
  return out;
}

Error pack_error(std::string m) { return make_error(kFormat, "pack", kNoOffset, std::move(m)); }

std::uint64_t bytes_of(const std::vector<std::filesystem::path>& files) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& p : files) {
    const auto n = std::filesystem::file_size(p, ec);
    if (!ec) total += n;
  }
  return total;
}

struct Source {
  std::unique_ptr<LoadedFile> f;
  std::string main_name;
  std::vector<std::uint32_t> newidx;  // per descriptor
};

using Key = std::pair<std::size_t, std::uint32_t>;  // (source, descriptor)

// Unnamed instances with data, in classes of equal output: the same
// tag, the same bytes outside link and part fields, the same part bytes, and links to the same names
// or to unnamed instances of the same class. Refined until stable (each round splits classes whose
// links differ), so copies of one shared instance that export wrote into several .oni files, links
// included, fold back into one, as OniSplit folds its duplicates (spec: oni.md#oni-3-6).
std::map<Key, std::size_t> fold_classes(const std::vector<Source>& srcs) {
  std::map<Key, std::size_t> cls;
  std::map<Key, std::vector<Key>> links_of;       // unnamed targets (as keys) ...
  std::map<Key, std::vector<std::string>> names;  // ... or names ("" for an unnamed target)
  std::map<std::string, std::size_t> first;
  for (std::size_t k = 0; k < srcs.size(); ++k) {
    const LoadedFile& f = *srcs[k].f;
    detail::ChunkStarts starts;
    for (const ChunkRef& c : f.chunks) starts.add(c.value);
    starts.finish();
    for (const WalkedInstance& w : f.walked) {
      const std::uint32_t j = w.index;
      const Descriptor d = f.file.descriptor(j);
      if (j == 0 || !d.unnamed() || !f.has_data[j]) continue;
      const ByteView inst = *f.file.instance_bytes(j);
      std::string key(reinterpret_cast<const char*>(&d.tag), 4);
      std::string body(reinterpret_cast<const char*>(inst.data()) + kInstanceHeaderSize, inst.size() - kInstanceHeaderSize);
      for (std::uint32_t q = w.first_link; q < w.first_link + w.link_count; ++q) {
        const Link& l = f.links[q];
        std::memset(body.data() + (l.offset - kInstanceHeaderSize), 0, 4);
        const Descriptor t = f.file.descriptor(l.target);
        const bool unnamed_data = l.target != 0 && t.unnamed() && f.has_data[l.target];
        links_of[{k, j}].push_back(unnamed_data ? Key{k, l.target} : Key{srcs.size(), 0});
        names[{k, j}].push_back(unnamed_data ? "" : l.target == 0 ? srcs[k].main_name : std::string(f.names[l.target]));
      }
      for (const ChunkRef& c : f.chunks) {
        if (c.instance != j) continue;
        std::memset(body.data() + (c.offset - kInstanceHeaderSize), 0, 4);
        const std::uint64_t n = c.value < f.raw.size() ? std::min<std::uint64_t>(starts.extent(c.value, c.size, f.raw.size()), f.raw.size() - c.value) : 0;
        key += fmt::format("|{}:{}:", static_cast<int>(c.kind), c.offset);
        key.append(reinterpret_cast<const char*>(f.raw.data()) + (n ? c.value : 0), n);
      }
      key += "|" + body;
      for (const std::string& nm : names[{k, j}]) key += "|" + nm;
      cls[{k, j}] = first.emplace(key, first.size()).first->second;
    }
  }
  for (std::size_t count = first.size();;) {  // refine by the classes of unnamed link targets
    std::map<std::vector<std::size_t>, std::size_t> next;
    std::map<Key, std::size_t> out;
    for (const auto& [u, c] : cls) {
      std::vector<std::size_t> sig{c};
      for (const Key& t : links_of[u]) sig.push_back(t.first == srcs.size() || !cls.count(t) ? SIZE_MAX : cls.at(t));
      out[u] = next.emplace(sig, next.size()).first->second;
    }
    cls = std::move(out);
    if (next.size() == count) break;
    count = next.size();
  }
  return cls;
}

}  // namespace

Result<PackStats> pack_level(const std::filesystem::path& dir, const std::filesystem::path& out_dat, const LayoutSource& layouts,
                             const PackOptions& opt, Diagnostics& diags) {
  auto target = parse_level_file_name(out_dat.filename().string());
  if (!target) return usage_error(target.error().str());
  // Refuse a file id that collides in the output folder (spec: oni.md#oni-10-4).
  std::error_code ec;
  const auto out_dir = out_dat.has_parent_path() ? out_dat.parent_path() : std::filesystem::path(".");
  for (const auto& p : level_files_in(out_dir)) {
    auto n = parse_level_file_name(p.filename().string());
    if (n && p.filename() != out_dat.filename() && n->level == target->level && n->file_id == target->file_id)
      return usage_error(fmt::format("{}: file id 0x{:08x} collides with {}", out_dat.filename().string(), target->file_id, p.filename().string()));
  }
  std::vector<Source> srcs;
  std::map<std::string, std::size_t> by_name;
  ASSAY_TRY(std::vector<std::filesystem::path> oni_files, oni_files_under(dir));
  Progress bar("pack", bytes_of(oni_files), opt.progress);
  bar.set_bytes();
  for (const auto& p : oni_files) {
    Source s;
    bar.set_current(p.filename().string());
    bar.advance(0);  // drawn while the file loads
    ASSAY_TRY(FileBytes b, FileBytes::read(p)); s.f = load_file(p, b.bytes(), b.data, layouts);  // read, not mapped
    bar.advance(b.bytes().size());
    if (!s.f->opened) return s.f->diags.items().front().where;
    if (!s.f->file.is_oni()) return pack_error(fmt::format("{} is not a VR32 .oni file", p.string()));
    if (s.f->diags.has_errors()) {
      diags.append(s.f->diags);
      return pack_error(fmt::format("{} has errors; nothing written", p.filename().string()));
    }
    if (s.f->file.instance_count() == 0 || !s.f->has_data[0]) return pack_error(fmt::format("{}: no main instance", p.filename().string()));
    // The main name comes from the file name; a missing tag is added back (spec: oni.md#oni-8).
    const std::string tag = tag_string(s.f->file.descriptor(0).tag);
    s.main_name = oni_name_from_file(p.stem().string());
    if (s.main_name.rfind(tag, 0) != 0) s.main_name = tag + s.main_name;
    if (!by_name.emplace(s.main_name, srcs.size()).second) return pack_error(fmt::format("two .oni files for {}", s.main_name));
    srcs.push_back(std::move(s));
  }
  bar.finish();  // the bar covers loading; folding, linking and writing follow without one
  if (srcs.empty()) return usage_error(fmt::format("no .oni files under {}", dir.string()));
  // Pass 1: indices for every descriptor with data; pass 2: placeholders by name.
  LevelFileSpec spec;
  spec.checksum = srcs[0].f->file.header().checksum;
  spec.file_id = target->file_id;
  std::vector<std::pair<std::size_t, std::uint32_t>> origin;  // output index -> (source, descriptor)
  // An unnamed instance shared by several named ones is exported into each of their .oni files;
  // copies of equal output are folded back into one (fold_classes).
  const std::map<Key, std::size_t> classes = fold_classes(srcs);
  std::map<std::size_t, std::uint32_t> folded;  // class -> output index
  for (std::size_t k = 0; k < srcs.size(); ++k) {
    const LoadedFile& lf = *srcs[k].f;
    const InstanceFile& fl = lf.file;
    srcs[k].newidx.assign(fl.instance_count(), 0);
    for (std::uint32_t j = 0; j < fl.instance_count(); ++j) {
      if (!lf.has_data[j]) continue;
      if (auto c = classes.find({k, j}); c != classes.end()) {
        auto [it, fresh] = folded.emplace(c->second, static_cast<std::uint32_t>(origin.size()));
        srcs[k].newidx[j] = it->second;
        if (!fresh) continue;
      } else {
        srcs[k].newidx[j] = static_cast<std::uint32_t>(origin.size());
      }
      origin.emplace_back(k, j);
    }
  }
  std::map<std::string, std::uint32_t> placeholders;
  for (std::size_t k = 0; k < srcs.size(); ++k) {
    const LoadedFile& f = *srcs[k].f;
    for (std::uint32_t j = 0; j < f.file.instance_count(); ++j) {
      if (f.has_data[j]) continue;
      const std::string nm(f.names[j]);
      if (auto it = by_name.find(nm); it != by_name.end()) {
        srcs[k].newidx[j] = srcs[it->second].newidx[0];
        continue;
      }
      auto [it, fresh] = placeholders.emplace(nm, static_cast<std::uint32_t>(origin.size()));
      if (fresh) origin.emplace_back(k, j);
      srcs[k].newidx[j] = it->second;
    }
  }
  CompanionWriter raw, sep;
  PackStats st;
  st.oni_files = srcs.size();
  for (std::size_t o = 0; o < origin.size(); ++o) {
    const auto [k, j] = origin[o];
    const LoadedFile& f = *srcs[k].f;
    const Descriptor d = f.file.descriptor(j);
    InstanceSpec s;
    s.tag = d.tag;
    s.name = j == 0 ? srcs[k].main_name : d.unnamed() ? "" : std::string(f.names[j]);
    s.flags = static_cast<std::uint16_t>(d.flags() & ~(kFlagUnnamed | kFlagPlaceholder));
    const CompiledLayout* l = f.layout[j];
    if (l == nullptr) {
      if (f.layouts == nullptr) return pack_error(fmt::format("{}: no layouts", f.display));
      auto c = f.layouts->choose_without_table(d.tag, f.file.header().checksum);
      if (!c) return c.error();
      l = *c;
    }
    spec.template_checksums[d.tag] = l->checksum();
    if (!f.has_data[j]) {
      s.flags |= kFlagPlaceholder;
      ++st.placeholders;
      spec.instances.push_back(std::move(s));
      continue;
    }
    const ByteView inst = *f.file.instance_bytes(j);
    s.data.assign(inst.begin(), inst.end());
    for (const Link& lk : f.links)
      if (lk.instance == j) store<std::uint32_t>(s.data.data() + lk.offset, srcs[k].newidx[lk.target] << 8 | 1, Endian::little);
    detail::ChunkStarts starts;
    for (const ChunkRef& c : f.chunks) starts.add(c.value);
    starts.finish();
    for (const ChunkRef& c : f.chunks) {
      if (c.instance != j) continue;
      const std::uint64_t n = std::min<std::uint64_t>(starts.extent(c.value, c.size, f.raw.size()), f.raw.size() - c.value);
      CompanionWriter& w = c.kind == FieldKind::sep ? sep : raw;
      store<std::uint32_t>(s.data.data() + c.offset, w.add(f.raw.subspan(c.value, n)), Endian::little);
    }
    spec.instances.push_back(std::move(s));
  }
  st.instances = spec.instances.size();
  if (!sep.empty() && !opt.sep) return usage_error("instances have .sep data: give --sep to write a .sep file");
  ASSAY_TRY(ByteBuffer dat, write_level_file(spec));
  auto with_ext = [&](const char* e) {
    auto p = out_dat;
    p.replace_extension(e);
    return p;
  };
  ASSAY_CHECK(write_file_atomic(with_ext(".raw"), raw.bytes(), opt.force));
  if (opt.sep) ASSAY_CHECK(write_file_atomic(with_ext(".sep"), sep.bytes(), opt.force));
  ASSAY_CHECK(write_file_atomic(out_dat, dat, opt.force));
  return st;
}

}  // namespace assay::oni
