// The instance file reader (spec: oni.md#oni-3; seed: TMiGame_InstanceFile_LoadHeader 0x420ff0).
#include "assay/formats/oni/instance_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <vector>

#include "assay/formats/oni/names.h"

namespace assay::oni {

std::string instance_label(std::uint32_t index, std::uint32_t tag, std::string_view name) {
  return fmt::format("instance[{}] {} {}", index, tag_string(tag), name.empty() ? "(unnamed)" : name);
}

Error InstanceFile::error(std::string structure, std::uint64_t offset, std::string message) const {
  Error e = make_error(kFormat, structure, offset, std::move(message));
  e.file = display_;
  return e;
}

// The end of the three tables (spec: oni.md#oni-3-4), in 64 bits: cannot wrap for u32 counts.
static std::uint64_t tables_end(const FileHeader& h) {
  return kHeaderSize + std::uint64_t(h.instance_count) * kDescriptorSize +
         std::uint64_t(h.name_count) * kNameEntrySize + std::uint64_t(h.template_count) * kTemplateEntrySize;
}

Result<InstanceFile> InstanceFile::open(ByteView bytes, std::string display) {
  InstanceFile f;
  f.display_ = std::move(display);
  f.r_ = ByteReader(bytes, Endian::little, kFormat);
  if (bytes.size() < kHeaderSize)
    return f.error("header", 0, fmt::format("file is 0x{:x} bytes, shorter than the 0x40-byte header", bytes.size()));
  ASSAY_TRY(f.h_, read_record<FileHeader>(f.r_, 0, "header"));
  const FileHeader& h = f.h_;
  // spec: oni.md#oni-3-3
  if (h.version == 0x31335256) return f.error("header", 0x08, "big-endian instance file, not supported");
  if (h.version == kVersionVR33) {
    Error e = f.error("header", 0x08, "unsupported version VR33 (OniX)");
    e.kind = ErrorKind::unsupported;
    return e;
  }
  if (h.version != kVersionVR31 && h.version != kVersionVR32)
    return f.error("header", 0x08, fmt::format("unknown version 0x{:08x} (expected VR31 or VR32)", h.version));
  // spec: oni.md#oni-3-1: the engine refuses any other record size (VR31).
  if (h.version == kVersionVR31 &&
      (h.header_size != 0x40 || h.descriptor_size != 0x14 || h.template_entry_size != 0x10 || h.name_entry_size != 0x08))
    return f.error("header", 0x0C,
                   fmt::format("record sizes 0x{:x}/0x{:x}/0x{:x}/0x{:x}, must be 0x40/0x14/0x10/0x08", h.header_size,
                               h.descriptor_size, h.template_entry_size, h.name_entry_size));
  if (h.instance_count >= kMaxInstances)
    return f.error("header", 0x14, fmt::format("instance count {} cannot be linked (ids hold 24-bit indices)", h.instance_count));
  if (h.name_count > h.instance_count)
    return f.error("header", 0x18, fmt::format("name directory count {} above instance count {}", h.name_count, h.instance_count));
  const std::uint64_t tend = tables_end(h);
  if (tend > bytes.size())
    return f.error("tables", kHeaderSize, fmt::format("descriptors, name directory and template entries end at 0x{:x}, past the file end 0x{:x}", tend, bytes.size()));
  const std::uint64_t names_at = kHeaderSize + std::uint64_t(h.instance_count) * kDescriptorSize;
  ASSAY_TRY(f.descriptors_, RecordTable<Descriptor>::open(f.r_, kHeaderSize, h.instance_count, "descriptors"));
  ASSAY_TRY(f.name_entries_, RecordTable<NameEntry>::open(f.r_, names_at, h.name_count, "name directory"));
  ASSAY_TRY(f.template_entries_, RecordTable<TemplateEntry>::open(f.r_, names_at + std::uint64_t(h.name_count) * kNameEntrySize,
                                                                   h.template_count, "template entries"));
  // OniSplit's -create writer stores a .oni data length rounded up to 32 but stops writing at the
  // last real byte (samples/oni/README.md): accept up to 0x1F missing bytes, reading only what is there.
  if (h.version == kVersionVR32 && h.data_offset <= bytes.size() && !range_ok(h.data_offset, h.data_size, bytes.size()) &&
      std::uint64_t(h.data_offset) + h.data_size - bytes.size() <= kDataRoundingSlack) {
    f.data_overrun_ = static_cast<std::uint32_t>(std::uint64_t(h.data_offset) + h.data_size - bytes.size());
    f.h_.data_size = static_cast<std::uint32_t>(bytes.size() - h.data_offset);
  } else if (!range_ok(h.data_offset, h.data_size, bytes.size()))
    return f.error("data block", 0x20, fmt::format("block 0x{:x}+0x{:x} outside the file (0x{:x} bytes)", h.data_offset, h.data_size, bytes.size()));
  if (!range_ok(h.name_offset, h.name_size, bytes.size()))
    return f.error("name block", 0x28, fmt::format("block 0x{:x}+0x{:x} outside the file (0x{:x} bytes)", h.name_offset, h.name_size, bytes.size()));
  return f;
}

Result<std::string_view> InstanceFile::name_at(std::uint32_t name_offset, std::uint32_t i) const {
  if (name_offset >= h_.name_size)
    return error(fmt::format("descriptor[{}]", i), descriptor_offset(i) + 8,
                 fmt::format("name offset 0x{:x} past the name block (0x{:x} bytes)", name_offset, h_.name_size));
  const auto* p = reinterpret_cast<const char*>(r_.data().data()) + h_.name_offset + name_offset;
  // Scans stop at the block's end, and after 64 KiB so that hostile files stay linear.
  const std::size_t left = h_.name_size - name_offset, avail = std::min<std::size_t>(left, kMaxNameScan);
  const char* nul = find_nul(p, avail);
  if (nul == nullptr)
    return error(fmt::format("descriptor[{}]", i), std::uint64_t(h_.name_offset) + name_offset,
                 avail < left ? "name has no NUL within 65,536 bytes" : "name has no NUL before the end of the name block");
  return std::string_view(p, static_cast<std::size_t>(nul - p));
}

Result<std::string_view> InstanceFile::name(std::uint32_t i) const {
  const Descriptor d = descriptor(i);
  if (d.unnamed()) return std::string_view{};
  return name_at(d.name_offset, i);
}

Result<ByteView> InstanceFile::instance_bytes(std::uint32_t i) const {
  const Descriptor d = descriptor(i);
  if (!instance_in_data(d))
    return error(fmt::format("descriptor[{}]", i), descriptor_offset(i) + 4,
                 fmt::format("instance data 0x{:x}-8 size 0x{:x} outside the data block (0x{:x} bytes)", d.data_offset,
                             d.size, h_.data_size));
  return r_.data().subspan(std::uint64_t(h_.data_offset) + d.data_offset - kInstanceHeaderSize, d.size);
}

std::optional<std::uint32_t> InstanceFile::find(std::string_view full) const {
  std::uint32_t lo = 0, hi = h_.name_count;
  while (lo < hi) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    const std::uint32_t idx = name_entry_index(mid);
    if (idx >= h_.instance_count) return std::nullopt;
    auto n = name(idx);
    if (!n) return std::nullopt;
    const int c = n->compare(full);  // byte order, as strcmp (spec: oni.md#oni-3-8)
    if (c == 0) return idx;
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  return std::nullopt;
}

ByteView InstanceFile::raw_block() const noexcept {
  if (!is_oni() || !range_ok(h_.raw_offset, h_.raw_size, r_.size())) return {};
  return r_.data().subspan(h_.raw_offset, h_.raw_size);
}

}  // namespace assay::oni
