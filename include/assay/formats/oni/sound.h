// Oni SNDD sound instances: the stored fields, the audio they name in the .raw, and
// that audio decoded to 16-bit PCM (spec: oni.md#oni-7-1; Oni wiki OBD:SNDD and OBD:SNDD/wav).
// PC (v1.0) instances hold a WAVEFORMATEX with MS ADPCM (or PCM) data; Mac (v1.1) instances hold
// flags, duration, size and offset only: their data is 22,050 Hz IMA4.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "assay/audio/sound.h"
#include "assay/core/diag.h"
#include "assay/core/extract_each.h"
#include "assay/core/output.h"
#include "assay/formats/oni/level_set.h"

namespace assay::oni {

enum class SoundCodec : std::uint8_t { ms_adpcm, ima4, pcm };
std::string_view codec_name(SoundCodec c);  // "ms_adpcm", "ima4", "pcm"

inline constexpr std::uint32_t kMacSoundRate = 22050;  // implied by the Mac layout (no rate field)

struct SnddRecord {
  static constexpr std::uint32_t kPcSize = 0x48, kMacSize = 0x18;  // with the 8-byte instance header
  bool mac = false;
  std::uint32_t flags = 0;  // PC 0x08: the wave header's size (8 in retail); Mac 0x08: bit 1 = stereo
  // PC 0x0C: WAVEFORMATEX (+ the MS ADPCM extension); Mac: implied.
  std::uint16_t format_tag = 0, channels = 0;
  std::uint32_t rate = 0, avg_bytes_per_sec = 0;
  std::uint16_t block_align = 0, bits_per_sample = 0, cb_size = 0, samples_per_block = 0, coef_count = 0;
  std::array<std::array<std::int16_t, 2>, 7> coefs{};
  std::uint16_t duration_ticks = 0;  // PC 0x3E, Mac 0x0C: 1/60 s
  std::uint32_t data_size = 0;       // PC 0x40, Mac 0x10
  std::uint32_t data_offset = 0;     // PC 0x44, Mac 0x14: into the .raw

  // The codec the fields name; an error for a PC format tag other than 1 (16-bit PCM) or 2.
  [[nodiscard]] Result<SoundCodec> codec() const;
  // The frames (samples per channel) data_size bytes decode to (0 for a bad format).
  [[nodiscard]] std::uint64_t frames() const;
};

// Whether instance i of f has the Mac (v1.1) SNDD layout: by its walked layout's checksum, else
// by the file's template set.
bool sndd_is_mac(const LoadedFile& f, std::uint32_t i);
bool sndd_is_mac(const InstanceFile& f);

// The fields of an SNDD instance `inst` (8-byte header included) at file offset `at`.
Result<SnddRecord> read_sndd(ByteView inst, bool mac, std::string_view label, std::uint64_t at);

// The stored audio data of SNDD instance i (its .raw bytes), with its record.
struct SnddData {
  SnddRecord record;
  ByteView data;
};
Result<SnddData> sndd_data(const LoadedFile& f, std::uint32_t i);

// `data` decoded by the record's codec.
Result<audio::Sound> decode_sndd(const SnddRecord& r, ByteView data);
Result<audio::Sound> decode_sndd_instance(const LoadedFile& f, std::uint32_t i);

// The stored data in a file that names its codec rightly: a WAV (format tag 2 with the MS ADPCM
// extension, or 1) for PC data, an AIFC ('ima4', the real rate) for Mac data. `ext` gets "wav"
// or "aifc".
Result<ByteBuffer> sndd_stored_file(const LoadedFile& f, std::uint32_t i, std::string_view& ext);

// What extract writes for SNDD i: STEM.wav (16-bit PCM), or with `adpcm` the stored data
// (STEM.wav or STEM.aifc, as sndd_stored_file).
Result<ExtractCount> write_sndd(const LoadedFile& f, std::uint32_t i, const std::string& stem, bool adpcm, const OutputDir& dir);

// verify: every SNDD's record, data range, block sizes and duration (codes oni.sndd,
// oni.sndd-data, oni.sndd-duration).
void verify_sounds(const LoadedFile& f, Diagnostics& out);

}  // namespace assay::oni
