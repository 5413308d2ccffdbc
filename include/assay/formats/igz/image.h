// Alchemy images in an igz: igImage2 objects, their metaimage (pixel format) and their pixels.
//
// An igImage2 is {igNamedObject, u16 _width, _height, _depth, _levelCount, _imageCount, pad,
// igMetaImage* _format, i32 _usageDeprecated, u16 _paddingDeprecated, pad, igMemory _data, ...}
// (field order: igRewrite8 igLibrary/Gfx/igImage2.cs). _format is an external reference (REXT)
// to namespace "metaimages" (FNV-1a 0x843CD0C2) naming the format ("dxt1_tile_big_ps3"); _data
// is a memory handle (RMHN -> TMHN) into a pool of the same file, or an igMemory in place. Where the
// fields sit differs per game and pointer size, so they are found from the _format field (the
// object's REXT field) and the fixups that mark _data — see image.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/core/bytes.h"
#include "assay/formats/igz/graph.h"
#include "assay/image/png.h"
#include "assay/options.h"

namespace assay::igz {

// A metaimage name split into its parts ("dxt5_tile_big_ps3": canonical "dxt5", tile, big-endian,
// platform "ps3"; igRewrite8 igGfx.cs names the canonical formats, igMetaImage.cs
// MakePlatformFormat appends "_" + platform).
struct MetaImageName {
  std::string canonical;  // "dxt1", "dxt5_srgb", "r8g8b8a8", ...
  bool tile = false;      // "_tile": the platform's tiled layout
  bool big = false;       // "_big": the platform is big-endian
  std::string platform;   // "ps3", "cafe", ... ("" for a canonical format)
};
MetaImageName parse_metaimage_name(std::string_view name);
// The metaimage whose FNV-1a (lower-cased) is `hash`, among the canonical formats with every
// layout suffix and platform; nullopt when none matches.
std::optional<std::string> metaimage_for_hash(std::uint32_t hash);
inline constexpr std::uint32_t kMetaImagesNamespace = 0x843CD0C2;  // fnv1a32("metaimages")

// Where an image's pixels are.
struct ImageData {
  enum class Where : std::uint8_t { pool, external, none };
  Where where = Where::none;
  std::uint64_t offset = 0;  // absolute file position (pool)
  std::uint64_t size = 0;    // bytes the igMemory holds (pool)
  std::uint32_t handle = 0;  // TMHN index (pool)
  std::string reference;     // "namespace::name" of the file holding them (external)
  bool in_place = false;     // an igMemory in the object (no memory handle; pool)
};

struct Image2 {
  std::size_t object = kNoObject;  // index into Graph::objects
  std::string type;                // "igImage2"
  std::optional<std::string> name; // igNamedObject::_name
  std::uint32_t field_base = 0;    // offset of _width inside the object
  std::uint32_t format_field = 0;  // offset of _format inside the object
  std::uint32_t data_field = 0;    // offset of _data inside the object
  // Where the field offsets come from when no real file of this pointer size has shown them
  // ("" for the 32-bit layout the samples prove); image_details_json adds it to "assumed".
  std::string field_assumption;
  std::uint16_t width = 0, height = 0, depth = 0, levels = 0, images = 0;
  std::string format;              // the metaimage name, or "namespace::name" hashes when unknown
  bool format_known = false;
  std::string platform;            // the file's platform name ("ps3", "cafe")
  ImageData data;
};

// The images of a decoded file (every igImage2 object; objects whose fields cannot be found are
// skipped). read_image2 gives the error for one object.
std::vector<Image2> find_images(const IgzFile& f, const Fixups& fx, const Graph& g);
Result<Image2> read_image2(const IgzFile& f, const Fixups& fx, const Graph& g, std::size_t object);

// Bytes one level takes in the image's format, and every level together (images x depth x
// levels); errors for a format or layout that is not decoded, or on overflow.
Result<std::uint64_t> level_size(const Image2& img, unsigned level);
Result<std::uint64_t> data_size(const Image2& img);
// The bytes decode_image2 reads: data_size() (every level of every layout decoded is placed; the
// console tilings' levels by image/tiling.h tiled_mip_chain).
Result<std::uint64_t> decoded_data_size(const Image2& img);
// An error (code igz.image-data, at the _data's offset, both sizes) when pool data is shorter than
// decoded_data_size(): what extract and texture() stop at; nothing for a size not known here.
Result<void> check_data_size(const Image2& img);
// What the decoding of the image's format assumes where no sample has shown it (plain pixel
// formats, Wii tiles); "" for the DXT layouts the samples prove.
std::string_view texel_assumption(const Image2& img);
// Level `level` as RGBA. Checks the data size against data_size() first; an undecoded format or
// layout is an unsupported error naming the format and platform.
Result<image::Rgba> decode_image2(const IgzFile& f, const Image2& img, unsigned level);
// Level `level` as a PNG: image::encode_png(decode_image2(...)), the same bytes and errors; untiled
// BC1-BC3 levels are decoded a band of block rows at a time into the encoder (encode_png_rows).
Result<ByteBuffer> encode_image2_png(const IgzFile& f, const Image2& img, unsigned level);

// Levels 0..levels-1 (each the size decode_image2 gives) encoded in the image's own format and
// layout, largest first: the bytes of its _data, data_size() of them. The same formats and layouts
// as decode_image2; anything else is its unsupported error.
Result<ByteBuffer> encode_image2(const Image2& img, const std::vector<image::Rgba>& levels);

}  // namespace assay::igz
