// Issue 29 item 9: `assay replace/add` with a multi-GiB FILE in bounded memory. The FILE is a
// sparse file of zeros (ftruncate: no disk); the CLI runs in a child under an address-space
// limit (setrlimit RLIMIT_AS, as `ulimit -v`; not under ASan, whose shadow memory needs more)
// and its peak RSS is read from wait4. Facts asserted from outside the editor: the file's size
// (chosen here), the CRC32 of that many zero bytes (zlib's crc32 over a zero buffer in a loop),
// the untouched entries' own bytes (made here), and the exit codes of docs/cli.md.
//
// Bounds: 256 MiB of RSS (the bound) without sanitizers; under ASan the RSS of `info`
// on the same input plus 256 MiB, plus ASan's 256 MiB quarantine. Time: the igArchive entry is LZ4 (zeros compress at GB/s),
// the Warriors WAD stores bytes raw (1.25 GiB written to disk): about 10 s in all on this machine.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "assay/core/input.h"
#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "testing/testing.h"

#if defined(__SANITIZE_ADDRESS__)
#define ASSAY_EDIT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASSAY_EDIT_ASAN 1
#endif
#endif
#ifndef ASSAY_EDIT_ASAN
#define ASSAY_EDIT_ASAN 0
#endif

namespace assay {
namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20, kGiB = std::uint64_t{1} << 30;
constexpr std::uint64_t kRssBound = 256 * kMiB;
constexpr std::uint64_t kAddressBound = 1 * kGiB;  // the child's RLIMIT_AS (non-ASan builds)

struct ChildRun {
  int exit_code = -1;
  std::uint64_t max_rss = 0;  // bytes
  std::string out, err;
};

std::string slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// The CLI in a child with `args`, under RLIMIT_AS = address_limit when non-zero.
ChildRun run_child(const std::vector<std::string>& args, std::uint64_t address_limit) {
  testing::TempDir t;
  const fs::path out = t / "out", err = t / "err";
  std::vector<std::string> all = {ASSAY_CLI};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (address_limit != 0) {
      const rlimit lim{address_limit, address_limit};
      if (::setrlimit(RLIMIT_AS, &lim) != 0) ::_exit(120);
    }
    const int o = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600), e = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int in = ::open("/dev/null", O_RDONLY);
    if (o < 0 || e < 0 || in < 0) ::_exit(121);
    ::dup2(in, 0), ::dup2(o, 1), ::dup2(e, 2);
    ::execv(argv[0], argv.data());
    ::_exit(122);
  }
  ChildRun r;
  int status = 0;
  rusage ru{};
  if (pid < 0 || ::wait4(pid, &status, 0, &ru) != pid) return r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.max_rss = static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

// The bound a run's peak RSS must keep (see the file comment), given `info` on the same input.
std::uint64_t rss_bound(const std::string& input) {
  if (!ASSAY_EDIT_ASAN) return kRssBound;
  // ASan's quarantine keeps up to 256 MiB of freed blocks resident (quarantine_size_mb's default
  // on 64-bit): allowed on top; the unsanitised build holds the bound.
  return run_child({"info", input}, 0).max_rss + kRssBound + 256 * kMiB;
}
std::uint64_t address_limit() { return ASSAY_EDIT_ASAN ? 0 : kAddressBound; }

// A sparse file of `size` zero bytes: no disk blocks, no time.
fs::path sparse_zeros(const fs::path& p, std::uint64_t size) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);
  ::close(fd);
  return p;
}

// zlib's CRC-32 of `size` zero bytes, 1 MiB at a time (independent of assay's crc32).
std::uint32_t zlib_crc_of_zeros(std::uint64_t size) {
  static const ByteBuffer zeros(kMiB, 0);
  uLong crc = ::crc32(0L, Z_NULL, 0);
  for (std::uint64_t left = size; left > 0;) {
    const auto n = static_cast<uInt>(std::min<std::uint64_t>(left, zeros.size()));
    crc = ::crc32(crc, zeros.data(), n);
    left -= n;
  }
  return static_cast<std::uint32_t>(crc);
}

