// Loading and walking one file (spec: oni.md#oni-6, oni.md#oni-3-9 template check, oni.md#oni-6-4).
#include <fmt/format.h>

#include <map>
#include <system_error>

#include "assay/core/mapped_file.h"
#include "assay/formats/oni/level_set.h"
#include "capped.h"
#include "check_reuse.h"
#include "check_walk.h"
#include "records.h"

namespace assay::oni {

namespace {

struct Loader {
  LoadedFile& f;
  const LayoutSet* layouts;
  std::map<const CompiledLayout*, std::optional<detail::FlatProgram>> programs;
  std::uint32_t high = 0, spare = 0;  // walk notes: 8-byte counts with a high half, spare bytes

  Error err(std::string s, std::uint64_t o, std::string m) const { return f.file.error(std::move(s), o, std::move(m)); }

  void map_companion(const char* ext, ByteView& view, std::shared_ptr<const void>& owner, bool& present) {
    if (f.path.empty()) return;
    auto p = f.path;
    p.replace_extension(ext);
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec)) return;
    auto m = MappedFile::open(p);
    if (!m) {
      detail::capped_error(f.diags, m.error());
      return;
    }
    auto sp = std::make_shared<MappedFile>(std::move(*m));
    view = sp->bytes();
    owner = sp;
    present = true;
  }

  // A companion the opener took (LoadOptions::companions).
  static void take_companion(const std::optional<Input>& in, ByteView& view, std::shared_ptr<const void>& owner, bool& present) {
    if (!in) return;
    view = in->bytes;
    owner = in->owner;
    present = true;
  }

  // Layout per descriptor: by the template entries (VR31) or by tag alone (VR32, spec: oni.md#oni-8).
  void choose_layouts() {
    const InstanceFile& file = f.file;
    f.layout.assign(file.instance_count(), nullptr);
    std::map<std::uint32_t, const CompiledLayout*> by_tag;
    if (!file.is_oni()) {
      const std::uint64_t base = kHeaderSize + std::uint64_t(file.instance_count()) * kDescriptorSize + std::uint64_t(file.name_count()) * kNameEntrySize;
      for (std::uint32_t k = 0; k < file.template_count(); ++k) {
        const TemplateEntry t = file.template_entry(k);
        const CompiledLayout* l = layouts->find(t.tag, t.checksum);
        if (l == nullptr) {
          std::string known;
          for (const auto& c : layouts->all())
            if (c.tag() == t.tag) known += fmt::format("{}0x{:016x}", known.empty() ? "" : ", ", c.checksum());
          const std::string lev = f.fname ? fmt::format("level {}: ", f.fname->level) : "";
          detail::capped_error(f.diags, err(fmt::format("template entry[{}] {}", k, tag_string(t.tag)), base + k * 16,
                            known.empty() ? fmt::format("{}template {} checksum 0x{:016x} unknown to the {} (level invalid)", lev, tag_string(t.tag), t.checksum, layouts->source)
                                          : fmt::format("{}template {}: checksums do not match (file 0x{:016x}, {} has {}; level invalid)", lev, tag_string(t.tag), t.checksum, layouts->source, known)));
          continue;
        }
        by_tag[t.tag] = l;
      }
    }
    std::map<std::uint32_t, bool> reported;
    std::uint32_t last_tag = 0;
    const CompiledLayout* last = nullptr;  // instances come grouped by tag: one map lookup per run
    const CompiledLayout* last_short = nullptr;  // its OniSplit short form
    std::uint32_t short_count = 0;
    std::uint64_t short_size = 0;
    // An instance of OniSplit's shorter size walks with the short form (LayoutSet::for_size).
    auto sized = [&](std::uint32_t i, const CompiledLayout* l, const CompiledLayout* s) {
      if (s == nullptr || l == nullptr) return l;
      const CompiledLayout* use = layouts->for_size(l, file.descriptor(i).size);
      if (use == s) ++short_count, short_size = s->code.fixed_size;
      return use;
    };
    for (std::uint32_t i = 0; i < file.instance_count(); ++i) {
      const std::uint32_t tag = file.descriptor(i).tag;
      if (!file.is_oni()) {
        if (i == 0 || tag != last_tag) {
          const auto it = by_tag.find(tag);
          last = it != by_tag.end() ? it->second : nullptr;
          last_short = layouts->short_form(last);
          last_tag = tag;
        }
        f.layout[i] = sized(i, last, last_short);
        continue;
      }
      if (auto it = by_tag.find(tag); it != by_tag.end()) {
        f.layout[i] = sized(i, it->second, layouts->short_form(it->second));
        continue;
      }
      auto c = layouts->choose_without_table(tag, file.header().checksum);
      if (!c) {
        if (!reported[tag]) detail::capped_error(f.diags, c.error().in_file(f.display));
        reported[tag] = true;
        by_tag[tag] = nullptr;
        continue;
      }
      by_tag[tag] = *c;
      f.layout[i] = sized(i, *c, layouts->short_form(*c));
    }
    // Say which layout was used: a note in verify and oni check.
    if (short_count)
      detail::capped(f.diags, Severity::note,
                     err("TXMP", kNoOffset,
                         fmt::format("{} TXMP instances of 0x{:x} bytes read with the v1.1 layout in OniSplit's form "
                                     "(-import:sep; the layout's last u8 and 3 pad bytes absent, spec oni-templates.md)",
                                     short_count, short_size)));
  }

