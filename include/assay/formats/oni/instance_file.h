// The Oni instance file: VR31 level .dat and VR32 .oni (spec: oni.md#oni-3, oni.md#oni-8).
// A non-owning view over the file's bytes. open() checks the header and that every table and
// block lies in the file, so the accessors below are safe; validate() checks every other rule.
#pragma once

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/diag.h"
#include "assay/core/record.h"

namespace assay::oni {

inline constexpr std::uint32_t kVersionVR31 = 0x56523331;  // bytes 31 33 52 56
inline constexpr std::uint32_t kVersionVR32 = 0x56523332;
inline constexpr std::uint32_t kVersionVR33 = 0x56523333;
inline constexpr std::uint64_t kHeaderSize = 0x40;
inline constexpr std::uint64_t kDescriptorSize = 0x14;
inline constexpr std::uint64_t kTemplateEntrySize = 0x10;
inline constexpr std::uint64_t kNameEntrySize = 0x08;
inline constexpr std::uint32_t kInstanceHeaderSize = 8;
// Link values are index << 8 | 1 (spec: oni.md#oni-3-7), so an index fits in 24 bits.
inline constexpr std::uint32_t kMaxInstances = 0x1000000;
// Name scans stop after this many bytes (the engine asserts names below 128 bytes after the tag).
inline constexpr std::size_t kMaxNameScan = 0x10000;
// A VR32 data block may claim up to this many bytes past the end of the file (OniSplit -create).
inline constexpr std::uint32_t kDataRoundingSlack = 0x1F;

// Descriptor flags, low 16 bits (spec: oni.md#oni-3-6).
inline constexpr std::uint16_t kFlagUnnamed = 0x01;
inline constexpr std::uint16_t kFlagPlaceholder = 0x02;
inline constexpr std::uint16_t kFlagDuplicate = 0x04;        // not walked
inline constexpr std::uint16_t kFlagDuplicateSource = 0x08;  // informational

// Known total template checksums (spec: oni.md#oni-3-2).
inline constexpr std::uint64_t kChecksumV10 = 0x0003BCDF33DC271Full;
inline constexpr std::uint64_t kChecksumV11 = 0x0003BCDF23C13061ull;

// The records below list their fields once (core/record.h): kSize little-endian bytes each, read
// by the loader and written by the writers and editors.

// spec: oni.md#oni-3-1
struct FileHeader {
  static constexpr std::size_t kSize = 0x40;
  std::uint64_t checksum = 0;
  std::uint32_t version = 0;
  std::uint16_t header_size = 0, descriptor_size = 0, template_entry_size = 0, name_entry_size = 0;
  std::uint32_t instance_count = 0, name_count = 0, template_count = 0;
  std::uint32_t data_offset = 0, data_size = 0, name_offset = 0, name_size = 0;
  std::uint32_t raw_offset = 0, raw_size = 0;  // VR32 only (0x30, 0x34)
  std::uint64_t unused = 0;                    // 0x38-0x3F
  static constexpr void fields(auto& h, auto&& f) {
    f(h.checksum, h.version, h.header_size, h.descriptor_size, h.template_entry_size, h.name_entry_size,
      h.instance_count, h.name_count, h.template_count, h.data_offset, h.data_size, h.name_offset, h.name_size,
      h.raw_offset, h.raw_size, h.unused);
  }
  // 0x30-0x3F all zero (VR31)
  [[nodiscard]] constexpr bool padding_zero() const noexcept { return raw_offset == 0 && raw_size == 0 && unused == 0; }
};

// spec: oni.md#oni-3-5
struct Descriptor {
  static constexpr std::size_t kSize = 0x14;
  std::uint32_t tag = 0;
  std::uint32_t data_offset = 0;  // from the data block, past the 8-byte instance header
  std::uint32_t name_offset = 0;  // from the name block
  std::uint32_t size = 0;         // instance header included
  std::uint32_t raw_flags = 0;
  [[nodiscard]] std::uint16_t flags() const noexcept { return static_cast<std::uint16_t>(raw_flags & 0xFFFF); }
  [[nodiscard]] bool unnamed() const noexcept { return (flags() & kFlagUnnamed) != 0; }
  [[nodiscard]] bool placeholder() const noexcept { return (flags() & kFlagPlaceholder) != 0; }
  [[nodiscard]] bool duplicate() const noexcept { return (flags() & kFlagDuplicate) != 0; }
  static constexpr void fields(auto& d, auto&& f) { f(d.tag, d.data_offset, d.name_offset, d.size, d.raw_flags); }
};

// spec: oni.md#oni-3-9
struct TemplateEntry {
  static constexpr std::size_t kSize = 0x10;
  std::uint64_t checksum = 0;
  std::uint32_t tag = 0;
  std::uint32_t count = 0;
  static constexpr void fields(auto& t, auto&& f) { f(t.checksum, t.tag, t.count); }
};

// One name directory entry (spec: oni.md#oni-3-8): a descriptor index, then 4 unused bytes.
struct NameEntry {
  static constexpr std::size_t kSize = 0x08;
  std::uint32_t index = 0;
  static constexpr void fields(auto& e, auto&& f) { f(e.index, Pad<4>{}); }
};

// The 8 bytes before an instance's data (spec: oni.md#oni-3-7): index << 8 | 1, then the file id.
struct InstanceHeader {
  static constexpr std::size_t kSize = 0x08;
  std::uint32_t id = 0, file_id = 0;
  static constexpr void fields(auto& h, auto&& f) { f(h.id, h.file_id); }
};

static_assert(kRecordSizeMatches<FileHeader> && kRecordSizeMatches<Descriptor> && kRecordSizeMatches<TemplateEntry> &&
              kRecordSizeMatches<NameEntry> && kRecordSizeMatches<InstanceHeader>);
static_assert(FileHeader::kSize == kHeaderSize && Descriptor::kSize == kDescriptorSize &&
              TemplateEntry::kSize == kTemplateEntrySize && NameEntry::kSize == kNameEntrySize &&
              InstanceHeader::kSize == kInstanceHeaderSize);

class InstanceFile {
 public:
  // `display` names the file in errors.
  static Result<InstanceFile> open(ByteView bytes, std::string display);
  InstanceFile() = default;

