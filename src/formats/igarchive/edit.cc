// Targeted igArchive edits: unchanged files are copied as stored, only new data is encoded.
// spec: alchemy.md#corrections C6 (keep the data order by offset and the original compressed
// blocks verbatim), #iga-writer rules 1, 3-4, 6-7, 10-11, #iga-name-table, #iga-block-tables.
#include "assay/formats/igarchive/edit.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <map>
#include <numeric>
#include <set>

#include "assay/core/thread_pool.h"
#include "assay/formats/edit_data.h"
#include "records.h"
#include "assay/formats/igarchive/writer.h"

namespace assay::igarchive {

namespace {

Error edit_error(std::string msg) { return make_error(kFormatName, "edit", kNoOffset, std::move(msg)).with_code("igarchive.edit"); }

std::uint64_t align_up(std::uint64_t n, std::uint64_t a) { return (n + a - 1) / a * a; }
void pad_to(ByteBuffer& out, std::uint64_t a) { out.resize(align_up(out.size(), a), 0); }

// The data area as it is written: small pieces gathered into one buffer, large
// views (unchanged files' stored bytes) handed straight to the output; size() counts from the
// start of the data area.
class Sink {
 public:
  explicit Sink(const EditOutput& out) : out_(out) {}
  [[nodiscard]] std::uint64_t size() const { return size_; }
  Result<void> put(ByteView b) {
    size_ += b.size();
    if (b.size() >= kDirect) {
      ASSAY_CHECK(flush());
      return out_.append(b);
    }
    buf_.insert(buf_.end(), b.begin(), b.end());
    return buf_.size() >= kDirect ? flush() : Result<void>();
  }
  Result<void> pad_to(std::uint64_t a) {
    static const ByteBuffer zeros(0x10000, 0);
    for (std::uint64_t n = align_up(size_, a) - size_; n > 0;) {
      const std::uint64_t k = std::min<std::uint64_t>(n, zeros.size());
      ASSAY_CHECK(put(ByteView(zeros).first(static_cast<std::size_t>(k))));
      n -= k;
    }
    return {};
  }
  Result<void> flush() {
    if (buf_.empty()) return {};
    ASSAY_CHECK(out_.append(buf_));
    buf_.clear();
    return {};
  }

 private:
  static constexpr std::size_t kDirect = std::size_t{1} << 20;
  const EditOutput& out_;
  ByteBuffer buf_;
  std::uint64_t size_ = 0;
};

// One file of the result, in new hash order.
struct Slot {
  const FileEntry* orig = nullptr;  // nullptr for an added file
  const EditFile* data = nullptr;   // new bytes (replace/add); nullptr = unchanged
  const EditData* src = nullptr;    // where they are read from (with data)
  Compression compression = Compression::stored;
  std::uint32_t hash = 0;
  std::uint32_t ordinal = 0;        // for added files (v0x0A+)
  std::uint64_t offset = 0;         // new offset, relative to the data area (absolute when keep_offset)
  bool keep_offset = false;         // a length-0 file outside the data area keeps its offset word
  BlockTable table = BlockTable::small;
  std::uint32_t first = 0;          // new first block-table entry
  std::vector<std::uint32_t> run;   // new data: B entries + terminator
  std::uint64_t stored = 0;         // bytes the new data took
  std::uint64_t blob = 0;           // name-table entry: index into the blob list
};

bool uses_table(const FileEntry& f) { return f.compression != Compression::stored; }

// The archive's usual codec for added files: the most common one among its codec files.
Compression usual_codec(const Archive& a) {
  std::map<Compression, std::size_t> n;
  for (const FileEntry& f : a.files()) ++n[f.compression];
  Compression best = Compression::lzma;
  std::size_t most = 0;
  for (auto [c, k] : n)
    if (k > most) best = c, most = k;
  return a.files().empty() ? Compression::lzma : best;
}

// A new name-table entry in the layout of `tmpl` (spec: alchemy.md#iga-name-table, C1): a build
// path, when the template's path ends with its name, gets the same root before the new name.
ByteBuffer name_entry(const FileEntry* tmpl, std::uint32_t version, Endian e, const std::string& name) {
  NameLayout layout = tmpl ? tmpl->name_layout
                           : version == 4 ? NameLayout::string
                           : version == 8 ? NameLayout::string_time
                                          : NameLayout::path_name_time;
  std::string root;
  if (tmpl && tmpl->path.size() > tmpl->name.size() && tmpl->path.ends_with(tmpl->name))
    root = std::string(tmpl->path.substr(0, tmpl->path.size() - tmpl->name.size()));
  const std::string path = root + name;
  ByteWriter w(e);
  switch (layout) {
    case NameLayout::string: w.cstr(name); break;
    case NameLayout::string_unterminated: w.str(name); break;
    case NameLayout::string_zero_word: w.str(name), w.u32(0); break;
    case NameLayout::name_path_time: w.cstr(name), w.cstr(path), w.u32(0); break;
    case NameLayout::path_tail_time: w.str(path), w.cstr(name), w.u32(0); break;
    case NameLayout::string_time:  // a suffix-matched string keeps its build root
      w.cstr(tmpl && tmpl->name_match == NameMatch::suffix ? path : name), w.u32(0);
      break;
    default: w.cstr(path), w.cstr(name), w.u32(0); break;  // path_name_time
  }
  return w.take();
}

class Editor {
 public:
  Editor(const Archive& a, const EditPlan& p) : a_(a), p_(p), h_(a.header()) {}
  Result<EditResult> run(const EditOutput& out);

