// A decoded sound: interleaved signed 16-bit PCM, and the RIFF WAVE file that holds it.
#pragma once

#include <cstdint>
#include <vector>

#include "assay/core/bytes.h"

namespace assay::audio {

struct Sound {
  std::uint32_t rate = 0;      // frames per second
  std::uint16_t channels = 0;  // 1 mono, 2 stereo
  std::vector<std::int16_t> pcm;  // frames x channels samples, interleaved
  [[nodiscard]] std::uint64_t frames() const noexcept { return channels ? pcm.size() / channels : 0; }
};

// A canonical 44-byte-header PCM WAVE file (format tag 1, 16 bits) holding `s`.
ByteBuffer wav_bytes(const Sound& s);

}  // namespace assay::audio
