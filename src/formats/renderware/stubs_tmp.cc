// Temporary: entry points not yet implemented (replaced file by file).
#include "assay/formats/renderware/clump.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/writer.h"

namespace assay::rw {
namespace {
Error todo(std::string_view what) {
  Error e = make_error(kFormat, what, kNoOffset, "not implemented yet");
  e.kind = ErrorKind::unsupported;
  return e;
}
}  // namespace
std::string_view platform_name(std::uint32_t) { return {}; }
std::string_view to_string(TexelFormat) { return "unknown"; }
std::string_view device_name(std::uint16_t) { return {}; }
Result<TextureDictionary> TextureDictionary::open(ByteView, std::uint64_t, const DiagSink&,
                                                  const TextureOptions&) {
  return todo("texture dictionary");
}
Result<image::Rgba> TextureDictionary::decode(std::size_t, std::uint32_t) const { return todo("decode"); }
Result<TextureNative> read_texture_native(ByteView, std::uint64_t, std::uint64_t, const DiagSink&,
                                          const TextureOptions&) {
  return todo("texture native");
}
Result<image::Rgba> decode_texture(const TextureNative&, std::uint32_t) { return todo("decode"); }
std::uint64_t ClumpSummary::total_triangles() const { return 0; }
std::uint64_t ClumpSummary::total_vertices() const { return 0; }
Result<ClumpSummary> summarize_clump(ByteView, std::uint64_t, const DiagSink&, const ClumpOptions&) {
  return todo("clump");
}
bool verify_stream(ByteView bytes, std::uint64_t base, const DiagSink& diag, const VerifyOptions& o) {
  auto t = walk(bytes, base, diag, o.walk);
  if (!t) {
    if (diag) diag({Severity::error, t.error()});
    return false;
  }
  return true;
}
}  // namespace assay::rw