 private:
  Result<void> resolve();
  Result<void> layout_data(Sink& out);
  Result<void> write_new(Sink& out, Slot& s);
  Result<ByteBuffer> name_table();
  Result<std::array<std::vector<std::uint32_t>, 3>> tables();

  const Archive& a_;
  const EditPlan& p_;
  const Header& h_;
  std::vector<Slot> slots_;                         // new hash order
  std::map<std::uint32_t, const EditFile*> replaced_;  // by original index
  std::set<std::uint32_t> removed_;
  std::map<const EditFile*, EditData> src_;         // each change's new bytes (held or a file)
  EditResult res_;
};

Result<void> Editor::resolve() {
  const auto files = a_.files();
  std::set<std::uint32_t> touched;
  auto find = [&](const std::string& name, const char* op) -> Result<const FileEntry*> {
    if (name_escapes(name)) return usage_error(fmt::format("{} '{}': the name escapes the archive's folder (.., absolute)", op, name));
    const FileEntry* f = a_.find(name);
    if (!f) return usage_error(fmt::format("{} '{}': no such file in the archive", op, name));
    if (!touched.insert(f->index).second) return usage_error(fmt::format("'{}' is named twice", name));
    return f;
  };
  for (const auto* list : {&p_.replace, &p_.add})
    for (const EditFile& e : *list) {
      if (e.file.empty()) {
        src_[&e] = EditData::of_bytes(e.data);
      } else {
        ASSAY_TRY(src_[&e], EditData::of_file(e.file));
      }
    }
  for (const EditFile& r : p_.replace) {
    ASSAY_TRY(const FileEntry* f, find(r.name, "replace"));
    const EditData& src = src_.at(&r);
    res_.changes.push_back({"replace", std::string(f->name), f->hash, f->length, src.size(), 0,
                            r.compression.value_or(f->compression)});
    // The same bytes with the same codec: the stored bytes stay (an unmodified round trip). Only
    // compared up to 64 MiB (both are read whole); a larger file is written anew.
    if (src.size() == f->length && f->length <= (std::uint64_t{64} << 20) &&
        r.compression.value_or(f->compression) == f->compression) {
      ByteBuffer old;
      ASSAY_CHECK(a_.read(*f, old, p_.threads ? p_.threads : default_threads(),
                          std::max<std::uint64_t>(kDefaultMemberCap, f->length)));
      ASSAY_TRY(ByteBuffer now, src.head(src.size()));
      if (old == now) {
        res_.changes.back().unchanged = true;
        continue;
      }
    }
    replaced_[f->index] = &r;
  }
  for (const std::string& n : p_.remove) {
    ASSAY_TRY(const FileEntry* f, find(n, "remove"));
    removed_.insert(f->index);
    res_.changes.push_back({"remove", std::string(f->name), f->hash, f->length, 0, 0, f->compression});
  }
  // Added names hash the way the existing names do (flags, or folded as NST/CTR: spec C7).
  bool folded = !files.empty();
  for (const FileEntry& f : files) folded = folded && f.name_match == NameMatch::folded;
  const std::uint32_t flags = h_.flags | (folded ? kFlagCaseInsensitive : 0);
  std::uint32_t max_ord = 0;
  for (const FileEntry& f : files)
    if (f.ordinal != 0xFFFFFFu) max_ord = std::max(max_ord, f.ordinal);
  std::map<std::uint32_t, std::string> hashes;
  for (const FileEntry& f : files)
    if (!removed_.count(f.index)) hashes[f.hash] = std::string(f.name);
  for (std::uint32_t i = 0; i < files.size(); ++i) {
    if (removed_.count(i)) continue;
    Slot s;
    s.orig = &files[i];
    s.hash = files[i].hash;
    if (auto it = replaced_.find(i); it != replaced_.end()) {
      s.data = it->second;
      s.compression = it->second->compression.value_or(files[i].compression);
    } else {
      s.compression = files[i].compression;
    }
    slots_.push_back(s);
  }
  const Compression codec = usual_codec(a_);
  for (const EditFile& f : p_.add) {
    if (f.name.empty() || name_escapes(f.name))
      return usage_error(fmt::format("add '{}': the name escapes the archive's folder (.., absolute) or is empty", f.name));
    if (a_.find(f.name)) return usage_error(fmt::format("add '{}': the archive already has it (use replace)", f.name));
    Slot s;
    s.data = &f;
    s.hash = hash_name(f.name, flags);
    if (auto it = hashes.find(s.hash); it != hashes.end())
      return usage_error(fmt::format("add '{}': its hash 0x{:08x} is already taken by '{}'", f.name, s.hash, it->second));
    hashes[s.hash] = f.name;
    s.compression = f.compression.value_or(codec);
    s.ordinal = std::min<std::uint32_t>(++max_ord, 0xFFFFFEu);
    slots_.push_back(s);
    res_.changes.push_back({"add", f.name, s.hash, 0, src_.at(&f).size(), 0, s.compression});
  }
  for (Slot& s : slots_) {
    if (!s.data) continue;
    s.src = &src_.at(s.data);
    if (s.src->size() > 0xFFFFFFFFull) return edit_error(fmt::format("'{}' is larger than 4 GiB", s.data->name));
    // The table follows from the length alone, so the TOC's size is known before any data is
    // written (run(): header and TOC first as placeholders).
    if (s.compression != Compression::stored) {
      s.table = table_for_length(s.src->size(), static_cast<std::uint32_t>(h_.sector_size));
      s.run.assign(block_count(s.src->size()) + 1, 0);
    }
  }
  std::stable_sort(slots_.begin(), slots_.end(), [](const Slot& x, const Slot& y) { return x.hash < y.hash; });
  return {};
}

// New data: each block on a sector boundary, B entries + terminator (rules 5-7). The blocks are
// read and compressed a batch at a time (in parallel) and written before the next batch is read,
// so a file of any size takes a few MiB.
Result<void> Editor::write_new(Sink& out, Slot& s) {
  const std::uint64_t S = h_.sector_size;
  const EditData& d = *s.src;
  const std::uint64_t size = d.size();
  ASSAY_CHECK(out.pad_to(S));
  s.offset = out.size();
  s.run.clear();
  if (s.compression == Compression::stored) {
    ASSAY_CHECK(d.each_piece(std::uint64_t{1} << 20, [&](std::uint64_t, ByteView b) -> Result<void> {
      ASSAY_CHECK(out.put(b));
      if (p_.progress) p_.progress(b.size(), s.data->name);
      return {};
    }));
    s.stored = size;
    return out.pad_to(S);
  }
  const WriterOptions o = options_like(a_);
  const unsigned pw = o.prefix_width ? o.prefix_width : (h_.version >= 0x0C ? 4 : 2);
  const bool ple = o.prefix_little.value_or(h_.version != 4);
  const unsigned threads = p_.threads ? p_.threads : default_threads();
  const std::uint32_t flag = flag_bit(s.table);
  const std::uint64_t B = block_count(size), batch = std::uint64_t{64} * std::max(threads, 1u);
  std::vector<ByteBuffer> raw, enc;
  std::vector<Error> errors;
  for (std::uint64_t j0 = 0; j0 < B; j0 += batch) {
    const std::size_t n = static_cast<std::size_t>(std::min(batch, B - j0));
    raw.resize(n), enc.assign(n, {}), errors.assign(n, Error{});
    std::atomic<bool> failed{false};
    parallel_for(n, threads, [&](std::size_t k) {
      raw[k].resize(block_usize(size, j0 + k));
      if (auto r = d.read((j0 + k) * kBlockSize, raw[k]); !r) {
        errors[k] = r.error();
        failed = true;
        return;
      }
      if (s.compression != Compression::none) enc[k] = encode_block(s.compression, raw[k], pw, ple, p_.lzma_preset);
      if (p_.progress) p_.progress(raw[k].size(), s.data->name);
    });
    if (failed)
      for (Error& e : errors)
        if (!e.message.empty()) return e;
    for (std::size_t k = 0; k < n; ++k) {
      ASSAY_CHECK(out.pad_to(S));
      const std::uint64_t sector = (out.size() - s.offset) / S;
      if (sector >= flag) return edit_error(fmt::format("{}: block sector {} does not fit the {} table", s.data->name, sector, to_string(s.table)));
      const bool packed = !enc[k].empty();
      s.run.push_back(static_cast<std::uint32_t>(sector) | (packed ? flag : 0));
      ASSAY_CHECK(out.put(packed ? ByteView(enc[k]) : ByteView(raw[k])));
      res_.encoded_blocks += packed;
    }
  }
  s.stored = out.size() - s.offset;
  ASSAY_CHECK(out.pad_to(S));
  const std::uint64_t total = (out.size() - s.offset) / S;
  if (total >= flag) return edit_error(fmt::format("{}: {} sectors do not fit the {} table", s.data->name, total, to_string(s.table)));
  s.run.push_back(options_like(a_).zero_terminator ? 0 : static_cast<std::uint32_t>(total));
  return {};
}

// spec C6: the data stays in offset order; each unchanged file's region (its bytes up to the
// next file's offset: blocks and padding) is copied verbatim; replaced files keep their place,
// added files go last.
Result<void> Editor::layout_data(Sink& out) {
  const auto files = a_.files();
  const std::uint64_t S = h_.sector_size, toc_end = a_.toc_end(), nto = h_.name_table_offset;
  std::vector<std::uint32_t> order;
  for (const FileEntry& f : files)
    if (f.offset >= toc_end || f.length != 0) order.push_back(f.index);
  std::stable_sort(order.begin(), order.end(), [&](auto x, auto y) { return files[x].offset < files[y].offset; });
  for (std::uint32_t i : order)
    if (files[i].offset < toc_end || files[i].offset > nto)
      return edit_error(fmt::format("'{}' lies outside the data area (0x{:x}); rebuild with pack instead", files[i].name, files[i].offset));
  std::map<std::uint32_t, Slot*> slot_of;
  for (Slot& s : slots_)
    if (s.orig) slot_of[s.orig->index] = &s;
  const ByteView data = a_.data();
  for (std::size_t k = 0; k < order.size(); ++k) {
    const FileEntry& f = files[order[k]];
    const std::uint64_t end = k + 1 < order.size() ? files[order[k + 1]].offset : nto;
    if (removed_.count(f.index)) continue;
    Slot& s = *slot_of.at(f.index);
    if (s.data) {
      ASSAY_CHECK(write_new(out, s));
      continue;
    }
    if (f.offset % S == 0) ASSAY_CHECK(out.pad_to(S));
    s.offset = out.size();
    ASSAY_CHECK(out.put(data.subspan(f.offset, end - f.offset)));  // a view of the input, not a copy
    ++res_.copied_files;
  }
  for (Slot& s : slots_)
    if (!s.orig) ASSAY_CHECK(write_new(out, s));
  // Files left out of the offset order (length 0 before the data) keep their offset word.
  for (Slot& s : slots_)
    if (s.orig && !s.data && std::find(order.begin(), order.end(), s.orig->index) == order.end()) {
      s.offset = s.orig->offset;
      s.keep_offset = true;
      ++res_.copied_files;
    }
  if (nto % S == 0) ASSAY_CHECK(out.pad_to(S));
  return out.flush();
}

// spec: alchemy.md#iga-block-tables: each file's run of entries (B + terminator, and any entries
// up to the next run) keeps its place in its table; new runs of replaced files take the old
// run's place when the table is the same, otherwise they and added files' runs go last.
Result<std::array<std::vector<std::uint32_t>, 3>> Editor::tables() {
  std::array<std::vector<std::uint32_t>, 3> out;
  std::map<std::uint32_t, Slot*> slot_of;
  for (Slot& s : slots_)
    if (s.orig) slot_of[s.orig->index] = &s;
  std::vector<Slot*> later;
  for (int t = 0; t < 3; ++t) {
    const auto table = static_cast<BlockTable>(t);
    const std::uint32_t count = a_.table_count(table);
    std::vector<const FileEntry*> users;
    for (const FileEntry& f : a_.files())
      if (uses_table(f) && f.table == table) users.push_back(&f);
    std::stable_sort(users.begin(), users.end(), [](auto x, auto y) { return x->first_entry < y->first_entry; });
    for (const FileEntry* f : users)  // every run inside its table before any entry is read
      if (std::uint64_t{f->first_entry} + f->num_blocks + 1 > count)
        return edit_error(fmt::format("'{}': its block-table run ends past the {} table", f->name, to_string(table)));
    auto& dst = out[t];
    const std::uint32_t first = users.empty() ? count : users.front()->first_entry;
    for (std::uint32_t e = 0; e < first && e < count; ++e) dst.push_back(a_.table_entry(table, e));
    for (std::size_t k = 0; k < users.size(); ++k) {
      const FileEntry& f = *users[k];
      const std::uint64_t end = k + 1 < users.size() ? users[k + 1]->first_entry : count;
      if (std::uint64_t{f.first_entry} + f.num_blocks + 1 > end && !(k + 1 < users.size() && users[k + 1]->first_entry == f.first_entry))
        return edit_error(fmt::format("'{}': its block-table run overlaps the next file's; rebuild with pack instead", f.name));
      if (removed_.count(f.index)) continue;
      Slot& s = *slot_of.at(f.index);
      if (!s.data) {
        s.first = static_cast<std::uint32_t>(dst.size());
        for (std::uint64_t e = f.first_entry; e < end; ++e) dst.push_back(a_.table_entry(table, static_cast<std::uint32_t>(e)));
      } else if (s.compression != Compression::stored && s.table == table) {
        s.first = static_cast<std::uint32_t>(dst.size());
        dst.insert(dst.end(), s.run.begin(), s.run.end());
      }
    }
  }
  // Replaced files that moved table (or were stored before), then added files, in data order.
  std::vector<Slot*> rest;
  for (Slot& s : slots_)
    if (s.data && s.compression != Compression::stored &&
        !(s.orig && uses_table(*s.orig) && s.orig->table == s.table))
      rest.push_back(&s);
  std::stable_sort(rest.begin(), rest.end(), [](auto x, auto y) { return x->offset < y->offset; });
  for (Slot* s : rest) {
    auto& dst = out[static_cast<int>(s->table)];
    s->first = static_cast<std::uint32_t>(dst.size());
    dst.insert(dst.end(), s->run.begin(), s->run.end());
  }
  for (const auto& t : out)
    if (t.size() > 0x0FFFFFFF) return edit_error("block tables too large");
  return out;
}

// spec: alchemy.md#iga-name-table: offsets in hash order, then the entries. Each original entry's
// raw bytes are kept in their original order (and any bytes between the offsets and the first
// entry); entries of added files follow.
Result<ByteBuffer> Editor::name_table() {
  const ByteView t = a_.name_table();
  const auto files = a_.files();
  std::vector<std::uint32_t> starts;
  for (const FileEntry& f : files) starts.push_back(f.name_offset);
  std::sort(starts.begin(), starts.end());
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  const std::uint64_t n_old = files.size();
  if (!starts.empty() && starts.front() < 4 * n_old)
    return edit_error("a name-table entry overlaps the offset words; rebuild with pack instead");
  std::map<std::uint32_t, std::size_t> blob_of_start;
  for (std::size_t k = 0; k < starts.size(); ++k) blob_of_start[starts[k]] = k;
  std::vector<bool> used(starts.size(), false);
  for (Slot& s : slots_)
    if (s.orig) used[s.blob = blob_of_start.at(s.orig->name_offset)] = true;
  const std::uint64_t n = slots_.size();
  ByteWriter w(h_.endian);
  w.zeros(4 * n);
  const std::uint64_t gap_end = starts.empty() ? t.size() : starts.front();
  if (4 * n_old <= gap_end) w.bytes(t.subspan(4 * n_old, gap_end - 4 * n_old));
  std::vector<std::uint64_t> blob_at(starts.size(), 0);
  for (std::size_t k = 0; k < starts.size(); ++k) {
    if (!used[k]) continue;
    const std::uint64_t end = k + 1 < starts.size() ? starts[k + 1] : t.size();
    blob_at[k] = w.size();
    w.bytes(t.subspan(starts[k], end - starts[k]));
  }
  const FileEntry* tmpl = files.empty() ? nullptr : &files.front();
  for (std::size_t i = 0; i < n; ++i) {
    Slot& s = slots_[i];
    std::uint64_t at;
    if (s.orig) {
      at = blob_at[s.blob];
    } else {
      at = w.size();
      w.bytes(name_entry(tmpl, h_.version, h_.endian, s.data->name));
    }
    if (at > 0xFFFFFFFFull) return edit_error("name table larger than 4 GiB");
    w.patch<std::uint32_t>(4 * i, static_cast<std::uint32_t>(at));
  }
  if (w.size() > 0xFFFFFFFFull) return edit_error("name table larger than 4 GiB");
  return w.take();
}

Result<EditResult> Editor::run(const EditOutput& sink) {
  if (!a_.names_ok()) return edit_error("the name table is unreadable; the archive cannot be edited");
  const std::uint64_t nto = h_.name_table_offset;
  if (nto < a_.toc_end() || nto + h_.name_table_size > a_.data().size())
    return edit_error("the name table is not after the file data; rebuild with pack instead");
  ASSAY_CHECK(resolve());
  const std::uint64_t H = header_size(h_.version), F = file_info_size(h_.version), n = slots_.size();

  // The TOC's size from the block counts alone (placeholder runs; resolve()), so the header and
  // TOC go first as placeholders, the data streams after them, and they are written last.
  ASSAY_TRY(auto sizes, tables());
  const std::uint64_t toc = n * (4 + F) + 4 * sizes[2].size() + 2 * sizes[1].size() + sizes[0].size();
  if (toc > 0xFFFFFFFFull) return edit_error("TOC larger than 4 GiB");

  // Where the data started: keep the TOC pad verbatim when the TOC kept its size; otherwise keep
  // its content up to the last non-zero byte, then pad to a sector (spec #iga-writer rule 11).
  const ByteView pad = a_.toc_pad();
  ByteBuffer out(a_.data().begin(), a_.data().begin() + H);
  out.resize(H + toc, 0);
  std::uint64_t keep = pad.size();
  if (toc != h_.toc_size)
    while (keep > 0 && pad[keep - 1] == 0) --keep;
  out.insert(out.end(), pad.begin(), pad.begin() + keep);
  const std::uint64_t first_data = a_.toc_end() + pad.size();
  if (toc != h_.toc_size && first_data % h_.sector_size == 0) pad_to(out, h_.sector_size);
  const std::uint64_t base = out.size();
  ASSAY_CHECK(sink.append(out));
  Sink body(sink);
  ASSAY_CHECK(layout_data(body));
  ASSAY_TRY(auto tabs, tables());
  for (int t = 0; t < 3; ++t)
    if (tabs[t].size() != sizes[t].size()) return edit_error("block tables changed size while the data was written");
  ASSAY_TRY(ByteBuffer names, name_table());
  const std::uint64_t new_nto = base + body.size();
  if (h_.version <= 8 && new_nto > 0xFFFFFFFFull) return edit_error("name table offset does not fit the u32 field");
  ASSAY_CHECK(sink.append(names));
  const ByteView tail = a_.data().subspan(nto + h_.name_table_size);
  ASSAY_CHECK(sink.append(tail));
  res_.size = new_nto + names.size() + tail.size();

  // Header: only the sizes, counts, offsets, divider and slop change (rule 10).
  const Endian E = h_.endian;
  auto put32 = [&](std::uint64_t at, std::uint64_t v) { store<std::uint32_t>(out.data() + at, static_cast<std::uint32_t>(v), E); };
  std::vector<std::uint32_t> hashes(n);
  for (std::size_t i = 0; i < n; ++i) hashes[i] = slots_[i].hash;
  std::uint32_t divider = h_.divider, slop = h_.slop;
  if (n != h_.num_files) {  // rules 3-4; a slop above the minimum is kept
    const bool was_minimal = h_.slop == minimal_slop(a_.hashes(), h_.divider);
    divider = divider_for(n);
    const std::uint32_t need = n == 0 ? 0 : minimal_slop(hashes, divider);
    slop = was_minimal ? need : std::max(need, h_.slop);
  }
  Header nh = h_;  // magic, version, sectorSize and flags as they were
  nh.toc_size = static_cast<std::uint32_t>(toc), nh.num_files = static_cast<std::uint32_t>(n);
  nh.divider = divider, nh.slop = slop, nh.name_table_offset = new_nto;
  nh.name_table_size = static_cast<std::uint32_t>(names.size()), nh.num_large = static_cast<std::uint32_t>(tabs[2].size());
  nh.num_medium = static_cast<std::uint32_t>(tabs[1].size()), nh.num_small = static_cast<std::uint32_t>(tabs[0].size());
  const ByteBuffer header = records::encode_header(nh);
  std::copy(header.begin(), header.end(), out.begin());

  // TOC: hashes, file infos (the original words with offset and block index patched), tables.
  std::uint64_t at = H;
  for (std::size_t i = 0; i < n; ++i, at += 4) put32(at, hashes[i]);
  for (std::size_t i = 0; i < n; ++i, at += F) {
    const Slot& s = slots_[i];
    const std::uint64_t off = s.keep_offset ? s.offset : s.offset + base;
    std::uint32_t word = s.orig ? s.orig->word : 0;
    const std::uint32_t length = s.data ? static_cast<std::uint32_t>(s.src->size()) : s.orig->length;
    if (s.data) word = s.compression == Compression::stored ? kStoredWord : static_cast<std::uint32_t>(s.compression) << 28;
    if (word != kStoredWord) word = (word & 0xF0000000u) | s.first;
    if (F == 12 && off > 0xFFFFFFFFull) return edit_error("file offset does not fit the u32 field");
    if (F == 16 && off > 0xFFFFFFFFFFull) return edit_error("file offset does not fit 40 bits");
    // The build ordinal above a 40-bit offset (#iga-file-info): the original's, parsed at open.
    const ByteBuffer info = records::encode_file_info(F, off, s.orig ? s.orig->ordinal : s.ordinal, length, word, E);
    std::copy(info.begin(), info.end(), out.begin() + static_cast<std::ptrdiff_t>(at));
  }
  for (int t : {2, 1, 0}) {
    const std::uint32_t eb = entry_bytes(static_cast<BlockTable>(t));
    for (std::uint32_t v : tabs[t]) {
      if (eb == 1) out[at] = static_cast<std::uint8_t>(v);
      else if (eb == 2) store<std::uint16_t>(out.data() + at, static_cast<std::uint16_t>(v), E);
      else store<std::uint32_t>(out.data() + at, v, E);
      at += eb;
    }
  }
  for (EditReport& r : res_.changes)
    for (const Slot& s : slots_)
      if (s.hash == r.hash) r.stored_size = s.data ? s.stored : 0;
  ASSAY_CHECK(sink.write_at(0, out));  // the header and TOC over their placeholders
  return std::move(res_);
}

}  // namespace

bool name_escapes(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\') return true;
  if (name.size() >= 2 && name[1] == ':') return true;
  std::size_t b = 0;
  while (b <= name.size()) {
    std::size_t e = name.find_first_of("/\\", b);
    if (e == std::string_view::npos) e = name.size();
    if (name.substr(b, e - b) == "..") return true;
    b = e + 1;
  }
  return false;
}

Result<EditResult> edit_archive(const Archive& a, const EditPlan& plan, const EditOutput& out) {
  return Editor(a, plan).run(out);
}

Result<EditResult> edit_archive(const Archive& a, const EditPlan& plan) {
  ByteBuffer bytes;
  const EditOutput out{[&](ByteView b) -> Result<void> {
                         bytes.insert(bytes.end(), b.begin(), b.end());
                         return {};
                       },
                       [&](std::uint64_t at, ByteView b) -> Result<void> {
                         if (!range_ok(at, b.size(), bytes.size())) return edit_error("header write past the end");
                         std::copy(b.begin(), b.end(), bytes.begin() + static_cast<std::ptrdiff_t>(at));
                         return {};
                       }};
  ASSAY_TRY(EditResult r, Editor(a, plan).run(out));
  r.bytes = std::move(bytes);
  return r;
}

}  // namespace assay::igarchive
