// Writers for tests, corpora and demo files. spec: renderware.md#rw-5 (PS2 natives: packets,
// swizzle, CSM1, alpha), #rw-6 (D3D9 natives), #rw-7 (clumps).
#include "assay/formats/renderware/writer.h"
#include "codes.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <map>

#include "assay/formats/renderware/texture.h"
#include "assay/image/ps2.h"
#include "records.h"

namespace assay::rw::writer {

namespace {

Error werr(std::string m) { return detail::rw_error("writer", kNoOffset, std::move(m), "renderware.writer"); }

// One GS upload packet (spec: #rw-5-6).
void packet(ByteWriter& w, std::uint32_t trx_w, std::uint32_t trx_h, ByteView image) {
  const auto nloop = static_cast<std::uint32_t>(image.size() / 16);
  w.u32(3), w.u32(0x10000000), w.u32(0x0E), w.u32(0);  // GIF tag, A+D, NLOOP 3
  w.u64(0), w.u64(0x51);                               // TRXPOS
  w.u32(trx_w), w.u32(trx_h), w.u64(0x52);             // TRXREG
  w.u64(0), w.u64(0x53);                               // TRXDIR
  w.u32(nloop), w.u32(0x08000000), w.u32(0), w.u32(0);  // IMAGE tag
  w.bytes(image);
}

std::uint32_t level_dim(std::uint32_t v, std::uint32_t i) { return std::max<std::uint32_t>(1, v >> i); }

}  // namespace

ByteBuffer section(std::uint32_t type, ByteView body, std::uint32_t stamp) {
  ByteWriter w;
  w.u32(type), w.u32(static_cast<std::uint32_t>(body.size())), w.u32(stamp);
  w.bytes(body);
  return w.take();
}

ByteBuffer container(std::uint32_t type, const std::vector<ByteBuffer>& children, std::uint32_t stamp) {
  ByteBuffer body;
  for (const auto& c : children) body.insert(body.end(), c.begin(), c.end());
  return section(type, body, stamp);
}

ByteBuffer string_section(std::string_view text, std::uint32_t stamp) {
  ByteWriter w;
  w.cstr(text);
  w.align(4);
  return section(id::kString, w.buffer(), stamp);
}

Result<Ps2Texture> ps2_texture_from_rgba(std::string name, const std::vector<image::Rgba>& levels, bool pal4) {
  if (levels.empty()) return werr("no levels");
  Ps2Texture t;
  t.name = std::move(name);
  t.width = levels[0].width;
  t.height = levels[0].height;
  t.pal4 = pal4;
  std::map<std::uint32_t, std::uint8_t> index;
  const std::size_t max = pal4 ? 16 : 256;
  for (const auto& img : levels) {
    if (img.pixels.size() != std::size_t{img.width} * img.height * 4) return werr("pixel buffer size mismatch");
    ByteBuffer idx(std::size_t{img.width} * img.height);
    for (std::size_t k = 0; k < idx.size(); ++k) {
      const std::uint32_t c = records::u32_at(img.pixels, 4 * k);  // RGBA as r | g << 8 | b << 16 | a << 24
      auto it = index.find(c);
      if (it == index.end()) {
        if (index.size() == max) return werr(fmt::format("more than {} colours", max));
        it = index.emplace(c, static_cast<std::uint8_t>(index.size())).first;
        t.palette.push_back(c);
      }
      idx[k] = it->second;
    }
    t.levels.push_back(std::move(idx));
  }
  return t;
}

namespace {

struct Ps2Header {  // the fields of spec #rw-5-3 the writers choose
  std::uint32_t width = 0, height = 0, depth = 0, raster_format = 0;
  std::uint16_t layout_version = 2;
  std::uint64_t tex0 = 0;
  std::uint32_t levels = 1, pixel_size = 0, palette_size = 0, gs_words = 0;
};

std::uint64_t make_tex0(std::uint32_t w, std::uint32_t h, std::uint32_t psm, bool alpha, std::uint64_t tbw) {
  return (tbw << 14) | (std::uint64_t{psm} << 20) | (std::uint64_t(std::countr_zero(w)) << 26) |
         (std::uint64_t(std::countr_zero(h)) << 30) | (std::uint64_t{alpha ? 1u : 0u} << 34);
}

// The 0x15 section around a raster header and its data (spec: #rw-5-2).
ByteBuffer ps2_native(const std::string& name, const std::string& mask, std::uint32_t filter, std::uint32_t s,
                      const Ps2Header& h, const ByteBuffer& data) {
  ByteWriter hdr;  // spec: #rw-5-3
  hdr.u32(h.width), hdr.u32(h.height), hdr.u32(h.depth);
  hdr.u16(static_cast<std::uint16_t>(h.raster_format)), hdr.u16(h.layout_version);
  hdr.u64(h.tex0);
  hdr.u32(0);                  // palette base
  hdr.u32((h.levels - 1) << 2);  // TEX1 low: MXL
  hdr.u64(0), hdr.u64(0);      // MIPTBP1, MIPTBP2
  hdr.u32(h.pixel_size), hdr.u32(h.palette_size), hdr.u32(h.gs_words), hdr.u32(0xFC0);
  ByteWriter plat;
  plat.u32(kPlatformPS2), plat.u32(filter);
  ByteWriter sky;
  sky.u32(0xFC0);
  return container(id::kTextureNative,
                   {section(id::kStruct, plat.buffer(), s), string_section(name, s), string_section(mask, s),
                    container(id::kStruct, {section(id::kStruct, hdr.buffer(), s), section(id::kStruct, data, s)}, s),
                    container(id::kExtension, {section(id::kSkyMipmapVal, sky.buffer(), s)}, s)},
                   s);
}

void pad_to(ByteWriter& w, std::uint64_t size) {
  if (w.size() < size) w.zeros(size - w.size());
}

}  // namespace

Result<ByteBuffer> ps2_texture_native(const Ps2Texture& t) {
  if (!std::has_single_bit(t.width) || !std::has_single_bit(t.height) || t.width > 4096 || t.height > 4096)
    return werr("width and height must be powers of two up to 4096");
  const auto nlev = static_cast<std::uint32_t>(t.levels.size());
  if (nlev == 0 || nlev > 8 || nlev > static_cast<std::uint32_t>(std::bit_width(std::max(t.width, t.height))))
    return werr("1 to 8 levels, no more than the size allows");
  if (t.layout_version > 2) return werr("layout version 0, 1 or 2");
  const std::uint32_t entries = t.pal4 ? 16 : 256, depth = t.pal4 ? 4 : 8;
  if (t.palette.size() > entries) return werr("palette too large");
  const bool packets = t.layout_version == 2;
  const bool newer = decode_stamp_raw(t.stamp).version > 0x31000;
  // swizzled: PSMT8 in layouts 1-2, PSMT4 in layout 2 above 3.1.0.0 (spec: #rw-real, #rw-5-6)
  const bool swizzled = t.pal4 ? packets && newer : t.layout_version >= 1;
  const std::uint32_t min_w = swizzled ? (t.pal4 ? 32 : 16) : 8, min_h = swizzled ? 4 : 1;
  ByteWriter texels;
  std::uint64_t gs_words = 0;
  for (std::uint32_t i = 0; i < nlev; ++i) {
    const std::uint32_t lw = level_dim(t.width, i), lh = level_dim(t.height, i);
    if (t.levels[i].size() != std::size_t{lw} * lh) return werr(fmt::format("level {} is not {} x {}", i, lw, lh));
    if (!packets && (lw < min_w || lh < min_h))
      return werr(fmt::format("level {} is smaller than the {} x {} the old layout can hold", i, min_w, min_h));
    const std::uint32_t w = std::max(lw, min_w), h = std::max(lh, min_h);
    ByteBuffer padded(std::size_t{w} * h, 0);
    for (std::uint32_t y = 0; y < lh; ++y)
      for (std::uint32_t x = 0; x < lw; ++x) {
        const std::uint8_t v = t.levels[i][std::size_t{y} * lw + x];
        if (v >= std::max<std::size_t>(t.palette.size(), 1)) return werr(fmt::format("level {}: index {} past the palette", i, v));
        padded[std::size_t{y} * w + x] = v;
      }
    const std::size_t raw = std::size_t{w} * h * depth / 8;
    ByteBuffer image((raw + 15) & ~std::size_t{15}, 0);
    if (swizzled) {
      t.pal4 ? image::ps2::swizzle4(padded.data(), w, h, image.data()) : image::ps2::swizzle8(padded.data(), w, h, image.data());
    } else {
      for (std::size_t k = 0; k < padded.size(); ++k)
        image[k * depth / 8] |= static_cast<std::uint8_t>(t.pal4 ? (padded[k] & 0xF) << ((k & 1) * 4) : padded[k]);
    }
    if (packets) {
      if (image.size() / 16 > 0x7FFF) return werr("level too large for one GS packet (use the old layout)");
      packet(texels, swizzled ? w / 2 : w, swizzled ? h / 2 : h, image);
    } else {
      const std::uint64_t at = texels.size();
      texels.bytes(ByteView(image).first(raw));
      pad_to(texels, at + ((raw + 63) & ~std::uint64_t{63}));  // RenderWare's 64-byte level steps
    }
    gs_words += raw / 4;
  }
  // palette: CSM1 order for PAL8, alpha in 0-128 (spec: #rw-5-8); PAL4 sends 8 x 3 (8 x 2 up to
  // 3.1.0.0 and in the old layout)
  const std::uint32_t pal_h = t.pal4 ? (packets && newer ? 3 : 2) : 16, pal_w = t.pal4 ? 8 : 16;
  const std::uint32_t sent = pal_w * pal_h;
  ByteBuffer pal(std::size_t{sent} * 4, 0);
  for (std::uint32_t i = 0; i < t.palette.size(); ++i) {
    const std::uint32_t c = t.palette[i];
    const int a = image::ps2::compress_alpha(static_cast<std::uint8_t>(c >> 24));
    if (a < 0) return werr(fmt::format("alpha {} of colour {} has no PS2 0-128 value", c >> 24, i));
    const std::uint32_t e = t.pal4 ? i : image::ps2::csm1_entry(i);
    store<std::uint32_t>(pal.data() + 4 * e, (c & 0x00FFFFFF) | (std::uint32_t(a) << 24), Endian::little);
  }
  ByteWriter palw;
  if (packets) packet(palw, pal_w, pal_h, pal);
  else palw.bytes(pal);
  gs_words += sent;

  Ps2Header h;
  h.width = t.width, h.height = t.height, h.depth = depth, h.levels = nlev;
  h.raster_format = 0x0504 | (t.pal4 ? raster::kPal4 : raster::kPal8) | (nlev > 1 ? raster::kMipmaps : 0);
  h.layout_version = t.layout_version;
  std::uint64_t tbw = std::max<std::uint64_t>(1, (t.width + 63) / 64);
  tbw += tbw & 1;  // even for PSMT8/PSMT4 (matches the fixture of spec #rw-10-3)
  h.tex0 = make_tex0(t.width, t.height, t.pal4 ? 0x14u : 0x13u, true, tbw);
  h.pixel_size = static_cast<std::uint32_t>(texels.size());
  h.palette_size = static_cast<std::uint32_t>(palw.size());
  h.gs_words = static_cast<std::uint32_t>(gs_words);
  ByteBuffer data = texels.take();
  data.insert(data.end(), palw.buffer().begin(), palw.buffer().end());
  return ps2_native(t.name, t.mask, t.filter_addressing, t.stamp, h, data);
}

Result<ByteBuffer> ps2_true_colour_native(const Ps2TrueColourTexture& t) {
  if (t.levels.empty() || t.levels.size() > 8) return werr("1 to 8 levels");
  const std::uint32_t width = t.levels[0].width, height = t.levels[0].height;
  if (!std::has_single_bit(width) || !std::has_single_bit(height) || width > 4096 || height > 4096)
    return werr("width and height must be powers of two up to 4096");
  const auto nlev = static_cast<std::uint32_t>(t.levels.size());
  if (nlev > static_cast<std::uint32_t>(std::bit_width(std::max(width, height)))) return werr("more levels than the size allows");
  if (t.layout_version != 0 && t.layout_version != 2) return werr("layout version 0 or 2");
  const bool c16 = t.pixel_format == raster::k1555;
  if (!c16 && t.pixel_format != raster::k8888 && t.pixel_format != raster::k888) return werr("8888, 888 or 1555");
  const std::uint32_t bpp = c16 ? 2 : 4, min_w = c16 ? 4 : 2;
  ByteWriter texels;
  std::uint64_t gs_words = 0;
  for (std::uint32_t i = 0; i < nlev; ++i) {
    const image::Rgba& img = t.levels[i];
    const std::uint32_t lw = level_dim(width, i), lh = level_dim(height, i);
    if (img.width != lw || img.height != lh || img.pixels.size() != std::size_t{lw} * lh * 4)
      return werr(fmt::format("level {} is not {} x {}", i, lw, lh));
    if (t.layout_version == 0 && lw < min_w) return werr(fmt::format("level {} is narrower than {}", i, min_w));
    const std::uint32_t w = std::max(lw, min_w);
    ByteBuffer image((std::size_t{w} * lh * bpp + 15) & ~std::size_t{15}, 0);
    for (std::uint32_t y = 0; y < lh; ++y)
      for (std::uint32_t x = 0; x < lw; ++x) {
        const std::uint8_t* c = img.pixels.data() + (std::size_t{y} * lw + x) * 4;
        std::uint8_t* o = image.data() + (std::size_t{y} * w + x) * bpp;
        if (c16) {  // GS PSMCT16: R bits 0-4, G 5-9, B 10-14, A 15
          auto q = [](std::uint8_t v) { return static_cast<std::uint32_t>((v * 31 + 127) / 255); };
          store<std::uint16_t>(o, static_cast<std::uint16_t>(q(c[0]) | q(c[1]) << 5 | q(c[2]) << 10 | (c[3] >= 128 ? 0x8000 : 0)),
                               Endian::little);
          continue;
        }
        o[0] = c[0], o[1] = c[1], o[2] = c[2];
        if (t.pixel_format == raster::k8888) {
          const int a = image::ps2::compress_alpha(c[3]);
          if (a < 0) return werr(fmt::format("alpha {} has no PS2 0-128 value", c[3]));
          o[3] = static_cast<std::uint8_t>(a);
        }
      }
    const std::size_t raw = std::size_t{w} * lh * bpp;
    if (t.layout_version == 2) {
      if (image.size() / 16 > 0x7FFF) return werr("level too large for one GS packet (use the old layout)");
      packet(texels, w, lh, image);
    } else {
      const std::uint64_t at = texels.size();
      texels.bytes(ByteView(image).first(raw));
      pad_to(texels, at + ((raw + 63) & ~std::uint64_t{63}));
    }
    gs_words += raw / 4;
  }
  Ps2Header h;
  h.width = width, h.height = height, h.depth = bpp * 8, h.levels = nlev;
  h.raster_format = 0x04 | t.pixel_format | (nlev > 1 ? raster::kMipmaps : 0);
  h.layout_version = t.layout_version;
  const std::uint32_t psm = c16 ? 0x0A : t.pixel_format == raster::k888 ? 0x01 : 0x00;
  h.tex0 = make_tex0(width, height, psm, t.pixel_format != raster::k888, std::max<std::uint64_t>(1, (width + 63) / 64));
  h.pixel_size = static_cast<std::uint32_t>(texels.size());
  h.gs_words = static_cast<std::uint32_t>(gs_words);
  return ps2_native(t.name, t.mask, t.filter_addressing, t.stamp, h, texels.take());
}

Result<ByteBuffer> d3d9_texture_native(const D3d9Texture& t) {  // spec: #rw-6-1
  if (t.name.size() >= 32 || t.mask.size() >= 32) return werr("names are at most 31 bytes");
  if (t.levels.empty() || t.levels.size() > 255 || t.width == 0 || t.height == 0 || t.width > 0xFFFF || t.height > 0xFFFF)
    return werr("bad size or level count");
  ByteWriter w;
  w.u32(kPlatformD3D9);
  w.u8(t.filter), w.u8(t.addressing), w.u16(0);
  auto fixed = [&w](const std::string& s) {
    w.str(s);
    w.zeros(32 - s.size());
  };
  fixed(t.name);
  fixed(t.mask);
  w.u32(t.raster_format), w.u32(t.d3d_format);
  w.u16(static_cast<std::uint16_t>(t.width)), w.u16(static_cast<std::uint16_t>(t.height));
  w.u8(static_cast<std::uint8_t>(t.depth)), w.u8(static_cast<std::uint8_t>(t.levels.size())), w.u8(4), w.u8(t.flags);
  if (t.raster_format & (raster::kPal8 | raster::kPal4)) {
    const std::size_t n = (t.raster_format & raster::kPal8) ? 256 : 32;
    for (std::size_t i = 0; i < n; ++i) w.u32(i < t.palette.size() ? t.palette[i] : 0);
  }
  for (const auto& l : t.levels) {
    w.u32(static_cast<std::uint32_t>(l.size()));
    w.bytes(l);
  }
  return container(id::kTextureNative, {section(id::kStruct, w.buffer(), t.stamp), container(id::kExtension, {}, t.stamp)},
                   t.stamp);
}

ByteBuffer texture_dictionary(const std::vector<ByteBuffer>& natives, std::uint16_t device_id, std::uint32_t stamp) {
  const auto st = encode_record(records::DictionaryStruct{static_cast<std::uint16_t>(natives.size()), device_id});
  std::vector<ByteBuffer> kids{section(id::kStruct, st, stamp)};
  kids.insert(kids.end(), natives.begin(), natives.end());
  kids.push_back(container(id::kExtension, {}, stamp));
  return container(id::kTextureDictionary, kids, stamp);
}

namespace {

ByteBuffer geometry(const ClumpGeometry& g, std::uint32_t s) {  // spec: #rw-7-2
  const bool textured = !g.texture.empty();
  const std::uint32_t v = std::max<std::uint32_t>(g.vertices, 1);
  ByteWriter st;
  st.u32(0x02 | 0x10 * 0 | (textured ? (0x04 | (1u << 16)) : 0));
  st.u32(g.triangles), st.u32(v), st.u32(1);
  if (textured)
    for (std::uint32_t i = 0; i < v; ++i) st.f32(float(i % 2)), st.f32(float(i % 3) / 2);
  for (std::uint32_t i = 0; i < g.triangles; ++i)  // v1, v0, material, v2
    st.u16(static_cast<std::uint16_t>((3 * i + 1) % v)), st.u16(static_cast<std::uint16_t>((3 * i) % v)), st.u16(0),
        st.u16(static_cast<std::uint16_t>((3 * i + 2) % v));
  st.f32(0), st.f32(0), st.f32(0), st.f32(float(v));  // bounding sphere
  st.u32(1), st.u32(0);                                // hasVertices, hasNormals
  for (std::uint32_t i = 0; i < v; ++i) st.f32(float(i)), st.f32(float(i * 2 % 7)), st.f32(0);
  ByteWriter ml;
  ml.u32(1), ml.u32(0xFFFFFFFFu);
  ByteWriter mat;
  mat.u32(0), mat.u32(0xFFFFFFFFu), mat.u32(0), mat.u32(textured ? 1 : 0), mat.f32(1), mat.f32(1), mat.f32(1);
  std::vector<ByteBuffer> mkids{section(id::kStruct, mat.buffer(), s)};
  if (textured) {
    ByteWriter ts;
    ts.u32(0x1106);
    mkids.push_back(container(id::kTexture,
                              {section(id::kStruct, ts.buffer(), s), string_section(g.texture, s), string_section("", s),
                               container(id::kExtension, {}, s)},
                              s));
  }
  mkids.push_back(container(id::kExtension, {}, s));
  ByteWriter bin;  // Bin Mesh: triangle list, one mesh
  bin.u32(0), bin.u32(1), bin.u32(3 * g.triangles), bin.u32(3 * g.triangles), bin.u32(0);
  for (std::uint32_t i = 0; i < 3 * g.triangles; ++i) bin.u32(i % v);
  std::vector<ByteBuffer> ext{section(id::kBinMesh, bin.buffer(), s)};
  for (const auto& [type, body] : g.plugins) ext.push_back(section(type, body, s));
  return container(id::kGeometry,
                   {section(id::kStruct, st.buffer(), s),
                    container(id::kMaterialList, {section(id::kStruct, ml.buffer(), s), container(id::kMaterial, mkids, s)}, s),
                    container(id::kExtension, ext, s)},
                   s);
}

}  // namespace

ByteBuffer clump(const ClumpDesc& d) {  // spec: #rw-7-1
  const std::uint32_t s = d.stamp;
  const std::uint32_t nf = std::max<std::uint32_t>(d.frames, 1);
  const auto ng = static_cast<std::uint32_t>(d.geometries.size());
  ByteWriter cs;
  cs.u32(ng), cs.u32(0), cs.u32(0);
  ByteWriter fs;
  fs.u32(nf);
  for (std::uint32_t i = 0; i < nf; ++i) {
    for (int k = 0; k < 9; ++k) fs.f32(k % 4 == 0 ? 1.0f : 0.0f);  // identity rotation
    fs.f32(float(i)), fs.f32(0), fs.f32(0);
    fs.u32(i == 0 ? 0xFFFFFFFFu : i - 1), fs.u32(0);
  }
  std::vector<ByteBuffer> fl{section(id::kStruct, fs.buffer(), s)};
  for (std::uint32_t i = 0; i < nf; ++i) {
    std::vector<ByteBuffer> ext;
    if (i < d.node_names.size()) {
      const auto& n = d.node_names[i];
      ext.push_back(section(id::kNodeName, ByteView(reinterpret_cast<const std::uint8_t*>(n.data()), n.size()), s));
    }
    fl.push_back(container(id::kExtension, ext, s));
  }
  ByteWriter gs;
  gs.u32(ng);
  std::vector<ByteBuffer> gl{section(id::kStruct, gs.buffer(), s)};
  for (const auto& g : d.geometries) gl.push_back(geometry(g, s));
  std::vector<ByteBuffer> kids{section(id::kStruct, cs.buffer(), s), container(id::kFrameList, fl, s),
                               container(id::kGeometryList, gl, s)};
  for (std::uint32_t i = 0; i < ng; ++i) {
    ByteWriter as;
    as.u32(i % nf), as.u32(i), as.u32(5), as.u32(0);
    ByteWriter rtr;
    rtr.u32(0x116), rtr.u32(1);
    kids.push_back(container(id::kAtomic,
                             {section(id::kStruct, as.buffer(), s),
                              container(id::kExtension, {section(id::kRightToRender, rtr.buffer(), s)}, s)},
                             s));
  }
  kids.push_back(container(id::kExtension, {}, s));
  return container(id::kClump, kids, s);
}

ByteBuffer clumps(const std::vector<ClumpDesc>& ds) {
  ByteBuffer out;
  for (const auto& d : ds) {
    const ByteBuffer c = clump(d);
    out.insert(out.end(), c.begin(), c.end());
  }
  return out;
}

}  // namespace assay::rw::writer
