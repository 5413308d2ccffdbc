// The ADPCM decoders on blocks whose samples are worked out by hand from the format rules
// (src/audio/adpcm_ms.cc, adpcm_ima4.cc), and their refusals of short or bad blocks. The golden
// levels' sounds (FFmpeg's decodes) are checked in sound_test.cc.
#include <gtest/gtest.h>

#include "assay/audio/adpcm.h"

namespace assay::audio {
namespace {

using Pcm = std::vector<std::int16_t>;

// A mono MS ADPCM block: predictor index, idelta, sample1, sample2 (little-endian), then nibbles.
ByteBuffer ms_block(std::uint8_t pred, std::int16_t idelta, std::int16_t s1, std::int16_t s2, ByteBuffer nibbles) {
  ByteBuffer b{pred};
  for (std::int16_t v : {idelta, s1, s2}) b.push_back(static_cast<std::uint8_t>(v)), b.push_back(static_cast<std::uint8_t>(v >> 8));
  b.insert(b.end(), nibbles.begin(), nibbles.end());
  return b;
}

Pcm decode_ms(const ByteBuffer& b, std::uint16_t ch, std::uint32_t align) {
  Pcm out;
  auto r = decode_ms_adpcm(b, ch, align, out);
  EXPECT_TRUE(r.ok()) << r.error().str();
  return out;
}

TEST(MsAdpcm, MonoBlockByHand) {
  // Coefficients (256, 0), idelta 16, sample1 100, sample2 50; byte 0x1F = nibbles 1 then -1.
  // Out: sample2 50, sample1 100; 100*256/256 + 1*16 = 116 (idelta 230*16>>8 = 14 -> 16);
  // 116*256/256 - 16 = 100.
  EXPECT_EQ(decode_ms(ms_block(0, 16, 100, 50, {0x1F}), 1, 512), (Pcm{50, 100, 116, 100}));
}

TEST(MsAdpcm, PredictorRoundsTowardZero) {
  // Pair 5 = (460, -208): -3*460/256 = -5.39 -> -5 (a floor would give -6); then
  // (-5*460 + -3*-208)/256 = -1676/256 = -6.55 -> -6.
  EXPECT_EQ(decode_ms(ms_block(5, 16, -3, 0, {0x00}), 1, 512), (Pcm{0, -3, -5, -6}));
}

TEST(MsAdpcm, AdaptsAndClamps) {
  // Nibble 7 at idelta 16: +112, idelta 614*16>>8 = 38; pair 1 (512, -256): 2*s1 - s2.
  // First: 2*100 - 0 + 112 = 312; second (nibble 7 again): 2*312 - 100 + 7*38 = 790.
  EXPECT_EQ(decode_ms(ms_block(1, 16, 100, 0, {0x77}), 1, 512), (Pcm{0, 100, 312, 790}));
  // 2*32000 + 112 clamps to 32767.
  EXPECT_EQ(decode_ms(ms_block(1, 16, 32000, 0, {0x70}), 1, 512)[2], 32767);
}

TEST(MsAdpcm, StereoHighNibbleIsChannelZero) {
  // Predictors 0, 0; idelta 16, 16; sample1 10, -10; sample2 0, 0; byte 0x21: ch0 +2, ch1 +1.
  const ByteBuffer b{0, 0, 16, 0, 16, 0, 10, 0, 0xF6, 0xFF, 0, 0, 0, 0, 0x21};
  EXPECT_EQ(decode_ms(b, 2, 1024), (Pcm{0, 0, 10, -10, 10 + 32, -10 + 16}));
  EXPECT_EQ(ms_adpcm_block_frames(1024, 2), 1012u);  // Oni's stereo 22,050 Hz block
  EXPECT_EQ(ms_adpcm_block_frames(512, 1), 1012u);
  EXPECT_EQ(ms_adpcm_block_frames(13, 2), 0u);
}

TEST(MsAdpcm, LastBlockMayBeShort) {
  ByteBuffer two = ms_block(0, 16, 1, 2, ByteBuffer(505, 0));  // a full 512-byte block
  const ByteBuffer tail = ms_block(0, 16, 7, 8, {0x00});         // 8 bytes: 4 frames
  two.insert(two.end(), tail.begin(), tail.end());
  const Pcm out = decode_ms(two, 1, 512);
  ASSERT_EQ(out.size(), 1012u + 4u);
  EXPECT_EQ((Pcm(out.begin() + 1012, out.end())), (Pcm{8, 7, 7, 7}));
}

TEST(MsAdpcm, RefusesShortBlockAndBadPredictor) {
  Pcm out;
  ByteBuffer b = ms_block(0, 16, 1, 2, ByteBuffer(505, 0));
  b.insert(b.end(), {0, 16, 0, 0, 0});  // 5 bytes: no room for the 7-byte header
  auto r = decode_ms_adpcm(b, 1, 512, out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 0x200u);
  r = decode_ms_adpcm(ms_block(7, 16, 0, 0, {}), 1, 512, out);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("predictor index 7"), std::string::npos);
  EXPECT_FALSE(decode_ms_adpcm(b, 3, 512, out).ok());
  EXPECT_FALSE(decode_ms_adpcm(b, 2, 13, out).ok());
}

// A mono IMA4 packet: big-endian preamble then 32 bytes of nibbles.
ByteBuffer ima_packet(std::uint16_t preamble, std::uint8_t first, std::uint8_t rest) {
  ByteBuffer b{static_cast<std::uint8_t>(preamble >> 8), static_cast<std::uint8_t>(preamble), first};
  b.resize(kIma4PacketSize, rest);
  return b;
}

TEST(Ima4, PacketByHand) {
  // Preamble 0x0100: predictor 256, step index 0 (step 7). Byte 0x74, low nibble first:
  // 4: diff 7>>3 + 7 = 7 -> 263, index 2 (step 9); 7: 9>>3 + 9 + 9>>1 + 9>>2 = 1+9+4+2 = 16 ->
  // 279, index 10 (step 19); then nibble 0: 19>>3 = 2 -> 281.
  Pcm out;
  ASSERT_TRUE(decode_ima4(ima_packet(0x0100, 0x74, 0), 1, out).ok());
  ASSERT_EQ(out.size(), 64u);
  EXPECT_EQ(out[0], 263);
  EXPECT_EQ(out[1], 279);
  EXPECT_EQ(out[2], 281);
}

TEST(Ima4, PreambleKeepsRunningPredictorWhenClose) {
  // Packet 1: predictor 0, index 0, 64 nibbles of 1: each +(7>>3)+(7>>2) = +1, index stays 0
  // -> 64. Packet 2's preamble 0x0000 (index 0, |0 - 64| <= 0x7f) keeps 64: its nibble 1 -> 65.
  // Packet 2's preamble 0x0001 (index 1) resets to 0: nibble 1 with step 8 -> 0 + 1 + 2 = 3.
  for (auto [preamble, want] : {std::pair{0x0000, 65}, std::pair{0x0001, 3}}) {
    ByteBuffer b = ima_packet(0, 0x11, 0x11);
    const ByteBuffer p2 = ima_packet(static_cast<std::uint16_t>(preamble), 0x01, 0);
    b.insert(b.end(), p2.begin(), p2.end());
    Pcm out;
    ASSERT_TRUE(decode_ima4(b, 1, out).ok());
    EXPECT_EQ(out[63], 64);
    EXPECT_EQ(out[64], want) << "preamble " << preamble;
  }
}

TEST(Ima4, StereoAlternatesPackets) {
  // Channel 0 at 0x0100 (first sample 263 as above), channel 1 at 0xFF80 = -128: nibble 0 -> -128 + 0.
  ByteBuffer b = ima_packet(0x0100, 0x74, 0);
  const ByteBuffer right = ima_packet(0xFF80, 0x00, 0);
  b.insert(b.end(), right.begin(), right.end());
  Pcm out;
  ASSERT_TRUE(decode_ima4(b, 2, out).ok());
  ASSERT_EQ(out.size(), 128u);
  EXPECT_EQ(out[0], 263);
  EXPECT_EQ(out[1], -128);
  EXPECT_EQ(out[2], 279);
}

TEST(Ima4, RefusesTruncationAndBadStepIndex) {
  Pcm out;
  ByteBuffer b = ima_packet(0, 0, 0);
  b.resize(34 + 10);
  auto r = decode_ima4(b, 1, out);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().offset, 34u);
  b.resize(34);
  EXPECT_FALSE(decode_ima4(b, 2, out).ok());  // a stereo group is 68 bytes
  r = decode_ima4(ima_packet(0x0059, 0, 0), 1, out);  // step index 89
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("step index 89"), std::string::npos);
  EXPECT_TRUE(out.empty());
}

}  // namespace
}  // namespace assay::audio
