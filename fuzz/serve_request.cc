// Fuzz target for `assay serve`'s request checks (include/assay/serve/request.h), called without
// sockets: the input is split at '\n' into Host header, query token, Cookie header, path
// parameter and Range header. Invariants checked (abort on violation): a resolved path is
// always beneath its root; an accepted token or Host is exactly an allowed spelling; a parsed
// range lies inside the entry.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "assay/serve/request.h"
#include "fuzz_util.h"

namespace {

using namespace assay::serve;

const std::vector<Root>& roots() {
  static const std::vector<Root> r = [] {
    const fs::path base = assay::fuzz::scratch() / "serve";
    fs::create_directories(base / "root" / "dir");
    fs::create_directories(base / "outside");
    std::ofstream(base / "root" / "dir" / "file.bin") << "x";
    std::ofstream(base / "root" / "a.txd") << "y";
    std::ofstream(base / "outside" / "secret") << "z";
    std::error_code ec;
    fs::create_symlink(base / "outside", base / "root" / "out", ec);
    fs::create_symlink(base / "outside" / "secret", base / "root" / "secret", ec);
    std::vector<Root> v(2);
    v[0] = {"root", fs::canonical(base / "root"), true};
    v[1] = {"a.txd", fs::canonical(base / "root" / "a.txd"), false};
    return v;
  }();
  return r;
}

constexpr std::string_view kToken = "0123456789abcdef0123456789abcdef";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> f;
  std::size_t pos = 0;
  while (f.size() < 5) {
    const auto nl = in.find('\n', pos);
    f.push_back(in.substr(std::min(pos, in.size()), nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  f.resize(5);
  if (host_ok(f[0], 8080) && f[0] != "127.0.0.1:8080" && f[0].size() != std::string_view("localhost:8080").size()) std::abort();
  if (token_ok(f[1], f[2], kToken) && f[1] != kToken && cookie_value(f[2], kTokenCookie) != kToken) std::abort();
  const Resolution r = resolve(roots(), f[3]);
  if (r.status == 200) {
    if (r.target.root >= roots().size() || !beneath(r.target.real, roots()[r.target.root].real)) std::abort();
    if (r.target.real.native().find("outside") != std::string::npos) std::abort();
  } else if (r.status != 400 && r.status != 403 && r.status != 404) {
    std::abort();
  }
  const std::uint64_t entry_size = size % 97;
  const ByteRange br = parse_range(f[4], entry_size);
  if (br.kind == ByteRange::Kind::range && (br.length == 0 || br.start + br.length > entry_size)) std::abort();
  return 0;
}
