// `assay serve` runs in a companion executable, `assay-serve`, installed beside `assay`
// (docs/serve.md#companion): the HTTP library (with OpenSSL and brotli) then loads only when the
// viewer runs, and every other verb starts without it (docs/PERFORMANCE.md#start-up).
//
// Both executables share main.cc and every verb; they differ in the serve subcommand:
//   assay        tools/assay/serve.cc: `serve` takes its arguments unparsed, and main.cc calls
//                serve_handoff, which execs assay-serve with the same argv (same PID, signals,
//                stdio and exit code);
//   assay-serve  tools/assay-serve/serve.cc: the real `serve` (the server runs in-process);
//                serve_handoff does nothing.
#pragma once

namespace assay::cli {

struct Cli;

inline constexpr const char* kServeDescription = "a local web viewer of PATHs (files and folders) on 127.0.0.1";
inline constexpr const char* kServeCompanion = "assay-serve";

// After the command line is parsed: when the serve verb ran here but the server lives in the
// companion, replaces this process by the companion with the same arguments; returns the exit
// code (2, with a message) only if that fails. Returns -1 when there is nothing to hand off.
int serve_handoff(const Cli& cli, int argc, char** argv);

}  // namespace assay::cli
