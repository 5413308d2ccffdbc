// A viewer server over some roots, running on its own thread for one test, with a client that
// waits until it answers; stopped and joined on destruction.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <memory>
#include <thread>

#include "assay/serve/server.h"

namespace assay::serve {

class RunningServer {
 public:
  explicit RunningServer(std::vector<std::string> roots) {
    ServeOptions opt;
    opt.roots = std::move(roots);
    auto s = Server::create(opt);
    EXPECT_TRUE(s) << s.error().str();
    if (!s) return;
    server_ = std::move(*s);
    thread_ = std::thread([this] { server_->run(); });
    for (int i = 0; i < 100 && !client().Get("/api/roots?token=" + token()); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ~RunningServer() {
    if (!server_) return;
    server_->stop();
    thread_.join();
  }
  RunningServer(const RunningServer&) = delete;
  RunningServer& operator=(const RunningServer&) = delete;

  [[nodiscard]] bool ok() const { return server_ != nullptr; }
  [[nodiscard]] const std::string& token() const { return server_->token(); }
  [[nodiscard]] httplib::Client client() const {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_read_timeout(20, 0);
    return c;
  }
  // GET /api/ENDPOINT?token=...&path=PATH
  [[nodiscard]] httplib::Result api(const std::string& endpoint, const std::string& path) const {
    return client().Get("/api/" + endpoint + "?token=" + token() + "&path=" + path);
  }

 private:
  std::unique_ptr<Server> server_;
  std::thread thread_;
};

}  // namespace assay::serve
