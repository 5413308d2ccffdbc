// RIFF WAVE, PCM: "RIFF" size "WAVE", "fmt " 16 (tag 1, channels, rate, byte rate, block align,
// 16 bits), "data" size, samples little-endian.
#include "assay/audio/sound.h"
#include "riff.h"

namespace assay::audio {

ByteBuffer wav_bytes(const Sound& s) {
  const std::uint32_t data = static_cast<std::uint32_t>(s.pcm.size() * 2);
  const std::uint16_t align = static_cast<std::uint16_t>(s.channels * 2);
  ByteWriter w;
  write_wave_head(w, {.riff_size = 36 + data, .channels = s.channels, .rate = s.rate, .byte_rate = s.rate * align, .block_align = align});
  w.str("data");
  w.u32(data);
  for (std::int16_t v : s.pcm) w.u16(static_cast<std::uint16_t>(v));
  return w.take();
}

}  // namespace assay::audio
