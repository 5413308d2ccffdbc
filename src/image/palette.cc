// Palettes for PAL4/PAL8 textures: exact when the image has few colours, else libimagequant
// (one histogram over every mip level, one shared palette, selectable dithering).
#include <fmt/format.h>
#include <libimagequant.h>

#include <algorithm>
#include <memory>

#include "assay/image/encode.h"

namespace assay::image {

namespace {

std::uint32_t packed(const std::uint8_t* p) {
  return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

// The distinct colours of `img`, sorted; more than `limit` once the image has more.
std::vector<std::uint32_t> distinct_colours(const Rgba& img, std::size_t limit) {
  std::vector<std::uint32_t> all;
  all.reserve(img.pixels.size() / 4);
  for (std::size_t i = 0; i + 4 <= img.pixels.size(); i += 4) all.push_back(packed(img.pixels.data() + i));
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  if (all.size() > limit) all.resize(limit + 1);
  return all;
}

std::uint8_t nearest(const std::vector<std::uint32_t>& pal, std::uint32_t c) {
  std::uint32_t best = 0, best_d = ~0u;
  for (std::uint32_t k = 0; k < pal.size() && best_d != 0; ++k) {
    std::uint32_t d = 0;
    for (int s = 0; s < 32; s += 8) {
      const int x = static_cast<int>((pal[k] >> s) & 0xFF) - static_cast<int>((c >> s) & 0xFF);
      d += static_cast<std::uint32_t>(x * x);
    }
    if (d < best_d) best = k, best_d = d;
  }
  return static_cast<std::uint8_t>(best);
}

// The palette is level 0's colours exactly; a colour of a lower level that is not in it (mips
// blend colours) takes the nearest entry.
PalettedImage exact(const std::vector<Rgba>& levels, std::vector<std::uint32_t> colours) {
  PalettedImage out;
  out.exact = true;
  out.palette = std::move(colours);
  for (const Rgba& l : levels) {
    ByteBuffer idx(l.pixels.size() / 4);
    for (std::size_t i = 0; i < idx.size(); ++i) {
      const std::uint32_t c = packed(l.pixels.data() + 4 * i);
      const auto it = std::lower_bound(out.palette.begin(), out.palette.end(), c);
      idx[i] = it != out.palette.end() && *it == c ? static_cast<std::uint8_t>(it - out.palette.begin())
                                                   : nearest(out.palette, c);
    }
    out.levels.push_back(std::move(idx));
  }
  return out;
}

struct AttrFree { void operator()(liq_attr* a) const { liq_attr_destroy(a); } };
struct HistFree { void operator()(liq_histogram* h) const { liq_histogram_destroy(h); } };
struct ImageFree { void operator()(liq_image* i) const { liq_image_destroy(i); } };
struct ResultFree { void operator()(liq_result* r) const { liq_result_destroy(r); } };

Error liq_fail(std::string_view what, liq_error rc) {
  return make_error("libimagequant", what, kNoOffset, fmt::format("error {}", static_cast<int>(rc)));
}

Result<PalettedImage> quantized(const std::vector<Rgba>& levels, const PaletteOptions& opt) {
  std::unique_ptr<liq_attr, AttrFree> attr(liq_attr_create());
  if (!attr) return make_error("libimagequant", "attr", kNoOffset, "out of memory");
  if (auto rc = liq_set_max_colors(attr.get(), static_cast<int>(opt.max_colours))) return liq_fail("max colours", rc);
  if (auto rc = liq_set_speed(attr.get(), std::clamp(opt.speed, 1, 10))) return liq_fail("speed", rc);
  std::unique_ptr<liq_histogram, HistFree> hist(liq_histogram_create(attr.get()));
  std::vector<std::unique_ptr<liq_image, ImageFree>> images;
  for (const Rgba& l : levels) {
    images.emplace_back(liq_image_create_rgba(attr.get(), l.pixels.data(), static_cast<int>(l.width),
                                              static_cast<int>(l.height), 0));
    if (!images.back() || !hist) return make_error("libimagequant", "image", kNoOffset, "cannot create");
    if (auto rc = liq_histogram_add_image(hist.get(), attr.get(), images.back().get())) return liq_fail("histogram", rc);
  }
  liq_result* raw = nullptr;
  if (auto rc = liq_histogram_quantize(hist.get(), attr.get(), &raw)) return liq_fail("quantize", rc);
  std::unique_ptr<liq_result, ResultFree> res(raw);
  if (auto rc = liq_set_dithering_level(res.get(), std::clamp(opt.dither, 0.0f, 1.0f))) return liq_fail("dither", rc);
  PalettedImage out;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    ByteBuffer idx(levels[i].pixels.size() / 4);
    if (auto rc = liq_write_remapped_image(res.get(), images[i].get(), idx.data(), idx.size())) return liq_fail("remap", rc);
    out.levels.push_back(std::move(idx));
  }
  const liq_palette* pal = liq_get_palette(res.get());  // read after remapping: final colours
  for (unsigned i = 0; i < pal->count; ++i) {
    const liq_color c = pal->entries[i];
    out.palette.push_back(std::uint32_t{c.r} | std::uint32_t{c.g} << 8 | std::uint32_t{c.b} << 16 |
                          std::uint32_t{c.a} << 24);
  }
  return out;
}

}  // namespace

Result<PalettedImage> quantize(const std::vector<Rgba>& levels, const PaletteOptions& opt) {
  if (opt.max_colours < 2 || opt.max_colours > 256)
    return make_error("palette", "options", kNoOffset, fmt::format("{} colours (2 to 256 allowed)", opt.max_colours));
  if (levels.empty()) return make_error("palette", "levels", kNoOffset, "no image");
  for (const Rgba& l : levels) {
    std::uint64_t need = 0;
    if (l.width == 0 || l.height == 0 || l.width > (1u << 16) || l.height > (1u << 16) ||
        !mul_ok(std::uint64_t{l.width} * l.height, 4, need) || need != l.pixels.size())
      return make_error("palette", "image", kNoOffset, fmt::format("bad {} x {} level", l.width, l.height));
  }
  auto colours = distinct_colours(levels.front(), opt.max_colours);
  if (colours.size() <= opt.max_colours) return exact(levels, std::move(colours));
  return quantized(levels, opt);
}

}  // namespace assay::image
