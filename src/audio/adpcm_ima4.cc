// Apple QuickTime IMA4 ('ima4'), decoded as FFmpeg's `adpcm_ima_qt` decoder does:
// each 34-byte packet's preamble resets the channel's predictor and step index, except that a
// preamble with the same step index and a predictor within 0x7f of the running one keeps the
// running (full-precision) predictor. A step index past 88 is refused (as FFmpeg does). Nibbles
// expand by the IMA rule: diff = step/8 + step (bit 2) + step/2 (bit 1) + step/4 (bit 0), sign
// bit 3, clamp to int16, index += table, clamped 0-88. Format: wiki.multimedia.cx "Apple
// QuickTime IMA ADPCM"; IMA Digital Audio Focus and Technical Working Groups, "Recommended
// Practices for Enhancing Digital Audio Compatibility" (1992).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>

#include "assay/audio/adpcm.h"

namespace assay::audio {

namespace {

constexpr std::array<int, 16> kIndexAdjust{-1, -1, -1, -1, 2, 4, 6, 8, -1, -1, -1, -1, 2, 4, 6, 8};
constexpr std::array<int, 89> kStep{
    7,     8,     9,     10,    11,    12,    13,    14,    16,    17,    19,    21,    23,    25,    28,    31,    34,    37,
    41,    45,    50,    55,    60,    66,    73,    80,    88,    97,    107,   118,   130,   143,   157,   173,   190,   209,
    230,   253,   279,   307,   337,   371,   408,   449,   494,   544,   598,   658,   724,   796,   876,   963,   1060,  1166,
    1282,  1411,  1552,  1707,  1878,  2066,  2272,  2499,  2749,  3024,  3327,  3660,  4026,  4428,  4871,  5358,  5894,  6484,
    7132,  7845,  8630,  9493,  10442, 11487, 12635, 13899, 15289, 16818, 18500, 20350, 22385, 24623, 27086, 29794, 32767};
constexpr int kMaxStepIndex = 88;

struct ImaChannel {
  int predictor = 0;
  int step_index = 0;

  std::int16_t expand(unsigned nibble) noexcept {
    const int step = kStep[static_cast<std::size_t>(step_index)];
    int diff = step >> 3;
    if (nibble & 4) diff += step;
    if (nibble & 2) diff += step >> 1;
    if (nibble & 1) diff += step >> 2;
    predictor = std::clamp((nibble & 8) ? predictor - diff : predictor + diff, -32768, 32767);
    step_index = std::clamp(step_index + kIndexAdjust[nibble], 0, kMaxStepIndex);
    return static_cast<std::int16_t>(predictor);
  }

  // The packet preamble (see the file comment for when the running predictor is kept).
  Result<void> start(std::uint16_t preamble, std::uint64_t at) {
    const int packet_predictor = static_cast<std::int16_t>(preamble & 0xFF80);
    const int packet_index = preamble & 0x7F;
    if (packet_index != step_index || std::abs(packet_predictor - predictor) > 0x7F) {
      predictor = packet_predictor;
      step_index = packet_index;
    }
    if (step_index > kMaxStepIndex)
      return make_error("ima4", "packet preamble", at, fmt::format("step index {} (must be 0-88)", step_index));
    return {};
  }
};

}  // namespace

Result<void> decode_ima4(ByteView data, std::uint16_t channels, std::vector<std::int16_t>& out) {
  if (channels < 1 || channels > 2) return make_error("ima4", "format", kNoOffset, fmt::format("{} channels (1 or 2 supported)", channels));
  const std::size_t group = std::size_t{kIma4PacketSize} * channels;
  if (data.size() % group != 0)
    return make_error("ima4", "packet", data.size() - data.size() % group,
                      fmt::format("truncated: 0x{:x} bytes left, a packet group is 0x{:x}", data.size() % group, group));
  const std::size_t base = out.size();
  out.resize(base + data.size() / kIma4PacketSize * kIma4PacketFrames);
  ImaChannel st[2];
  for (std::size_t at = 0, frame = 0; at < data.size(); frame += kIma4PacketFrames)
    for (unsigned c = 0; c < channels; ++c, at += kIma4PacketSize) {
      if (auto ok = st[c].start(load<std::uint16_t>(&data[at], Endian::big), at); !ok) {
        out.resize(base);  // nothing of a refused stream is kept
        return std::move(ok).error();
      }
      std::int16_t* dst = &out[base + frame * channels + c];
      for (unsigned k = 0; k < kIma4PacketFrames / 2; ++k) {
        const unsigned byte = data[at + 2 + k];
        dst[(2 * k) * channels] = st[c].expand(byte & 15);
        dst[(2 * k + 1) * channels] = st[c].expand(byte >> 4);
      }
    }
  return {};
}

}  // namespace assay::audio
