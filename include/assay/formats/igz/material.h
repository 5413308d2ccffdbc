// An igz material's textures: the igTextureBindAttr2 objects reachable from a material object,
// each binding an igTextureAttr2 to a texture unit; the igTextureAttr2's _imageHandle names the
// igImage2 by namespace (another igz, which the file's TDEP lists) and name.
// Field offsets (after the igObject header of two pointers): igAttr::_cachedUnitID +0x00 (a
// short), igTextureAttr2 _magFilter +0x10, _minFilter +0x14, _wrapS +0x18, _wrapT +0x1C; from
// igRewrite8's Resources/ArkCore/EV_SkylandersTrapTeam/metaobjects.xml and NSTLib's
// igStructures/Attrs, and seen in zap.pak's materialinstances (units 0, 1, 2, 5).
// igTextureBindAttr2::_unitID (+0x0C) holds -1 there: the unit is igAttr's.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/formats/igz/graph.h"

namespace assay::igz {

struct TextureBinding {
  std::size_t object = kNoObject;  // the igTextureBindAttr2
  int unit = -1;                   // igAttr::_cachedUnitID
  // IG_GFX_TEXTURE_FILTER (0 nearest, 1 linear, 2-5 the mipmap pairs) and IG_GFX_TEXTURE_WRAP
  // (0 clamp, 1 repeat), as metaenums.xml names them.
  std::uint32_t mag_filter = 1, min_filter = 1, wrap_s = 1, wrap_t = 1;
  std::uint32_t namespace_hash = 0, name_hash = 0;  // the _imageHandle
  std::string image;  // "namespace::name" (8 hex digits where no name is known)
  std::string file;   // the file of the namespace's TDEP entry ("ColorMap_X_11.igz"), "" when none
};

struct MaterialTextures {
  std::size_t object = kNoObject;        // the material object
  std::string type;                      // "CCharacterMaterial", ...
  std::vector<TextureBinding> bindings;  // by unit, then object order
};

// The object the root list names with `name_hash` (FNV-1a of the lower-cased name, as a handle
// holds it), nullopt when none.
std::optional<std::size_t> named_object(const Graph& g, std::uint32_t name_hash);

// The textures the material object binds. Reachable: through its pointer fields and the
// pointer arrays of the memory blocks they point at (the igCachedAttrLists' attribute arrays).
MaterialTextures material_textures(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t material);

// The same for many materials of one file: the file's pointer edges sorted once.
class MaterialReader {
 public:
  MaterialReader(const IgzFile& f, const Fixups& fx, const Graph& g);
  ~MaterialReader();
  MaterialReader(const MaterialReader&) = delete;
  MaterialReader& operator=(const MaterialReader&) = delete;
  [[nodiscard]] MaterialTextures read(std::size_t material) const;
  // Whether objects of this type are materials whose details list their textures ("...Material").
  [[nodiscard]] static bool is_material_type(std::string_view type);

 private:
  struct Edges;
  const IgzFile& f_;
  const Fixups& fx_;
  const Graph& g_;
  std::unique_ptr<Edges> edges_;
};

// The file a TDEP path names ("textures:/ColorMap_X_11.igz" -> "ColorMap_X_11.igz").
std::string_view dependency_file(std::string_view path);
// The TDEP entry whose namespace hashes (FNV-1a, lower case) to `namespace_hash`; nullptr if none.
const Dependency* dependency_for(const Fixups& fx, std::uint32_t namespace_hash);

// The hashes of a handle name "namespace::name" as the model readers print it: each part is
// its FNV-1a (lower case), or the hash itself where the part is 8 hex digits (no name known).
struct HandleHashes {
  std::uint32_t name_space = 0, name = 0;
};
std::optional<HandleHashes> handle_hashes(std::string_view handle);

}  // namespace assay::igz
