// igz files holding one igImage2 on 64-bit platforms, written by our own writer with the fields at
// the offsets public metadata gives (src/formats/igz/image.cc lists the sources):
//   nst      version 10, little-endian, platform word 6 (Crash NST / CTR on PC): igImage2 88 (0x58)
//            bytes, _name 0x10, _width .. _imageCount 0x18, _format (REXT) 0x28, _bitfield 0x30,
//            _userFlags 0x34, _data 0x38 an igMemory in place {u32 size, u32 flags 0x01100000,
//            u64 pointer (ROFS) at 0x40} (kishimisu/Crash-NST-Level-Editor igImage2.cs and
//            igMemoryRef.cs; spec: alchemy.md#corrections C4), _texHandle 0x48 = -1
//   nst_rmhn the same object with _data an RMHN memory handle (u64 TMHN index) at 0x38
//   v9_64    version 9, little-endian, platform 8 (win64): igImage2 0x90 bytes, _width 0x48,
//            _format 0x58, _data 0x68 an RMHN handle (igRewrite8 igLibrary/Gfx/igImage2.cs,
//            igMemoryRefHandleMetaField, 64-bit column)
//            (the same offsets as a CTR Switch reader's: width 0x18, height 0x1A, _format 0x28,
//            size u32 0x38, pointer 0x40; Eden DSMod fork ctr_alchemy.cc, formats "dxt5_nx", "l8a8_nx")
//   dims_0c  the nst object with _width .. _imageCount 0x0C before _format (at 0x1C) instead of
//            0x10: the other placement 8-byte alignment allows (no known layout has it)
#pragma once

#include <string>

#include "image_fixture.h"

namespace assay::igz::fixtures {

enum class Layout64 { nst, nst_rmhn, v9_64, dims_0c };

inline Result<ByteBuffer> build_image_igz64(const ImageSpec& s, Layout64 layout, std::string name = "_crate_diffuse") {
  const bool v9 = layout == Layout64::v9_64;
  Writer w(v9 ? Layout{9, Endian::little, 8, 8} : Layout{10, Endian::little, 6});
  const std::uint32_t size = v9 ? 0x90 : 0x58, width_at = v9 ? 0x48 : layout == Layout64::dims_0c ? 0x1C : 0x18;
  const std::uint32_t format_at = v9 ? 0x58 : 0x28, data_at = v9 ? 0x68 : 0x38;
  const std::uint32_t list_t = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t image_t = w.add_type("igImage2", size);
  const std::uint32_t def = w.add_pool("Default", 8);
  const std::uint32_t objects = w.add_pool("ImageObject", 16);
  const std::uint32_t pixels = w.add_pool("Image", 128);
  const std::uint32_t img = w.add_object(objects, image_t);
  w.set_string(img + 0x10, name);                                  // igNamedObject::_name
  w.put_u32(img + width_at, std::uint32_t{s.height} << 16 | s.width);  // little-endian u16 pairs
  w.put_u32(img + width_at + 4, std::uint32_t{s.levels} << 16 | s.depth);
  w.put_u32(img + width_at + 8, s.images);
  w.set_external(img + format_at, w.add_external_id(fnv1a32(s.format, true), 0x843CD0C2));
  // Version 10 keeps the reference flag in bit 63 (a CTR Switch reader, Eden DSMod fork
  // ctr_alchemy.cc, finds the u32 at _format + 4 with bit 31 set): EXID 0 | 1 << 63.
  if (!v9) w.put_word(img + format_at, std::uint64_t{1} << 63);
  if (!v9) w.put_u32(img + 0x48, 0xFFFFFFFFu);  // _texHandle = -1
  const auto bytes = static_cast<std::uint32_t>(s.pixels.size());
  const std::uint32_t data = w.alloc(pixels, (bytes + 3) & ~3u, 128);
  for (std::uint32_t i = 0; i + 4 <= bytes; i += 4)  // stored little-endian: the bytes in order
    w.put_u32(data + i, std::uint32_t{s.pixels[i]} | std::uint32_t{s.pixels[i + 1]} << 8 |
                            std::uint32_t{s.pixels[i + 2]} << 16 | std::uint32_t{s.pixels[i + 3]} << 24);
  if (layout == Layout64::nst || layout == Layout64::dims_0c) {
    w.put_word(img + data_at, w.memory_word(bytes));  // {u32 size, u32 flags}
    w.set_pointer(img + data_at + 8, data);
  } else {
    w.set_memory_handle(img + data_at, w.add_memory_handle(w.memory_word(bytes), data));
  }
  w.set_root(w.add_object_list(def, list_t, {img}));
  return w.finish();
}

}  // namespace assay::igz::fixtures
