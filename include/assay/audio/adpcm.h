// ADPCM decoders for game sound data, sample for sample as FFmpeg's `adpcm_ms` and `adpcm_ima_qt`
// decoders: Microsoft ADPCM (WAVE format tag 2; Oni PC SNDD) and Apple QuickTime IMA4
// ('ima4'; Oni Mac SNDD). Output is interleaved signed 16-bit PCM. Every block is size-checked
// before it is read: a short block is an Error naming its offset in the data.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/core/error.h"

namespace assay::audio {

// ---- Microsoft ADPCM ----
// A block per channel group: per channel a predictor index byte, then per channel idelta,
// sample1 and sample2 (int16 little-endian), then 4-bit nibbles, high nibble first; in stereo
// the high nibble is channel 0 and the low nibble channel 1. The block yields sample2, sample1,
// then one sample per nibble.
inline constexpr std::uint32_t kMsAdpcmHeaderPerChannel = 7;

// The seven standard coefficient pairs (x 256) every MS ADPCM stream carries in its WAVEFORMATEX.
inline constexpr std::array<std::array<std::int16_t, 2>, 7> kMsAdpcmCoefficients{
    {{256, 0}, {512, -256}, {0, 0}, {192, 64}, {240, 0}, {460, -208}, {392, -232}}};

// Frames (samples per channel) a block of `block_size` bytes holds; 0 when it cannot hold its header.
std::uint32_t ms_adpcm_block_frames(std::uint32_t block_size, std::uint16_t channels) noexcept;

// Decodes `data` cut in blocks of `block_align` bytes (the last block may be shorter, as long
// as it holds its header). `channels` 1 or 2. Appends to `out`.
Result<void> decode_ms_adpcm(ByteView data, std::uint16_t channels, std::uint32_t block_align, std::vector<std::int16_t>& out);

// ---- Apple IMA4 (QuickTime 'ima4') ----
// A packet per channel of 34 bytes: a big-endian 16-bit preamble (predictor = top 9 bits as a
// signed 16-bit value, step index = low 7 bits), then 32 bytes = 64 nibbles, low nibble first.
// Stereo data alternates packets: channel 0, channel 1, channel 0 ...
inline constexpr std::uint32_t kIma4PacketSize = 34;
inline constexpr std::uint32_t kIma4PacketFrames = 64;

// Decodes whole packet groups (34 x channels bytes each); a partial trailing group is an error.
// The channel state carries over from packet to packet as in FFmpeg. Appends to `out`.
Result<void> decode_ima4(ByteView data, std::uint16_t channels, std::vector<std::int16_t>& out);

// ---- The stored data in files that name it rightly (extract --adpcm) ----
// RIFF WAVE, format tag 2: "fmt " of 50 bytes (WAVEFORMATEX, cbSize 32, samples per block, the
// coefficient pairs), "fact" (frames), "data".
struct MsAdpcmWav {
  std::uint16_t channels = 0;
  std::uint32_t rate = 0;
  std::uint16_t block_align = 0;
  std::uint64_t frames = 0;  // for "fact" (clamped to 32 bits)
  std::array<std::array<std::int16_t, 2>, 7> coefs = kMsAdpcmCoefficients;
};
ByteBuffer ms_adpcm_wav_bytes(const MsAdpcmWav& f, ByteView data);

// AIFF-C: "FVER", "COMM" (channels, packets as sample frames, 16 bits, the rate as an 80-bit
// float, compression 'ima4'), "SSND" (offset 0, block size 0, the packets).
ByteBuffer ima4_aifc_bytes(std::uint16_t channels, std::uint32_t rate, ByteView data);

}  // namespace assay::audio
