// InstanceFile::validate: the per-file rules of spec oni.md#oni-10-1 (header, tables, descriptors,
// name directory, template entries, instance headers).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>

#include "assay/formats/oni/instance_file.h"
#include "assay/formats/oni/names.h"
#include "capped.h"

namespace assay::oni {

namespace {

struct Checker {
  const InstanceFile& f;
  Diagnostics& out;
  std::vector<std::string_view>& names;  // per descriptor, filled by descriptors()
  std::vector<std::uint8_t>& has_data;   // per descriptor, filled by descriptors()
  std::uint32_t placeholders = 0;
  // Per descriptor, filled by descriptors(): kUnnamedBit, then kListedBit by name_directory() (one
  // byte read there instead of a descriptor per directory entry).
  static constexpr std::uint8_t kUnnamedBit = 1, kListedBit = 2;
  std::vector<std::uint8_t> marks;
  std::map<std::uint32_t, std::uint32_t> tag_counts;  // instances per tag, filled by descriptors()
  void error(std::string s, std::uint64_t o, std::string m) { detail::capped_error(out, f.error(std::move(s), o, std::move(m))); }
  void warning(std::string s, std::uint64_t o, std::string m) { detail::capped_warning(out, f.error(std::move(s), o, std::move(m))); }
  void note(std::string s, std::uint64_t o, std::string m) { detail::capped_note(out, f.error(std::move(s), o, std::move(m))); }

  void header() {
    const FileHeader& h = f.header();
    // spec: oni.md#oni-3-2: never guess a platform from an unknown checksum.
    if (h.checksum == 0x0003BA70A8D8AE11ull || h.checksum == 0x0003BA70A8DBAE11ull)
      warning("header", 0, fmt::format("unknown template set 0x{:016x} (possibly PS2, unverified: 0x0003ba70a8d8ae11 or 0x0003ba70a8dbae11); layouts chosen per template", h.checksum));
    else if (h.checksum != kChecksumV10 && h.checksum != kChecksumV11)
      warning("header", 0, fmt::format("unknown template set 0x{:016x}; layouts chosen per template", h.checksum));
    if (f.is_oni()) {
      if (h.header_size != 0x40 || h.descriptor_size != 0x14 || h.template_entry_size != 0x10 || h.name_entry_size != 0x08)
        warning("header", 0x0C, "VR32 record sizes are not 0x40/0x14/0x10/0x08");
    } else if (!h.padding_zero()) {
      note("header", 0x30, "non-zero bytes in the unused 0x30-0x3f");
    }
    const std::uint64_t tend = kHeaderSize + std::uint64_t(h.instance_count) * kDescriptorSize +
                               std::uint64_t(h.name_count) * kNameEntrySize + std::uint64_t(h.template_count) * kTemplateEntrySize;
    if (tend > h.data_offset)
      error("data block", 0x20, fmt::format("tables end at 0x{:x}, past the data block offset 0x{:x}", tend, h.data_offset));
    if (!f.is_oni()) {
      if (std::uint64_t(h.data_offset) + h.data_size > h.name_offset)
        error("name block", 0x28, fmt::format("data block ends at 0x{:x}, past the name block offset 0x{:x}", std::uint64_t(h.data_offset) + h.data_size, h.name_offset));
      const std::uint64_t nend = std::uint64_t(h.name_offset) + h.name_size;
      if (nend < f.bytes().size())
        warning("name block", 0x28, fmt::format("0x{:x} extra bytes after the name block", f.bytes().size() - nend));
      if (h.template_count == 0) error("header", 0x1C, "no template entries: the engine treats the level as invalid");
    } else if (!range_ok(h.raw_offset, h.raw_size, f.bytes().size())) {
      error("raw block", 0x30, fmt::format("block 0x{:x}+0x{:x} outside the file", h.raw_offset, h.raw_size));
    }
    if (f.data_overrun())
      note("data block", 0x24, fmt::format("length runs 0x{:x} bytes past the end of the file (OniSplit's -create rounds it up to 32); "
                                          "read up to the end only", f.data_overrun()));
    if (h.data_offset % 32 != 0) warning("data block", 0x20, "not 32-byte aligned");
    if (h.name_offset % 32 != 0) warning("name block", 0x28, "not 32-byte aligned");
  }