  std::string label(std::uint32_t i) const { return instance_label(i, f.file.descriptor(i).tag, f.names[i]); }

  void check_link(std::uint32_t i, std::uint64_t inst_off, const FieldRef& r) {
    Link l{i, r.offset, r.value >> 8, false};
    const std::uint64_t at = inst_off + r.offset;
    if ((r.value & 0xFF) != 0x01) {
      detail::capped_error(f.diags, err(label(i), at, fmt::format("bad link value 0x{:08x} (low byte must be 01)", r.value)));
      l.bad = true;
    } else if (l.target >= f.file.instance_count()) {
      detail::capped_error(f.diags, err(label(i), at, fmt::format("link to missing index {} ({} instances)", l.target, f.file.instance_count())));
      l.bad = true;
    } else {
      const Descriptor t = f.file.descriptor(l.target);
      if (r.tag != 0 && t.tag != r.tag) {
        detail::capped_error(f.diags, err(label(i), at, fmt::format("link to wrong template: {} is {}, the layout wants {}", l.target, tag_string(t.tag), tag_string(r.tag))));
        l.bad = true;
      } else if (t.unnamed() && !f.has_data[l.target]) {
        detail::capped_error(f.diags, err(label(i), at, fmt::format("link to unnamed instance {} without data", l.target)));
        l.bad = true;
      }
    }
    f.links.push_back(l);
  }

  std::optional<std::uint64_t> chunk_size(ByteView inst, const FieldRef& r, std::string* bad) const {
    if (r.size == ChunkSize::u32_field) {
      if (!range_ok(r.size_offset, 4, inst.size())) return std::nullopt;
      return records::word_at<std::uint32_t>(inst, r.size_offset);
    }
    if (r.size != ChunkSize::txmp) return std::nullopt;
    const auto img = records::read_txmp_image(inst);  // spec: oni.md#oni-9-1 (records.h TxmpImage)
    if (!img) return std::nullopt;
    auto levels = txmp_levels(img->width, img->height, img->format, img->mipmapped());
    if (!levels) {  // spec: oni.md#oni-9-1: a bad size is an error; an unknown format leaves the size unknown
      if (img->width == 0 || img->height == 0 || img->width > kTxmpMaxDim || img->height > kTxmpMaxDim) *bad = levels.error().message;
      return std::nullopt;
    }
    return levels->back().offset + levels->back().size;
  }

  // spec: oni.md#oni-6-4
  void check_chunk(std::uint32_t i, std::uint64_t inst_off, ByteView inst, const FieldRef& r) {
    if (r.value == 0) return;
    std::string bad;
    ChunkRef c{i, r.offset, r.value, r.kind, chunk_size(inst, r, &bad)};
    if (!bad.empty()) detail::capped_error(f.diags, err(label(i), inst_off + 0x8C, bad + ": pixel data size unknown"));
    const bool sep = r.kind == FieldKind::sep && !f.file.is_oni();
    const char* which = f.file.is_oni() ? "raw block" : sep ? ".sep" : ".raw";
    const bool present = f.file.is_oni() || (sep ? f.sep_present : f.raw_present);
    const ByteView file = sep ? f.sep : f.raw;
    const std::uint64_t at = inst_off + r.offset;
    if (!present) detail::capped_error(f.diags, err(label(i), at, fmt::format("{} offset 0x{:x} but the {} file is missing", which, r.value, which)));
    else if (r.value < 32) detail::capped_error(f.diags, err(label(i), at, fmt::format("{} offset 0x{:x} inside the 32 junk bytes", which, r.value)));
    else if (r.value >= file.size()) detail::capped_error(f.diags, err(label(i), at, fmt::format("{} offset 0x{:x} at or past the end of the {} (0x{:x} bytes)", which, r.value, which, file.size())));
    else if (c.size && !range_ok(r.value, *c.size, file.size()))
      detail::capped_error(f.diags, err(label(i), at, fmt::format("{} chunk 0x{:x}+0x{:x} past the end of the {} (0x{:x} bytes)", which, r.value, *c.size, which, file.size())));
    else if (r.value % 32 != 0) detail::capped_warning(f.diags, err(label(i), at, fmt::format("{} offset 0x{:x} not 32-byte aligned", which, r.value)));
    if (f.file.is_oni() && r.kind == FieldKind::sep) detail::capped_warning(f.diags, err(label(i), at, ".oni with a .sep offset: treated as a raw-block offset (unverified)"));
    f.chunks.push_back(c);
  }

