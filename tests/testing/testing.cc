#include "testing/testing.h"

#include <sys/wait.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace assay::testing {

namespace fs = std::filesystem;

bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && (std::string(ci) == "true" || std::string(ci) == "1");
}

fs::path shared_sample(const std::string& rel) {
  const char* env = std::getenv("ASSAY_SAMPLES");
  fs::path root = env != nullptr ? fs::path(env) : fs::path(ASSAY_SHARED_SAMPLES);
  fs::path p = root / rel;
  std::error_code ec;
  return fs::exists(p, ec) ? p : fs::path();
}

fs::path shared_golden(const std::string& rel) {
  const char* env = std::getenv("ASSAY_SAMPLES");
  fs::path root = (env != nullptr ? fs::path(env) : fs::path(ASSAY_SHARED_SAMPLES)).parent_path() / "goldens";
  fs::path p = root / rel;
  std::error_code ec;
  return fs::exists(p, ec) ? p : fs::path();
}

TempDir::TempDir() {
  std::random_device rd;
  for (;;) {
    path_ = fs::temp_directory_path() / ("assay-test-" + std::to_string(rd()));
    std::error_code ec;
    if (fs::create_directory(path_, ec)) break;
  }
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

void write_file(const fs::path& p, ByteView data) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary);
  f.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
}

void sweep_cuts_and_bytes(const ByteBuffer& good, const std::function<void(const ByteBuffer&)>& once) {
  for (std::size_t n = 0; n < good.size(); ++n) once(ByteBuffer(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
  for (std::size_t k = 0; k < good.size(); ++k)
    for (std::uint8_t v : {0xFF, 0x80}) {
      ByteBuffer b = good;
      b[k] = v;
      once(b);
    }
}

void check_fuzz_seeds(const char* env, std::string_view target, const std::vector<std::pair<std::string, ByteBuffer>>& seeds) {
  const char* out = std::getenv(env);
  const fs::path dir = out ? fs::path(out) : fs::path(ASSAY_SOURCE_DIR) / "fuzz" / "corpus" / target;
  for (const auto& [name, bytes] : seeds) {
    if (out) write_file(dir / name, bytes);
    EXPECT_EQ(read_file(dir / name), bytes) << name;
  }
}

ByteBuffer read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return ByteBuffer(std::istreambuf_iterator<char>(f), {});
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'') q += "'\\''";
    else q += c;
  }
  return q + "'";
}

namespace {

CliResult run_command(const std::string& prefix, const std::string& args) {
  TempDir tmp;
  const auto out = tmp / "out", err = tmp / "err";
  const std::string cmd = prefix + std::string(ASSAY_CLI) + " " + args + " >" + shell_quote(out.string()) +
                          " 2>" + shell_quote(err.string()) + " </dev/null";
  const int st = std::system(cmd.c_str());
  CliResult r;
  r.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  auto slurp = [](const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
  };
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

}  // namespace

CliResult run_cli(const std::string& args) { return run_command("", args); }

CliResult run_cli_bounded(const std::string& args, unsigned seconds) {
  return run_command("timeout " + std::to_string(seconds) + " ", args);
}

bool have_terminal() { return std::system("script -qefc true /dev/null </dev/null >/dev/null 2>&1") == 0; }

std::string run_in_terminal(const std::string& args, const fs::path& scratch) {
  const fs::path shown = scratch / "terminal.txt";
  const std::string inner = std::string(ASSAY_CLI) + " " + args;
  const std::string cmd = "script -qefc " + shell_quote(inner) + " /dev/null </dev/null >" + shell_quote(shown.string()) + " 2>&1";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream f(shown, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);)
    if (l.rfind("assay: memory:", 0) != 0) out.push_back(l);
  return out;
}

}  // namespace assay::testing
