// `assay warriors load`: one container through the loader with the standard handlers, as a
// typed report printed through any FieldPrinter (docs/cli.md#warriors). spec: warriors.md#wr-5-3,
// #wr-5-4.
#pragma once

#include <optional>
#include <string>

#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/printer.h"

namespace assay::warriors {

// The disc entry a DISC:NAME load read, as `list` shows it.
struct LoadedEntry {
  DirEntry entry;
  std::optional<std::string> name;  // from the name table
  std::string path;                 // entry_file_name
  EntryKind kind = EntryKind::other;
};

struct LoadReport {
  std::string file;                  // a container file given as such (empty for DISC:NAME)
  std::uint64_t base = 0;            // the container's offset in what was given: offsets print absolute
  LoadResult result;
  std::optional<LoadedEntry> entry;  // DISC:NAME
  std::string warning;               // the entry is no resource or pack
  // The load ran to its end and found no error (else `warriors load` exits 1).
  [[nodiscard]] bool ok() const { return result.ok() && !result.diags.has_errors(); }
};

// Every field of `warriors load --json`, in its order.
void print_load_report(const LoadReport& r, FieldPrinter& p);
// The entry's fields, as `list` shows them.
void print_loaded_entry(const LoadedEntry& e, FieldPrinter& p);
// One object the handlers pushed ({"type": "animation", "name", ...}).
void print_loaded_object(const Object& o, FieldPrinter& p);
// One item handed to a manager or a global, its offset absolute.
void print_stored_item(const StoredItem& s, std::uint64_t base, FieldPrinter& p);

}  // namespace assay::warriors