// zlib's CRC-32 of a stream of pieces.
struct Crc {
  uLong v = ::crc32(0L, Z_NULL, 0);
  void add(ByteView b) { v = ::crc32(v, b.data(), static_cast<uInt>(b.size())); }
};

ByteBuffer pattern(std::size_t n, std::uint8_t seed) {
  ByteBuffer b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(seed + i * 7 + (i >> 5));
  return b;
}

TEST(EditBoundedMemory, IgArchiveReplaceWithMultiGiBFileStreamsThroughTheEncoder) {
  testing::TempDir t;
  const ByteBuffer keep = pattern(100000, 3), small = pattern(5000, 9);
  {
    std::vector<igarchive::WriterFile> files = {
        {.name = "keep.bin", .data = keep, .compression = igarchive::Compression::lzma},
        {.name = "big.bin", .data = small, .compression = igarchive::Compression::lz4},
        {.name = "tail.txt", .data = small, .compression = igarchive::Compression::stored},
    };
    igarchive::WriterOptions o;
    o.threads = 1;
    auto a = igarchive::write_archive(files, o);
    ASSERT_TRUE(a.ok()) << a.error().str();
    testing::write_file(t / "z.pak", *a);
  }
  // 2.25 GiB + 12,345 bytes: more than twice the child's whole address space, not a whole block.
  const std::uint64_t size = 2 * kGiB + kGiB / 4 + 12345;
  sparse_zeros(t / "big", size);
  const std::uint64_t bound = rss_bound((t / "z.pak").string());
  const ChildRun r = run_child({"replace", (t / "z.pak").string(), "-o", (t / "z2.pak").string(), "--json",
                           "big.bin=" + (t / "big").string()},
                          address_limit());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_LT(r.max_rss, bound) << "peak RSS " << r.max_rss / kMiB << " MiB";
  const auto j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << r.out;
  EXPECT_EQ(j["changes"][0]["op"], "replace");
  EXPECT_EQ(j["changes"][0]["new_size"], size);
  EXPECT_EQ(j["files"], 3);

  // The result, read here: the replaced entry's size and CRC-32 block by block; the others intact.
  auto af = igarchive::open_file((t / "z2.pak").string());
  ASSERT_TRUE(af.ok()) << af.error().str();
  const igarchive::Archive* a = &af->archive;
  const igarchive::FileEntry* big = a->find("big.bin");
  ASSERT_NE(big, nullptr);
  EXPECT_EQ(big->length, size);
  EXPECT_EQ(big->compression, igarchive::Compression::lz4);  // the file's own codec kept
  auto blocks = a->blocks(*big);
  ASSERT_TRUE(blocks.ok()) << blocks.error().str();
  EXPECT_EQ(blocks->size(), (size + 0x7FFF) / 0x8000);
  Crc crc;
  igarchive::BlockDecoder dec;
  ByteBuffer block;
  for (const igarchive::Block& b : *blocks) {
    block.resize(b.usize);
    ASSERT_TRUE(a->read_block(*big, b, block, dec).ok()) << b.index;
    crc.add(block);
  }
  EXPECT_EQ(crc.v, zlib_crc_of_zeros(size));
  for (auto [name, bytes] : {std::pair{"keep.bin", &keep}, std::pair{"tail.txt", &small}}) {
    ByteBuffer got;
    ASSERT_TRUE(a->read(*a->find(name), got).ok()) << name;
    EXPECT_EQ(got, *bytes) << name;
  }
}