  // The instance header's id and file id (spec: oni.md#oni-3-9); `file_id` is the first one seen.
  void instance_header(std::uint32_t i, const Descriptor& d, std::string_view nm, ByteView bytes, std::optional<std::uint32_t> expected_id,
                       std::optional<std::uint32_t>& file_id) {
    // The caller checked bytes holds the header (size >= 8); the cursor is bounded to it anyway.
    RecordCursor c(bytes.first(std::min<std::size_t>(bytes.size(), InstanceHeader::kSize)), Endian::little);
    const auto [id, fid] = decode_from<InstanceHeader>(c);
    if (id == (i << 8 | 1) && file_id && fid == *file_id) return;  // the common case
    auto lab = [&] { return instance_label(i, d.tag, nm); };
    const std::uint64_t at = f.instance_file_offset(d);
    if (id != (i << 8 | 1)) error(lab(), at, fmt::format("instance id 0x{:08x}, expected 0x{:08x}", id, i << 8 | 1));
    if (!file_id) {
      file_id = fid;
      if (f.is_oni() && fid != 0) warning(lab(), at + 4, "a .oni instance should carry file id 0");
      if (!f.is_oni() && expected_id && fid != *expected_id)
        warning(lab(), at + 4, fmt::format("file id 0x{:08x}, the file name gives 0x{:08x} (file renamed?)", fid, *expected_id));
    } else if (fid != *file_id) {
      error(lab(), at + 4, fmt::format("file id 0x{:08x} differs from the file's 0x{:08x}", fid, *file_id));
    }
  }

  // Data ranges of non-duplicate instances must not overlap. They usually come in data order, so
  // one pass checks them with no list; otherwise they are collected and sorted.
  struct RangeCheck {
    std::pair<std::uint64_t, std::uint64_t> prev{0, 0};
    std::optional<std::uint64_t> overlap;  // where the first overlap starts
    bool in_order = true;
    void add(std::uint64_t b, std::uint64_t e) {
      if (!in_order) return;
      if (std::make_pair(b, e) < prev) in_order = false;
      else if (b < prev.second && !overlap) overlap = b;
      prev = {b, e};
    }
  };

  void descriptors(std::optional<std::uint32_t> expected_id) {
    const std::uint32_t n = f.instance_count();
    std::optional<std::uint32_t> file_id;
    std::uint32_t unknown_bits = 0, odd_sizes = 0;
    RangeCheck rc;
    marks.assign(n, 0);
    std::uint32_t run_tag = 0, run = 0;  // instances come grouped by tag: count runs, not map lookups
    for (std::uint32_t i = 0; i < n; ++i) {
      const Descriptor d = f.descriptor(i);
      auto s = [i] { return fmt::format("descriptor[{}]", i); };  // only on a problem
      const std::uint64_t at = f.descriptor_offset(i);
      if (run != 0 && d.tag != run_tag) tag_counts[run_tag] += run, run = 0;
      run_tag = d.tag;
      ++run;
      marks[i] = d.unnamed() ? kUnnamedBit : 0;
      if (d.flags() & 0xFFF0) ++unknown_bits;
      std::string_view nm;
      if (!d.unnamed()) {
        if (!f.name_if_valid(d, nm)) {
          detail::capped_error(out, f.name_at(d.name_offset, i).error());
        } else {
          names[i] = nm;
          if (nm.size() > 4 + 127) warning(s(), at + 8, "name longer than 127 bytes after the tag");
        }
      }
      if (d.placeholder()) {
        ++placeholders;
        if (d.unnamed()) error(s(), at + 16, "placeholder without a name (flags 0x1 and 0x2)");
        if (d.size != 0 || d.data_offset != 0) warning(s(), at + 4, "placeholder with non-zero size or data offset");
        continue;
      }
      if (d.size == 0) warning(s(), at + 12, "instance with size 0 (OniSplit would treat it as a placeholder)");
      if (d.size % 32 != 0) ++odd_sizes;
      if (!f.instance_in_data(d)) {
        detail::capped_error(out, f.instance_bytes(i).error());
        continue;
      }
      if (d.size < kInstanceHeaderSize) {
        error(s(), at + 12, fmt::format("size 0x{:x} smaller than the 8-byte instance header", d.size));
        continue;
      }
      const std::uint64_t start = f.instance_file_offset(d);
      if (!d.duplicate()) rc.add(start, start + d.size);
      instance_header(i, d, nm, f.bytes().subspan(start, d.size), expected_id, file_id);
      has_data[i] = 1;
    }
    if (run != 0) tag_counts[run_tag] += run;
    if (unknown_bits) note("descriptors", kHeaderSize, fmt::format("{} descriptors have unknown flag bits 0x10-0x8000", unknown_bits));
    if (odd_sizes) note("descriptors", kHeaderSize, fmt::format("{} instance sizes are not a multiple of 32", odd_sizes));
    if (!rc.in_order) rc.overlap = overlap_in_order();
    if (rc.overlap) warning("data block", *rc.overlap, "data ranges of two non-duplicate instances overlap");
  }

