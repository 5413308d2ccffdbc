// Issue 15 item 4: long entry names extract (short temporary names), and names that collide
// after sanitising are never merged: each entry is written once, the later ones under "~N"
// (docs/cli.md#collisions), and each collision is reported.
#include <gtest/gtest.h>

#include <map>

#include "assay/core/output.h"
#include "assay/formats/igarchive/writer.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

using testing::bytes_of;
std::string text_of(const ByteBuffer& b) { return std::string(b.begin(), b.end()); }

std::string write_archive(const testing::TempDir& t, const std::vector<std::string>& names) {
  std::vector<igarchive::WriterFile> files;
  for (const auto& n : names) files.push_back({.name = n, .data = bytes_of("content of " + n)});
  auto a = igarchive::write_archive(files, {});
  EXPECT_TRUE(a.ok()) << a.error().str();
  testing::write_file(t / "a.arc", *a);
  return shell_quote((t / "a.arc").string());
}

TEST(OutputNames, LongNamesExtract) {
  for (std::size_t len : {239u, 250u, 255u}) {
    testing::TempDir t;
    const std::string name = "dir/" + std::string(len - 4, 'n') + ".bin";  // last component: len bytes
    const std::string f = write_archive(t, {name});
    auto r = run_cli("extract " + f + " -o " + shell_quote((t / "out").string()));
    EXPECT_EQ(r.exit_code, 0) << len << ": " << r.err;
    EXPECT_EQ(text_of(testing::read_file(t / "out" / name)), "content of " + name);
    // Nothing left behind but the file.
    std::size_t n = 0;
    for (const auto& e : fs::directory_iterator(t / "out" / "dir")) n += 1, (void)e;
    EXPECT_EQ(n, 1u);
  }
}

TEST(OutputNames, CollisionsAreNeverMerged) {
  testing::TempDir t;
  const std::vector<std::string> names = {"a/b.txt", "a\\b.txt", "./a/b.txt", "a//b.txt", "x", "x/y"};
  const std::string f = write_archive(t, names);
  const fs::path out = t / "out";
  auto r = run_cli("extract " + f + " -o " + shell_quote(out.string()) + " --threads 1");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Every entry's content is on disk exactly once.
  std::map<std::string, int> seen;
  for (const auto& e : fs::recursive_directory_iterator(out))
    if (e.is_regular_file()) ++seen[text_of(testing::read_file(e.path()))];
  for (const auto& n : names) EXPECT_EQ(seen["content of " + n], 1) << n;
  EXPECT_EQ(seen.size(), names.size());
  // The documented suffixes: a/b.txt, a/b~2.txt, a/b~3.txt, a/b~4.txt; "x" and "x/y" both kept.
  for (const char* p : {"a/b.txt", "a/b~2.txt", "a/b~3.txt", "a/b~4.txt"}) EXPECT_TRUE(fs::is_regular_file(out / p)) << p;
  // Each collision is reported, naming the entry.
  std::size_t reports = 0;
  for (std::size_t at = 0; (at = r.err.find("same path as an earlier entry", at)) != std::string::npos; ++at) ++reports;
  EXPECT_EQ(reports, 4u) << r.err;
}

TEST(OutputNames, ClaimRules) {
  testing::TempDir t;
  OutputDir d(t / "o", false);
  std::vector<PathCollision> got;
  d.on_collision([&](const PathCollision& c) { got.push_back(c); });
  EXPECT_EQ(*d.claim("a/b.igz"), "a/b.igz");
  EXPECT_EQ(*d.claim("a\\b.igz"), "a/b~2.igz");
  EXPECT_EQ(*d.claim("a//b.igz"), "a/b~3.igz");
  EXPECT_EQ(*d.claim("f"), "f");
  EXPECT_EQ(*d.claim("f/g"), "f~2/g");   // the folder "f" is a file already
  EXPECT_EQ(*d.claim("f/h"), "f~2/h");   // ... consistently
  EXPECT_EQ(*d.claim("a"), "a~2");       // a file named like a folder in use
  EXPECT_EQ(*d.claim(".cfg"), ".cfg");
  EXPECT_EQ(*d.claim("./.cfg"), ".cfg~2");
  ASSERT_EQ(got.size(), 6u);
  EXPECT_EQ(got[0].name, "a\\b.igz");
  EXPECT_EQ(got[0].wanted, "a/b.igz");
  EXPECT_EQ(got[0].used, "a/b~2.igz");
  EXPECT_EQ(d.collisions(), 6u);
  // A copy shares the claims (a const OutputDir& is passed to the extract paths).
  OutputDir copy = d;
  EXPECT_EQ(*copy.claim("a/b.igz"), "a/b~4.igz");
  // Writes land under the claimed names.
  ASSERT_TRUE(d.write("dup.txt", bytes_of("1")).ok());
  ASSERT_TRUE(d.write("./dup.txt", bytes_of("2")).ok());
  EXPECT_EQ(text_of(testing::read_file(t / "o" / "dup.txt")), "1");
  EXPECT_EQ(text_of(testing::read_file(t / "o" / "dup~2.txt")), "2");
}

}  // namespace
}  // namespace assay
