// The request checks of `assay serve` that need no socket (docs/serve.md#security): the Host
// header (DNS rebinding), the access token (query or cookie), the API's path parameter
// (ROOT/rel/file::INNER::INNER resolved beneath the served roots) and the Range header.
// Header-only so the fuzz target (fuzz/serve_request.cc) calls them without the HTTP library.
#pragma once

#include <climits>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace assay::serve {

// ---- Host (docs/serve.md#security) -----------------------------------------------------------
// Only "127.0.0.1:PORT" and "localhost:PORT" (any case): a page of another site that rebinds its
// name to 127.0.0.1 still sends its own name as Host, so it is refused.
inline bool host_ok(std::string_view host, int port) {
  const std::string suffix = ":" + std::to_string(port);
  if (host.size() <= suffix.size() || host.substr(host.size() - suffix.size()) != suffix) return false;
  const std::string_view name = host.substr(0, host.size() - suffix.size());
  if (name == "127.0.0.1") return true;
  if (name.size() != 9) return false;
  for (std::size_t i = 0; i < 9; ++i)
    if (static_cast<char>(name[i] | 0x20) != "localhost"[i]) return false;
  return true;
}

// ---- Token -----------------------------------------------------------------------------------
inline constexpr std::string_view kTokenCookie = "assay_token";

// Compares without an early exit, so the time does not tell how much of a guess was right.
inline bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size() || a.empty()) return false;
  unsigned char diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i]);
  return diff == 0;
}

// The value of cookie `name` in a Cookie header ("a=1; assay_token=..."), or nullopt.
inline std::optional<std::string_view> cookie_value(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const auto semi = header.find(';');
    std::string_view pair = header.substr(0, semi);
    header = semi == std::string_view::npos ? std::string_view{} : header.substr(semi + 1);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && pair.substr(0, eq) == name) return pair.substr(eq + 1);
  }
  return std::nullopt;
}

// The request carries the token in its query (`token=`) or in the cookie the page sets.
inline bool token_ok(std::optional<std::string_view> query_token, std::string_view cookie_header,
                     std::string_view expected) {
  if (query_token && same_secret(*query_token, expected)) return true;
  const auto c = cookie_value(cookie_header, kTokenCookie);
  return c && same_secret(*c, expected);
}

// ---- Paths -----------------------------------------------------------------------------------
// A served root: a file or a folder given on the command line, resolved with realpath.
struct Root {
  std::string name;              // first component of every API path ("samples", "a.bld")
  std::filesystem::path real;    // realpath
  bool is_directory = false;
};

// The API's path parameter, resolved: a real file or folder beneath a root, then entry names.
struct Target {
  std::size_t root = 0;
  std::filesystem::path real;        // realpath of the file or folder, inside roots[root]
  std::string file_spec;             // the ROOT/rel part as spelled (for display)
  std::vector<std::string> inner;    // the ::INNER steps, looked up in each container (no I/O)
  bool is_directory = false;
};

struct Resolution {
  int status = 200;      // 200, or 400 (malformed), 403 (refused), 404 (absent)
  std::string message;   // why, when status != 200
  Target target;
};

inline constexpr std::size_t kMaxPathParam = 4096;

// Splits "A::B::C" at every "::"; an empty step ("A::", "A::::B") is reported as nullopt.
inline std::optional<std::vector<std::string>> split_steps(std::string_view s) {
  std::vector<std::string> out;
  for (;;) {
    const auto p = s.find("::");
    out.emplace_back(s.substr(0, p));
    if (out.back().empty()) return std::nullopt;
    if (p == std::string_view::npos) return out;
    s.remove_prefix(p + 2);
  }
}

// True when `p` (a realpath) is `root` or beneath it, compared component-wise so "/a/bc" is
// not beneath "/a/b".
inline bool beneath(const std::filesystem::path& p, const std::filesystem::path& root) {
  const std::string ps = p.native(), rs = root.native();
  if (ps == rs) return true;
  if (rs == "/") return !ps.empty() && ps[0] == '/';
  return ps.size() > rs.size() && ps.compare(0, rs.size(), rs) == 0 && ps[rs.size()] == '/';
}

inline Resolution refuse(int status, std::string message) {
  Resolution r;
  r.status = status;
  r.message = std::move(message);
  return r;
}

