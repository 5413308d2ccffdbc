// ADPCM data as stored, wrapped in the file each codec is labelled by: RIFF WAVE format tag 2
// for MS ADPCM (Microsoft "Multimedia Standards Update" 1994: ADPCMWAVEFORMAT + "fact"), AIFF-C
// 'ima4' for IMA4 (Apple "Audio Interchange File Format: AIFF-C" draft 1991).
#include <algorithm>
#include <bit>

#include "assay/audio/adpcm.h"
#include "riff.h"

namespace assay::audio {

namespace {

void chunk_size_patch(ByteWriter& w, std::size_t at) { w.patch<std::uint32_t>(at, static_cast<std::uint32_t>(w.size() - at - 4)); }

// An IEEE 754 80-bit extended value of the positive integer v (AIFF's sampleRate), big-endian.
void extended(ByteWriter& w, std::uint32_t v) {
  if (v == 0) return w.zeros(10);
  const int top = 31 - std::countl_zero(v);
  w.u16(static_cast<std::uint16_t>(16383 + top));
  w.u64(std::uint64_t{v} << (63 - top));
}

}  // namespace

ByteBuffer ms_adpcm_wav_bytes(const MsAdpcmWav& f, ByteView data) {
  const std::uint32_t spb = ms_adpcm_block_frames(f.block_align, f.channels);
  ByteWriter w;
  write_wave_head(w, {.fmt_size = 50, .tag = 2, .channels = f.channels, .rate = f.rate,
                      .byte_rate = spb ? static_cast<std::uint32_t>(std::uint64_t{f.rate} * f.block_align / spb) : 0,
                      .block_align = f.block_align, .bits = 4});
  w.u16(32);  // cbSize: the extra bytes below
  w.u16(static_cast<std::uint16_t>(spb));
  w.u16(7);
  for (const auto& c : f.coefs) w.u16(static_cast<std::uint16_t>(c[0])), w.u16(static_cast<std::uint16_t>(c[1]));
  w.str("fact");
  w.u32(4);
  w.u32(static_cast<std::uint32_t>(std::min<std::uint64_t>(f.frames, 0xFFFFFFFFu)));
  w.str("data");
  w.u32(static_cast<std::uint32_t>(data.size()));
  w.bytes(data);
  if (data.size() % 2) w.u8(0);  // RIFF chunks are padded to even sizes
  chunk_size_patch(w, 4);
  return w.take();
}

ByteBuffer ima4_aifc_bytes(std::uint16_t channels, std::uint32_t rate, ByteView data) {
  ByteWriter w(Endian::big);
  w.str("FORM");
  w.u32(0);
  w.str("AIFC");
  w.str("FVER");
  w.u32(4);
  w.u32(0xA2805140);  // AIFC version 1
  w.str("COMM");
  w.u32(0);
  const std::size_t comm = w.size() - 4;
  w.u16(channels);
  w.u32(channels ? static_cast<std::uint32_t>(data.size() / (kIma4PacketSize * channels)) : 0);  // packets
  w.u16(16);
  extended(w, rate);
  w.str("ima4");
  w.u8(7);
  w.str("IMA 4:1");  // pascal string, 8 bytes with its count: even
  chunk_size_patch(w, comm);
  w.str("SSND");
  w.u32(static_cast<std::uint32_t>(data.size() + 8));
  w.u32(0);
  w.u32(0);
  w.bytes(data);
  if (data.size() % 2) w.u8(0);
  chunk_size_patch(w, 4);
  return w.take();
}

}  // namespace assay::audio
