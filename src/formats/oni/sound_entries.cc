// SNDD entries of the Oni container (spec: oni.md#oni-7-1).
#include <fmt/format.h>

#include "assay/audio/adpcm.h"
#include "assay/core/output.h"
#include "assay/formats/oni/oni.h"
#include "sound_parts.h"

namespace assay::oni {

SoundOutput sound_output(const assay::ContainerOptions& o) {
  return o.oni.adpcm ? SoundOutput::adpcm : o.oni.sounds ? SoundOutput::wav : SoundOutput::none;
}

void classify_sound(Entry& e, ByteView inst, bool mac) {
  auto r = read_sndd(inst, mac, "SNDD", 0);
  if (!r && r.error().code == "oni.sndd-shifted") e.kind = EntryKind::sound;  // extract and sound() say why
  if (!r) return;
  e.kind = EntryKind::sound;
  auto codec = r->codec();
  e.sound_info = SoundInfo{r->channels, r->rate, r->frames(), codec ? codec_name(*codec) : std::string_view()};
}

void print_sound_details(FieldPrinter& p, ByteView inst, bool mac) {
  auto r = read_sndd(inst, mac, "SNDD", 0);
  if (!r) return;
  auto codec = r->codec();
  p.field("channels", r->channels).field("rate", r->rate).field("frames", r->frames());
  if (codec) p.field("codec", codec_name(*codec)); else p.null("codec");
  p.field("block_align", mac ? std::uint32_t{audio::kIma4PacketSize} * r->channels : std::uint32_t{r->block_align});
  p.field("duration_ticks", r->duration_ticks).field("data_size", r->data_size);
}

std::string sound_path(const Entry& e, std::uint32_t tag, std::uint32_t index, bool adpcm) {
  const bool binding = tag == make_tag("OSBD");
  if ((e.kind != EntryKind::sound && !binding) || !e.size) return {};
  std::string stem = oni_file_name(e.name ? *e.name : fmt::format("{}#{}", binding ? "OSBD" : "SNDD", index));
  stem.resize(stem.size() - 4);  // ".oni"
  if (binding) return stem + ".json";
  return stem + (adpcm && e.sound_info && e.sound_info->codec == "ima4" ? ".aifc" : ".wav");
}

}  // namespace assay::oni
