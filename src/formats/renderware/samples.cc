// The renderware demo files (`assay samples`): written by the family's own writers.
#include <algorithm>
#include <utility>

#include "assay/formats/renderware/writer.h"
#include "assay/image/dxt.h"
#include "stream.h"

namespace assay::rw::detail {

namespace {

image::Rgba demo_image(std::uint32_t w, std::uint32_t h, std::uint32_t colours) {
  image::Rgba img{w, h, ByteBuffer(std::size_t{w} * h * 4)};
  for (std::uint32_t y = 0; y < h; ++y)
    for (std::uint32_t x = 0; x < w; ++x) {
      const std::uint32_t c = ((x / 4) + (y / 4) * 3) % colours;
      std::uint8_t* p = img.pixels.data() + (std::size_t{y} * w + x) * 4;
      p[0] = static_cast<std::uint8_t>(c * 255 / std::max<std::uint32_t>(colours - 1, 1));
      p[1] = static_cast<std::uint8_t>(255 - p[0]);
      p[2] = static_cast<std::uint8_t>((x * 8) & 0xFF);
      p[2] = static_cast<std::uint8_t>(c * 37);
      p[3] = 255;
    }
  return img;
}

}  // namespace

Result<std::vector<std::string>> write_samples(const std::filesystem::path& dir) {
  // PS2: a PAL4 32x32 and a PAL8 64x64 texture with two mip levels (spec: #rw-5)
  ASSAY_TRY(auto t4, writer::ps2_texture_from_rgba("checker_pal4", {demo_image(32, 32, 16)}, true));
  ASSAY_TRY(auto t8, writer::ps2_texture_from_rgba("ramp_pal8", {demo_image(64, 64, 200), demo_image(32, 32, 200)}, false));
  ASSAY_TRY(ByteBuffer n4, writer::ps2_texture_native(t4));
  ASSAY_TRY(ByteBuffer n8, writer::ps2_texture_native(t8));
  const ByteBuffer ps2 = writer::texture_dictionary({n4, n8}, 6, kStampDefault);
  // PC: one DXT1 64x32 texture (D3D9, GTA convention raster 0x200)
  writer::D3d9Texture dt;
  dt.name = "tiles_dxt1";
  dt.width = 64;
  dt.height = 32;
  dt.d3d_format = d3d::kDxt1;
  dt.levels = {image::encode_bc1(demo_image(64, 32, 6))};
  ASSAY_TRY(ByteBuffer nd, writer::d3d9_texture_native(dt));
  const ByteBuffer pc = writer::texture_dictionary({nd}, 2, kStampGtaSa);
  const ByteBuffer dff = writer::clump({.frames = 2, .geometries = {{4, 2, "checker_pal4"}}, .node_names = {"root", "body"}});
  std::vector<std::string> names;
  for (const auto& [n, b] : {std::pair{"rw_ps2.txd", &ps2}, {"rw_pc_dxt1.txd", &pc}, {"rw_model.dff", &dff}}) {
    ASSAY_CHECK(write_file_atomic(dir / n, *b, true));
    names.emplace_back(n);
  }
  return names;
}

}  // namespace assay::rw::detail
