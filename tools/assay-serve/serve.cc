// `assay serve PATH... [--port N] [--no-open]`: the local web viewer (docs/serve.md).
// The first stdout line is the URL with its token; Ctrl-C (SIGINT) or SIGTERM stops cleanly.
// Built into the companion executable assay-serve, which `assay serve` execs (handoff.h).
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <thread>

#include "../assay/cli.h"
#include "assay/serve/server.h"
#include "handoff.h"

extern char** environ;

namespace assay::cli {

namespace {

struct ServeArgs {
  std::vector<std::string> paths;
  int port = 0;
  bool no_open = false;
  unsigned threads = 4;
};

bool has_display() {
  for (const char* v : {"DISPLAY", "WAYLAND_DISPLAY"})
    if (const char* d = std::getenv(v); d != nullptr && *d != '\0') return true;
  return false;
}

// xdg-open URL with the default signal mask and its output sent to /dev/null (stdout carries
// only the URL line). Returns the child's pid, or -1.
pid_t open_browser(const std::string& url) {
  posix_spawn_file_actions_t fa;
  posix_spawnattr_t at;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_init(&at);
  sigset_t none, def;
  sigemptyset(&none);
  sigemptyset(&def);
  sigaddset(&def, SIGINT);
  sigaddset(&def, SIGTERM);
  posix_spawnattr_setsigmask(&at, &none);
  posix_spawnattr_setsigdefault(&at, &def);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  std::string prog = "xdg-open";
  char* argv[] = {prog.data(), const_cast<char*>(url.c_str()), nullptr};
  pid_t pid = -1;
  if (posix_spawnp(&pid, "xdg-open", &fa, &at, argv, environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  return pid;
}

int run_serve(Cli& cli, const ServeArgs& a) {
  auto copt = container_options(cli.read);
  if (!copt) return report(copt.error());
  serve::ServeOptions opt;
  opt.roots = a.paths;
  opt.port = a.port;
  opt.threads = a.threads;
  opt.container = *copt;
  // SIGINT/SIGTERM are blocked in every thread and taken by sigwait below, so the server's
  // threads never see them and no handler needs global state.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  auto server = serve::Server::create(std::move(opt));
  if (!server) return report(server.error());
  std::printf("%s\n", (*server)->url().c_str());
  std::fflush(stdout);
  if (!cli.quiet) std::fprintf(stderr, "assay: serving %zu path(s) on 127.0.0.1:%d; Ctrl-C stops\n", a.paths.size(), (*server)->port());
  pid_t browser = -1;
  if (!a.no_open && has_display()) browser = open_browser((*server)->url());
  bool listened = true;
  std::thread worker([&] {
    listened = (*server)->run();
    ::kill(::getpid(), SIGTERM);  // wakes sigwait when the server ends on its own
  });
  int sig = 0;
  sigwait(&stop_signals, &sig);
  (*server)->stop();
  worker.join();
  if (browser > 0) ::waitpid(browser, nullptr, WNOHANG);
  if (!listened) {
    std::fprintf(stderr, "assay: serve: the server stopped listening\n");
    return kExitUsage;
  }
  return kExitOk;
}

}  // namespace

void register_serve(Cli& cli) {
  auto a = std::make_shared<ServeArgs>();
  auto* sub = cli.app.add_subcommand("serve", kServeDescription);
  sub->add_option("paths", a->paths, "files and folders to serve")->required();
  sub->add_option("--port", a->port, "port on 127.0.0.1 (0: a free one; the URL shows it)")->check(CLI::Range(0, 65535));
  sub->add_flag("--no-open", a->no_open, "do not open a browser");
  sub->add_option("--workers", a->threads, "request threads (default 4)")->check(CLI::Range(1, 64));
  cli.add_read_options(*sub);
  sub->callback([&cli, a] { cli.fail(run_serve(cli, *a)); });
}

// The server runs here: nothing to hand off.
int serve_handoff(const Cli&, int, char**) { return -1; }

}  // namespace assay::cli
