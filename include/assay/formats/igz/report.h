// JSON views of an igz: info, list, dump (schemas in docs/cli.md#igz), all built in report.cc.
#pragma once

#include "assay/options.h"
#include "assay/formats/igz/graph.h"

namespace assay::igz {

// ReadOptions::family["igz-pointer-size"] ("4"/"8") to OpenOptions.
Result<OpenOptions> open_options(const ReadOptions& opt);

Result<Json> info_json(ByteView bytes, const OpenOptions& opt);
// The same of a file already opened, with its fixups.
Json info_json(const IgzFile& f, const Fixups& fx);
// An object's fields beside index, offset and size in `list` (docs/cli.md#igz): pool, type,
// pool_index, pool_offset, type_index.
Json object_details_json(const IgzFile& f, const Object& o);
// {"format": "igz", "entries": [{index, offset, pool, type, size, ...}]}
Result<Json> list_json(ByteView bytes, const OpenOptions& opt);
// Strings, types, dependencies, externals, memory handles, objects with their pointer edges,
// the root list and the name list. Problems found on the way go to `diags`; a fatal one
// (header or fixup directory) is the returned Error.
Result<Json> dump_json(ByteView bytes, const OpenOptions& opt, Diagnostics& diags);

}  // namespace assay::igz
