// `assay serve` as a child process (issue 13 item 1): the first stdout line is the URL with the
// real port and a 32-hex-digit token, the server answers on it, SIGINT ends it with exit 0; a
// missing path or a port in use are exit 2 with a message.
#include <elf.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <regex>
#include <string>
#include <thread>

#include "testing/testing.h"

namespace {

struct Child {
  pid_t pid = -1;
  int out = -1;  // its stdout
};

Child spawn_serve(const std::vector<std::string>& args) {
  int p[2];
  if (::pipe(p) != 0) return {};
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(p[1], 1);
    ::close(p[0]);
    ::close(p[1]);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 2);
    ::unsetenv("DISPLAY");
    ::unsetenv("WAYLAND_DISPLAY");
    std::vector<char*> argv{const_cast<char*>(ASSAY_CLI), const_cast<char*>("serve")};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(ASSAY_CLI, argv.data());
    ::_exit(127);
  }
  ::close(p[1]);
  return {pid, p[0]};
}

// The first line, waiting at most ~10 s.
std::string first_line(int fd) {
  std::string line;
  ::fcntl(fd, F_SETFL, O_NONBLOCK);
  for (int i = 0; i < 1000; ++i) {
    char c;
    const ssize_t n = ::read(fd, &c, 1);
    if (n == 1) {
      if (c == '\n') return line;
      line += c;
    } else if (n == 0) {
      return line;
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return line;
}

int wait_exit(pid_t pid) {
  for (int i = 0; i < 500; ++i) {
    int st = 0;
    if (::waitpid(pid, &st, WNOHANG) == pid) return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, nullptr, 0);
  return -1;  // did not end within 5 s
}

TEST(ServeCli, PrintsUrlServesAndStopsOnSigint) {
  assay::testing::TempDir dir;
  assay::testing::write_file(dir / "a.bin", assay::ByteBuffer{1, 2, 3});
  Child c = spawn_serve({"--no-open", "--port", "0", dir.path().string()});
  ASSERT_GT(c.pid, 0);
  const std::string url = first_line(c.out);
  std::smatch m;
  ASSERT_TRUE(std::regex_match(url, m, std::regex(R"(http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{32}))"))) << url;
  const int port = std::stoi(m[1]);
  EXPECT_GT(port, 0);
  httplib::Client client("127.0.0.1", port);
  auto r = client.Get("/api/roots?token=" + m[2].str());
  ASSERT_TRUE(r);
  EXPECT_EQ(r->status, 200);
  auto bytes = client.Get("/api/entry?token=" + m[2].str() + "&path=" + dir.path().filename().string() + "/a.bin");
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->body, std::string("\x01\x02\x03", 3));
  // The port is taken now: a second server on it fails with exit 2.
  Child second = spawn_serve({"--no-open", "--port", std::to_string(port), dir.path().string()});
  EXPECT_EQ(wait_exit(second.pid), 2);
  ::close(second.out);
  ::kill(c.pid, SIGINT);
  EXPECT_EQ(wait_exit(c.pid), 0);
  ::close(c.out);
}

TEST(ServeCli, MissingPathIsExit2) {
  auto r = assay::testing::run_cli("serve --no-open /nonexistent/assay-serve-test");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("no such file"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

// The ELF program headers of an executable: whether it names a program interpreter (ld.so), and
// how many DT_NEEDED entries its dynamic section has. Only 64-bit little-endian files.
struct ElfLinking {
  bool ok = false, interpreter = false;
  int needed = 0;
};
ElfLinking elf_linking(const std::filesystem::path& path) {
  const auto b = assay::testing::read_file(path);
  ElfLinking r;
  Elf64_Ehdr eh;
  if (b.size() < sizeof eh) return r;
  std::memcpy(&eh, b.data(), sizeof eh);
  if (std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != ELFCLASS64) return r;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    const std::uint64_t at = eh.e_phoff + std::uint64_t{i} * eh.e_phentsize;
    if (at + sizeof ph > b.size()) return r;
    std::memcpy(&ph, b.data() + at, sizeof ph);
    if (ph.p_type == PT_INTERP) r.interpreter = true;
    if (ph.p_type != PT_DYNAMIC) continue;
    for (std::uint64_t d = ph.p_offset; d + sizeof(Elf64_Dyn) <= ph.p_offset + ph.p_filesz && d + sizeof(Elf64_Dyn) <= b.size();
         d += sizeof(Elf64_Dyn)) {
      Elf64_Dyn dyn;
      std::memcpy(&dyn, b.data() + d, sizeof dyn);
      if (dyn.d_tag == DT_NULL) break;
      if (dyn.d_tag == DT_NEEDED) ++r.needed;
    }
  }
  r.ok = true;
  return r;
}

// The viewer is the companion executable assay-serve (docs/serve.md#companion): `assay` itself
// does not load the HTTP library or OpenSSL (docs/PERFORMANCE.md#start-up). ld.so lists the
// shared objects a program loads without running it when LD_TRACE_LOADED_OBJECTS is set. A
// static-PIE `assay` (the default build, docs/PERFORMANCE.md#small-textures) has no ld.so and no
// DT_NEEDED at all, so it loads no shared object at start.
TEST(ServeCli, AssayDoesNotLoadTheHttpLibraryOrOpenSsl) {
  const ElfLinking elf = elf_linking(ASSAY_CLI);
  ASSERT_TRUE(elf.ok) << ASSAY_CLI << " is not a 64-bit ELF file";
  if (!elf.interpreter) {
    EXPECT_EQ(elf.needed, 0) << "a static executable that names shared libraries";
    return;
  }
  assay::testing::TempDir tmp;
  const auto out = tmp / "ldd";
  const std::string cmd = "LD_TRACE_LOADED_OBJECTS=1 " + assay::testing::shell_quote(ASSAY_CLI) + " >" +
                          assay::testing::shell_quote(out.string()) + " 2>&1 </dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const auto bytes = assay::testing::read_file(out);
  const std::string objects(bytes.begin(), bytes.end());
  EXPECT_NE(objects.find("libc.so"), std::string::npos) << objects;  // the listing is real
  for (const char* lib : {"httplib", "libssl", "libcrypto", "libbrotli"})
    EXPECT_EQ(objects.find(lib), std::string::npos) << lib << " is loaded by assay:\n" << objects;
}

// `assay serve` with no assay-serve beside assay: exit 2 and a message naming the companion.
TEST(ServeCli, MissingCompanionIsExit2) {
  assay::testing::TempDir tmp;
  const auto lone = tmp / "assay";
  std::error_code ec;
  std::filesystem::create_hard_link(ASSAY_CLI, lone, ec);  // /proc/self/exe names the link
  if (ec) std::filesystem::copy_file(ASSAY_CLI, lone, ec);
  ASSERT_FALSE(ec) << ec.message();
  const auto err = tmp / "err";
  const std::string cmd = assay::testing::shell_quote(lone.string()) + " serve --no-open " +
                          assay::testing::shell_quote(tmp.path().string()) + " >/dev/null 2>" +
                          assay::testing::shell_quote(err.string()) + " </dev/null";
  const int st = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(st));
  EXPECT_EQ(WEXITSTATUS(st), 2);
  const auto bytes = assay::testing::read_file(err);
  const std::string msg(bytes.begin(), bytes.end());
  EXPECT_NE(msg.find("assay-serve"), std::string::npos) << msg;
  EXPECT_NE(msg.find("No such file"), std::string::npos) << msg;
}

// Usage errors and --help reach the companion's real options (the handoff passes argv as is).
TEST(ServeCli, OptionsAreTheCompanions) {
  auto help = assay::testing::run_cli("serve --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--port"), std::string::npos) << help.out;
  EXPECT_NE(help.out.find("--no-open"), std::string::npos) << help.out;
  auto bad = assay::testing::run_cli("serve --port 70000 /tmp");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("65535"), std::string::npos) << bad.err;
  auto none = assay::testing::run_cli("serve");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("paths is required"), std::string::npos) << none.err;
}

}  // namespace
