// verify for SNDD instances: the record readable, the data inside the .raw,
// block sizes that fit the codec (MS ADPCM: a last block may be partial but must hold its
// header; IMA4 and PCM: whole packets and frames), the data decoding, the duration (1/60 s) within
// one tick of the frames' length, samples per block and coefficients as MS ADPCM defines them;
// and every OSBD binding (OSGr, OSAm, OSIm) read as extract --sounds reads it.
#include <cmath>

#include <fmt/format.h>

#include "assay/audio/adpcm.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound.h"
#include "sound_parts.h"

namespace assay::oni {

namespace {

// Block sizes the codec allows; an error message or "".
std::string block_problem(const SnddRecord& r, SoundCodec codec) {
  const std::uint32_t ch = r.channels;
  if (codec == SoundCodec::ima4 && r.data_size % (audio::kIma4PacketSize * ch))
    return fmt::format("data size 0x{:x} is not whole IMA4 packets (0x{:x} bytes for {} channels)", r.data_size, audio::kIma4PacketSize * ch, ch);
  if (codec == SoundCodec::pcm && r.data_size % (2 * ch)) return fmt::format("data size 0x{:x} is not whole 16-bit frames", r.data_size);
  if (codec != SoundCodec::ms_adpcm) return {};
  if (r.block_align < audio::kMsAdpcmHeaderPerChannel * ch) return fmt::format("block align {} cannot hold a {}-channel block header", r.block_align, ch);
  const std::uint32_t rest = r.data_size % r.block_align;
  if (rest && rest < audio::kMsAdpcmHeaderPerChannel * ch)
    return fmt::format("data size 0x{:x}: the last block has 0x{:x} bytes, less than its header (block align {})", r.data_size, rest, r.block_align);
  return {};
}

// MS ADPCM header fields that disagree with the block align and the standard table (warnings).
void check_wave_format(const LoadedFile& f, const SnddRecord& r, const std::string& label, std::uint64_t at, Diagnostics& out) {
  const std::uint32_t spb = audio::ms_adpcm_block_frames(r.block_align, r.channels);
  if (r.samples_per_block != spb)
    out.warning(f.file.error(label, at + 0x1E, fmt::format("samples per block {}, block align {} holds {}", r.samples_per_block, r.block_align, spb))
                    .with_code("oni.sndd"));
  if (r.coef_count != 7 || r.coefs != audio::kMsAdpcmCoefficients)
    out.warning(f.file.error(label, at + 0x20, "coefficient table is not MS ADPCM's standard 7 pairs (decoded with the standard ones, as FFmpeg does)")
                    .with_code("oni.sndd"));
}

void check_duration(const LoadedFile& f, const SnddRecord& r, std::uint64_t frames, const std::string& label, std::uint64_t at, Diagnostics& out) {
  const double ticks = static_cast<double>(frames) * 60.0 / r.rate;
  if (std::fabs(ticks - r.duration_ticks) <= 1.0) return;
  out.warning(f.file.error(label, at + (r.mac ? 0x0C : 0x3E),
                         fmt::format("duration {} ticks (1/60 s), the {} frames at {} Hz last {:.2f}", r.duration_ticks, frames, r.rate, ticks))
                  .with_code("oni.sndd-duration"));
}

void verify_sound(const LoadedFile& f, std::uint32_t i, Diagnostics& out) {
  const Descriptor d = f.file.descriptor(i);
  const std::string label = instance_label(i, d.tag, f.names[i]);
  const std::uint64_t at = f.file.instance_file_offset(d);
  auto data = sndd_data(f, i);
  if (!data) {
    if (data.error().code != "oni.sndd-data") out.error(data.error());  // a bad offset: the walk reported it
    return;
  }
  const SnddRecord& r = data->record;
  auto codec = r.codec();
  if (!codec) return out.error(f.file.error(label, at + 0x0C, codec.error().message).with_code("oni.sndd"));
  if (r.channels < 1 || r.channels > 2)
    return out.error(f.file.error(label, at + (r.mac ? 0x08 : 0x0E), fmt::format("{} channels (1 or 2)", r.channels)).with_code("oni.sndd"));
  if (const std::string p = block_problem(r, *codec); !p.empty())
    return out.error(f.file.error(label, at + (r.mac ? 0x10 : 0x40), p).with_code("oni.sndd-data"));
  if (*codec == SoundCodec::ms_adpcm) check_wave_format(f, r, label, at, out);
  auto pcm = decode_sndd_instance(f, i);
  if (!pcm) return out.error(pcm.error());
  if (r.rate) check_duration(f, r, pcm->frames(), label, at, out);
}

// An OSBD binding read as extract --sounds reads it (its chunk inside the .raw/.sep, an OSGr's
// fields and permutations inside the chunk); a failure is what extract would stop at.
void verify_binding(const LoadedFile& f, std::uint32_t i, Diagnostics& out) {
  auto b = read_sound_binding(f, i);
  if (b) return;
  // oni.osbd: the chunk's content; anything else (the chunk outside the .raw, no chunk walked)
  // the walk has reported
  if (b.error().code == "oni.osbd") out.error(b.error());
}

}  // namespace

void verify_sounds(const LoadedFile& f, Diagnostics& out) {
  if (!f.opened || f.layouts == nullptr) return;
  for (std::uint32_t i = 0; i < f.file.instance_count(); ++i) {
    if (!f.has_data[i]) continue;
    const std::uint32_t tag = f.file.descriptor(i).tag;
    if (tag == make_tag("SNDD")) verify_sound(f, i, out);
    else if (tag == make_tag("OSBD")) verify_binding(f, i, out);
  }
}

}  // namespace assay::oni