// Checks each component of ROOT/rel (the part before the first "::"): no absolute path, no
// empty, "." or ".." component, no backslash or NUL anywhere (already percent-decoded once by
// the HTTP layer; a second decoding never happens, so "%2e%2e" is a literal name).
inline std::optional<Resolution> check_components(std::string_view spec, std::vector<std::string>& parts) {
  if (spec.empty()) return refuse(400, "empty path");
  if (spec.size() > kMaxPathParam) return refuse(400, "path too long");
  if (spec.find('\0') != std::string_view::npos) return refuse(403, "NUL byte in path");
  if (spec.find('\\') != std::string_view::npos) return refuse(403, "backslash in path");
  if (spec.front() == '/') return refuse(403, "absolute path");
  std::string_view s = spec;
  for (;;) {
    const auto p = s.find('/');
    const std::string_view c = s.substr(0, p);
    if (c.empty()) return refuse(400, "empty path component");
    if (c == "." || c == "..") return refuse(403, "'.' or '..' in path");
    parts.emplace_back(c);
    if (p == std::string_view::npos) return std::nullopt;
    s.remove_prefix(p + 1);
  }
}

// Resolves ROOT/rel/file[::INNER...] beneath the roots: realpath of the joined path must be the
// root or lie beneath it (so a symlink out of a root is refused), and must exist. The ::INNER
// steps are entry names looked up later in each container (a folder can be one: a Warriors
// disc); they never touch the file system.
inline Resolution resolve(const std::vector<Root>& roots, std::string_view spec) {
  const auto sep = spec.find("::");
  const std::string_view file_part = spec.substr(0, sep);
  std::vector<std::string> parts;
  if (auto bad = check_components(file_part, parts)) return *bad;
  Resolution r;
  if (sep != std::string_view::npos) {
    auto steps = split_steps(spec.substr(sep + 2));
    if (!steps) return refuse(400, "empty entry name after '::'");
    r.target.inner = std::move(*steps);
  }
  std::size_t ri = roots.size();
  for (std::size_t i = 0; i < roots.size(); ++i)
    if (roots[i].name == parts[0]) ri = i;
  if (ri == roots.size()) return refuse(404, "no served root named '" + parts[0] + "'");
  const Root& root = roots[ri];
  if (!root.is_directory && parts.size() > 1) return refuse(404, "'" + parts[0] + "' is a file, not a folder");
  std::filesystem::path joined = root.real;
  for (std::size_t i = 1; i < parts.size(); ++i) joined /= parts[i];
  char* real = ::realpath(joined.c_str(), nullptr);
  if (real == nullptr) return refuse(404, "no such file or folder");
  std::filesystem::path rp(real);
  std::free(real);
  if (!beneath(rp, root.real)) return refuse(403, "path leaves the served folder (symlink)");
  std::error_code ec;
  r.target.is_directory = std::filesystem::is_directory(rp, ec);
  r.target.root = ri;
  r.target.real = std::move(rp);
  r.target.file_spec = std::string(file_part);
  return r;
}

// ---- Range (RFC 9110 section 14) -------------------------------------------------------------
struct ByteRange {
  enum class Kind : std::uint8_t { none, range, unsatisfiable } kind = Kind::none;
  std::uint64_t start = 0, length = 0;
};

// Parses a decimal without sign; nullopt on anything else or overflow.
inline std::optional<std::uint64_t> parse_u64(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::uint64_t v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    const std::uint64_t d = static_cast<std::uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  return v;
}

// One range of "bytes=A-B", "bytes=A-" or "bytes=-N" against an entry of `size` bytes. No
// header, or a list of several ranges (which a server may ignore), is `none` (the whole entry);
// a malformed range or one starting past the end is `unsatisfiable` (416).
inline ByteRange parse_range(std::string_view header, std::uint64_t size) {
  ByteRange r;
  if (header.empty() || header.find(',') != std::string_view::npos) return r;
  r.kind = ByteRange::Kind::unsatisfiable;
  if (header.substr(0, 6) != "bytes=") return r;
  header.remove_prefix(6);
  const auto dash = header.find('-');
  if (dash == std::string_view::npos) return r;
  const auto first = header.substr(0, dash), last = header.substr(dash + 1);
  if (first.empty()) {  // suffix: the last N bytes
    const auto n = parse_u64(last);
    if (!n || *n == 0 || size == 0) return r;
    r.length = std::min(*n, size);
    r.start = size - r.length;
  } else {
    const auto a = parse_u64(first);
    if (!a || *a >= size) return r;
    std::uint64_t end = size - 1;
    if (!last.empty()) {
      const auto b = parse_u64(last);
      if (!b || *b < *a) return r;
      end = std::min(*b, size - 1);
    }
    r.start = *a;
    r.length = end - *a + 1;
  }
  r.kind = ByteRange::Kind::range;
  return r;
}

}  // namespace assay::serve
