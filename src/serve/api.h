// The JSON API of `assay serve` (docs/serve.md#api): one handler per endpoint over the container
// model. Containers are opened once and kept in a small cache (they map their files; nothing
// reads a whole archive into memory), and every handler turns a failure into the error JSON.
#pragma once

#include <httplib.h>

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "assay/container.h"
#include "assay/serve/request.h"
#include "formats/serialise.h"

namespace assay::serve {

class Api {
 public:
  Api(std::vector<Root> roots, ContainerOptions opt) : roots_(std::move(roots)), opt_(std::move(opt)) {}
  void install(httplib::Server& s);
  [[nodiscard]] const std::vector<Root>& roots() const { return roots_; }

 private:
  using Handler = void (Api::*)(const httplib::Request&, httplib::Response&, const Target&);
  // Wraps a handler: resolves ?path= (400/403/404 as JSON) and turns exceptions into 500 JSON.
  httplib::Server::Handler with_path(Handler h);

  void roots(const httplib::Request&, httplib::Response&);
  void dir(const httplib::Request&, httplib::Response&, const Target&);
  void list(const httplib::Request&, httplib::Response&, const Target&);
  void info(const httplib::Request&, httplib::Response&, const Target&);
  void verify(const httplib::Request&, httplib::Response&, const Target&);
  void entry(const httplib::Request&, httplib::Response&, const Target&);
  void texture(const httplib::Request&, httplib::Response&, const Target&);
  void model(const httplib::Request&, httplib::Response&, const Target&);
  void sound(const httplib::Request&, httplib::Response&, const Target&);
  void igz(const httplib::Request&, httplib::Response&, const Target&);
  void oni(const httplib::Request&, httplib::Response&, const Target&);
  void warriors(const httplib::Request&, httplib::Response&, const Target&);

  // The container at target (its file and every ::INNER step), from the cache when opened before.
  Result<std::shared_ptr<const Container>> container(const Target& t, std::size_t steps);
  Result<std::shared_ptr<const Container>> container(const Target& t) { return container(t, t.inner.size()); }
  // The bytes the target names: the file itself, or the last ::INNER entry of its container.
  Result<Input> bytes(const Target& t);
  // The last ::INNER entry's container and the entry in it (a usage error without ::INNER).
  struct EntryRef {
    std::shared_ptr<const Container> container;
    const Entry* entry = nullptr;
  };
  Result<EntryRef> entry_of(const Target& t);
  // The cache key of the container at target's first `steps` steps (the file's identity + steps).
  static std::string cache_key(const Target& t, std::size_t steps);
  // Per entry of `c` (cached under `key`): 1 when the entry opens as a Container of its own,
  // 0 when it does not, -1 when not checked (over the time or count budget).
  std::shared_ptr<const std::vector<std::int8_t>> container_flags(const std::string& key, const Container& c);

  std::vector<Root> roots_;
  ContainerOptions opt_;
  std::mutex mutex_;
  std::list<std::pair<std::string, std::shared_ptr<const Container>>> cache_;  // most recent first
  std::list<std::pair<std::string, std::shared_ptr<const std::vector<std::int8_t>>>> flags_;  // most recent first
};

// An ::INNER step as the page or a user spells it: find(), then with each '/' read as a
// backslash (an archive that stores `actors\zap.igz` answers `actors/zap.igz` too). nullptr if none.
const Entry* find_step(const Container& c, std::string_view step);
// True when `e` opens as a Container of its own (Container::open, by content) that is not `c`'s
// own bytes again (a RenderWare stream of one section would nest itself without end).
bool entry_is_container(const Container& c, const Entry& e);

// {"error": {"kind", "message", "file", "format", "structure", "offset"}} with its status:
// usage 400, io 404, data and unsupported 422.
void send_error(httplib::Response& res, const Error& e);
void send_error(httplib::Response& res, int status, std::string_view kind, std::string_view message);
void send_json(httplib::Response& res, const Json& j, int status = 200);

}  // namespace assay::serve
