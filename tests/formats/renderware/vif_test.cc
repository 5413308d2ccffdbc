// The VIF1 interpreter on hand-made streams: every UNPACK format (vn/vl, USN), FLG with the
// double buffer, write cycles, mask, modes, the codes that carry data; each expected word is
// worked out by hand from the EE User's Manual's VIF chapter. Then the DMA chain walk, and
// native packets cut short or mutated: errors, never a crash.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>

#include "assay/formats/renderware/model.h"
#include "../../../src/formats/renderware/native_geometry.h"
#include "../../../src/formats/renderware/native_vif.h"
#include "testing/testing.h"

namespace assay::rw::native {
namespace {

using Words = std::vector<std::uint32_t>;

VifStream stream_of(const Words& w) {
  ByteBuffer b(w.size() * 4);
  std::memcpy(b.data(), w.data(), b.size());
  VifStream s;
  s.append(b, 0x1000);
  return s;
}

// Runs `w` and returns the machine (failing the test on an error).
VifMachine run(const Words& w, std::vector<std::uint32_t>* tops = nullptr) {
  VifMachine m;
  const VifStream s = stream_of(w);
  auto r = m.run(s, [&](const VifMachine& v, std::uint64_t) -> Result<void> {
    if (tops) tops->push_back(v.top());
    return {};
  });
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return m;
}

constexpr std::uint32_t kCycle11 = 0x01000101;  // STCYCL CL 1 WL 1
std::uint32_t unpack(std::uint32_t cmd, std::uint32_t num, std::uint32_t addr, bool usn = false, bool flg = false) {
  return cmd << 24 | num << 16 | (usn ? 0x4000u : 0u) | (flg ? 0x8000u : 0u) | addr;
}
using Q = VifMachine::Qword;

TEST(Vif, S32ReplicatesToEveryField) {
  const auto m = run({kCycle11, unpack(0x60, 2, 0), 0x11111111, 0x22222222});
  EXPECT_EQ(m.qword(0), (Q{0x11111111, 0x11111111, 0x11111111, 0x11111111}));
  EXPECT_EQ(m.qword(1), (Q{0x22222222, 0x22222222, 0x22222222, 0x22222222}));
}

TEST(Vif, S16SignedAndUnsigned) {
  // halfwords 0x8001 then 0x7FFF in one word
  auto m = run({kCycle11, unpack(0x61, 2, 0), 0x7FFF8001});
  EXPECT_EQ(m.qword(0)[3], 0xFFFF8001u);
  EXPECT_EQ(m.qword(1)[0], 0x00007FFFu);
  m = run({kCycle11, unpack(0x61, 2, 0, true), 0x7FFF8001});
  EXPECT_EQ(m.qword(0)[2], 0x00008001u);
}

TEST(Vif, S8PaddedToAWord) {
  // bytes 80 01 FF (+1 pad), then a NOP that must not be eaten as data
  const auto m = run({kCycle11, unpack(0x62, 3, 0), 0x00FF0180, 0x00000000, unpack(0x60, 1, 5), 7});
  EXPECT_EQ(m.qword(0)[1], 0xFFFFFF80u);
  EXPECT_EQ(m.qword(1)[0], 1u);
  EXPECT_EQ(m.qword(2)[3], 0xFFFFFFFFu);
  EXPECT_EQ(m.qword(5)[0], 7u);
}

TEST(Vif, V2Formats) {
  const std::uint32_t one = std::bit_cast<std::uint32_t>(1.0f), two = std::bit_cast<std::uint32_t>(2.0f);
  auto m = run({kCycle11, unpack(0x64, 1, 3), one, two});
  EXPECT_EQ(m.qword(3), (Q{one, two, 0, 0}));  // z, w untouched
  m = run({kCycle11, unpack(0x65, 2, 0), 0xFFFE0001, 0xFFFC0003});  // 1, -2, 3, -4
  EXPECT_EQ(m.qword(0), (Q{1, 0xFFFFFFFE, 0, 0}));
  EXPECT_EQ(m.qword(1), (Q{3, 0xFFFFFFFC, 0, 0}));
  m = run({kCycle11, unpack(0x66, 2, 0), 0x7F028101});  // bytes 01 81 02 7F
  EXPECT_EQ(m.qword(0), (Q{1, 0xFFFFFF81, 0, 0}));
  EXPECT_EQ(m.qword(1), (Q{2, 0x7F, 0, 0}));
}

TEST(Vif, V3Formats) {
  auto m = run({kCycle11, unpack(0x68, 1, 0), 5, 6, 7});
  EXPECT_EQ(m.qword(0), (Q{5, 6, 7, 0}));
  // halfwords 1, 0xFFFF, 0x8000 (+ pad); the next code follows the padded word
  m = run({kCycle11, unpack(0x69, 1, 0), 0xFFFF0001, 0x00008000, unpack(0x60, 1, 1), 9});
  EXPECT_EQ(m.qword(0), (Q{1, 0xFFFFFFFF, 0xFFFF8000, 0}));
  EXPECT_EQ(m.qword(1)[0], 9u);
  // bytes 7F 80 01 | 02 FE 00 (+2 pad)
  m = run({kCycle11, unpack(0x6A, 2, 0), 0x0201807F, 0x000000FE});
  EXPECT_EQ(m.qword(0), (Q{0x7F, 0xFFFFFF80, 1, 0}));
  EXPECT_EQ(m.qword(1), (Q{2, 0xFFFFFFFE, 0, 0}));
}

TEST(Vif, V4Formats) {
  auto m = run({kCycle11, unpack(0x6C, 1, 0), 1, 2, 3, 4});
  EXPECT_EQ(m.qword(0), (Q{1, 2, 3, 4}));
  m = run({kCycle11, unpack(0x6D, 1, 0), 0x80000001, 0x0002FFFF});
  EXPECT_EQ(m.qword(0), (Q{1, 0xFFFF8000, 0xFFFFFFFF, 2}));
  m = run({kCycle11, unpack(0x6D, 1, 0, true), 0x80000001, 0x0002FFFF});
  EXPECT_EQ(m.qword(0), (Q{1, 0x8000, 0xFFFF, 2}));
  m = run({kCycle11, unpack(0x6E, 1, 0, true), 0xFF80017F});
  EXPECT_EQ(m.qword(0), (Q{0x7F, 1, 0x80, 0xFF}));
  m = run({kCycle11, unpack(0x6E, 1, 0), 0xFF80017F});
  EXPECT_EQ(m.qword(0), (Q{0x7F, 1, 0xFFFFFF80, 0xFFFFFFFF}));
}

TEST(Vif, V4_5ExpandsRgba5551) {
  // 0x8000 | B 31 << 10 | G 1 << 5 | R 2, then R 31 alone
  const std::uint32_t first = 0x8000 | 31 << 10 | 1 << 5 | 2;
  const auto m = run({kCycle11, unpack(0x6F, 2, 0), 0x001F0000 | first});
  EXPECT_EQ(m.qword(0), (Q{16, 8, 248, 128}));
  EXPECT_EQ(m.qword(1), (Q{248, 0, 0, 0}));
}

TEST(Vif, FlgAddsTopsAndTheDoubleBufferFlips) {
  std::vector<std::uint32_t> tops;
  // BASE 0x10, OFFSET 0x20: TOPS = 0x10; after the first MSCAL, TOPS = 0x30
  const auto m = run({0x03000010, 0x02000020, kCycle11, unpack(0x60, 1, 1, false, true), 0xA, 0x04000007,
                      0x14000000, unpack(0x60, 1, 1, false, true), 0xB, 0x17000000},
                     &tops);
  EXPECT_EQ(m.qword(0x11)[0], 0xAu);
  EXPECT_EQ(m.qword(0x31)[0], 0xBu);
  EXPECT_EQ(tops, (std::vector<std::uint32_t>{0x10, 0x30}));
  EXPECT_EQ(m.itop(), 7u);
  EXPECT_EQ(m.batches(), 2u);
}

TEST(Vif, SkippingWriteStepsByCl) {
  const auto m = run({0x01000104, unpack(0x60, 3, 0), 1, 2, 3});  // CL 4, WL 1
  EXPECT_EQ(m.qword(0)[0], 1u);
  EXPECT_EQ(m.qword(4)[0], 2u);
  EXPECT_EQ(m.qword(8)[0], 3u);
  EXPECT_EQ(m.qword(1)[0], 0u);
}

TEST(Vif, FillingWriteTakesTheRowThroughTheMask) {
  // CL 1, WL 2: four vectors from two inputs; the mask sends cycle 1's fields to the row
  const auto m = run({0x30000000, 9, 9, 9, 9, 0x20000000, 0x5500, 0x01000201, unpack(0x7C, 4, 0), 1, 2, 3, 4, 5, 6, 7, 8});
  EXPECT_EQ(m.qword(0), (Q{1, 2, 3, 4}));
  EXPECT_EQ(m.qword(1), (Q{9, 9, 9, 9}));
  EXPECT_EQ(m.qword(2), (Q{5, 6, 7, 8}));
  EXPECT_EQ(m.qword(3), (Q{9, 9, 9, 9}));
}

TEST(Vif, MaskColumnAndWriteProtect) {
  // cycle 0: x from data, y from the column (2), z protected (3), w from the row (1)
  const std::uint32_t mask = 0u | 2u << 2 | 3u << 4 | 1u << 6;
  const auto m = run({kCycle11, unpack(0x6C, 1, 0), 0xAA, 0xAA, 0xAA, 0xAA, 0x30000000, 1, 2, 3, 4, 0x31000000, 50, 60,
                      70, 80, 0x20000000, mask, unpack(0x7C, 1, 0), 5, 6, 7, 8});
  EXPECT_EQ(m.qword(0), (Q{5, 50, 0xAA, 4}));
}

TEST(Vif, OffsetAndDifferenceModes) {
  auto m = run({0x30000000, 1, 2, 3, 4, 0x05000001, kCycle11, unpack(0x6C, 1, 0), 10, 20, 30, 40});
  EXPECT_EQ(m.qword(0), (Q{11, 22, 33, 44}));
  m = run({0x30000000, 0, 0, 0, 0, 0x05000002, kCycle11, unpack(0x6C, 2, 0), 1, 1, 1, 1, 1, 1, 1, 1});
  EXPECT_EQ(m.qword(0), (Q{1, 1, 1, 1}));
  EXPECT_EQ(m.qword(1), (Q{2, 2, 2, 2}));
}

TEST(Vif, CodesWithDataAreSkipped) {
  // MPG of one instruction (8 bytes), DIRECT of one qword, MARK, FLUSH, MSKPATH3
  const auto m = run({0x4A010000, 0xDEAD, 0xBEEF, 0x50000001, 1, 2, 3, 4, 0x07000042, 0x11000000, 0x06000000, kCycle11,
                      unpack(0x60, 1, 0), 3});
  EXPECT_EQ(m.qword(0)[0], 3u);
  EXPECT_EQ(m.mark(), 0x42u);
}

TEST(Vif, WrittenFlagsClearAtEachCall) {
  VifMachine m;
  bool seen = false;
  const VifStream s = stream_of({kCycle11, unpack(0x6C, 1, 2), 1, 2, 3, 4, 0x14000000});
  auto r = m.run(s, [&](const VifMachine& v, std::uint64_t) -> Result<void> {
    seen = v.written(2) && !v.written(3) && (v.format(2) & 0x2F) == 0x0C;
    return {};
  });
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(seen);
  EXPECT_FALSE(m.written(2));
}

TEST(Vif, ShortOrUnknownCodesAreErrors) {
  for (const Words& w : {Words{kCycle11, unpack(0x6C, 2, 0), 1, 2, 3, 4, 5}, Words{0x30000000, 1, 2},
                         Words{0x20000000}, Words{0x4A020000, 1, 2}, Words{0x50000002, 1, 2, 3, 4},
                         Words{0x08000000}, Words{unpack(0x63, 1, 0), 0}}) {
    VifMachine m;
    auto r = m.run(stream_of(w), {});
    ASSERT_FALSE(r.ok()) << std::hex << w[0];
    EXPECT_GE(r.error().offset, 0x1000u);
    EXPECT_EQ(r.error().code, "renderware.native-geometry");
  }
}

// DMA: a cnt tag with two VIF codes and one qword, a ref to qword 4, a ret.
TEST(VifDma, ChainOrderAndAddresses) {
  Words b = {0x10000001, 0, 0x01000101, unpack(0x6C, 1, 0),  // cnt 1 qword: STCYCL; UNPACK V4-32
             1, 2, 3, 4,                                        // its data
             0x30000001, 4, 0, unpack(0x6C, 1, 1),              // ref 1 qword at qword 4
             0x60000000, 0, 0x14000000, 0,                      // ret; MSCAL
             5, 6, 7, 8};                                       // qword 4
  ByteBuffer bytes(b.size() * 4);
  std::memcpy(bytes.data(), b.data(), bytes.size());
  auto s = dma_chain(bytes, 0x200);
  ASSERT_TRUE(s.ok()) << s.error().message;
  VifMachine m;
  ASSERT_TRUE(m.run(*s, {}).ok());
  EXPECT_EQ(m.qword(0), (Q{1, 2, 3, 4}));
  EXPECT_EQ(m.qword(1), (Q{5, 6, 7, 8}));
  EXPECT_EQ(m.batches(), 1u);
  b[9] = 40;  // the ref now points past the block
  std::memcpy(bytes.data(), b.data(), bytes.size());
  auto bad = dma_chain(bytes, 0x200);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().offset, 0x200u + 32);
  b[9] = 4, b[0] = 0x20000000;  // a next tag pointing at itself: a loop
  std::memcpy(bytes.data(), b.data(), bytes.size());
  EXPECT_FALSE(dma_chain(bytes, 0).ok());
}

// The Native Data and Bin Mesh of a librw-written PS2 file, found by their headers.
struct NativeParts {
  ByteBuffer file;
  std::uint64_t data = 0, data_size = 0;
  std::vector<BinMeshEntry> meshes;
};

NativeParts native_parts(const std::filesystem::path& p) {
  NativeParts n;
  std::ifstream in(p, std::ios::binary);
  n.file.assign(std::istreambuf_iterator<char>(in), {});
  auto u32 = [&](std::uint64_t at) { return load<std::uint32_t>(n.file.data() + at, Endian::little); };
  for (std::uint64_t at = 0; at + 24 <= n.file.size(); at += 4) {
    if (u32(at) == 0x510 && u32(at + 12) == 1 && n.data == 0) n.data = at + 12, n.data_size = u32(at + 4);
    if (u32(at) == 0x50E && n.meshes.empty() && at + 24 <= n.file.size())
      for (std::uint32_t i = 0, c = u32(at + 16); i < c && at + 36 + 8 * i <= n.file.size(); ++i)
        n.meshes.push_back({u32(at + 28 + 8 * i), u32(at + 24 + 8 * i)});  // material, indices
  }
  return n;
}

TEST(VifNative, CutOrMutatedPacketsGiveErrors) {
  ASSAY_REQUIRE_GOLDEN(dff, "renderware/native/industrialpark_Torus.ps2.dff");
  const NativeParts n = native_parts(dff);
  ASSERT_GT(n.data, 0u);
  ASSERT_EQ(n.meshes.size(), 1u);
  NativeSource s;
  s.meshes = n.meshes;
  ByteBuffer body(n.file.begin() + static_cast<std::ptrdiff_t>(n.data),
                  n.file.begin() + static_cast<std::ptrdiff_t>(n.data + n.data_size));
  s.body = body, s.offset = n.data;
  ModelGeometry whole;
  whole.flags = 0x01000076;
  const auto ok = decode_native(s, whole);
  ASSERT_TRUE(ok.ok()) << ok.error().message << " at " << ok.error().offset;
  EXPECT_EQ(whole.triangles.size(), 192u);  // the golden README's Torus
  // cut the packet (its size field kept consistent) at every qword: an error each time until
  // only bytes after the ret tag are lost, then the whole geometry
  std::uint64_t first_ok = 0;
  for (std::uint64_t cut = 24; cut + 16 <= body.size(); cut += 16) {
    ByteBuffer b(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(cut));
    const std::uint32_t size = static_cast<std::uint32_t>(cut - 24);
    std::memcpy(b.data() + 16, &size, 4);
    s.body = b;
    ModelGeometry g;
    g.flags = whole.flags;
    const bool ok = decode_native(s, g).ok();
    if (ok && first_ok == 0) first_ok = cut;
    EXPECT_EQ(ok, first_ok != 0) << "cut at " << cut;
    if (ok) EXPECT_EQ(g.triangles.size(), 192u) << "cut at " << cut;
  }
  EXPECT_GT(first_ok, body.size() - 256) << "a packet cut in its data decoded";
  // flip bytes across the packet: any result, no crash (ASan builds check the reads)
  for (std::uint64_t at = 16; at < body.size(); at += 7) {
    ByteBuffer b = body;
    b[at] ^= 0xA5;
    s.body = b;
    ModelGeometry g;
    g.flags = whole.flags;
    (void)decode_native(s, g);
  }
}

// A material naming a PDS pipeline without a known layout (0x53F200FF, no MAKEPIPEID in librwgta's
// rwgta.h) leaves that geometry native with a warning; the other geometry still decodes.
TEST(VifNative, UnknownPipelineIsAWarning) {
  ASSAY_REQUIRE_SAMPLE(dff, "renderware/more2/gtasa_ps2_rccam_native_geometry.dff");
  std::ifstream in(dff, std::ios::binary);
  ByteBuffer b(std::istreambuf_iterator<char>(in), {});
  const std::uint8_t car[] = {0x31, 0x01, 0x00, 0x00, 0x85, 0x00, 0xF2, 0x53};  // Right To Render: PDS, 0x53F20085
  std::vector<std::uint64_t> hits;
  for (std::uint64_t at = 0; at + sizeof car <= b.size(); ++at)
    if (std::memcmp(b.data() + at, car, sizeof car) == 0) hits.push_back(at);
  ASSERT_EQ(hits.size(), 3u);  // geometry 0's two materials, geometry 1's one
  b[hits[0] + 4] = b[hits[1] + 4] = 0xFF;
  Diagnostics d;
  auto c = decode_clump(b, 0, d.sink());
  ASSERT_TRUE(c.ok()) << c.error().message;
  ASSERT_EQ(c->geometries.size(), 2u);
  EXPECT_TRUE(c->geometries[0].native);
  EXPECT_TRUE(c->geometries[0].triangles.empty());
  EXPECT_FALSE(c->geometries[1].native);
  EXPECT_EQ(c->geometries[1].triangles.size(), 1u);  // the README's rccam: its second atomic has one
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "renderware.native-pipeline");
  EXPECT_NE(d.items()[0].where.message.find("0x53F200FF"), std::string::npos) << d.items()[0].where.message;
}

