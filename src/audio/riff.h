// The head every RIFF WAVE file starts with: "RIFF" size "WAVE", then "fmt " with its common
// WAVEFORMAT fields (Microsoft "Multimedia Programming Interface and Data Specifications 1.0", 1991).
#pragma once

#include "assay/core/bytes.h"

namespace assay::audio {

struct WaveFormat {
  std::uint32_t riff_size = 0;  // patched later when 0 is written
  std::uint32_t fmt_size = 16;  // 16 for PCM; more when the format's extra fields follow
  std::uint16_t tag = 1;        // 1 PCM, 2 MS ADPCM
  std::uint16_t channels = 0;
  std::uint32_t rate = 0, byte_rate = 0;
  std::uint16_t block_align = 0, bits = 16;
};

// Up to and including the fmt chunk's bits per sample; the format's extra fields follow.
inline void write_wave_head(ByteWriter& w, const WaveFormat& f) {
  w.str("RIFF");
  w.u32(f.riff_size);
  w.str("WAVE");
  w.str("fmt ");
  w.u32(f.fmt_size);
  w.u16(f.tag);
  w.u16(f.channels);
  w.u32(f.rate);
  w.u32(f.byte_rate);
  w.u16(f.block_align);
  w.u16(f.bits);
}

}  // namespace assay::audio
