// Interrupted work leaves nothing behind (docs/cli.md#interrupted).
//
// On SIGINT, SIGTERM or SIGHUP the CLI's handler (install_interrupt_handlers) removes every named
// temporary still registered here, clears the progress line, prints "assay: interrupted" and ends
// the process with exit status 130. Everything it does is async-signal-safe (write, unlink,
// nanosleep, _exit); the registry is a fixed table of path slots filled before the file exists.
//
// A temporary is created (or given its name) inside a SignalShield: the signals are held off in
// that thread, and a handler running on another thread waits (at most two seconds) until every
// shield has ended before it removes the registered paths, so a temporary is never created after
// the handler looked, and a shield entered after an interruption never creates one.
//
// The signal state is process-wide by nature (one handler per process), the one exception to
// "no global mutable state"; only this module and core/temp_file hold it.
#pragma once

#include <signal.h>

#include <string_view>

#include "assay/core/error.h"

namespace assay {

// The exit status after an interruption (128 + SIGINT, as shells report a Ctrl-C).
inline constexpr int kExitInterrupted = 130;

// Installs the handler for SIGINT, SIGTERM and SIGHUP (the CLI's main; the library never does).
void install_interrupt_handlers();

// Signals held off in this thread while it lives; an interruption waits until it ends (nestable).
class SignalShield {
 public:
  SignalShield();
  ~SignalShield();
  SignalShield(const SignalShield&) = delete;
  SignalShield& operator=(const SignalShield&) = delete;

 private:
  sigset_t old_{};
};

// Registers a temporary's path for removal on interruption (call inside a SignalShield, before
// the file is created). Fails when the path is too long or the table is full.
Result<void> register_temporary(std::string_view path);
// Forgets a registered path (after it was renamed into place or removed); unknown paths are ignored.
void unregister_temporary(std::string_view path);
// How many paths are registered (tests).
std::size_t registered_temporaries();

// Core Progress tells whether a line is drawn (so the handler clears it).
void note_progress_line(bool drawn);

}  // namespace assay