// A PS2 Native Data body of one mesh: Struct header, platform 4, the packet's size and flag, the packet.
ByteBuffer ps2_native_body(const Words& packet) {
  ByteBuffer body = {1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0};
  const auto size = static_cast<std::uint32_t>(packet.size() * 4);
  for (std::uint32_t w : {size, 0u})
    for (int k = 0; k < 4; ++k) body.push_back(static_cast<std::uint8_t>(w >> (8 * k)));
  const std::size_t at = body.size();
  body.resize(at + size);
  std::memcpy(body.data() + at, packet.data(), size);
  return body;
}

// GTA SA's day/night building pipeline (0x53F20083, librwgta rsps2.cpp) on a hand-made mesh of one
// triangle: positions V4-16 in slot 0 (/128), UVs V2-16 in slot 1 (/4096), saRGBA2 V4-16 unsigned
// in slot 2 whose 16-bit values hold the day component low and the night one high; STCYCL CL 4
// WL 1 spaces the vertices 4 qwords apart. Every expected value below is the stored integer divided
// by hand.
TEST(VifNative, GtaSaDayNightBuildingPipeline) {
  const Words packet = {
      0x70000000u | 5, 0,               // end tag: 5 qwords follow; its VIF half: the next two codes
      0x01000104,                       // STCYCL CL 4 WL 1
      unpack(0x6D, 3, 0),               // V4-16 positions x 3
      0xFF80'0080, 0x0000'0000,         // (128, -128, 0, 0)
      0x0100'0000, 0x0000'FE00,         // (0, 256, -512, 0)
      0x0040'0040, 0x0000'0040,         // (64, 64, 64, 0)
      unpack(0x65, 3, 1),               // V2-16 UVs x 3
      0x0800'1000, 0x0000'0400, 0x1000'1000,  // (4096, 2048), (1024, 0), (4096, 4096)
      unpack(0x6D, 3, 2, true),         // V4-16 unsigned day/night colours x 3
      0x20F0'10FF, 0x40C0'3080,         // day (FF F0 80 C0), night (10 20 30 40)
      0x0100'0200, 0x0300'0400,         // day (0 0 0 0), night (2 1 4 3)
      0x7F7F'7F7F, 0x7F7F'7F7F,         // day 7F x 4, night 7F x 4
      0x04000003, 0x14000000,           // ITOP 3, MSCAL
      0};                               // padding to the qword
  const ByteBuffer body = ps2_native_body(packet);
  NativeSource s;
  s.body = body;
  s.meshes = {{0, 3}};
  s.pipelines = {0x53F20083};
  ModelGeometry g;
  g.flags = 0x0100000E;  // positions, textured, prelit
  const auto r = decode_native(s, g);
  ASSERT_TRUE(r.ok()) << r.error().message << " at " << r.error().offset;
  ASSERT_EQ(g.vertices, 3u);
  ASSERT_EQ(g.morph_targets.size(), 1u);
  using P = std::array<float, 3>;
  EXPECT_EQ(g.morph_targets[0].positions, (std::vector<P>{{1, -1, 0}, {0, 2, -4}, {0.5f, 0.5f, 0.5f}}));
  ASSERT_EQ(g.texcoords.size(), 1u);
  EXPECT_EQ(g.texcoords[0], (std::vector<std::array<float, 2>>{{1, 0.5f}, {0.25f, 0}, {1, 1}}));
  using C = std::array<std::uint8_t, 4>;
  EXPECT_EQ(g.prelit, (std::vector<C>{{0xFF, 0xF0, 0x80, 0xC0}, {0, 0, 0, 0}, {0x7F, 0x7F, 0x7F, 0x7F}}));
  EXPECT_EQ(g.night_colors, (std::vector<C>{{0x10, 0x20, 0x30, 0x40}, {2, 1, 4, 3}, {0x7F, 0x7F, 0x7F, 0x7F}}));
  ASSERT_EQ(g.triangles.size(), 1u);
  // The plain building pipeline (0x53F20081) wants saRGBA V4-8 in slot 2: this V4-16 is an error.
  s.pipelines = {0x53F20081};
  ModelGeometry plain;
  plain.flags = g.flags;
  const auto bad = decode_native(s, plain);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("CustomBuilding pipeline wants V4-8 unsigned in slot 2"), std::string::npos)
      << bad.error().message;
}

