// igArchive name table: each entry's layout is decided from its own bytes, and the logical name is
// the candidate string whose hash is in the hash table.
// spec: alchemy.md#iga-name-table, #iga-hash, #corrections C1 (0x0A path + NUL + u32), C7 (NST/CTR
// hash lower-cased with '\' -> '/'); the igArchiveExtractor forms are described in
// docs/alchemy-readers.md (NefariousTechSupport/igArchiveExtractor IGA/IGA_File.cs, Build()).
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "assay/formats/igarchive/archive.h"

namespace assay::igarchive {

std::string_view to_string(NameLayout l) {
  switch (l) {
    case NameLayout::unparsed: return "unparsed";
    case NameLayout::string: return "string";
    case NameLayout::string_time: return "string_time";
    case NameLayout::name_path_time: return "name_path_time";
    case NameLayout::path_name_time: return "path_name_time";
    case NameLayout::string_zero_word: return "string_zero_word";
    case NameLayout::path_tail_time: return "path_tail_time";
    case NameLayout::string_unterminated: return "string_unterminated";
  }
  return "unknown";
}

std::string_view to_string(NameMatch m) {
  switch (m) {
    case NameMatch::exact: return "exact";
    case NameMatch::folded: return "folded";
    case NameMatch::suffix: return "suffix";
    case NameMatch::none: return "none";
  }
  return "unknown";
}

namespace {

// Bytes hashed while searching suffixes, per archive: bounds the work a hostile table can cause.
constexpr std::uint64_t kSuffixBudget = std::uint64_t{32} << 20;
constexpr std::size_t kSuffixMaxLength = 1024;

bool is_sep(char c) { return c == '/' || c == '\\'; }
char fold(char c) {
  if (c == '\\') return '/';
  if (c >= 'A' && c <= 'Z') return static_cast<char>(c + 32);
  return c;
}
bool equal_folded(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (fold(a[i]) != fold(b[i])) return false;
  return true;
}

// The shape of one entry's bytes (before the hash decides which string is the name).
struct Shape {
  NameLayout layout = NameLayout::unparsed;
  std::string_view s1, s2;  // s2 only for the two-string layouts
  bool two = false;
  bool has_time = false;
  std::uint64_t time_at = 0;  // inside the slot
  std::uint64_t used = 0;     // bytes of the slot the layout explains
};

// The slot's bytes as text; its strings are cut with substr (bounds-checked, count clamped).
std::string_view text(ByteView b) { return {reinterpret_cast<const char*>(b.data()), b.size()}; }

// spec: alchemy.md#corrections C1: decide from the bytes which reading fits the entry exactly.
// Exact fits, by the position of the first NUL z1 in a slot of L bytes:
//   no NUL             -> string_unterminated     z1 = L - 1 -> string
//   z1 = L - 5         -> string_time             z1 = L - 4, last 4 bytes 0 -> string_zero_word
//   z1 < L - 5 and the next NUL at L - 5 -> two strings + time
// Otherwise the version's own layout is read from the start and the rest is left over.
Shape classify(ByteView b, std::uint32_t version) {
  const std::string_view all = text(b);
  const std::uint64_t L = all.size();
  Shape s;
  const std::size_t z = all.find('\0');
  if (z == std::string_view::npos) {
    s.layout = NameLayout::string_unterminated;
    s.s1 = all;
    s.used = L;
    return s;
  }
  const std::uint64_t z1 = z;
  s.s1 = all.substr(0, z);
  const std::size_t z2p = all.find('\0', z + 1);
  const std::uint64_t z2 = z2p == std::string_view::npos ? L : z2p;
  auto two = [&] {
    s.two = true;
    s.s2 = all.substr(z + 1, z2 - z1 - 1);
    s.has_time = true;
    s.time_at = z2 + 1;
    s.used = z2 + 5;
    s.layout = NameLayout::path_name_time;  // order decided by the hash
  };
  auto one_time = [&] {
    s.layout = NameLayout::string_time;
    s.has_time = true;
    s.time_at = z1 + 1;
    s.used = z1 + 5;
  };
  if (z1 + 1 == L) {
    s.layout = NameLayout::string;
    s.used = L;
  } else if (z1 + 5 == L) {
    one_time();
  } else if (z1 + 4 == L && all.ends_with(std::string_view("\0\0\0", 3))) {
    s.layout = NameLayout::string_zero_word;
    s.used = L;
  } else if (z1 + 5 < L && z2 + 5 == L) {
    two();
  } else if (version >= 0x0A && z2 + 5 <= L) {  // not exact: the version's layout, rest left over
    two();
  } else if (version >= 8 && z1 + 5 <= L) {
    one_time();
  } else {
    s.layout = NameLayout::string;
    s.used = z1 + 1;
  }
  return s;
}

struct Matcher {
  std::uint32_t flags;
  std::uint64_t budget = kSuffixBudget;
  bool budget_spent = false;

