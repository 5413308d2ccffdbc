// RIFF WAVE, PCM: "RIFF" size "WAVE", "fmt " 16 (tag 1, channels, rate, byte rate, block align,
// 16 bits), "data" size, samples little-endian.
#include "assay/audio/sound.h"

namespace assay::audio {

ByteBuffer wav_bytes(const Sound& s) {
  const std::uint32_t data = static_cast<std::uint32_t>(s.pcm.size() * 2);
  const std::uint16_t align = static_cast<std::uint16_t>(s.channels * 2);
  ByteWriter w;
  w.str("RIFF");
  w.u32(36 + data);
  w.str("WAVE");
  w.str("fmt ");
  w.u32(16);
  w.u16(1);
  w.u16(s.channels);
  w.u32(s.rate);
  w.u32(s.rate * align);
  w.u16(align);
  w.u16(16);
  w.str("data");
  w.u32(data);
  for (std::int16_t v : s.pcm) w.u16(static_cast<std::uint16_t>(v));
  return w.take();
}

}  // namespace assay::audio
