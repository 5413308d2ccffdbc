#include "assay/formats/igarchive/prefix.h"

#include <algorithm>

namespace assay::igarchive {

Result<ByteBuffer> read_file_prefix(const Archive& a, const FileEntry& f, std::uint64_t max_bytes) {
  const std::uint64_t want = std::min<std::uint64_t>(f.length, max_bytes);
  if (f.compression == Compression::stored) {
    if (!range_ok(f.offset, want, a.data().size()))
      return a.error("file", f.offset, "stored file runs past the end of the archive");
    const ByteView src = a.data().subspan(f.offset, want);
    return ByteBuffer(src.begin(), src.end());
  }
  ASSAY_TRY(std::vector<Block> blocks, a.blocks(f));
  if (blocks.empty() || want == 0) return ByteBuffer{};
  ByteBuffer out(blocks.front().usize);  // one block: at most the block size (checked by blocks())
  BlockDecoder dec;
  ASSAY_CHECK(a.read_block(f, blocks.front(), out, dec));
  if (out.size() > want) out.resize(want);
  return out;
}

}  // namespace assay::igarchive