  // A link the flat walk can take without a word said: low byte 01, an index in range, the tag the
  // layout wants, data for an unnamed target (check_link's rules, which report the others).
  bool take_good_link(std::uint32_t i, std::uint32_t offset, std::uint32_t value, std::uint32_t tag) {
    const std::uint32_t target = value >> 8;
    if ((value & 0xFF) != 0x01 || target >= f.file.instance_count()) return false;
    const Descriptor t = f.file.descriptor(target);
    if ((tag != 0 && t.tag != tag) || (t.unnamed() && !f.has_data[target])) return false;
    f.links.push_back({i, offset, target, false});
    return true;
  }

  // The flat walk of instance i (check_walk.h); false (nothing kept) when it needs walk_instance.
  bool walk_flat_instance(std::uint32_t i, const detail::FlatProgram& p, ByteView inst) {
    const std::size_t mark = f.links.size();
    detail::FlatWalk w;
    if (!detail::walk_flat(p, inst, w, [&](std::uint32_t o, std::uint32_t v, std::uint32_t t) { return take_good_link(i, o, v, t); })) {
      f.links.resize(mark);
      return false;
    }
    high += w.count_high_nonzero;
    spare += inst.size() > (w.end + 31) / 32 * 32;
    f.walked.push_back({i, static_cast<std::uint32_t>(w.end), static_cast<std::uint32_t>(mark), static_cast<std::uint32_t>(f.links.size() - mark)});
    return true;
  }

  // The walk by the layout's byte code, reporting every problem.
  void walk_instance_steps(std::uint32_t i, ByteView inst, std::vector<FieldRef>& refs) {
    const std::uint64_t off = f.file.instance_file_offset(f.file.descriptor(i));
    refs.clear();
    auto w = walk_instance(*f.layout[i], inst, refs);
    if (!w) {
      detail::capped_error(f.diags, err(label(i), off + w.error().offset, w.error().message));
      return;
    }
    high += w->count_high_nonzero;
    spare += inst.size() > (w->end + 31) / 32 * 32;
    WalkedInstance wi{i, static_cast<std::uint32_t>(w->end), static_cast<std::uint32_t>(f.links.size()), 0};
    for (const FieldRef& r : refs) {
      if (r.kind == FieldKind::link) check_link(i, off, r);
      else check_chunk(i, off, inst, r);
    }
    wi.link_count = static_cast<std::uint32_t>(f.links.size()) - wi.first_link;
    f.walked.push_back(wi);
  }

  // The flat program of layout l, compiled on first use (nullptr: not flat).
  const detail::FlatProgram* program_of(const CompiledLayout* l) {
    auto [it, fresh] = programs.try_emplace(l);
    if (fresh) it->second = detail::compile_flat(*l);
    return it->second ? &*it->second : nullptr;
  }

  void walk() {
    std::vector<FieldRef> refs;
    // Sized from the checked file (descriptors x 0x14 and the data block are in it): one allocation.
    f.walked.reserve(f.file.instance_count());
    f.links.reserve(f.file.header().data_size / 32);
    const CompiledLayout* last = nullptr;
    const detail::FlatProgram* prog = nullptr;  // instances come grouped by tag: one lookup per run
    for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) {
      if (!f.has_data[i] || f.layout[i] == nullptr || f.file.descriptor(i).duplicate()) continue;
      if (f.layout[i] != last) prog = program_of(last = f.layout[i]);
      const ByteView inst = f.file.bytes().subspan(f.file.instance_file_offset(f.file.descriptor(i)), f.file.descriptor(i).size);
      if (prog == nullptr || !walk_flat_instance(i, *prog, inst)) walk_instance_steps(i, inst, refs);
    }
    if (spare)
      detail::capped(f.diags, Severity::note, err("walk", kNoOffset, fmt::format("{} instances are larger than their walked end rounded to 32 (spare bytes)", spare)));
    if (high) detail::capped_warning(f.diags, err("walk", kNoOffset, fmt::format("{} 8-byte array counts have a non-zero high half", high)));
  }
};

}  // namespace