  // The slow path of RangeCheck: every range, sorted; the first overlap's start.
  std::optional<std::uint64_t> overlap_in_order() const {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> ranges;  // bounded by the checked table
    for (std::uint32_t i = 0; i < f.instance_count(); ++i) {
      const Descriptor d = f.descriptor(i);
      if (d.placeholder() || d.duplicate() || !f.instance_in_data(d) || d.size < kInstanceHeaderSize) continue;
      ranges.emplace_back(f.instance_file_offset(d), f.instance_file_offset(d) + d.size);
    }
    std::sort(ranges.begin(), ranges.end());
    for (std::size_t k = 1; k < ranges.size(); ++k)
      if (ranges[k].first < ranges[k - 1].second) return ranges[k].first;
    return std::nullopt;
  }

  void name_directory() {
    if (f.is_oni()) return;
    const std::uint32_t n = f.instance_count(), m = f.name_count();
    const std::uint64_t base = kHeaderSize + std::uint64_t(n) * kDescriptorSize;
    std::string_view prev;
    bool have_prev = false;
    for (std::uint32_t k = 0; k < m; ++k) {
      const std::uint32_t idx = f.name_entry_index(k);
      auto s = [k] { return fmt::format("name directory[{}]", k); };
      if (idx >= n) {
        error(s(), base + k * 8, fmt::format("instance index {} out of range ({} instances)", idx, n));
        have_prev = false;
        continue;
      }
      if (marks[idx] & kUnnamedBit) {
        error(s(), base + k * 8, fmt::format("entry for unnamed descriptor {}", idx));
        continue;
      }
      if (marks[idx] & kListedBit) error(s(), base + k * 8, fmt::format("descriptor {} listed twice", idx));
      marks[idx] |= kListedBit;
      const std::string_view nm = names[idx];
      if (nm.empty()) continue;  // a bad name, reported with the descriptor
      if (have_prev) {
        const int c = compare_bytes(prev, nm);
        if (c == 0) error(s(), base + k * 8, fmt::format("duplicate name {}", nm));
        else if (c > 0) error(s(), base + k * 8, fmt::format("not sorted: {} after {} (the engine binary-searches)", nm, prev));
      }
      prev = nm;
      have_prev = true;
    }
    for (std::uint32_t i = 0; i < n; ++i)
      if (marks[i] == 0)
        error(fmt::format("descriptor[{}]", i), f.descriptor_offset(i), "named descriptor missing from the name directory");
  }

  void template_entries() {
    if (f.is_oni()) return;
    const std::map<std::uint32_t, std::uint32_t>& real = tag_counts;
    std::map<std::uint32_t, std::uint32_t> listed;
    const std::uint64_t base = kHeaderSize + std::uint64_t(f.instance_count()) * kDescriptorSize + std::uint64_t(f.name_count()) * kNameEntrySize;
    for (std::uint32_t k = 0; k < f.template_count(); ++k) {
      const TemplateEntry t = f.template_entry(k);
      auto s = [&t, k] { return fmt::format("template entry[{}] {}", k, tag_string(t.tag)); };
      if (listed.count(t.tag)) error(s(), base + k * 16, "tag listed twice");
      listed[t.tag] = t.count;
      const auto it = real.find(t.tag);
      const std::uint32_t have = it == real.end() ? 0 : it->second;
      if (have == 0) note(s(), base + k * 16, "template entry for a tag with no instances");
      else if (have != t.count) warning(s(), base + k * 16 + 12, fmt::format("instance count {}, the file has {}", t.count, have));
    }
    for (const auto& [tag, cnt] : real)
      if (!listed.count(tag)) error("descriptors", kHeaderSize, fmt::format("tag {} ({} instances) has no template entry", tag_string(tag), cnt));
  }
};

}  // namespace

void InstanceFile::validate(Diagnostics& out, std::optional<std::uint32_t> expected_file_id, DescriptorFacts* facts) const {
  std::vector<std::string_view> own_names;
  std::vector<std::uint8_t> own_has_data;
  std::vector<std::string_view>& nm = facts && facts->names ? *facts->names : own_names;
  std::vector<std::uint8_t>& hd = facts && facts->has_data ? *facts->has_data : own_has_data;
  nm.assign(instance_count(), {});
  hd.assign(instance_count(), 0);
  Checker c{*this, out, nm, hd};
  c.header();
  c.descriptors(expected_file_id);
  c.name_directory();
  c.template_entries();
  if (facts) facts->placeholders = c.placeholders;
}

}  // namespace assay::oni
