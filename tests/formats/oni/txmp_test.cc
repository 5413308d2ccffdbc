// TXMP decoding (the vectors of spec oni.md#oni-11) and PNG export.
#include <gtest/gtest.h>

#include "assay/image/png.h"
#include "fixtures.h"
#include "testing/testing.h"

namespace assay::oni {
namespace {

ByteBuffer rgba_of(std::uint32_t format, ByteBuffer px, std::uint32_t w = 1, std::uint32_t h = 1) {
  auto r = decode_txmp(px, w, h, format);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().str());
  return r.ok() ? r->pixels : ByteBuffer{};
}

TEST(OniTxmp, SpecPixelVectors) {
  EXPECT_EQ(rgba_of(1, {0xFF, 0x7F}), (ByteBuffer{255, 255, 255, 255}));
  EXPECT_EQ(rgba_of(1, {0x1F, 0x00}), (ByteBuffer{0, 0, 255, 255}));
  EXPECT_EQ(rgba_of(2, {0x00, 0x7C}), (ByteBuffer{255, 0, 0, 0}));
  EXPECT_EQ(rgba_of(2, {0x00, 0xFC}), (ByteBuffer{255, 0, 0, 255}));
  EXPECT_EQ(rgba_of(0, {0x0F, 0xF0}), (ByteBuffer{0, 0, 255, 255}));
  EXPECT_EQ(rgba_of(8, {0x10, 0x20, 0x30, 0x00}), (ByteBuffer{48, 32, 16, 255}));
  EXPECT_EQ(rgba_of(7, {0x10, 0x20, 0x30, 0x40}), (ByteBuffer{16, 32, 48, 64}));
}

TEST(OniTxmp, Dxt1Block) {
  // c0 = pure red (0xF800) > c1 = pure blue (0x001F): 4-colour mode; indices 0,1,2,3 in row 0.
  const ByteBuffer block{0x00, 0xF8, 0x1F, 0x00, 0b11100100, 0, 0, 0};
  const ByteBuffer px = rgba_of(9, block, 4, 4);
  ASSERT_EQ(px.size(), 64u);
  EXPECT_EQ(ByteBuffer(px.begin(), px.begin() + 4), (ByteBuffer{255, 0, 0, 255}));
  EXPECT_EQ(ByteBuffer(px.begin() + 4, px.begin() + 8), (ByteBuffer{0, 0, 255, 255}));
  EXPECT_EQ(ByteBuffer(px.begin() + 8, px.begin() + 12), (ByteBuffer{170, 0, 85, 255}));
  EXPECT_EQ(ByteBuffer(px.begin() + 12, px.begin() + 16), (ByteBuffer{85, 0, 170, 255}));
  // c0 <= c1: index 3 is transparent black.
  const ByteBuffer b3{0x1F, 0x00, 0x00, 0xF8, 0xFF, 0, 0, 0};
  const ByteBuffer t = rgba_of(9, b3, 2, 2);
  EXPECT_EQ(ByteBuffer(t.begin(), t.begin() + 4), (ByteBuffer{0, 0, 0, 0}));
}

TEST(OniTxmp, Refusals) {
  EXPECT_NE(decode_txmp(ByteBuffer(64), 4, 4, 5).error().message.find("unsupported TXMP format 5"), std::string::npos);
  EXPECT_FALSE(decode_txmp(ByteBuffer(64), 0, 4, 1).ok());
  EXPECT_FALSE(decode_txmp(ByteBuffer(64), 16385, 1, 1).ok());
  EXPECT_FALSE(decode_txmp(ByteBuffer(31), 4, 4, 1).ok());  // needs 32 bytes
}

TEST(OniTxmp, ExtractTexturesWritesPng) {
  testing::TempDir dir;
  ASSERT_TRUE(write_sample_files(dir.path()).ok());
  auto r = testing::run_cli("extract --textures " + testing::shell_quote((dir / "level0_Final.dat").string()) + " -o " +
                            testing::shell_quote((dir / "png").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto png = image::decode_png(testing::read_file(dir / "png" / "TXMPbrick.png"));
  ASSERT_TRUE(png.ok());
  EXPECT_EQ(png->width, 4u);
  EXPECT_EQ(png->height, 4u);
  // The sample's row: red, green, blue, white in BGR555.
  EXPECT_EQ(ByteBuffer(png->pixels.begin(), png->pixels.begin() + 16),
            (ByteBuffer{255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255}));
  // An unsupported format is reported, not guessed.
  ByteBuffer b = testing::read_file(dir / "level0_Final.dat");
  auto f = InstanceFile::open(b, "x");
  store<std::uint32_t>(b.data() + f->instance_file_offset(f->descriptor(3)) + 0x90, 3, Endian::little);
  testing::write_file(dir / "level0_Final.dat", b);
  auto u = testing::run_cli("extract --textures " + testing::shell_quote((dir / "level0_Final.dat").string()) + " -o " +
                            testing::shell_quote((dir / "png2").string()));
  EXPECT_EQ(u.exit_code, 1);
  EXPECT_NE(u.err.find("unsupported TXMP format 3"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir / "png2" / "TXMPbrick.png"));
}

}  // namespace
}  // namespace assay::oni
