// libFuzzer target for RenderWare streams: the walker, verify, texture dictionaries (every level
// decoded; strict and keep-going), the streaming walk, clump summaries and the family's
// container (info, list, verify, every texture decoded; every problem carries a code). Corpus:
// fuzz/corpus/renderware/
// (files made by assay's own writer).
#include <cstddef>
#include <cstdint>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/truncation.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/walker.h"
#include "formats/serialise.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  const ByteView b(data, size);
  Diagnostics d;
  (void)rw::walk(b, 0, d.sink());
  rw::Profile strict_game;  // a game profile's rules (R13, R14, R17, plugins) on odd sizes
  strict_game.min_texture_version = 0x35000;
  strict_game.ps2_raster_formats = {0x2504, 0x4504};
  strict_game.native_data_size = Severity::note;
  strict_game.plugins = {{0x3F0, "plugin"}};
  (void)rw::verify_stream(b, 0, d.sink(), {.walk = {.profile = (size & 1) ? &strict_game : nullptr}});
  if (auto dict = rw::TextureDictionary::open(b, 0, d.sink()); dict.ok())
    for (std::size_t i = 0; i < dict->textures().size(); ++i)
      for (std::uint32_t l = 0; l < dict->textures()[i].levels.size(); ++l) (void)dict->decode(i, l);
  rw::TextureOptions strict;
  strict.keep_going = false;
  (void)rw::TextureDictionary::open(b, 0, d.sink(), strict);
  rw::TextureOptions cut;  // a dictionary the end of the data cuts
  cut.allow_cut = true;
  (void)rw::TextureDictionary::open(b, 0, d.sink(), cut);
  if (auto t = rw::find_truncation(b)) (void)t->message();
  std::uint64_t seen = 0;
  (void)rw::walk_each(b, 0, d.sink(), {}, [&seen](const rw::Section&) { ++seen; },
                      [](std::uint64_t, std::uint64_t) {});
  (void)rw::summarize_clump(b, 0, d.sink());
  (void)rw::find_section(b, rw::id::kTextureDictionary);
  Input in = Input::from_buffer("fuzz.txd", ByteBuffer(b.begin(), b.end()));
  if (kRenderWareFamily.identify(in) > 0) {
    Diagnostics v;
    const ContainerOptions opt;
    const OpenContext ctx{in, opt, no_siblings()};
    if (auto c = kRenderWareFamily.open(ctx); c.ok()) {
      (void)info_json(**c);
      (void)list_json(**c);
      (*c)->verify(v);
      (*c)->extract_findings(v);
      (void)(*c)->extractable();
      for (const Entry& e : (*c)->entries())
        if (e.kind == assay::EntryKind::texture) (void)(*c)->texture(e, 0);
    } else {
      if (c.error().code.empty()) __builtin_trap();
      kRenderWareFamily.verify_unopened(ctx, v);
    }
    for (const Diagnostic& p : v.items())
      if (p.where.code.empty()) __builtin_trap();  // every problem has a code (docs/cli.md#codes)
  }
  return 0;
}
