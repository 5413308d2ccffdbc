// assay::extract over an igArchive's Container (Container::write_entry): each member written at
// its logical name with the bytes the test put in, whatever its compression; --stored writes the
// same decompressed bytes (an igArchive member has no conversion). spec: alchemy.md#iga
#include <gtest/gtest.h>

#include "assay/container.h"
#include "assay/ops.h"
#include "helpers.h"
#include "testing/testing.h"

namespace assay::igarchive {
namespace {

using assay::testing::bytes_of;
using assay::testing::read_file;
using assay::testing::TempDir;

std::vector<WriterFile> members() {
  std::vector<WriterFile> files;
  files.push_back({"data/level.igz", "", test::text(70000, 1), Compression::lzma});
  files.push_back({"data/noise.bin", "", test::noise(5000, 2), Compression::deflate});
  files.push_back({"readme.txt", "", bytes_of("a small stored file"), Compression::stored});
  files.push_back({"fast/blob.dat", "", test::text(40000, 3), Compression::lz4});
  return files;
}

Result<ExtractStats> extract_to(const ByteBuffer& archive, const TempDir& dir, ExtractOptions x, Diagnostics& findings) {
  ASSAY_TRY(std::unique_ptr<Container> c, open(Input::from_buffer("test.arc", archive), {}, "igarchive"));
  EXPECT_EQ(c->format(), "igarchive");
  return extract(*c, x, OutputDir(dir.path(), false), findings);
}

TEST(IgArchiveContainerExtract, WritesEachMembersBytesAtItsName) {
  const std::vector<WriterFile> files = members();
  const ByteBuffer archive = test::build(files, {});
  TempDir dir;
  Diagnostics findings;
  auto st = extract_to(archive, dir, {}, findings);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_TRUE(findings.items().empty());
  EXPECT_EQ(st->files, files.size());
  EXPECT_TRUE(st->failed.empty());
  std::uint64_t total = 0;
  for (const WriterFile& f : files) {
    EXPECT_EQ(read_file(dir / f.name), f.data) << f.name;
    total += f.data.size();
  }
  EXPECT_EQ(st->bytes, total);
}

TEST(IgArchiveContainerExtract, StoredWritesTheSameDecompressedBytes) {
  const std::vector<WriterFile> files = members();
  const ByteBuffer archive = test::build(files, {});
  TempDir dir;
  Diagnostics findings;
  ExtractOptions x;
  x.stored = true;
  auto st = extract_to(archive, dir, x, findings);
  ASSERT_TRUE(st.ok()) << st.error().str();
  for (const WriterFile& f : files) EXPECT_EQ(read_file(dir / f.name), f.data) << f.name;
}

TEST(IgArchiveContainerExtract, SelectsByGlob) {
  const std::vector<WriterFile> files = members();
  const ByteBuffer archive = test::build(files, {});
  TempDir dir;
  Diagnostics findings;
  ExtractOptions x;
  x.globs = {"data/*"};
  auto st = extract_to(archive, dir, x, findings);
  ASSERT_TRUE(st.ok()) << st.error().str();
  EXPECT_EQ(st->files, 2u);
  EXPECT_EQ(read_file(dir / "data/level.igz"), files[0].data);
  EXPECT_EQ(read_file(dir / "data/noise.bin"), files[1].data);
  EXPECT_FALSE(std::filesystem::exists(dir / "readme.txt"));
}

}  // namespace
}  // namespace assay::igarchive
