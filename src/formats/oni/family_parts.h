// The oni family's functions shared by its descriptor (family.cc), its Container (container.cc)
// and the Format record (format.cc).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/core/diag.h"
#include "assay/core/input.h"
#include "assay/formats/oni/instance_file.h"

namespace assay::oni {

// Confidence that `in` is an Oni instance file (spec: oni.md#oni-3-1): 100 for VR31/VR32, 60 for
// the 3.3 headers it shows and then refuses (spec: oni.md#oni-3-3).
int identify_input(const Input& in);
// The header fields of `info` (without "format"), `in` naming the file (level number from it).
Json info_fields(const InstanceFile& f, const Input& in);
// `list --json` of the Format record: {"format": "oni", "entries": [index, tag, name, size, flags, placeholder]}.
Json list_document(const InstanceFile& f);
// spec: oni.md#oni-10-1 for one file, linked with level 0 beside it when present.
void verify_input(const Input& in, const ReadOptions& opt, Diagnostics& out);

}  // namespace assay::oni
