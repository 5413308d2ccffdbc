// The handler models (internal). spec: warriors.md#wr-4-1, #wr-6, #wr-7.
#pragma once

#include "assay/formats/warriors/chunks.h"

namespace assay::warriors {

// Retag (0x0E, 0x14, 0x30), the RenderWare readers (0x09, 0x0B, 0x15, 0x25, 0x2A, 0x47) and
// every onLoaded handler the executable's table holds (not 0x02 and 0x17).
void install_static_handlers(HandlerTable& t);
// spec: #wr-6-2: 0x02 (0x001045e0) and 0x17 (0x0040ce30), registered at boot.
void install_runtime_handlers(HandlerTable& t);

// RenderWare readers (rw_readers.cc): find the section in the window, check it, return a summary.
Result<ClumpValue> read_rw_clump(LoadContext& ctx, ChunkWindow& w);
Result<TexDictValue> read_rw_texture_dictionary(LoadContext& ctx, ChunkWindow& w, bool device_version_check);
Result<WorldValue> read_rw_world(LoadContext& ctx, ChunkWindow& w);

}  // namespace assay::warriors
