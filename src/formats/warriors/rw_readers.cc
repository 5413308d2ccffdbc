// The RenderWare-reading handlers' stream part. spec: warriors.md#wr-7 (0x0017f2c0 DFF reader,
// 0x001906e8 / 0x00190770 texture dictionary readers, 0x00197b30 sector reader) and #wr-7-4 (checks).
// Minimal parsing of the section headers and first structs on the chunk's window; the full
// stream walk belongs to the RenderWare reader (renderware.md#rw-4).
#include <fmt/format.h>

#include "assay/formats/warriors/disc.h"
#include "handlers.h"

namespace assay::warriors {

namespace {

constexpr std::uint32_t kWarriorsStamp = 0x1C02000A;

// spec: renderware.md#rw-2-2
std::uint32_t rw_version(std::uint32_t stamp) {
  if ((stamp & 0xFFFF0000u) == 0) return stamp << 8;
  return (((stamp >> 14) & 0x3FF00u) + 0x30000u) | ((stamp >> 16) & 0x3Fu);
}

struct Found {
  RwSection section;
  ByteView body;
};

// RwStreamFindChunk: skips top-level sections until `want`; the body must fit the window.
Result<Found> find_section(LoadContext& ctx, ChunkWindow& w, std::uint32_t want) {
  bool first = true;
  for (;;) {
    const std::uint64_t at = w.base() + w.consumed();
    ASSAY_TRY(ByteView hb, w.read(12, "RenderWare section header"));
    RwSection s{load<std::uint32_t>(hb.data(), Endian::little), load<std::uint32_t>(hb.data() + 4, Endian::little),
                load<std::uint32_t>(hb.data() + 8, Endian::little), at};
    ASSAY_TRY(ByteView body, w.read(s.size, "RenderWare section body"));
    const std::uint32_t version = rw_version(s.stamp);
    if (version < 0x30000 || version > 0x3FFFF)
      return make_error(kFormat, "RenderWare section header", at,
                        fmt::format("stamp 0x{:08x} is not a RenderWare 3 stream", s.stamp));
    if (s.id == want) {
      if (!first) ctx.warn(fmt::format("RenderWare section 0x{:x} is not the first in the chunk (RenderWare skips the others)", want), at);
      if (s.stamp != kWarriorsStamp) ctx.warn(fmt::format("stamp 0x{:08x} differs from the disc's 0x1C02000A", s.stamp), at + 8);
      // spec: #wr-7-4: after the top-level section, fewer than 16 zero bytes.
      ByteView rest = w.rest();
      bool zero = rest.size() < 16;
      for (auto b : rest) zero = zero && b == 0;
      if (!zero) ctx.warn(fmt::format("{} bytes after the RenderWare section are not chunk padding", rest.size()),
                          w.base() + w.consumed());
      return Found{s, body};
    }
    first = false;
  }
}

// The first child Struct of a container section, at least `min` bytes.
Result<ByteView> first_struct(const Found& f, std::uint64_t min, std::string_view what) {
  if (f.body.size() < 12 || load<std::uint32_t>(f.body.data(), Endian::little) != 1)
    return make_error(kFormat, what, f.section.offset + 12, "does not start with a Struct section");
  const std::uint32_t size = load<std::uint32_t>(f.body.data() + 4, Endian::little);
  if (size < min || !range_ok(12, size, f.body.size()))
    return make_error(kFormat, what, f.section.offset + 12,
                      fmt::format("Struct of {} bytes does not fit (needs {} in a body of {})", size, min, f.body.size()));
  return f.body.subspan(12, size);
}

}  // namespace

Result<ClumpValue> read_rw_clump(LoadContext& ctx, ChunkWindow& w) {
  ASSAY_TRY(Found f, find_section(ctx, w, 0x10));
  ASSAY_TRY(ByteView st, first_struct(f, 4, "RenderWare clump"));
  return ClumpValue{f.section, load<std::uint32_t>(st.data(), Endian::little)};
}

Result<TexDictValue> read_rw_texture_dictionary(LoadContext& ctx, ChunkWindow& w, bool device_version_check) {
  ASSAY_TRY(Found f, find_section(ctx, w, 0x16));
  const std::uint32_t version = rw_version(f.section.stamp);
  // spec: #wr-7-4: the game's PS2 texture reader accepts 0x35000-0x37002 only (0x2A).
  if (device_version_check && (version < 0x35000 || version > 0x37002))
    return make_error(kFormat, "RenderWare texture dictionary", f.section.offset + 8,
                      fmt::format("version 0x{:x} is outside 0x35000-0x37002 (the game's reader refuses it)", version));
  ASSAY_TRY(ByteView st, first_struct(f, 4, "RenderWare texture dictionary"));
  return TexDictValue{f.section, load<std::uint16_t>(st.data(), Endian::little)};
}

Result<WorldValue> read_rw_world(LoadContext& ctx, ChunkWindow& w) {
  ASSAY_TRY(Found f, find_section(ctx, w, 0x0B));
  ASSAY_CHECK(first_struct(f, 0, "RenderWare world"));
  return WorldValue{f.section};
}

}  // namespace assay::warriors
