// Internal: a texture dictionary the end of the file cuts. It is still a
// RenderWare TXD: identify claims it from its first header, info/list/extract give what lies
// before the cut and one error saying where it is cut (7-Zip's "unexpected end of data": the
// intact part listed and extracted, exit 1).
#pragma once

#include <optional>
#include <string>

#include "assay/options.h"
#include "assay/formats/renderware/texture.h"
#include "assay/formats/renderware/truncation.h"

namespace assay::rw::detail {

// True when `b` opens with a Texture Dictionary header (id 0x16, a stamp `known_stamp` accepts)
// whose size runs past the end of `b`, and, when the bytes reach that far, whose first child is a
// Struct with the same stamp that fits in the dictionary.
bool cut_dictionary_header(ByteView b, bool (*known_stamp)(std::uint32_t));

struct CutDictionary {
  Truncation where;
  TextureDictionary dict;          // the texture natives that lie whole before the cut
  std::string cut_name;            // the name of the texture native the end cuts, when readable
  std::optional<std::uint64_t> cut_offset;  // that native's header
  SectionHeader header{};          // the dictionary's own header (its size runs past the end)
  [[nodiscard]] std::size_t declared() const { return dict.texture_count(); }
  [[nodiscard]] std::size_t intact() const { return dict.textures().size(); }
  // The one error: where it is cut, how many textures are intact, which are lost.
  [[nodiscard]] Diagnostic diagnostic() const;
};

// Opens the intact part of a cut dictionary (call when cut_dictionary_header said yes). An Error
// when not even the dictionary's first Struct lies before the cut: the truncation itself.
Result<CutDictionary> open_cut_dictionary(ByteView b, const DiagSink& diag = {});

}  // namespace assay::rw::detail
