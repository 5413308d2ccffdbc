// The RenderWare-reading handlers' stream part, through the RenderWare reader
// (include/assay/formats/renderware: walker, TextureDictionary, clump summary).
// spec: warriors.md#wr-7 (0x0017f2c0 DFF reader, 0x001906e8 / 0x00190770 texture dictionary
// readers, 0x00197b30 sector reader) and #wr-7-4 (checks).
#include <fmt/format.h>

#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/walker.h"
#include "assay/formats/warriors/disc.h"
#include "handlers.h"

namespace assay::warriors {

namespace {

// What the game's own RenderWare readers accept (spec: warriors.md#wr-7-4; renderware.md#rw-9):
// texture natives of 3.5.0.0-3.7.0.2 only (R14), the four PS2 raster formats on the disc (R13),
// the native-data inner size quirk as a note (R17), and the two plugins the game registers.
const rw::Profile& warriors_profile() {
  static const rw::Profile kProfile = [] {
    rw::Profile p;
    p.name = "The Warriors";
    p.min_texture_version = 0x35000;
    p.max_texture_version = 0x37002;
    p.ps2_raster_formats = {0x2504, 0x4504, 0xC504, 0xA504};
    p.native_data_size = Severity::note;
    p.plugins = {{0x3F0, "Warriors Atomic Plugin"}, {0x3F1, "Warriors Sector Plugin"}};
    return p;
  }();
  return kProfile;
}

struct Found {
  RwSection section;
  ByteView bytes;  // header + body
};

// RenderWare diagnostics become the chunk's: warnings and errors kept, notes dropped.
DiagSink forward(LoadContext& ctx) {
  return [&ctx](Diagnostic d) {
    const std::string m = d.where.structure.empty() ? d.where.message : d.where.structure + ": " + d.where.message;
    if (d.severity == Severity::warning) ctx.warn("RenderWare: " + m, d.where.offset);
    else if (d.severity == Severity::error) ctx.diag_error("RenderWare: " + m, d.where.offset);
  };
}

// RwStreamFindChunk on the chunk's window, then the full validating walk of that section.
Result<Found> find_section(LoadContext& ctx, ChunkWindow& w, std::uint32_t want) {
  const ByteView all = w.all();
  ASSAY_TRY(std::uint64_t off, rw::find_section(all, want, w.base()));
  if (off != 0)
    ctx.warn(fmt::format("RenderWare section 0x{:x} is not the first in the chunk (RenderWare skips the others)", want),
             w.base() + off);
  ASSAY_TRY(ByteView sec, rw::section_bytes(all, off, w.base()));
  rw::WalkOptions wo;
  wo.profile = &warriors_profile();
  wo.single_top_level = true;
  wo.report_unknown = false;
  ASSAY_CHECK(rw::walk(sec, w.base() + off, forward(ctx), wo));
  ASSAY_CHECK(w.read(off + sec.size(), "RenderWare stream"));  // what the reader consumed
  ASSAY_TRY(const rw::SectionHeader sh, rw::read_section_header(sec, 0, w.base() + off));
  const RwSection s{want, sh.size, sh.stamp, w.base() + off};
  if (s.stamp != kRenderWareStamp) ctx.warn(fmt::format("stamp 0x{:08x} differs from the disc's 0x1C02000A", s.stamp), s.offset + 8);
  // spec: #wr-7-4: after the top-level section, fewer than 16 zero bytes (the chunk's padding).
  const ByteView rest = w.rest();
  bool zero = rest.size() < 16;
  for (auto b : rest) zero = zero && b == 0;
  if (!zero) ctx.warn(fmt::format("{} bytes after the RenderWare section are not chunk padding", rest.size()), w.base() + w.consumed());
  return Found{s, sec};
}

}  // namespace

Result<ClumpValue> read_rw_clump(LoadContext& ctx, ChunkWindow& w) {
  ASSAY_TRY(Found f, find_section(ctx, w, 0x10));
  rw::ClumpOptions co;
  co.profile = &warriors_profile();
  ASSAY_TRY(rw::ClumpSummary c, rw::summarize_clump(f.bytes, f.section.offset, forward(ctx), co));
  return ClumpValue{f.section, static_cast<std::uint32_t>(c.atomic_count())};
}

Result<TexDictValue> read_rw_texture_dictionary(LoadContext& ctx, ChunkWindow& w, bool device_version_check) {
  ASSAY_TRY(Found f, find_section(ctx, w, 0x16));
  const std::uint32_t version = rw::decode_stamp_raw(f.section.stamp).version;
  // spec: #wr-7-4: the game's PS2 texture reader accepts 0x35000-0x37002 only (0x2A).
  if (device_version_check && (version < 0x35000 || version > 0x37002))
    return make_error(kFormat, "RenderWare texture dictionary", f.section.offset + 8,
                      fmt::format("version 0x{:x} is outside 0x35000-0x37002 (the game's reader refuses it)", version));
  rw::TextureOptions to;
  if (device_version_check) to.profile = &warriors_profile();
  to.keep_going = false;  // the game's reader stops at the first bad texture native
  ASSAY_TRY(rw::TextureDictionary td, rw::TextureDictionary::open(f.bytes, f.section.offset, forward(ctx), to));
  return TexDictValue{f.section, td.texture_count()};
}

Result<WorldValue> read_rw_world(LoadContext& ctx, ChunkWindow& w) {
  ASSAY_TRY(Found f, find_section(ctx, w, 0x0B));
  return WorldValue{f.section};
}

}  // namespace assay::warriors