  [[nodiscard]] const FileHeader& header() const noexcept { return h_; }
  [[nodiscard]] bool is_oni() const noexcept { return h_.version == kVersionVR32; }
  [[nodiscard]] std::uint32_t instance_count() const noexcept { return h_.instance_count; }
  [[nodiscard]] std::uint32_t template_count() const noexcept { return h_.template_count; }
  [[nodiscard]] std::uint32_t name_count() const noexcept { return h_.name_count; }
  [[nodiscard]] const std::string& display() const noexcept { return display_; }
  [[nodiscard]] ByteView bytes() const noexcept { return r_.data(); }
  // Bytes the header's VR32 data length claims past the end of the file (0-0x1F; data_size is
  // already cut to the file).
  [[nodiscard]] std::uint32_t data_overrun() const noexcept { return data_overrun_; }

  // Descriptor i, i < instance_count (a table open() checked lies in the file; an index outside
  // stops the program). Always inlined: the walk's hot path (out of line, it was a sixth of `oni check`).
  // The tables are read as little-endian, a constant: open() reads the file with a little-endian
  // reader and refuses the big-endian 31RV (spec: oni.md#oni-3-3).
  [[nodiscard]] [[gnu::always_inline]] Descriptor descriptor(std::uint32_t i) const noexcept { return descriptors_.in_order<Endian::little>(i); }
  [[nodiscard]] TemplateEntry template_entry(std::uint32_t i) const noexcept { return template_entries_.in_order<Endian::little>(i); }
  [[nodiscard]] [[gnu::always_inline]] std::uint32_t name_entry_index(std::uint32_t i) const noexcept { return name_entries_.in_order<Endian::little>(i).index; }
  [[nodiscard]] std::uint64_t descriptor_offset(std::uint32_t i) const noexcept { return kHeaderSize + std::uint64_t(i) * kDescriptorSize; }
  // The full name (tag included) of descriptor i; "" when unnamed. Errors: offset past the
  // name block, no NUL before the block's end.
  [[nodiscard]] Result<std::string_view> name(std::uint32_t i) const;
  // Whether d's name is well formed (offset inside the name block, a NUL within the block and the
  // 64 KiB scan limit), and then the name in `name`; when not, name_at says why. Inline: the
  // validation's hot path (a std::optional<std::string_view> result went through the stack as two
  // stores read back as one load, a store-forwarding stall per descriptor).
  [[nodiscard]] [[gnu::always_inline]] bool name_if_valid(const Descriptor& d, std::string_view& name) const noexcept {
    if (d.name_offset >= h_.name_size) return false;
    const auto* p = reinterpret_cast<const char*>(r_.data().data()) + h_.name_offset + d.name_offset;
    const std::size_t left = h_.name_size - d.name_offset;
    const char* nul = find_nul(p, left < kMaxNameScan ? left : kMaxNameScan);
    if (nul == nullptr) return false;
    name = std::string_view(p, static_cast<std::size_t>(nul - p));
    return true;
  }
  // The name at a name-block offset, or an error.
  [[nodiscard]] Result<std::string_view> name_at(std::uint32_t name_offset, std::uint32_t i) const;
  // Whether d's instance bytes [data_offset - 8, + size) lie inside the data block (the check
  // instance_bytes makes, without building a Result: the validation's hot path).
  [[nodiscard]] bool instance_in_data(const Descriptor& d) const noexcept {
    return d.data_offset >= kInstanceHeaderSize && range_ok(d.data_offset - kInstanceHeaderSize, d.size, h_.data_size);
  }
  // Instance bytes [data_offset - 8, + size) inside the data block; error if outside.
  [[nodiscard]] Result<ByteView> instance_bytes(std::uint32_t i) const;
  // Absolute file offset of descriptor i's instance header.
  [[nodiscard]] std::uint64_t instance_file_offset(const Descriptor& d) const noexcept {
    return std::uint64_t(h_.data_offset) + d.data_offset - kInstanceHeaderSize;
  }
  // Binary search of the sorted name directory (spec: oni.md#oni-3-8). VR31 only.
  [[nodiscard]] std::optional<std::uint32_t> find(std::string_view full_name) const;
  // The VR32 raw block (empty for VR31 or when out of the file).
  [[nodiscard]] ByteView raw_block() const noexcept;
  // An error naming this file.
  [[nodiscard]] Error error(std::string structure, std::uint64_t offset, std::string message) const;

