// spec: oni.md#oni-10-4 (level files), oni.md#oni-8 (.oni).
#include "assay/formats/oni/writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "assay/formats/oni/names.h"

namespace assay::oni {

std::uint32_t CompanionWriter::add(ByteView chunk) {
  const auto at = static_cast<std::uint32_t>(buf_.size());
  buf_.insert(buf_.end(), chunk.begin(), chunk.end());
  buf_.resize((buf_.size() + 31) / 32 * 32, 0);
  return at;
}

namespace {

Error writer_error(std::string m) { return make_error(kFormat, "writer", kNoOffset, std::move(m)); }

struct Built {
  ByteBuffer data, names;
  std::vector<std::uint32_t> data_off, name_off, size;
};

Result<Built> build_blocks(const std::vector<InstanceSpec>& insts, std::uint32_t file_id) {
  Built b;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < insts.size(); ++i) {
    const InstanceSpec& s = insts[i];
    const bool ph = (s.flags & kFlagPlaceholder) != 0;
    std::uint32_t no = 0;
    if (!s.name.empty()) {
      if (!seen.insert(s.name).second) return writer_error(fmt::format("duplicate name {}", s.name));
      no = static_cast<std::uint32_t>(b.names.size());
      b.names.insert(b.names.end(), s.name.begin(), s.name.end());
      b.names.push_back(0);
    } else if (ph) {
      return writer_error(fmt::format("instance {}: placeholder without a name", i));
    }
    b.name_off.push_back(no);
    if (ph) {
      b.data_off.push_back(0);
      b.size.push_back(0);
      continue;
    }
    if (s.data.size() < kInstanceHeaderSize) return writer_error(fmt::format("instance {}: data smaller than the 8-byte header", i));
    const std::size_t at = b.data.size();
    b.data.insert(b.data.end(), s.data.begin(), s.data.end());
    for (std::size_t k = b.data.size(); k % 32 != 0; ++k) b.data.push_back(((k - at) & 1) ? 0xDE : 0xAD);
    store_in(b.data, at, InstanceHeader{static_cast<std::uint32_t>(i << 8 | 1), file_id});
    b.data_off.push_back(static_cast<std::uint32_t>(at + kInstanceHeaderSize));
    b.size.push_back(static_cast<std::uint32_t>(b.data.size() - at));
  }
  return b;
}

// The header with its counts; the block offsets and sizes are filled in at the end.
FileHeader header(std::uint64_t checksum, std::uint32_t version, std::uint32_t n, std::uint32_t names, std::uint32_t templates) {
  FileHeader h;
  h.checksum = checksum;
  h.version = version;
  h.header_size = FileHeader::kSize, h.descriptor_size = Descriptor::kSize;
  h.template_entry_size = TemplateEntry::kSize, h.name_entry_size = NameEntry::kSize;
  h.instance_count = n, h.name_count = names, h.template_count = templates;
  return h;
}

void put_descriptors(ByteWriter& w, const std::vector<InstanceSpec>& insts, const Built& b) {
  for (std::size_t i = 0; i < insts.size(); ++i) {
    const auto flags = static_cast<std::uint32_t>(insts[i].flags | (insts[i].name.empty() ? kFlagUnnamed : 0)) & 0xFFFF;
    put_record(w, Descriptor{insts[i].tag, b.data_off[i], b.name_off[i], b.size[i], flags});
  }
}

}  // namespace

Result<ByteBuffer> write_level_file(const LevelFileSpec& spec) {
  if (spec.instances.size() >= kMaxInstances) return writer_error("too many instances");
  ASSAY_TRY(Built b, build_blocks(spec.instances, spec.file_id));
  std::map<std::uint32_t, std::uint32_t> counts;
  for (const auto& s : spec.instances) {
    if (!spec.template_checksums.count(s.tag)) return writer_error(fmt::format("no template checksum for {}", tag_string(s.tag)));
    ++counts[s.tag];
  }
  std::vector<std::uint32_t> order;  // the name directory, sorted by name in byte order
  for (std::uint32_t i = 0; i < spec.instances.size(); ++i)
    if (!spec.instances[i].name.empty()) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t c) { return spec.instances[a].name < spec.instances[c].name; });
  ByteWriter w;
  const auto n = static_cast<std::uint32_t>(spec.instances.size());
  FileHeader h = header(spec.checksum, kVersionVR31, n, static_cast<std::uint32_t>(order.size()), static_cast<std::uint32_t>(counts.size()));
  put_record(w, h);
  put_descriptors(w, spec.instances, b);
  for (std::uint32_t i : order) put_record(w, NameEntry{i});
  for (const auto& [tag, cnt] : counts) put_record(w, TemplateEntry{spec.template_checksums.at(tag), tag, cnt});
  w.align(32);
  h.data_offset = static_cast<std::uint32_t>(w.size());
  h.data_size = static_cast<std::uint32_t>(b.data.size());
  w.bytes(b.data);
  w.align(32);
  h.name_offset = static_cast<std::uint32_t>(w.size());
  h.name_size = static_cast<std::uint32_t>(b.names.size());
  w.bytes(b.names);
  ByteBuffer out = w.take();
  store_in(out, 0, h);
  return out;
}

Result<ByteBuffer> write_oni_file(const OniFileSpec& spec) {
  if (spec.instances.empty()) return writer_error(".oni file without a main instance");
  ASSAY_TRY(Built b, build_blocks(spec.instances, 0));
  ByteWriter w;
  FileHeader h = header(spec.checksum, kVersionVR32, static_cast<std::uint32_t>(spec.instances.size()), 0, 0);
  put_record(w, h);
  put_descriptors(w, spec.instances, b);
  w.align(32);
  h.name_offset = static_cast<std::uint32_t>(w.size());
  h.name_size = static_cast<std::uint32_t>(b.names.size());
  w.bytes(b.names);
  w.align(32);
  h.data_offset = static_cast<std::uint32_t>(w.size());
  h.data_size = static_cast<std::uint32_t>(b.data.size());
  w.bytes(b.data);
  w.align(32);
  h.raw_offset = static_cast<std::uint32_t>(w.size());
  h.raw_size = static_cast<std::uint32_t>(spec.raw_block.size());
  w.bytes(spec.raw_block);
  ByteBuffer out = w.take();
  store_in(out, 0, h);
  return out;
}

}  // namespace assay::oni
