#include <gtest/gtest.h>

#include <stdexcept>

#include <filesystem>

#include "assay/core/bytes.h"
#include "assay/core/glob.h"
#include "assay/core/hash.h"
#include "assay/core/output.h"
#include "assay/core/thread_pool.h"
#include "testing/testing.h"

namespace assay {
namespace {

TEST(RangeOk, RejectsWrapAndOverrun) {
  EXPECT_TRUE(range_ok(0, 0, 0));
  EXPECT_TRUE(range_ok(4, 4, 8));
  EXPECT_FALSE(range_ok(5, 4, 8));
  EXPECT_FALSE(range_ok(9, 0, 8));
  EXPECT_FALSE(range_ok(~0ull, 2, ~0ull));
  EXPECT_FALSE(range_ok(2, ~0ull, ~0ull));
  std::uint64_t out = 0;
  EXPECT_FALSE(mul_ok(1ull << 62, 8, out));
  EXPECT_TRUE(mul_ok(1000, 12, out));
  EXPECT_EQ(out, 12000u);
}

TEST(ByteReader, EndianAndBounds) {
  const std::uint8_t b[] = {0x12, 0x34, 0x56, 0x78, 0x9a};
  ByteReader le(b, Endian::little, "test", 0x100);
  ByteReader be(b, Endian::big, "test");
  EXPECT_EQ(*le.u32(0, "x"), 0x78563412u);
  EXPECT_EQ(*be.u32(0, "x"), 0x12345678u);
  EXPECT_EQ(*be.u16(3, "x"), 0x789au);
  auto bad = le.u32(2, "word");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().offset, 0x102u);  // absolute: base + offset
  EXPECT_EQ(bad.error().structure, "word");
  EXPECT_NE(bad.error().str().find("0x102"), std::string::npos);
  EXPECT_FALSE(le.bytes(~0ull, 2, "x").ok());
}

TEST(ByteReader, CString) {
  const std::uint8_t b[] = {'a', 'b', 0, 'c'};
  ByteReader r(b, Endian::little, "t");
  EXPECT_EQ(*r.cstring(0, 16, "s"), "ab");
  EXPECT_FALSE(r.cstring(3, 16, "s").ok());
  EXPECT_FALSE(r.cstring(0, 1, "s").ok());  // NUL beyond max_len
}

TEST(ByteWriter, RoundTripBigEndian) {
  ByteWriter w(Endian::big);
  w.u32(0x01020304);
  w.u16(0x0506);
  w.align(8);
  ASSERT_EQ(w.size(), 8u);
  EXPECT_EQ(w.buffer()[0], 1);
  EXPECT_EQ(w.buffer()[5], 6);
  w.patch<std::uint32_t>(0, 0xAABBCCDD);
  EXPECT_EQ(w.buffer()[0], 0xAA);
}

// Known values: zlib's crc32("123456789") = 0xCBF43926; FNV-1a-32("") = 0x811c9dc5,
// FNV-1a-32("a") = 0xe40c292c (published test vectors).
TEST(Hash, KnownVectors) {
  EXPECT_EQ(crc32(std::string_view("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32(std::string_view("")), 0u);
  EXPECT_EQ(fnv1a32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1a32("a"), 0xe40c292cu);
  EXPECT_EQ(fnv1a32("foobar"), 0xbf9cf968u);
  EXPECT_EQ(fnv1a32("FOOBAR", true), 0xbf9cf968u);
  EXPECT_EQ(hex8(0xabc), "00000abc");
}

TEST(Glob, Matches) {
  EXPECT_TRUE(glob_match("*.igz", "a/b/c.igz"));
  EXPECT_FALSE(glob_match("*.igz", "c.bld"));
  EXPECT_TRUE(glob_match("file?.bin", "file1.bin"));
  EXPECT_TRUE(glob_any({}, "anything"));
}

TEST(Sanitize, HostileNames) {
  EXPECT_EQ(*sanitize_relative_path("../x"), "x");
  EXPECT_EQ(*sanitize_relative_path("/etc/x"), "etc/x");
  EXPECT_EQ(*sanitize_relative_path("C:\\x"), "x");
  EXPECT_EQ(*sanitize_relative_path("a\\..\\..\\b"), "a/b");
  EXPECT_EQ(*sanitize_relative_path("dir/./f.bin"), "dir/f.bin");
  EXPECT_EQ(*sanitize_relative_path(std::string("a\x01" "b", 3)), "a_b");
  EXPECT_FALSE(sanitize_relative_path("../..").ok());
  EXPECT_FALSE(sanitize_relative_path("").ok());
}

TEST(OutputDir, AtomicNoOverwriteNoSymlink) {
  testing::TempDir t;
  OutputDir out(t.path(), false);
  const std::uint8_t data[] = {1, 2, 3};
  ASSERT_TRUE(out.write("../../evil/x.bin", data).ok());
  EXPECT_TRUE(std::filesystem::exists(t / "evil/x.bin"));
  // A second run (a new OutputDir) does not overwrite without --force; within one run the same
  // name again is another entry, written as "x~2.bin" (issue 15 item 4).
  EXPECT_FALSE(OutputDir(t.path(), false).write("evil/x.bin", data).ok());
  OutputDir forced(t.path(), true);
  EXPECT_TRUE(forced.write("evil/x.bin", data).ok());
  std::filesystem::create_directory_symlink("/tmp", t / "link");
  EXPECT_FALSE(out.write("link/y.bin", data).ok());
  {  // an uncommitted file leaves nothing behind
    auto f = out.open("partial.bin");
    ASSERT_TRUE(f.ok());
    ASSERT_TRUE(f->write(data).ok());
  }
  for (const auto& e : std::filesystem::recursive_directory_iterator(t.path())) {
    EXPECT_EQ(e.path().filename().string().find("partial"), std::string::npos) << e.path();
    EXPECT_EQ(e.path().filename().string().find(".assay-tmp"), std::string::npos) << e.path();
  }
}

// An exception in a worker reaches the caller (and then the CLI's top-level handler) instead of
// std::terminate (issue 15 item 1).
TEST(ThreadPool, ExceptionsReachTheCaller) {
  std::atomic<int> ran{0};
  EXPECT_THROW(parallel_for(100, 4,
                            [&](std::size_t i) {
                              ++ran;
                              if (i == 10) throw std::runtime_error("boom");
                            }),
               std::runtime_error);
  EXPECT_LE(ran.load(), 100);
  ThreadPool pool(2);
  pool.submit([] { throw std::runtime_error("job"); });
  pool.submit([] {});
  EXPECT_THROW(pool.wait(), std::runtime_error);
  pool.submit([] {});
  EXPECT_NO_THROW(pool.wait());  // reported once
}

TEST(ThreadPool, ParallelForCoversAll) {
  std::vector<int> hits(1000, 0);
  parallel_for(hits.size(), 4, [&](std::size_t i) { hits[i]++; });
  for (int h : hits) EXPECT_EQ(h, 1);
  ThreadPool pool(2);
  std::atomic<int> n{0};
  for (int i = 0; i < 100; ++i) pool.submit([&] { ++n; });
  pool.wait();
  EXPECT_EQ(n.load(), 100);
}

}  // namespace
}  // namespace assay
