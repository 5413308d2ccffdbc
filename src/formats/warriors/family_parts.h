// The warriors family's functions that family.cc and container.cc share (format.cc).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "assay/container.h"

namespace assay::warriors {

// Confidence from the bytes and the name: a disc (100), an exact pack (90), a loose container (50),
// a .lev that breaks the container rules (10; open() says what is wrong).
int identify_input(const Input& in);
// `info` fields of a disc or a loose container (without "format").
Result<Json> info_fields(const Input& in, const ReadOptions& opt);
// Every problem of a disc or a loose container (spec: warriors.md#wr-10), also one that does not open.
void verify_input(const Input& in, const ReadOptions& opt, Diagnostics& out);
// The demo files: a disc (warriors/WARRIORS.DIR, .WAD) and a level container.
Result<std::vector<std::string>> write_sample_files(const std::filesystem::path& dir);

}  // namespace assay::warriors
