// A RenderWare stream parsed once (stream.h) and its verify (spec: renderware.md#rw-real).
#include "stream.h"

#include "codes.h"

#include "assay/core/progress.h"
#include "assay/formats/renderware/verify.h"

namespace assay::rw::detail {

namespace {

Result<TopLevel> top_level(ByteView b) {
  TopLevel t;
  const SectionVisitor keep = [&t](const Section& s) {
    if (s.depth == 0) t.top.push_back(s);
  };
  ASSAY_TRY(t.summary, walk_each(b, 0, {}, {}, keep));
  return t;
}

// Every top-level clump summarised, in file order (spec: #rw-real "Several top-level clumps").
Result<std::vector<ClumpSummary>> clumps_of(ByteView b, const TopLevel& t) {
  std::vector<ClumpSummary> out;
  for (const Section& s : t.top) {
    if (s.header.type != id::kClump) continue;
    ASSAY_TRY(ByteView v, section_bytes(b, s.offset));
    ASSAY_TRY(ClumpSummary c, summarize_clump(v, s.offset));
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

namespace {

Result<Stream> parse_stream(ByteView b) {
  Stream s;
  if (cut_dictionary_header(b, known_stamp)) {  // the intact textures, and where it is cut
    ASSAY_TRY(s.cut, open_cut_dictionary(b, s.dict_diags.sink()));
    return s;
  }
  ASSAY_TRY(s.top, top_level(b));
  if (s.top.top.empty()) return rw_error("stream", 0, "no section", "renderware.no-section");
  const std::uint32_t type = s.top.first().header.type;
  if (type == id::kTextureDictionary) {
    TextureOptions to;
    to.keep_going = true;  // a bad texture is listed with its error (spec: #rw-real)
    ASSAY_TRY(s.dict, TextureDictionary::open(b, 0, s.dict_diags.sink(), to));
  } else if (type == id::kClump) {
    ASSAY_TRY(s.clumps, clumps_of(b, s.top));
  }
  return s;
}

void verify_problems(const Input& in, bool progress, Diagnostics& out) {
  if (cut_dictionary_header(in.bytes, known_stamp)) {  // where it is cut, then the intact textures
    Diagnostics content;
    auto c = open_cut_dictionary(in.bytes, content.sink());
    out.add(c ? c->diagnostic() : Diagnostic{Severity::error, c.error()});
    out.append(content);
    return;
  }
  Progress bar("verify", in.bytes.size(), progress);
  bar.set_bytes();
  VerifyOptions vo;
  vo.progress = bar.reporter();
  verify_stream(in.bytes, 0, out.sink(), vo);
  bar.finish();
}

}  // namespace

// Problems the shared readers report (a field past the end of its record) carry no code of
// their own: "renderware.data".
Result<Stream> open_stream(ByteView b) {
  auto s = parse_stream(b);
  if (!s) return coded(s.error(), "renderware.data");
  Diagnostics coded_diags;
  append_coded(s->dict_diags, coded_diags, "renderware.data");
  s->dict_diags = std::move(coded_diags);
  return s;
}

void verify_input(const Input& in, bool progress, Diagnostics& out) {
  Diagnostics found;
  verify_problems(in, progress, found);
  append_coded(found, out, "renderware.data");
}

}  // namespace assay::rw::detail
