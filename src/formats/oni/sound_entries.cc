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

void sound_details(Entry& e, ByteView inst, bool mac) {
  auto r = read_sndd(inst, mac, "SNDD", 0);
  if (!r) return;
  e.kind = EntryKind::sound;
  e.details["channels"] = r->channels;
  e.details["rate"] = r->rate;
  e.details["frames"] = r->frames();
  auto codec = r->codec();
  e.details["codec"] = codec ? Json(std::string(codec_name(*codec))) : Json();
  e.details["block_align"] = mac ? Json(audio::kIma4PacketSize * r->channels) : Json(r->block_align);
  e.details["duration_ticks"] = r->duration_ticks;
  e.details["data_size"] = r->data_size;
}

std::string sound_path(const Entry& e, std::uint32_t index, bool adpcm) {
  const bool binding = e.details.value("tag", "") == "OSBD";
  if ((e.kind != EntryKind::sound && !binding) || !e.size) return {};
  std::string stem = oni_file_name(e.name ? *e.name : fmt::format("{}#{}", binding ? "OSBD" : "SNDD", index));
  stem.resize(stem.size() - 4);  // ".oni"
  if (binding) return stem + ".json";
  return stem + (adpcm && e.details.value("codec", Json()) == "ima4" ? ".aifc" : ".wav");
}

}  // namespace assay::oni
