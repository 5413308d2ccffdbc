// Internal: the renderware family's JSON, built here only (docs/cli.md "### renderware",
// docs/schema/): info fields, list fields and each entry's details, from the typed Stream, and
// the edit report.
#pragma once

#include "assay/options.h"
#include "assay/formats/renderware/edit.h"
#include "stream.h"
#include "formats/serialise.h"

namespace assay::rw::detail {

// info --json without "format" (info_json adds it first).
Json info_fields(const Stream& s);
// The fields list --json prints before "entries".
Json list_fields(const Stream& s);
// An entry's family fields: a texture native, an atomic of clump `ci`, a top-level section.
Json texture_details(const TextureNative& t);
Json atomic_details(const ClumpSummary& c, std::size_t ci, const AtomicSummary& a);
Json section_details(const Section& s);
// A top-level clump's model entry: clump, atomics, geometries, triangles, vertices, skinned.
Json model_details(const ClumpSummary& c, std::size_t ci);
// A cut dictionary's {"truncated": {...}, "problems": [the error]}.
Json cut_fields(const CutDictionary& c);

}  // namespace assay::rw::detail

namespace assay::rw {

// One change of a dictionary edit; the texture fields when it encoded one (replace, add).
struct TextureEditLine {
  const char* op = "";  // "replace", "add", "remove"
  std::string name;
  bool encoded = false;
  std::string platform, pixel_format, note;
  std::uint32_t width = 0, height = 0, mips = 0;
  std::uint64_t native_bytes = 0;
  double psnr_db = 0;  // the decoded texture against the PNG; infinite when exact
};
struct DictionaryEditReport {
  std::uint64_t textures = 0;  // in the new dictionary
  std::vector<TextureEditLine> changes;
};
// {"textures", "changes": [{"op", "name", and for an encoded texture "platform", "pixel_format",
// "width", "height", "mips", "native_bytes", "exact", "psnr_db" (0.01 dB, when not exact), "note"}]}
Json dictionary_edit_json(const DictionaryEditReport& r);

// Applies `changes` (data = PNG bytes for replace/add) to the dictionary stream `txd` and returns
// the new stream and its `report`. The result is read back (every texture opened, the changed ones
// decoded, verify_stream without errors) before it is returned. Errors name the texture and the
// limit or rule broken.
Result<ByteBuffer> edit_dictionary(ByteView txd, const std::vector<EditChange>& changes,
                                   const DictionaryEditOptions& opt, DictionaryEditReport& report);

// The family's edit: reads --format / --dither from req.read.family
// ("texture_format", "dither"), writes req.output (or the input, --in-place) atomically.
Result<Json> edit_format(const Input& in, const EditRequest& req);

}  // namespace assay::rw