  // Every rule of spec oni.md#oni-3 for this file alone (header notes, descriptors, name
  // directory, template entries, instance headers). `expected_file_id` comes from the file
  // name when it parses (a mismatch is a warning).
  // `facts`, when given, receives what the descriptor pass learns on its way, so that callers
  // need not walk the table or scan the name block again.
  struct DescriptorFacts {
    std::vector<std::string_view>* names = nullptr;  // per descriptor: its name ("" when unnamed or bad)
    std::vector<std::uint8_t>* has_data = nullptr;   // per descriptor: not a placeholder, bytes in the data block, size >= 8
    std::uint32_t placeholders = 0;                  // descriptors with flag 2
  };
  void validate(Diagnostics& out, std::optional<std::uint32_t> expected_file_id, DescriptorFacts* facts = nullptr) const;

 private:
  ByteReader r_;
  FileHeader h_;
  RecordTable<Descriptor> descriptors_;         // spec: oni.md#oni-3-5
  RecordTable<NameEntry> name_entries_;         // spec: oni.md#oni-3-8
  RecordTable<TemplateEntry> template_entries_;  // spec: oni.md#oni-3-4: right after the name directory
  std::string display_;
  std::uint32_t data_overrun_ = 0;
};

// A descriptor's position in errors: "instance[5] TXMP TXMPfoo".
std::string instance_label(std::uint32_t index, std::uint32_t tag, std::string_view name);

}  // namespace assay::oni
