// `assay serve`: a local web viewer over the container model (docs/serve.md).
// The server listens on 127.0.0.1 only, requires a random token on every request, refuses
// foreign Host headers and serves nothing outside the roots it was given.
//
//   auto s = serve::Server::create({.roots = {"samples"}, .port = 0});
//   std::puts((*s)->url().c_str());  (*s)->run();   // until stop() (another thread or a signal)
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "assay/container.h"

namespace assay::serve {

struct ServeOptions {
  std::vector<std::string> roots;  // files and folders to serve
  int port = 0;                    // 0: a free port
  unsigned threads = 4;            // request workers (httplib's task queue)
  std::string token;               // empty: 128 random bits from getrandom(2), as hex
  ContainerOptions container;      // --names, --layouts, ... for every opened container
};

class Server {
 public:
  // Resolves the roots (realpath; a missing root is an io error), binds 127.0.0.1:port.
  static Result<std::unique_ptr<Server>> create(ServeOptions opt);
  virtual ~Server() = default;
  [[nodiscard]] virtual int port() const = 0;
  [[nodiscard]] virtual const std::string& token() const = 0;
  // http://127.0.0.1:PORT/?token=TOKEN
  [[nodiscard]] virtual std::string url() const = 0;
  // Serves until stop(); returns false when listening failed.
  virtual bool run() = 0;
  virtual void stop() = 0;  // thread-safe, async-signal use: see tools/assay/serve.cc
};

// 32 hex digits from getrandom(2) (falls back to /dev/urandom); an io error if neither works.
Result<std::string> random_token();

}  // namespace assay::serve
