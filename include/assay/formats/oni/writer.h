// Writers: VR31 level files, VR32 .oni files and .raw/.sep companions (spec: oni.md#oni-10-4, oni.md#oni-8).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/oni/instance_file.h"

namespace assay::oni {

struct InstanceSpec {
  std::uint32_t tag = 0;
  std::string name;          // full name, tag included ("TXMPfoo"); empty = unnamed (flag 1)
  std::uint16_t flags = 0;   // kFlagPlaceholder, kFlagDuplicate, ...; kFlagUnnamed follows `name`
  ByteBuffer data;           // from the 8-byte header on; the writer sets id and file id and pads
                             // to 32 with AD DE. Empty for placeholders.
};

struct LevelFileSpec {
  std::uint64_t checksum = kChecksumV10;  // total template checksum
  std::uint32_t file_id = 1;
  std::map<std::uint32_t, std::uint64_t> template_checksums;  // every tag used must be listed
  std::vector<InstanceSpec> instances;
};

// Fails on a tag without a checksum, a placeholder without a name, duplicate names, or an
// instance smaller than its header.
Result<ByteBuffer> write_level_file(const LevelFileSpec& spec);

struct OniFileSpec {
  std::uint64_t checksum = kChecksumV10;
  std::vector<InstanceSpec> instances;  // [0] is the main instance
  ByteBuffer raw_block;                 // starts with 32 junk bytes when not empty
};
Result<ByteBuffer> write_oni_file(const OniFileSpec& spec);

// A .raw/.sep file (or a .oni raw block): 32 zero bytes, then each chunk 32-aligned.
class CompanionWriter {
 public:
  CompanionWriter() : buf_(32, 0) {}
  std::uint32_t add(ByteView chunk);  // returns the chunk's offset
  [[nodiscard]] const ByteBuffer& bytes() const { return buf_; }
  [[nodiscard]] bool empty() const { return buf_.size() == 32; }

 private:
  ByteBuffer buf_;
};

}  // namespace assay::oni
