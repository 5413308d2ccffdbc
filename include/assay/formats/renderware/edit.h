// `assay replace|add|remove` on a RenderWare texture dictionary: PNGs encoded into
// the natives the dictionary already uses (or a chosen format for new ones); every other byte
// kept. spec: renderware.md#rw-5-1 (dictionary), #rw-5, #rw-6 (natives).
#pragma once

#include <string>
#include <vector>

#include "assay/options.h"
#include "assay/formats/renderware/texture_encode.h"

namespace assay::rw {

struct DictionaryEditOptions {
  EncodeOptions encode;
  // Format of added textures (unknown = the dictionary's first texture's); a replaced texture
  // keeps its own format unless `force_format` is set.
  TexelFormat new_format = TexelFormat::unknown;
  bool force_format = false;
  image::PngLimits png;
  unsigned threads = 0;  // textures encoded in parallel (0 = all cores)
  // A replacement PNG of another size than the texture: `keep` gives the
  // texture the PNG's size (sides rounded down to powers of two), `refuse` is a usage error
  // (the CLI and Python without --resize/--png-size), `resize` scales it to the texture's size.
  enum class SizeRule : std::uint8_t { keep, refuse, resize } size_rule = SizeRule::keep;
  std::vector<std::string> sources;  // per change: the file its data came from (messages; may be empty)
  ProgressFn progress;   // PNG bytes of each texture encoded, with its name (empty: no progress)
};

}  // namespace assay::rw
