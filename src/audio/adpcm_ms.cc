// Microsoft ADPCM (WAVE format tag 2), decoded as FFmpeg's `adpcm_ms` decoder does:
// the predictor is (sample1 x coef1 + sample2 x coef2) / 256 rounded toward zero, plus the
// signed nibble x idelta, clamped to int16; idelta adapts by the table below / 256, at least 16.
// A block whose predictor index is past the 7 standard pairs is refused (as FFmpeg does).
// Format: Microsoft "Multimedia Standards Update" ADPCM; wiki.multimedia.cx "Microsoft ADPCM".
#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "assay/audio/adpcm.h"

namespace assay::audio {

namespace {

constexpr std::array<int, 16> kAdaptation{230, 230, 230, 230, 307, 409, 512, 614, 768, 614, 512, 409, 307, 230, 230, 230};
constexpr int kMaxDelta = INT_MAX / 768;  // FFmpeg's bound: keeps nibble x idelta and the adaptation in int

struct MsChannel {
  int coef1 = 0, coef2 = 0;
  int idelta = 0;
  int sample1 = 0, sample2 = 0;

  std::int16_t expand(unsigned nibble) noexcept {
    const int signed_nibble = (nibble & 8) ? static_cast<int>(nibble) - 16 : static_cast<int>(nibble);
    int predictor = (sample1 * coef1 + sample2 * coef2) / 256;
    predictor += signed_nibble * idelta;
    sample2 = sample1;
    sample1 = std::clamp(predictor, -32768, 32767);
    idelta = (kAdaptation[nibble] * idelta) >> 8;
    idelta = std::clamp(idelta, 16, kMaxDelta);
    return static_cast<std::int16_t>(sample1);
  }
};

std::int16_t le16(const std::uint8_t* p) { return load<std::int16_t>(p, Endian::little); }

// The block header: predictor indexes, then idelta, sample1, sample2 (each per channel).
Result<void> read_header(ByteView block, std::uint16_t ch, std::uint64_t at, MsChannel (&st)[2]) {
  for (unsigned c = 0; c < ch; ++c) {
    const unsigned pred = block[c];
    if (pred >= kMsAdpcmCoefficients.size())
      return make_error("ms-adpcm", fmt::format("block channel {}", c), at + c, fmt::format("predictor index {} (must be 0-6)", pred));
    st[c].coef1 = kMsAdpcmCoefficients[pred][0];
    st[c].coef2 = kMsAdpcmCoefficients[pred][1];
    st[c].idelta = le16(&block[ch + 2 * c]);
    st[c].sample1 = le16(&block[3 * ch + 2 * c]);
    st[c].sample2 = le16(&block[5 * ch + 2 * c]);
  }
  return {};
}

Result<void> decode_block(ByteView block, std::uint16_t ch, std::uint64_t at, std::vector<std::int16_t>& out) {
  if (block.size() < kMsAdpcmHeaderPerChannel * ch)
    return make_error("ms-adpcm", "block", at, fmt::format("0x{:x} bytes, shorter than its 0x{:x}-byte header", block.size(), kMsAdpcmHeaderPerChannel * ch));
  MsChannel st[2];
  ASSAY_CHECK(read_header(block, ch, at, st));
  for (unsigned c = 0; c < ch; ++c) out.push_back(static_cast<std::int16_t>(st[c].sample2));
  for (unsigned c = 0; c < ch; ++c) out.push_back(static_cast<std::int16_t>(st[c].sample1));
  MsChannel& second = st[ch - 1];  // mono: both nibbles of a byte are channel 0
  for (std::size_t i = kMsAdpcmHeaderPerChannel * ch; i < block.size(); ++i) {
    out.push_back(st[0].expand(block[i] >> 4));
    out.push_back(second.expand(block[i] & 15));
  }
  return {};
}

}  // namespace

std::uint32_t ms_adpcm_block_frames(std::uint32_t block_size, std::uint16_t channels) noexcept {
  if (channels == 0 || block_size < kMsAdpcmHeaderPerChannel * channels) return 0;
  return 2 + (block_size - kMsAdpcmHeaderPerChannel * channels) * 2 / channels;
}

Result<void> decode_ms_adpcm(ByteView data, std::uint16_t channels, std::uint32_t block_align, std::vector<std::int16_t>& out) {
  if (channels < 1 || channels > 2) return make_error("ms-adpcm", "format", kNoOffset, fmt::format("{} channels (1 or 2 supported)", channels));
  if (block_align < kMsAdpcmHeaderPerChannel * channels)
    return make_error("ms-adpcm", "format", kNoOffset, fmt::format("block align {} cannot hold a {}-channel block header", block_align, channels));
  const std::size_t blocks = (data.size() + block_align - 1) / block_align;
  out.reserve(out.size() + blocks * std::size_t{ms_adpcm_block_frames(block_align, channels)} * channels);
  for (std::size_t at = 0; at < data.size(); at += block_align)
    ASSAY_CHECK(decode_block(data.subspan(at, std::min<std::size_t>(block_align, data.size() - at)), channels, at, out));
  return {};
}

}  // namespace assay::audio
