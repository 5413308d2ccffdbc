// SNDD sound instances to PCM (spec: oni.md#oni-7-1, oni.md#oni-6-4; Oni wiki OBD:SNDD,
// OBD:SNDD/wav). PC v1.0 (0x48 bytes): 0x08 wave header size, 0x0C WAVEFORMATEX with the MS ADPCM
// extension (samples per block, 7 coefficient pairs), 0x3E duration, 0x40 size, 0x44 .raw offset.
// Mac v1.1 (0x18 bytes): 0x08 flags (channels = (flags >> 1) + 1), 0x0C duration, 0x10 size,
// 0x14 .raw offset; the data is IMA4 at 22,050 Hz (no field says so).
#include <fmt/format.h>

#include "assay/audio/adpcm.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound.h"

namespace assay::oni {

namespace {

constexpr std::uint64_t kSnddV11 = 0x411EB;  // spec: oni.md#oni-9-2 SNDD checksums
constexpr std::uint64_t kSnddV10 = 0x370578;

Error sndd_error(std::string_view label, std::uint64_t at, std::string msg, std::string_view code = "oni.sndd") {
  return make_error(kFormat, label, at, std::move(msg)).with_code(code);
}

void read_wave_format(const ByteReader& r, SnddRecord& s) {
  auto u16 = [&](std::uint64_t o) { return *r.u16(o, "SNDD"); };  // sizes checked by the caller
  s.format_tag = u16(0x0C);
  s.channels = u16(0x0E);
  s.rate = *r.u32(0x10, "SNDD");
  s.avg_bytes_per_sec = *r.u32(0x14, "SNDD");
  s.block_align = u16(0x18);
  s.bits_per_sample = u16(0x1A);
  s.cb_size = u16(0x1C);
  s.samples_per_block = u16(0x1E);
  s.coef_count = u16(0x20);
  for (std::size_t k = 0; k < s.coefs.size(); ++k)
    s.coefs[k] = {static_cast<std::int16_t>(u16(0x22 + 4 * k)), static_cast<std::int16_t>(u16(0x24 + 4 * k))};
  s.duration_ticks = u16(0x3E);
  s.data_size = *r.u32(0x40, "SNDD");
  s.data_offset = *r.u32(0x44, "SNDD");
}

// The PCM samples of 16-bit little-endian data.
std::vector<std::int16_t> pcm16(ByteView data) {
  std::vector<std::int16_t> out(data.size() / 2);
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = load<std::int16_t>(&data[2 * k], Endian::little);
  return out;
}

}  // namespace

std::string_view codec_name(SoundCodec c) {
  switch (c) {
    case SoundCodec::ms_adpcm: return "ms_adpcm";
    case SoundCodec::ima4: return "ima4";
    default: return "pcm";
  }
}

Result<SoundCodec> SnddRecord::codec() const {
  if (mac) return SoundCodec::ima4;
  if (format_tag == 2) return SoundCodec::ms_adpcm;
  if (format_tag == 1 && bits_per_sample == 16) return SoundCodec::pcm;
  return make_error(kFormat, "SNDD", 0x0C, fmt::format("format tag {} with {} bits (MS ADPCM 2 or 16-bit PCM 1 supported)", format_tag, bits_per_sample))
      .with_code("oni.sndd");
}

std::uint64_t SnddRecord::frames() const {
  const auto c = codec();
  if (!c || channels == 0 || channels > 2) return 0;
  switch (*c) {
    case SoundCodec::pcm: return data_size / (2u * channels);
    case SoundCodec::ima4: return std::uint64_t{data_size} / (audio::kIma4PacketSize * channels) * audio::kIma4PacketFrames;
    default: {
      if (block_align == 0) return 0;
      const std::uint64_t full = data_size / block_align, rest = data_size % block_align;
      return full * audio::ms_adpcm_block_frames(block_align, channels) + audio::ms_adpcm_block_frames(static_cast<std::uint32_t>(rest), channels);
    }
  }
}

bool sndd_is_mac(const InstanceFile& f) { return f.header().checksum == kChecksumV11; }

bool sndd_is_mac(const LoadedFile& f, std::uint32_t i) {
  if (i < f.layout.size() && f.layout[i] != nullptr) {
    if (f.layout[i]->checksum() == kSnddV11) return true;
    if (f.layout[i]->checksum() == kSnddV10) return false;
  }
  return sndd_is_mac(f.file);
}

Result<SnddRecord> read_sndd(ByteView inst, bool mac, std::string_view label, std::uint64_t at) {
  const std::uint32_t need = mac ? SnddRecord::kMacSize : SnddRecord::kPcSize;
  if (inst.size() < need)
    return sndd_error(label, at, fmt::format("SNDD instance of 0x{:x} bytes, the {} layout needs 0x{:x}", inst.size(), mac ? "Mac (v1.1)" : "PC (v1.0)", need));
  const ByteReader r(inst, Endian::little, kFormat, at);
  SnddRecord s;
  s.mac = mac;
  s.flags = *r.u32(0x08, "SNDD");
  if (!mac) {
    read_wave_format(r, s);
    // OniSplit 0.9.99.2's WAV importer writes the header 4 bytes late: 0x08 stays 0 and the
    // format tag lands at 0x10 (the goldens README, oni_created/pc_broken/); its own -extract:wav
    // divides by zero on it. Said as such, not read as garbage.
    if (s.flags == 0 && s.format_tag == 0 && (*r.u16(0x10, "SNDD") == 1 || *r.u16(0x10, "SNDD") == 2))
      return sndd_error(label, at + 0x08,
                        "the wave header starts at 0x10, 4 bytes late, and 0x08 is 0: the layout OniSplit 0.9.99.2's WAV importer "
                        "writes; re-create the instance (or move bytes 0x10-0x4B to 0x0C and write 8 at 0x08)",
                        "oni.sndd-shifted");
    return s;
  }
  s.channels = static_cast<std::uint16_t>((s.flags >> 1) + 1);
  s.rate = kMacSoundRate;
  s.duration_ticks = *r.u16(0x0C, "SNDD");
  s.data_size = *r.u32(0x10, "SNDD");
  s.data_offset = *r.u32(0x14, "SNDD");
  if (s.flags > 3) return sndd_error(label, at + 0x08, fmt::format("flags 0x{:x}: {} channels (1 or 2)", s.flags, (s.flags >> 1) + 1));
  return s;
}

Result<SnddData> sndd_data(const LoadedFile& f, std::uint32_t i) {
  if (i >= f.file.instance_count() || f.file.descriptor(i).tag != make_tag("SNDD") || !f.has_data[i])
    return make_error(kFormat, "SNDD", kNoOffset, fmt::format("instance {} is not an SNDD with data", i)).with_code("oni.sndd");
  const Descriptor d = f.file.descriptor(i);
  const std::string label = instance_label(i, d.tag, f.names[i]);
  const std::uint64_t at = f.file.instance_file_offset(d);
  ASSAY_TRY(SnddRecord s, read_sndd(*f.file.instance_bytes(i), sndd_is_mac(f, i), label, at));
  if (s.data_size == 0) return SnddData{s, {}};
  const bool sep = [&] {
    for (const ChunkRef& c : f.chunks)
      if (c.instance == i) return c.kind == FieldKind::sep && !f.file.is_oni();
    return false;
  }();
  const ByteView comp = sep ? f.sep : f.raw;
  const char* where = f.file.is_oni() ? "raw block" : (sep ? ".sep" : ".raw");
  const std::uint32_t field = s.mac ? 0x14 : 0x44;
  if (s.data_offset < 32 || !range_ok(s.data_offset, s.data_size, comp.size()))
    return f.file.error(label, at + field, fmt::format("sound data at 0x{:x}+0x{:x} outside the {} (0x{:x} bytes)", s.data_offset, s.data_size, where, comp.size()))
        .with_code("oni.sndd-data");
  return SnddData{s, comp.subspan(s.data_offset, s.data_size)};
}

Result<audio::Sound> decode_sndd(const SnddRecord& r, ByteView data) {
  ASSAY_TRY(const SoundCodec codec, r.codec());
  if (r.channels < 1 || r.channels > 2) return sndd_error("SNDD", 0x0E, fmt::format("{} channels (1 or 2)", r.channels));
  if (r.rate == 0) return sndd_error("SNDD", 0x10, "sample rate 0");
  audio::Sound s{r.rate, r.channels, {}};
  if (codec == SoundCodec::pcm) s.pcm = pcm16(data.first(data.size() - data.size() % (2u * r.channels)));  // whole frames
  else if (codec == SoundCodec::ima4) ASSAY_CHECK(audio::decode_ima4(data, r.channels, s.pcm));
  else ASSAY_CHECK(audio::decode_ms_adpcm(data, r.channels, r.block_align, s.pcm));
  return s;
}

// A record error (format "oni") is placed in the instance; a decoder's (format "ms-adpcm",
// "ima4") in the .raw: its structure names the instance, its offset is absolute in the .raw.
Result<audio::Sound> decode_sndd_instance(const LoadedFile& f, std::uint32_t i) {
  ASSAY_TRY(SnddData d, sndd_data(f, i));
  auto s = decode_sndd(d.record, d.data);
  if (s) return s;
  Error e = std::move(s).error();
  const Descriptor desc = f.file.descriptor(i);
  const std::string label = instance_label(i, desc.tag, f.names[i]);
  const bool in_record = e.format == kFormat;
  if (e.offset != kNoOffset) e.offset += in_record ? f.file.instance_file_offset(desc) : d.record.data_offset;
  e.message = fmt::format("{} {}: {}", e.structure, in_record ? "field" : fmt::format("(.raw data at 0x{:x})", d.record.data_offset), e.message);
  e.structure = in_record ? label : label + " .raw data";
  e.format = kFormat;
  e.file = f.display;
  if (e.code.empty()) e.code = "oni.sndd-data";
  return e;
}

Result<ByteBuffer> sndd_stored_file(const LoadedFile& f, std::uint32_t i, std::string_view& ext) {
  ASSAY_TRY(SnddData d, sndd_data(f, i));
  const SnddRecord& r = d.record;
  ASSAY_TRY(const SoundCodec codec, r.codec());
  if (r.channels < 1 || r.channels > 2) return sndd_error("SNDD", 0x0E, fmt::format("{} channels (1 or 2)", r.channels));
  if (codec == SoundCodec::ima4) {
    ext = "aifc";
    return audio::ima4_aifc_bytes(r.channels, r.rate, d.data);
  }
  ext = "wav";
  if (codec == SoundCodec::pcm) {
    ASSAY_TRY(const audio::Sound pcm, decode_sndd(r, d.data));
    return audio::wav_bytes(pcm);
  }
  audio::MsAdpcmWav w{r.channels, r.rate, r.block_align, r.frames()};
  if (r.coef_count == 7) w.coefs = r.coefs;
  return audio::ms_adpcm_wav_bytes(w, d.data);
}

Result<ExtractCount> write_sndd(const LoadedFile& f, std::uint32_t i, const std::string& stem, bool adpcm, const OutputDir& dir) {
  ByteBuffer b;
  std::string_view ext = "wav";
  if (adpcm) {
    ASSAY_TRY(b, sndd_stored_file(f, i, ext));
  } else {
    ASSAY_TRY(const audio::Sound s, decode_sndd_instance(f, i));
    b = audio::wav_bytes(s);
  }
  ASSAY_CHECK(dir.write(fmt::format("{}.{}", stem, ext), b));
  return ExtractCount{1, b.size()};
}

}  // namespace assay::oni