TEST(EditBoundedMemory, OniRefusesAMultiGiBFileThatIsNotAnOniFromItsHeader) {
  testing::TempDir t;
  auto s = testing::run_cli("make-samples " + testing::quote_path(t / "s"));
  ASSERT_EQ(s.exit_code, 0) << s.err;
  const fs::path dat = t / "s" / "level0_Final.dat";
  ASSERT_TRUE(fs::exists(dat));
  const ByteBuffer before = testing::read_file(dat);
  sparse_zeros(t / "big", 3 * kGiB);  // zeros: no VR32 header, no PNG signature
  const std::uint64_t bound = rss_bound(dat.string());
  const ChildRun r = run_child({"replace", dat.string(), "-o", (t / "out.dat").string(), "ZANMwalk=" + (t / "big").string()},
                          address_limit());
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;  // a usage error, not a crash or an allocation failure
  EXPECT_NE(r.err.find("not an .oni"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(std::to_string(3 * kGiB) + " bytes"), std::string::npos) << r.err;
  EXPECT_LT(r.max_rss, bound) << "peak RSS " << r.max_rss / kMiB << " MiB";
  EXPECT_FALSE(fs::exists(t / "out.dat"));
  EXPECT_EQ(testing::read_file(dat), before);
  for (const auto& e : fs::directory_iterator(t.path()))  // nothing left beside the output
    EXPECT_EQ(e.path().filename().string().find("assay"), std::string::npos) << e.path();
}

// Warriors: the new bytes go to the WAD raw, so the output holds the whole file; its read-back
// maps that WAD, which RLIMIT_AS would count, so here only the peak RSS is bounded.
TEST(EditBoundedMemory, WarriorsAddAndReplaceWithLargeFilesStreamIntoTheWad) {
  testing::TempDir t;
  const ByteBuffer global = pattern(100, 1), other = pattern(3000, 2);
  const std::uint32_t h_global = warriors::name_hash("global.lua"), h_other = warriors::name_hash("other.lua");
  {
    const warriors::DiscImage d = warriors::write_disc({{h_global, global}, {h_other, other}});
    fs::create_directories(t / "disc");
    testing::write_file(t / "disc" / "WARRIORS.DIR", d.dir);
    testing::write_file(t / "disc" / "WARRIORS.WAD", d.wad);
  }
  const std::uint64_t add_size = kGiB + kGiB / 4 + 777, rep_size = kGiB / 2 + 99;
  sparse_zeros(t / "add", add_size);
  sparse_zeros(t / "rep", rep_size);
  const std::uint64_t bound = rss_bound((t / "disc").string());
  struct Case {
    const char* verb;
    std::string item, out;
    std::uint32_t hash;
    std::uint64_t size;
  };
  for (const Case& c : {Case{"add", "new.lua=" + (t / "add").string(), "a", warriors::name_hash("new.lua"), add_size},
                        Case{"replace", "global.lua=" + (t / "rep").string(), "r", h_global, rep_size}}) {
    const ChildRun r = run_child({c.verb, (t / "disc").string(), "-o", (t / c.out).string(), c.item}, 0);
    ASSERT_EQ(r.exit_code, 0) << c.verb << r.out << r.err;
    EXPECT_LT(r.max_rss, bound) << c.verb << ": peak RSS " << r.max_rss / kMiB << " MiB";
    {
      auto in = Input::open(t / c.out);
      ASSERT_TRUE(in.ok()) << in.error().str();
      auto disc = warriors::Disc::open(*in);
      ASSERT_TRUE(disc.ok()) << disc.error().str();
      const auto row = disc->find(c.hash);
      ASSERT_TRUE(row.has_value()) << c.verb;
      EXPECT_EQ(row->size, c.size) << c.verb;
      EXPECT_EQ(row->offset % 2048, 0u) << c.verb;  // spec warriors.md#wr-2-6: on a 2,048 boundary
      auto got = disc->entry_bytes(*row);
      ASSERT_TRUE(got.ok());
      Crc crc;
      for (std::uint64_t at = 0; at < got->size(); at += 64 * kMiB) crc.add(got->subspan(at, std::min<std::uint64_t>(64 * kMiB, got->size() - at)));
      EXPECT_EQ(crc.v, zlib_crc_of_zeros(c.size)) << c.verb;
      const auto o = disc->find(h_other);  // the untouched entry keeps its bytes
      ASSERT_TRUE(o.has_value());
      auto ob = disc->entry_bytes(*o);
      ASSERT_TRUE(ob.ok());
      EXPECT_TRUE(std::equal(ob->begin(), ob->end(), other.begin(), other.end())) << c.verb;
    }
    fs::remove_all(t / c.out);  // 1.25 GiB on disk: gone before the next case
  }
}

}  // namespace
}  // namespace assay