// RenderWare's world pipeline rwPDS_G3xd_A4D (0x5002F, librw pds.cpp): XYZW V4-32 in slot 0, UV
// V2-32 in slot 1, normals V3-8 in slot 2 (/128), three qwords a vertex; floats as stored.
TEST(VifNative, RenderWareWorldA4dPipeline) {
  const auto f = [](float v) { return std::bit_cast<std::uint32_t>(v); };
  const Words packet = {
      0x70000000u | 7, 0, 0x01000103, unpack(0x6C, 3, 0),  // end tag (7 qwords follow); STCYCL CL 3 WL 1; V4-32 x 3
      f(1), f(2), f(3), 0, f(-1), f(0.5f), f(0), 0, f(4), f(4), f(4), 0,
      unpack(0x64, 3, 1),                                   // V2-32 x 3
      f(0), f(1), f(0.25f), f(0.75f), f(1), f(0),
      unpack(0x6A, 3, 2),                                   // V3-8 x 3: 9 bytes in a row, padded to 12:
      0x4080'007Fu, 0xC000'0000u, 0x0000'0000u,             // 7F 00 80 | 40 00 00 | 00 C0 00: (127, 0, -128), (64, 0, 0), (0, -64, 0)
      0x04000003, 0x14000000, 0, 0, 0};                     // ITOP 3, MSCAL, padding to the qword
  const ByteBuffer body = ps2_native_body(packet);
  NativeSource s;
  s.body = body;
  s.meshes = {{0, 3}};
  s.pipelines = {0x5002F};
  ModelGeometry g;
  g.flags = 0x01000016;  // positions, textured, normals
  const auto r = decode_native(s, g);
  ASSERT_TRUE(r.ok()) << r.error().message << " at " << r.error().offset;
  using P = std::array<float, 3>;
  EXPECT_EQ(g.morph_targets.at(0).positions, (std::vector<P>{{1, 2, 3}, {-1, 0.5f, 0}, {4, 4, 4}}));
  EXPECT_EQ(g.morph_targets.at(0).normals, (std::vector<P>{{127 / 128.0f, 0, -1}, {0.5f, 0, 0}, {0, -0.5f, 0}}));
  ASSERT_EQ(g.texcoords.size(), 1u);
  EXPECT_EQ(g.texcoords[0], (std::vector<std::array<float, 2>>{{0, 1}, {0.25f, 0.75f}, {1, 0}}));
  EXPECT_EQ(g.triangles.size(), 1u);
}

