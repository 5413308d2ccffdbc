// Full validation of a RenderWare stream: the walk (R1-R6, R22) and then the content rules of
// renderware.md#rw-9 for every texture dictionary, texture native, clump, string and native-data
// section found in the tree. Works on an in-memory view (Warriors chunks).
#pragma once

#include "assay/core/diag.h"
#include "assay/core/progress.h"
#include "assay/formats/renderware/walker.h"

namespace assay::rw {

struct VerifyOptions {
  WalkOptions walk;
  // Bytes of the stream checked, with the section being checked (empty: no progress). The calls
  // add up to the view's size once the walk succeeds: the walk reports the bytes it passes, a
  // top-level texture dictionary or clump is reported once its content rules are checked.
  ProgressFn progress;
};

// Every problem goes to `diag` (errors included); returns true when no error was reported.
bool verify_stream(ByteView bytes, std::uint64_t base, const DiagSink& diag,
                   const VerifyOptions& options = {});

}  // namespace assay::rw