namespace {

// Opens, validates and walks the file into f (a new LoadedFile, perhaps holding reused vectors).
void fill_file(LoadedFile& file_out, const std::filesystem::path& path, ByteView bytes, std::shared_ptr<const void> owner,
               const LayoutSet* layouts, LoadOptions opt) {
  LoadedFile* f = &file_out;
  f->path = path;
  f->display = path.filename().string();
  f->owner = std::move(owner);
  if (auto n = parse_level_file_name(f->display); n) f->fname = *n;
  auto file = InstanceFile::open(bytes, f->display);
  if (!file) {
    detail::capped_error(f->diags, file.error());
    return;
  }
  f->file = std::move(*file);
  f->opened = true;
  const InstanceFile& fl = f->file;
  if (!fl.is_oni() && !f->fname && f->display.size() > 4 && f->display.substr(f->display.size() - 4) == ".dat")
    detail::capped_warning(f->diags, parse_level_file_name(f->display).error());
  InstanceFile::DescriptorFacts facts{&f->names, &f->has_data};
  fl.validate(f->diags, f->fname && !fl.is_oni() ? std::optional<std::uint32_t>(f->fname->file_id) : std::nullopt, &facts);
  f->placeholders = facts.placeholders;
  if (!opt.walk) return;
  if (layouts == nullptr || layouts->empty()) {
    detail::capped_warning(f->diags, fl.error("walk", kNoOffset, "no layouts (give --layouts FILE or --exe Oni.exe): instances not walked"));
    return;
  }
  f->layouts = layouts;
  Loader ld{*f, layouts};
  if (fl.is_oni()) {
    f->raw = fl.raw_block();
    f->raw_present = true;
  } else if (opt.companions != nullptr) {
    for (const Error& e : opt.companions->errors) detail::capped_error(f->diags, e);
    Loader::take_companion(opt.companions->raw, f->raw, f->raw_owner, f->raw_present);
    Loader::take_companion(opt.companions->sep, f->sep, f->sep_owner, f->sep_present);
  } else {
    ld.map_companion(".raw", f->raw, f->raw_owner, f->raw_present);
    ld.map_companion(".sep", f->sep, f->sep_owner, f->sep_present);
  }
  ld.choose_layouts();
  ld.walk();
}

}  // namespace

std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, ByteView bytes, std::shared_ptr<const void> owner,
                                      const LayoutSet* layouts, LoadOptions opt) {
  auto f = std::make_unique<LoadedFile>();
  fill_file(*f, path, bytes, std::move(owner), layouts, opt);
  return f;
}

std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, const LayoutSet* layouts, LoadOptions opt) {
  auto m = MappedFile::open(path);
  if (!m) {
    auto f = std::make_unique<LoadedFile>();
    f->path = path;
    f->display = path.filename().string();
    detail::capped_error(f->diags, m.error());
    return f;
  }
  auto sp = std::make_shared<MappedFile>(std::move(*m));
  const ByteView b = sp->bytes();
  return load_file(path, b, sp, layouts, opt);
}

namespace {

// load_file with the layouts picked by the header's checksum, into a new file holding the vectors
// of `reuse` when given.
std::unique_ptr<LoadedFile> load_by_checksum(const std::filesystem::path& path, ByteView bytes, std::shared_ptr<const void> owner,
                                             const LayoutSource& layouts, LoadOptions opt, detail::FileBuffers* reuse) {
  const LayoutSet* set = nullptr;
  std::optional<Error> why;
  if (auto h = read_record<FileHeader>(ByteReader(bytes, Endian::little, kFormat), 0, "header")) {  // else: fails to open below
    auto r = layouts.for_checksum(h->checksum);
    if (r) set = *r;
    else why = r.error();
  }
  auto f = std::make_unique<LoadedFile>();
  if (reuse != nullptr) reuse->give_to(*f);
  fill_file(*f, path, bytes, std::move(owner), set, why ? LoadOptions{false} : opt);
  if (why && opt.walk && f->opened) {
    why->file = f->display;
    detail::capped_error(f->diags, *why);
  }
  return f;
}

std::unique_ptr<LoadedFile> map_and_load(const std::filesystem::path& path, const LayoutSource& layouts, LoadOptions opt,
                                         detail::FileBuffers* reuse) {
  auto m = MappedFile::open(path);
  if (!m) return load_file(path, nullptr, opt);  // reports the open error
  auto sp = std::make_shared<MappedFile>(std::move(*m));
  const ByteView b = sp->bytes();
  return load_by_checksum(path, b, sp, layouts, opt, reuse);
}

}  // namespace

std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, ByteView bytes, std::shared_ptr<const void> owner,
                                      const LayoutSource& layouts, LoadOptions opt) {
  return load_by_checksum(path, bytes, std::move(owner), layouts, opt, nullptr);
}

std::unique_ptr<LoadedFile> load_file(const std::filesystem::path& path, const LayoutSource& layouts, LoadOptions opt) {
  return map_and_load(path, layouts, opt, nullptr);
}

std::unique_ptr<LoadedFile> detail::load_file_reusing(const std::filesystem::path& path, const LayoutSource& layouts, FileBuffers& reuse) {
  return map_and_load(path, layouts, {}, &reuse);
}

}  // namespace assay::oni
