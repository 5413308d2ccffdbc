// A material igz written by our own writer, shaped as zap.pak's materialinstances\*.igz: a root
// igObjectList of two materials named "Mat" (or `first_name`) and "Other" (ONAM). "Mat" points (field 0 after the
// header) at a memory block of three pointers, as an igCachedAttrList points at its attribute
// array: an igColorAttr and two igTextureBindAttr2 at units 1 and 0 (igAttr::_cachedUnitID, a
// short right after the igObject header). Each bind's _texture (+0x08) is an igTextureAttr2
// whose RHND names an EXID {fnv1a("image"), fnv1a(namespace)}; TDEP lists the namespaces
// ColorMap_A_11 (textures:/ColorMap_A_11.igz) and NormalMap_B_11. "Other" binds its own
// texture ColorMap_C_11 at unit 0 directly (a pointer field), which "Mat" must not reach, and
// points at "Mat" (as a material animation does), whose binds are not its own.
// Texture attr of unit 0: _magFilter 0, _minFilter 3, _wrapS 0, _wrapT 1; unit 1: 1, 5, 1, 1.
#pragma once

#include "assay/core/hash.h"
#include "assay/formats/igz/writer.h"

namespace assay::igz::fixtures {

inline Result<ByteBuffer> material_igz(const Layout& layout, const char* first_name = "Mat") {
  Writer w(layout);
  const std::uint32_t def = w.add_pool("Default", 16);
  const std::uint32_t h = w.object_header(), ps = w.pointer_size();
  const std::uint32_t list_t = w.add_type("igObjectList", w.data_list_size());
  const std::uint32_t names_t = w.add_type("igNameList", w.data_list_size());
  const std::uint32_t mat_t = w.add_type("CCharacterMaterial", h + 4 * ps);
  const std::uint32_t color_t = w.add_type("igColorAttr", h + 0x10);
  const std::uint32_t bind_t = w.add_type("igTextureBindAttr2", h + 0x10);
  const std::uint32_t attr_t = w.add_type("igTextureAttr2", h + 0x40);
  w.add_dependency("ColorMap_A_11", "textures:/ColorMap_A_11.igz");
  w.add_dependency("NormalMap_B_11", "textures:/NormalMap_B_11.igz");
  w.add_dependency("ColorMap_C_11", "textures:/ColorMap_C_11.igz");
  const bool big = layout.endian == Endian::big;
  auto bind = [&](std::uint32_t unit, const char* ns, std::uint32_t mag, std::uint32_t min, std::uint32_t ws, std::uint32_t wt) {
    const std::uint32_t b = w.add_object(def, bind_t), a = w.add_object(def, attr_t);
    w.put_u32(b + h, big ? unit << 16 | 0xFFFF : 0xFFFF0000u | unit);  // _cachedUnitID, _cachedAttrIndex -1
    w.set_pointer(b + h + 8, a);
    w.put_u32(a + h + 0x10, mag), w.put_u32(a + h + 0x14, min), w.put_u32(a + h + 0x18, ws), w.put_u32(a + h + 0x1C, wt);
    w.set_handle(a + h + 0x34, w.add_external_id(fnv1a32("image", true), fnv1a32(ns, true)));  // an EXID index (bit 31 clear)
    return b;
  };
  const std::uint32_t mat = w.add_object(def, mat_t), other = w.add_object(def, mat_t);
  const std::uint32_t color = w.add_object(def, color_t);
  const std::uint32_t normal = bind(1, "NormalMap_B_11", 1, 5, 1, 1), base = bind(0, "ColorMap_A_11", 0, 3, 0, 1);
  const std::uint32_t attrs = w.alloc(def, 3 * ps, ps);
  w.set_pointer(attrs, color), w.set_pointer(attrs + ps, normal), w.set_pointer(attrs + 2 * ps, base);
  w.set_pointer(mat + h, attrs);
  w.set_pointer(other + h, bind(0, "ColorMap_C_11", 1, 1, 1, 1));
  w.set_pointer(other + h + ps, mat);  // "Other" points at "Mat": Mat's binds are not Other's
  const std::uint32_t root = w.add_object_list(def, list_t, {mat, other});
  const std::uint32_t names = w.add_object(def, names_t), stride = w.name_size();
  const std::uint32_t nd = w.alloc(def, 2 * stride, ps);
  const char* spelled[] = {first_name, "Other"};
  for (std::uint32_t i = 0; i < 2; ++i) {
    if (layout.names_as_tstr) w.set_string_index(nd + i * stride, w.add_string_table_entry(spelled[i]));
    else w.set_string(nd + i * stride, spelled[i]);
    w.put_name_hash(nd + i * stride, fnv1a32(spelled[i], true));
  }
  w.set_data_list(names, 2, nd, stride);
  w.set_root(root);
  w.set_name_list(names);
  return w.finish();
}

}  // namespace assay::igz::fixtures