// The Geometry struct's morph-target heads are read for native geometry too (librw geometry.cpp
// streamRead): every native golden keeps its stored bounding sphere, and it holds every position
// the native decode gives (an independent check of the decode: the sphere was written by the tool
// that made the file, from the original positions).
TEST(VifNative, NativeGoldensKeepTheirSpheres) {
  for (const char* name : {"industrialpark_Torus.ps2.dff", "wuzimu.ps2.dff", "wuzimu.ps2-saped.dff", "wuzimu.xbox.dff"}) {
    SCOPED_TRACE(name);
    ASSAY_REQUIRE_GOLDEN(dff, std::string("renderware/native/") + name);
    std::ifstream in(dff, std::ios::binary);
    const ByteBuffer b(std::istreambuf_iterator<char>(in), {});
    Diagnostics d;
    auto c = decode_clump(b, 0, d.sink());
    ASSERT_TRUE(c.ok()) << c.error().message;
    const ModelGeometry& g = c->geometries.at(0);
    ASSERT_FALSE(g.native);
    ASSERT_EQ(g.morph_targets.size(), 1u);
    const auto& t = g.morph_targets[0];
    EXPECT_GT(t.sphere[3], 0.0f);
    for (const auto& p : t.positions) {
      const double dx = p[0] - t.sphere[0], dy = p[1] - t.sphere[1], dz = p[2] - t.sphere[2];
      ASSERT_LE(std::sqrt(dx * dx + dy * dy + dz * dz), t.sphere[3] * 1.001 + 1e-4);
    }
  }
}

// A platform without a decoder (6, GameCube) in the Native Data: a warning, the geometry native.
TEST(VifNative, UnknownPlatformIsAWarning) {
  ASSAY_REQUIRE_GOLDEN(dff, "renderware/native/industrialpark_Torus.ps2.dff");
  NativeParts n = native_parts(dff);
  ASSERT_GT(n.data, 0u);
  ASSERT_EQ(load<std::uint32_t>(n.file.data() + n.data + 12, Endian::little), kPlatformPs2);
  n.file[n.data + 12] = 6;
  Diagnostics d;
  auto c = decode_clump(n.file, 0, d.sink());
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_TRUE(c->geometries.at(0).native);
  ASSERT_EQ(d.items().size(), 1u);
  EXPECT_EQ(d.items()[0].where.code, "renderware.native-platform");
  EXPECT_EQ(d.items()[0].where.offset, n.data + 12);
}

}  // namespace
}  // namespace assay::rw::native
