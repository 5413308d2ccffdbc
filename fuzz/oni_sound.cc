// libFuzzer target: SNDD sounds (oni/sound.h read_sndd + decode_sndd; issue 27; spec:
// oni.md#oni-7-1): byte 0 bit 0 picks the Mac (v1.1, 0x18-byte) or PC (v1.0, 0x48-byte) record,
// the record follows, then the audio data. A decoded sound must hold exactly the frames the record
// promises for that many data bytes (SnddRecord::frames), interleaved over its channels. Byte 0
// bit 1 instead feeds the rest to the OSGr sound group reader (sound_binding.h): its permutations
// must fit the bytes given.
#include <cstddef>
#include <cstdint>

#include "assay/formats/oni/sound.h"
#include "assay/formats/oni/sound_binding.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay::oni;
  if (size < 1) return 0;
  if (data[0] & 2) {
    auto g = read_sound_group(assay::ByteView(data + 1, size - 1), 0);
    if (g && g->permutations.size() * SoundPermutation::kSize > size) __builtin_trap();
    return 0;
  }
  const bool mac = data[0] & 1;
  const std::size_t rec = mac ? SnddRecord::kMacSize : SnddRecord::kPcSize;
  if (size < 1 + rec) return 0;
  auto r = read_sndd(assay::ByteView(data + 1, rec), mac, "SNDD", 0);
  if (!r) return 0;
  const assay::ByteView audio(data + 1 + rec, size - 1 - rec);
  r->data_size = static_cast<std::uint32_t>(audio.size());
  auto s = decode_sndd(*r, audio);
  if (!s) return 0;
  if (s->channels != r->channels || s->rate != r->rate) __builtin_trap();
  if (s->pcm.size() != r->frames() * r->channels) __builtin_trap();
  return 0;
}
