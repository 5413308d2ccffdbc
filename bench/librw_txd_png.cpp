// The librw peer of bench/txd_png_bench.py (issue 29 item 8); NOT part of the assay build (the
// bench folder globs *.cc only) and never run in CI. Built against aap/librw (NULL platform) by
// the script, in /tmp.
//
//   librw_txd_png [--writer lodepng|spng] IN.txd OUTDIR
//
// Reads the texture dictionary with librw (TexDictionary::streamRead: every texture native, PS2,
// D3D8, D3D9 or Xbox, read by librw's platform drivers), then for each texture takes the top level
// as librw's Image (Raster::toImage: PAL4/PAL8 stay palettised with their RGBA palette, DXT is
// decompressed, PS2 alpha 0-128 becomes 0-255) and writes OUTDIR/<name>.png:
//   lodepng  librw's own writePNG (lodepng; PAL4/PAL8 as an indexed PNG, 24-bit as RGB, 32-bit as
//            RGBA): what a librw user gets from Image::registerFileFormat("png").
//   spng     libspng 0.7 with its default settings (the encoder assay uses): an indexed PNG with
//            PLTE + tRNS for depth 4/8 (the palette librw holds, 16 or 256 entries), RGB for 24,
//            RGBA for 32 (16-bit images converted with Image::convertTo32), written with fwrite.
// Exit 0 when every texture was written.
#include <rw.h>
#include <spng.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

bool write_file(const std::string& path, const void* data, size_t n) {
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(data, 1, n, f) == n;
  return std::fclose(f) == 0 && ok;
}

bool write_spng(rw::Image* img, const std::string& path) {
  if (img->depth == 16) img->convertTo32();
  spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
  spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
  spng_ihdr ihdr{};
  ihdr.width = img->width;
  ihdr.height = img->height;
  ihdr.bit_depth = 8;
  std::vector<unsigned char> packed;
  const unsigned char* pixels = img->pixels;
  size_t size = size_t(img->stride) * img->height;
  spng_plte plte{};
  spng_trns trns{};
  if (img->depth <= 8) {
    ihdr.color_type = SPNG_COLOR_TYPE_INDEXED;
    plte.n_entries = 1u << img->depth;
    trns.n_type3_entries = plte.n_entries;
    for (uint32_t i = 0; i < plte.n_entries; ++i) {
      const unsigned char* c = img->palette + i * 4;
      plte.entries[i] = {c[0], c[1], c[2], 0};
      trns.type3_alpha[i] = c[3];
    }
    if (img->depth == 4) {  // librw keeps one index per byte; a PNG packs two, high nibble first
      ihdr.bit_depth = 4;
      const size_t row = (img->width + 1) / 2;
      packed.assign(row * img->height, 0);
      for (int y = 0; y < img->height; ++y)
        for (int x = 0; x < img->width; ++x)
          packed[y * row + x / 2] |= (img->pixels[y * img->stride + x] & 0xF) << (x & 1 ? 0 : 4);
      pixels = packed.data();
      size = packed.size();
    }
  } else {
    ihdr.color_type = img->depth == 24 ? SPNG_COLOR_TYPE_TRUECOLOR : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA;
  }
  spng_set_ihdr(ctx, &ihdr);  // before PLTE/tRNS (libspng checks them against it)
  if (ihdr.color_type == SPNG_COLOR_TYPE_INDEXED) {
    spng_set_plte(ctx, &plte);
    spng_set_trns(ctx, &trns);
  }
  int rc = spng_encode_image(ctx, pixels, size, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
  size_t len = 0;
  void* out = rc == 0 ? spng_get_png_buffer(ctx, &len, &rc) : nullptr;
  spng_ctx_free(ctx);
  if (out == nullptr) {
    std::fprintf(stderr, "spng: %s\n", spng_strerror(rc));
    return false;
  }
  const bool ok = write_file(path, out, len);
  std::free(out);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  bool lodepng = true;
  int a = 1;
  if (argc > 2 && std::strcmp(argv[1], "--writer") == 0) {
    lodepng = std::strcmp(argv[2], "spng") != 0;
    a = 3;
  }
  if (argc - a != 2) {
    std::fprintf(stderr, "usage: %s [--writer lodepng|spng] IN.txd OUTDIR\n", argv[0]);
    return 2;
  }
  rw::Engine::init();
  rw::Engine::open(nullptr);
  rw::Engine::start();
  rw::StreamFile in;
  if (!in.open(argv[a], "rb")) return 2;
  if (!rw::findChunk(&in, rw::ID_TEXDICTIONARY, nullptr, nullptr)) return 1;
  rw::TexDictionary* txd = rw::TexDictionary::streamRead(&in);
  in.close();
  if (txd == nullptr) return 1;
  int failed = 0;
  FORLIST(lnk, txd->textures) {
    rw::Texture* tex = rw::Texture::fromDict(lnk);
    rw::Image* img = tex->raster ? tex->raster->toImage() : nullptr;
    if (img == nullptr) {
      ++failed;
      continue;
    }
    const std::string path = std::string(argv[a + 1]) + "/" + tex->name + ".png";
    if (lodepng) rw::writePNG(img, path.c_str());
    else if (!write_spng(img, path)) ++failed;
    img->destroy();
  }
  return failed ? 1 : 0;
}
