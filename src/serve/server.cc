// `assay serve`'s HTTP server (docs/serve.md): 127.0.0.1 only, every request checked for its
// Host header and token before any handler runs, the page's files from the binary, the API
// from api.cc, requests served by a fixed pool of threads (httplib's task queue).
#include "assay/serve/server.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <httplib.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <climits>

#include "api.h"
#include "assets.h"

namespace assay::serve {

namespace fs = std::filesystem;

Result<std::string> random_token() {
  unsigned char b[16];  // 128 bits
  std::size_t got = 0;
  while (got < sizeof b) {
    const ssize_t n = ::getrandom(b + got, sizeof b - got, 0);
    if (n <= 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got < sizeof b) {  // no getrandom: /dev/urandom
    const int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return io_error("/dev/urandom", "cannot read random bytes for the access token");
    got = 0;
    while (got < sizeof b) {
      const ssize_t n = ::read(fd, b + got, sizeof b - got);
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    ::close(fd);
    if (got < sizeof b) return io_error("/dev/urandom", "short read for the access token");
  }
  std::string hex;
  for (unsigned char c : b) hex += fmt::format("{:02x}", c);
  return hex;
}

namespace {

// Root names: the last component of each path (':' made '_' so "::" stays the entry separator),
// made unique with "-2", "-3"...
Result<std::vector<Root>> make_roots(const std::vector<std::string>& paths) {
  std::vector<Root> roots;
  for (const auto& p : paths) {
    char* real = ::realpath(p.c_str(), nullptr);
    if (real == nullptr) return io_error(p, "no such file or folder");
    Root r;
    r.real = real;
    std::free(real);
    std::error_code ec;
    r.is_directory = fs::is_directory(r.real, ec);
    std::string base = r.real.filename().native();
    if (base.empty()) base = "root";
    for (char& c : base)
      if (c == ':' || c == '\\') c = '_';
    r.name = base;
    for (int n = 2;; ++n) {
      bool taken = false;
      for (const Root& o : roots) taken = taken || o.name == r.name;
      if (!taken) break;
      r.name = fmt::format("{}-{}", base, n);
    }
    roots.push_back(std::move(r));
  }
  return roots;
}

void security_headers(httplib::Response& res) {
  if (res.has_header("Cache-Control")) return;
  res.set_header("Cache-Control", "no-store");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("Referrer-Policy", "no-referrer");  // the token is in the page's URL
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Content-Security-Policy",
                 "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
                 "connect-src 'self'; frame-ancestors 'none'");
}

class HttpServer final : public Server {
 public:
  HttpServer(ServeOptions opt, std::vector<Root> roots)
      : opt_(std::move(opt)), api_(std::move(roots), opt_.container) {}

  Result<bool> start() {
    const unsigned n = opt_.threads == 0 ? 4 : opt_.threads;
    http_.new_task_queue = [n] { return new httplib::ThreadPool(n); };
    http_.set_read_timeout(10, 0);
    http_.set_write_timeout(30, 0);
    http_.set_payload_max_length(64 * 1024);  // GET only: no large bodies accepted
    // SO_REUSEADDR only: httplib's default SO_REUSEPORT would let a second server share the port
    // and receive part of the requests.
    http_.set_socket_options([](int sock) {
      int yes = 1;
      ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    });
    http_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      return check(req, res) ? httplib::Server::HandlerResponse::Unhandled : httplib::Server::HandlerResponse::Handled;
    });
    http_.set_post_routing_handler([](const httplib::Request&, httplib::Response& res) { security_headers(res); });
    api_.install(http_);
    http_.Get("/(.*)", [this](const httplib::Request& req, httplib::Response& res) { asset(req, res); });
    if (opt_.port < 0 || opt_.port > 65535) return usage_error(fmt::format("--port {} is not a port number", opt_.port));
    if (opt_.port == 0) {
      port_ = http_.bind_to_any_port("127.0.0.1");
    } else {
      port_ = http_.bind_to_port("127.0.0.1", opt_.port) ? opt_.port : -1;
    }
    if (port_ <= 0) return io_error(fmt::format("127.0.0.1:{}", opt_.port), "cannot listen on this port");
    return true;
  }

  [[nodiscard]] int port() const override { return port_; }
  [[nodiscard]] const std::string& token() const override { return opt_.token; }
  [[nodiscard]] std::string url() const override {
    return fmt::format("http://127.0.0.1:{}/?token={}", port_, opt_.token);
  }
  bool run() override { return http_.listen_after_bind(); }
  void stop() override { http_.stop(); }

 private:
  // Host first (DNS rebinding), then the token; 403 / 401 with the error JSON. The Range header
  // is taken over from httplib (which would apply it to any response, error bodies included):
  // only /api/entry reads it, through parse_range().
  bool check(const httplib::Request& req, httplib::Response& res) {
    security_headers(res);
    const_cast<httplib::Request&>(req).ranges.clear();  // the Request is httplib's own non-const object
    if (!host_ok(req.get_header_value("Host"), port_)) {
      send_error(res, 403, "forbidden", "the Host header must be 127.0.0.1:PORT or localhost:PORT");
      return false;
    }
    const bool has = req.has_param("token");
    const std::string q = req.get_param_value("token");
    if (!token_ok(has ? std::optional<std::string_view>(q) : std::nullopt, req.get_header_value("Cookie"), opt_.token)) {
      send_error(res, has ? 403 : 401, has ? "forbidden" : "unauthorized", "a valid token is required (open the URL assay serve printed)");
      return false;
    }
    // No cookie is set: browsers send cookies to every port of 127.0.0.1, so a token in a cookie
    // would reach other local servers. The page carries the token in every URL instead.
    return true;
  }

  void asset(const httplib::Request& req, httplib::Response& res) {
    const Asset* a = find_asset(req.path);
    if (a == nullptr) return send_error(res, 404, "not_found", "no such page");
    std::string body(a->data);
    if (a->path == "/index.html")  // the page's own files are fetched with the token too
      for (const std::string f : {"app.js", "style.css"}) {
        const auto at = body.find("\"" + f + "\"");
        if (at != std::string::npos) body.insert(at + 1 + f.size(), "?token=" + opt_.token);
      }
    if (a->path.ends_with(".js")) fill_token(body);  // module imports carry the token too
    res.set_content(body, std::string(a->mime));
  }

  // The placeholder in the modules' import specifiers (model.js, the vendored three.js loaders).
  void fill_token(std::string& body) const {
    static constexpr std::string_view kMark = "__ASSAY_TOKEN__";
    for (auto at = body.find(kMark); at != std::string::npos; at = body.find(kMark, at + opt_.token.size()))
      body.replace(at, kMark.size(), opt_.token);
  }

  ServeOptions opt_;
  Api api_;
  httplib::Server http_;
  int port_ = -1;
};

}  // namespace

Result<std::unique_ptr<Server>> Server::create(ServeOptions opt) {
  if (opt.roots.empty()) return usage_error("serve needs at least one file or folder");
  ASSAY_TRY(std::vector<Root> roots, make_roots(opt.roots));
  if (opt.token.empty()) {
    ASSAY_TRY(opt.token, random_token());
  }
  auto s = std::make_unique<HttpServer>(std::move(opt), std::move(roots));
  ASSAY_TRY(bool ok, s->start());
  (void)ok;
  return std::unique_ptr<Server>(std::move(s));
}

}  // namespace assay::serve
