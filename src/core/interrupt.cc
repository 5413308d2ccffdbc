// SIGINT/SIGTERM/SIGHUP: remove the registered temporaries, clear the progress line, say
// "interrupted", exit 130. See core/interrupt.h for the design.
#include "assay/core/interrupt.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace assay {

namespace {

constexpr std::size_t kSlots = 512;
constexpr std::size_t kPathMax = 4096;

// A slot is free (0), being filled (1), holds a path (2), or holds a path one thread is comparing
// (3). The path only changes in state 1, so the handler may read it in 2 and 3.
// Every member initialised, so the table is constant-initialised (zeroed .bss, no page touched at
// start-up): with `path` left uninitialised GCC 12 emitted a static initialiser that wrote all
// 512 slots, 2 MiB of page faults, about 20 ms of every run on the shared 2-vCPU machines (issue
// 29 item 8, perf of `assay --version`).
struct Slot {
  std::atomic<int> state{0};
  char path[kPathMax]{};
};

// Process-wide by nature (see the header): one table, one handler.
Slot g_slots[kSlots];
std::atomic<int> g_busy{0};         // threads inside a SignalShield
std::atomic<bool> g_stopping{false};  // a handler is removing the temporaries
std::atomic<bool> g_progress{false};  // a progress line is drawn on stderr

static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free,
              "the handler needs lock-free atomics");

void say(const char* s) {
  std::size_t n = std::strlen(s);
  while (n > 0) {
    const ssize_t k = ::write(STDERR_FILENO, s, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return;
    s += k, n -= static_cast<std::size_t>(k);
  }
}

void sleep_ms(long ms) {
  timespec ts{0, ms * 1000000L};
  while (::nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

// Only async-signal-safe calls from here on.
extern "C" void on_interrupt(int) {
  if (g_stopping.exchange(true)) {  // another thread is already cleaning up: it ends the process
    for (;;) ::pause();
  }
  // Threads inside a shield are creating or naming a temporary: let them finish (they cannot be
  // this thread, which would hold the signal off). Bounded, in case one waits on a lock that the
  // interrupted code of this thread holds.
  for (int waited = 0; g_busy.load() > 0 && waited < 2000; ++waited) sleep_ms(1);
  for (Slot& s : g_slots)
    if (const int st = s.state.load(); st == 2 || st == 3) ::unlink(s.path);
  if (g_progress.load()) say("\r\033[K");
  say("assay: interrupted\n");
  ::_exit(kExitInterrupted);
}

sigset_t interrupt_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  return set;
}

}  // namespace

void install_interrupt_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_interrupt;
  sa.sa_mask = interrupt_signals();  // one handler at a time per thread
  sa.sa_flags = SA_RESTART;
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    // A signal ignored when we started (nohup, a shell's background job) stays ignored.
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    ::sigaction(sig, &sa, nullptr);
  }
}

thread_local int t_shield_depth = 0;  // nested shields: only the outermost counts

SignalShield::SignalShield() {
  if (t_shield_depth++ > 0) return;
  const sigset_t set = interrupt_signals();
  ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  g_busy.fetch_add(1);
  // The handler sets g_stopping before it reads g_busy; we add to g_busy before we read
  // g_stopping: one of the two sees the other. Here the handler has already looked, so nothing
  // may be created any more: wait for it to end the process.
  if (g_stopping.load()) {
    g_busy.fetch_sub(1);
    for (;;) ::pause();
  }
}

SignalShield::~SignalShield() {
  if (--t_shield_depth > 0) return;
  g_busy.fetch_sub(1);
  ::pthread_sigmask(SIG_SETMASK, &old_, nullptr);  // a pending signal is taken here
}

Result<void> register_temporary(std::string_view path) {
  if (path.size() >= kPathMax) return io_error(path, "path too long for a temporary");
  for (Slot& s : g_slots) {
    int expected = 0;
    if (!s.state.compare_exchange_strong(expected, 1)) continue;
    std::memcpy(s.path, path.data(), path.size());
    s.path[path.size()] = '\0';
    s.state.store(2);
    return {};
  }
  return io_error(path, "too many temporary files open at once");
}

void unregister_temporary(std::string_view path) {
  if (path.empty() || path.size() >= kPathMax) return;  // never registered
  for (Slot& s : g_slots) {
    int st = s.state.load();
    for (;;) {
      if (st == 3) {  // another thread compares this slot's path: wait for it
        ::sched_yield();
        st = s.state.load();
        continue;
      }
      if (st != 2 || s.state.compare_exchange_weak(st, 3)) break;
    }
    if (st != 2) continue;
    if (std::strncmp(s.path, path.data(), path.size()) == 0 && s.path[path.size()] == '\0') {
      s.path[0] = '\0';
      s.state.store(0);
      return;
    }
    s.state.store(2);
  }
}

std::size_t registered_temporaries() {
  std::size_t n = 0;
  for (const Slot& s : g_slots) n += s.state.load() >= 2 ? 1 : 0;
  return n;
}

void note_progress_line(bool drawn) { g_progress.store(drawn); }

}  // namespace assay