  [[nodiscard]] NameMatch match(std::string_view s, std::uint32_t h) const {
    if (s.empty()) return NameMatch::none;
    if (hash_name(s, flags) == h) return NameMatch::exact;
    if (hash_name(s, flags | kFlagCaseInsensitive) == h) return NameMatch::folded;  // spec C7
    return NameMatch::none;
  }
  // The longest proper suffix of s that hashes to h: one that starts after a separator (a
  // stored path with a build root, as skylanders_zap.pak's "u:\temporary\ps3\...") or one that s
  // ends with twice (igArchiveExtractor's path + tail with no NUL). npos when none.
  std::size_t suffix(std::string_view s, std::uint32_t h) {
    if (s.size() > kSuffixMaxLength) return std::string_view::npos;
    for (std::size_t k = 1; k < s.size(); ++k) {
      const std::size_t t = s.size() - k;
      const bool after_sep = is_sep(s[k - 1]) && !is_sep(s[k]);
      const bool doubled = t <= k && equal_folded(s.substr(k - t, t), s.substr(k));
      if (!after_sep && !doubled) continue;
      if (budget < 2 * t) {
        budget_spent = true;
        return std::string_view::npos;
      }
      budget -= 2 * t;
      if (match(s.substr(k), h) != NameMatch::none) return k;
    }
    return std::string_view::npos;
  }
};

// Picks the logical name among the shape's strings (spec C1: "pick the string whose hash matches").
void choose(FileEntry& f, const Shape& sh, std::uint32_t version, Matcher& m) {
  f.name_layout = sh.layout;
  if (sh.two) {
    const NameMatch m1 = m.match(sh.s1, f.hash), m2 = m.match(sh.s2, f.hash);
    // Default order when the hash decides nothing: 0x0B+ path first; 0x0A logical name first
    // (igRewrite8, spec #iga-name-table and #open Q6).
    bool path_first = version >= 0x0B;
    if (m1 == NameMatch::exact && m2 != NameMatch::exact) path_first = false;
    else if (m2 == NameMatch::exact && m1 != NameMatch::exact) path_first = true;
    else if (m1 == NameMatch::none && m2 != NameMatch::none) path_first = true;
    else if (m2 == NameMatch::none && m1 != NameMatch::none) path_first = false;
    f.path_first = path_first;
    f.name_layout = path_first ? NameLayout::path_name_time : NameLayout::name_path_time;
    f.name = path_first ? sh.s2 : sh.s1;
    f.path = path_first ? sh.s1 : sh.s2;
    f.name_match = path_first ? m2 : m1;
    if (f.name_match != NameMatch::none) return;
    for (std::string_view s : {f.path, f.name}) {  // a stored string with a build root
      if (auto k = m.suffix(s, f.hash); k != std::string_view::npos) {
        f.name = s.substr(k);
        f.path = s;
        f.name_match = NameMatch::suffix;
        return;
      }
    }
    return;
  }
  f.name = sh.s1;
  f.name_match = m.match(sh.s1, f.hash);
  if (f.name_match != NameMatch::none) return;
  const std::size_t k = m.suffix(sh.s1, f.hash);
  if (k == std::string_view::npos) return;
  const std::string_view head = sh.s1.substr(0, k), tail = sh.s1.substr(k);
  f.name = tail;
  if (sh.layout == NameLayout::string_time && head.size() >= tail.size() &&
      equal_folded(head.substr(head.size() - tail.size()), tail)) {
    f.name_layout = NameLayout::path_tail_time;  // igArchiveExtractor 0x0B: path + tail, one NUL
    f.path = head;
    f.name_match = NameMatch::exact;
    return;
  }
  f.path = sh.s1;
  f.name_match = NameMatch::suffix;
}

// The layout each version is documented with (spec: alchemy.md#iga-name-table, C1).
bool usual_layout(std::uint32_t version, NameLayout l) {
  if (version == 4) return l == NameLayout::string;
  if (version == 8) return l == NameLayout::string_time;
  // 0x0A: both two-string orders are documented (spec #iga-name-table); the one-string form of
  // C1 is reported, since draft 1 of the spec and igRewrite8 read two strings.
  if (version == 0x0A) return l == NameLayout::name_path_time || l == NameLayout::path_name_time;
  return l == NameLayout::path_name_time;
}

std::string_view layout_words(NameLayout l) {
  switch (l) {
    case NameLayout::string: return "name + NUL";
    case NameLayout::string_time: return "one string + NUL + u32 (spec C1)";
    case NameLayout::name_path_time: return "logical name + NUL + build path + NUL + u32";
    case NameLayout::path_name_time: return "build path + NUL + logical name + NUL + u32";
    case NameLayout::string_zero_word: return "name with no NUL + zero u32 (igArchiveExtractor)";
    case NameLayout::path_tail_time: return "build path and logical name with no NUL between + NUL + u32 (igArchiveExtractor)";
    case NameLayout::string_unterminated: return "name with no NUL (igArchiveExtractor)";
    case NameLayout::unparsed: return "unreadable";
  }
  return "?";
}

}  // namespace

ByteView Archive::name_table() const noexcept {
  const auto b = ByteReader(data_, header_.endian, kFormatName).bytes(header_.name_table_offset, header_.name_table_size, "name table");
  return b ? *b : ByteView{};
}

// spec: alchemy.md#iga-name-table: N u32 offsets (relative to the table), one entry each. An
// entry's bytes run to the next entry's offset (or the table end); its layout is decided there.
Result<void> Archive::parse_names(const DiagSink& diags) {
  const Header& h = header_;
  const std::uint64_t nto = h.name_table_offset, nts = h.name_table_size;
  const std::uint64_t field = h.version <= 8 ? (h.version == 4 ? 0x18 : 0x1C) : 0x28;
  auto report = [&](Severity sev, Error e) -> Result<void> {
    if (diags) {
      diags({sev, std::move(e)});
      return {};
    }
    if (sev == Severity::error) return e;
    return {};
  };
  if (!range_ok(nto, nts, data_.size()))
    return report(Severity::error,
                  error("name table", field, fmt::format("name table of 0x{:x} bytes at 0x{:x} runs past the file end 0x{:x}",
                                                         nts, nto, data_.size())));
  if (h.num_files > nts / 4)
    return report(Severity::error,
                  error("name table", nto, fmt::format("{} name offsets need 0x{:x} bytes but the table has 0x{:x}",
                                                       h.num_files, 4ull * h.num_files, nts)));
  ASSAY_TRY(const ByteReader t, ByteReader(data_, h.endian, kFormatName).sub(nto, nts, "name table"));
  ASSAY_TRY(auto offsets, RecordTable<Word32>::open(t, 0, files_.size(), "name table"));
  std::vector<std::uint32_t> starts;
  starts.reserve(files_.size());
  for (FileEntry& f : files_) {
    ASSAY_TRY(const Word32 w, offsets.at(f.index));
    f.name_offset = w.value;
    starts.push_back(f.name_offset);
  }
  std::sort(starts.begin(), starts.end());
  Matcher m{h.flags};
  std::map<NameLayout, std::uint64_t> unusual;
  bool all_ok = true;
  for (FileEntry& f : files_) {
    const std::string st = fmt::format("name[{}]", f.index);
    const std::uint32_t off = f.name_offset;
    if (off >= nts) {
      all_ok = false;
      ASSAY_CHECK(report(Severity::error,
                         t.error(st, 4ull * f.index, fmt::format("name offset 0x{:x} is not below nameTableSize 0x{:x}", off, nts))));
      continue;
    }
    const auto next = std::upper_bound(starts.begin(), starts.end(), off);
    const std::uint64_t end = next == starts.end() ? nts : std::min<std::uint64_t>(*next, nts);
    ASSAY_TRY(f.name_raw, t.bytes(off, end - off, st));
    const Shape sh = classify(f.name_raw, h.version);
    f.has_time = sh.has_time;
    if (sh.has_time)
      if (auto w = read_record<Word32>(ByteReader(f.name_raw, h.endian, kFormatName, nto + off), sh.time_at, st)) f.time = w->value;
    choose(f, sh, h.version, m);
    if (sh.used < f.name_raw.size())
      ASSAY_CHECK(report(Severity::warning,
                         t.error(st, off + sh.used, fmt::format("0x{:x} bytes after the entry ({}) are left over",
                                                                f.name_raw.size() - sh.used, to_string(f.name_layout)))));
    if (!usual_layout(h.version, f.name_layout)) ++unusual[f.name_layout];
    if (f.name_layout == NameLayout::string_unterminated && h.version != 4)
      ASSAY_CHECK(report(Severity::warning, t.error(st, off, "entry has no NUL (igArchiveExtractor writes this only for version 4)")));
  }
  // Never guess silently: say once per archive which unusual layout was read.
  for (const auto& [layout, count] : unusual)
    ASSAY_CHECK(report(Severity::note,
                       error("name table", nto, fmt::format("{} of {} entries read as {} (version 0x{:x})", count,
                                                            files_.size(), layout_words(layout), h.version))));
  if (m.budget_spent)
    ASSAY_CHECK(report(Severity::note, error("name table", nto, "suffix search for hashed names stopped at its work limit")));
  names_ok_ = all_ok;
  return {};
}

}  // namespace assay::igarchive
