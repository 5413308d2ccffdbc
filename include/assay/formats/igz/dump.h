// `assay igz dump`: everything an igz says about itself, read once (spec: alchemy.md#igz), and
// printed through any FieldPrinter (the JSON printer gives `igz dump --json`, the text printer
// its text; docs/cli.md#igz).
#pragma once

#include "assay/formats/igz/graph.h"
#include "assay/printer.h"

namespace assay::igz {

// Views into the bytes it was read from: keep them alive while the Dump is used.
struct Dump {
  IgzFile file;
  Fixups fixups;
  Graph graph;
};

// Opens and decodes every table and the object graph. Problems go to `sink`; a fatal one (the
// header or the fixup directory) is the Error.
Result<Dump> read_dump(ByteView bytes, const OpenOptions& opt, const DiagSink& sink);

// The header fields: version, byte order, platform, pointer size, pools and fixups.
void print_header(const IgzFile& f, FieldPrinter& p);
// An object's fields beside index, offset and size in `list`: pool, type, pool_index,
// pool_offset, type_index.
void print_object_details(const IgzFile& f, const Object& o, FieldPrinter& p);
// The header, types, strings, dependencies, externals, memory handles, objects with their
// pointer edges, the root list, the name list, the namespace and the list layouts.
void print_dump(const Dump& d, FieldPrinter& p);

}  // namespace assay::igz
