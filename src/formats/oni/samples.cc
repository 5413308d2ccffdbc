// The demo's synthetic level set (make-samples), built with assay's own writer. Counts by
// construction (docs/cli.md): level 0: 6 instances, 1 placeholder, 5 links, 1 unresolved;
// level 1: 5 instances, 2 placeholders, 9 links with level 0, 2 into level 0, 2 unresolved.
#include <fmt/format.h>

#include "assay/core/output.h"
#include "assay/formats/oni/oni.h"

namespace assay::oni {

std::string sample_layouts_text() {
  return "# assay layouts v1\n"
         "# source: synthetic samples (spec oni.md#oni-5-3 illustrations, not Oni's layouts)\n"
         "ZPTS 0x00000000000000a1 6 02 02 05 14 04 06 07 02 05 03 02 06 08 06  # point array\n"
         "ZTEX 0x00000000000000a2 4 02 02 05 10 04 06 02 03 03 09 4d 4e 41 5a 09 00 00 00 00 0a 06  # texture-like\n"
         "ZLST 0x00000000000000a3 0x0 02 02 05 16 04 06 07 03 09 00 00 00 00 08 06  # link list\n"
         "ZANM 0x00000000000000a4 2 02 02 05 18 04 06 06  # leaf, 0x20 bytes\n"
         "TXMP 0x0000000891187581 4 02 02 05 80 04 06 02 03 03 02 09 4e 41 58 54 09 50 4d 58 54 02 02 02 02 02 06"
         "  # Texture Map (synthetic layout after spec oni.md#oni-9-1)\n";
}

namespace {

struct Inst {
  ByteBuffer b;
  explicit Inst(std::size_t n) : b(n, 0) {}
  Inst& u32(std::size_t o, std::uint32_t v) { store<std::uint32_t>(b.data() + o, v, Endian::little); return *this; }
  Inst& u16(std::size_t o, std::uint16_t v) { store<std::uint16_t>(b.data() + o, v, Endian::little); return *this; }
};

std::uint32_t link(std::uint32_t index) { return index << 8 | 1; }

std::map<std::uint32_t, std::uint64_t> checksums() {
  return {{make_tag("ZPTS"), 0xa1}, {make_tag("ZTEX"), 0xa2}, {make_tag("ZLST"), 0xa3}, {make_tag("ZANM"), 0xa4}, {make_tag("TXMP"), 0x891187581ull}};
}

InstanceSpec spec(const char (&tag)[5], std::string name, ByteBuffer data, std::uint16_t flags = 0) {
  return {make_tag(tag), name.empty() ? "" : std::string(tag) + name, flags, std::move(data)};
}

ByteBuffer zlst(std::initializer_list<std::uint32_t> links) {
  Inst z(0x20 + 4 * links.size());
  z.u16(0x1E, static_cast<std::uint16_t>(links.size()));
  std::size_t o = 0x20;
  for (std::uint32_t l : links) z.u32(o, l), o += 4;
  return z.b;
}

ByteBuffer txmp(std::uint32_t raw) {
  Inst t(0xB0);
  t.u32(0x88, 0).u16(0x8C, 4).u16(0x8E, 4).u32(0x90, 1).u32(0x9C, raw);
  return t.b;
}

}  // namespace

Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir) {
  CompanionWriter raw;
  ByteBuffer pixels;  // 4x4 BGR555: a red/green/blue/white gradient row pattern
  const std::uint16_t px[4] = {0x7C00, 0x03E0, 0x001F, 0x7FFF};
  for (int i = 0; i < 16; ++i) pixels.push_back(static_cast<std::uint8_t>(px[i % 4])), pixels.push_back(static_cast<std::uint8_t>(px[i % 4] >> 8));
  const std::uint32_t tex_at = raw.add(pixels);
  const ByteBuffer blob(40, 0x5A);
  const std::uint32_t blob_at = raw.add(blob);
  LevelFileSpec l0;
  l0.file_id = make_file_id(0, 0);
  l0.template_checksums = checksums();
  Inst pts(0x38);
  pts.u32(0x1C, 2);
  l0.instances = {
      spec("ZANM", "walk", Inst(0x20).b),
      spec("ZTEX", "brick", Inst(0x2C).u32(0x20, link(0)).u32(0x24, link(2)).u32(0x28, blob_at).b),
      spec("ZPTS", "", pts.b),
      spec("TXMP", "brick", txmp(tex_at)),
      spec("ZLST", "menu", zlst({link(1), link(3), link(5)})),
      spec("ZANM", "level1_only", {}, kFlagPlaceholder),
  };
  LevelFileSpec l1;
  l1.file_id = make_file_id(1, suffix_hash("X"));
  l1.template_checksums = checksums();
  l1.instances = {
      spec("ZANM", "walk", {}, kFlagPlaceholder),
      spec("ZANM", "level1_only", Inst(0x20).b),
      spec("ZLST", "list", zlst({link(0), link(1), link(3), link(4)})),
      spec("ZANM", "missing", {}, kFlagPlaceholder),
      spec("TXMP", "brick", txmp(0)),
  };
  ASSAY_TRY(ByteBuffer d0, write_level_file(l0));
  ASSAY_TRY(ByteBuffer d1, write_level_file(l1));
  const std::string lt = sample_layouts_text();
  ASSAY_CHECK(write_file_atomic(dir / "level0_Final.dat", d0, true));
  ASSAY_CHECK(write_file_atomic(dir / "level0_Final.raw", raw.bytes(), true));
  ASSAY_CHECK(write_file_atomic(dir / "level1_X.dat", d1, true));
  ASSAY_CHECK(write_file_atomic(dir / kLayoutsBeside, ByteView(reinterpret_cast<const std::uint8_t*>(lt.data()), lt.size()), true));
  return std::vector<std::string>{"level0_Final.dat", "level0_Final.raw", "level1_X.dat", kLayoutsBeside};
}

}  // namespace assay::oni
