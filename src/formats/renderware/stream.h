// Internal: one RenderWare stream parsed once for its Container (spec: renderware.md#rw-real):
// its top-level sections, and what the first one holds (a texture dictionary, whole or cut by
// the end of the file, or the clumps). The family's JSON (json.cc) and extract (container.cc)
// read this; nothing here builds JSON.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/extract_each.h"
#include "assay/core/output.h"
#include "assay/core/input.h"
#include "assay/family.h"
#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/gltf_export.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/walker.h"
#include "cut_dictionary.h"

namespace assay::rw::detail {

// A library stamp of a RenderWare 3.0-3.7 stream (spec: #rw-2-2, #rw-real).
bool known_stamp(std::uint32_t stamp);

// The family's identify (spec: #rw-real "Identify by content"): 0 = no, 100 = sure.
int identify(const Input& in);

// The top-level sections only: the walk keeps nothing else, so info and list stay small on a
// stream of hundreds of MB (spec: #rw-real "Memory").
struct TopLevel {
  std::vector<Section> top;
  WalkSummary summary;
  [[nodiscard]] const Section& first() const { return top.front(); }
};

struct Stream {
  std::optional<CutDictionary> cut;  // a texture dictionary the end of the file cuts
  TopLevel top;                      // empty when cut
  std::optional<TextureDictionary> dict;  // the whole texture dictionary the stream starts with
  std::vector<ClumpSummary> clumps;       // every top-level clump, in file order
  Diagnostics dict_diags;                 // what opening the dictionary reported
  // The dictionary (whole or the intact part of a cut one), nullptr when there is none.
  [[nodiscard]] const TextureDictionary* dictionary() const {
    return cut ? &cut->dict : dict ? &*dict : nullptr;
  }
  // The id of the first top-level section (a cut dictionary's too).
  [[nodiscard]] std::uint32_t top_type() const { return cut ? id::kTextureDictionary : top.first().header.type; }
};

// Parses `b` once: an Error when the walk fails, there is no section, or the dictionary or a
// clump the stream starts with cannot be read.
Result<Stream> open_stream(ByteView b);

// Every problem of `in` (verify): where a cut dictionary is cut then its intact textures, or the
// whole stream's rules (verify.h). A bar over the bytes when `progress`.
void verify_input(const Input& in, bool progress, Diagnostics& out);

// Model checks for every clump of `s` (warnings): positions outside a morph target's bounding
// sphere, a skin whose bone count differs from the HAnim hierarchy, a triangle-list Bin Mesh
// whose index count is not 3 x triangles.
void verify_models(const Stream& s, ByteView bytes, Diagnostics& out);

// Texture i as NAME.png (with mips, NAME.mip<k>.png for the further levels); NAME.rws for a
// texture stored_as_section.
Result<ExtractCount> write_texture(const TextureDictionary& d, std::size_t i, const std::string& name, bool mips,
                                   const OutputDir& dir, ByteView bytes);
// A texture assay lists but does not decode, written as its stored Texture Native section
// (NAME.rws, a RenderWare stream of its own): GameCube natives (spec: #rw-real).
bool stored_as_section(const TextureNative& t);

// The texture dictionaries a clump's materials are looked up in when it is exported: the
// sibling with the clump file's stem and ".txd" (GTA's convention), read when the clump opens.
class ModelTextures {
 public:
  // Keeps `in` (the dictionary views its bytes).
  Result<void> add(Input in);
  [[nodiscard]] TextureSources sources() const;
  // A texture of that name (compared without case) in one of the dictionaries.
  [[nodiscard]] bool has(std::string_view name) const;
  // Where textures were looked for, for a warning ("looked in x.txd", "no x.txd beside it").
  [[nodiscard]] std::string where() const;
  std::string wanted;      // the sibling's name looked for
  std::string unreadable;  // why it could not be read, when it could not

 private:
  struct Held {
    Input input;
    std::optional<TextureDictionary> dict;
  };
  std::vector<std::unique_ptr<Held>> held_;  // stable addresses for sources()
};
// The --txd dictionaries first (an error when one cannot be read), then the sibling.
Result<ModelTextures> model_textures(const OpenContext& ctx);
// The input's file name without its extension: "dir/pack.pak::models/ped.dff" -> "ped".
std::string file_stem(const Input& in);

// Small demo files from the family's own writers (the README's demo).
Result<std::vector<std::string>> write_samples(const std::filesystem::path& dir);

}  // namespace assay::rw::detail
