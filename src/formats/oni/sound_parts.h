// The Oni container's sound entries: SNDD instances as kind "sound", their list
// details, and what extract writes for them (NAME.wav; with --adpcm the stored data as NAME.wav
// or NAME.aifc), and an OSBD's JSON. Private to the family.
#pragma once

#include <string>

#include "assay/container.h"
#include "assay/formats/oni/level_set.h"
#include "assay/formats/oni/sound.h"
#include "assay/formats/oni/sound_binding.h"
#include "formats/serialise.h"

namespace assay::oni {

enum class SoundOutput : std::uint8_t { none, wav, adpcm };

// extract --sounds / --adpcm: read from ContainerOptions.oni once it carries `sounds` and `adpcm`
// (see sound_entries.cc); none until then.
SoundOutput sound_output(const assay::ContainerOptions& o);

// An SNDD entry with a readable record becomes kind "sound" with its SoundInfo (from the
// instance alone: no walk).
void classify_sound(Entry& e, ByteView inst, bool mac);
// Its details: channels, rate, frames, codec, block_align, duration_ticks and data_size.
void print_sound_details(FieldPrinter& p, ByteView inst, bool mac);

// NAME.wav for an SNDD entry with data (SNDD#INDEX.wav unnamed; with `adpcm` an IMA4 one as
// NAME.aifc, the file write_sndd makes), NAME.json for an OSBD (its binding, sound_binding.h); ""
// for any other entry.
std::string sound_path(const Entry& e, std::uint32_t tag, std::uint32_t index, bool adpcm);

// OSBD instance i of f as {"kind": "OSGr"|"OSAm"|"OSIm"|..., "version", "size", and for OSGr
// "volume", "pitch", "prevent_repeats", "last_selected", "channels", "permutations": [{"weight",
// "volume": [min, max], "pitch": [min, max], "sound"}]}.
Result<Json> sound_binding_json(const LoadedFile& f, std::uint32_t i);

// An OSBD's chunk: its kind (the chunk's tag), version and size, and an OSGr's group.
struct SoundBinding {
  std::uint32_t kind = 0;
  std::uint32_t version = 0;
  std::uint64_t size = 0;
  std::optional<SoundGroup> group;
};
Result<SoundBinding> read_sound_binding(const LoadedFile& f, std::uint32_t i);
// Its JSON (json.cc), as above.
Json sound_binding_json(const SoundBinding& s);

}  // namespace assay::oni
