// Issue 15 item 7: the long fuzz run's finding in the output_dir target (docs/FUZZING.md#results)
// as a unit test. The input was flags 0x01 (--force) and the one name "file/": OutputDir wrote it
// as the regular file "file" (the trailing '/' is an empty component, dropped by sanitising), and
// the target's own count wrongly skipped a path named "file" even when it had not planted one.
// The library was right; this pins what it does.
#include <gtest/gtest.h>

#include "assay/core/output.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;

TEST(OutputFuzzFindings, TrailingSlashNameIsWrittenAsAFile) {
  for (bool force : {true, false}) {
    testing::TempDir t;
    const OutputDir dir(t.path(), force);
    const std::string name = "file/";
    ASSERT_TRUE(dir.write(name, ByteView(reinterpret_cast<const std::uint8_t*>(name.data()), name.size())).ok());
    EXPECT_TRUE(fs::is_regular_file(t / "file"));
    const ByteBuffer back = testing::read_file(t / "file");
    EXPECT_EQ(std::string(back.begin(), back.end()), "file/");  // 5 bytes: the name itself
    std::size_t entries = 0;
    for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(t.path())) ++entries;
    EXPECT_EQ(entries, 1u);  // no folder "file", no temporary left
  }
}

// Second finding: one name holding NUL and other control bytes and a component "..assay-tmp-":
// OutputDir writes it with each control byte as '_' (nothing truncated at the NUL), and the
// target's leftover-temporary check matched ".assay-tmp-" anywhere in a file name; temporaries are
// ".assay-tmp-XXXXXX" at the start of a name (core/output.h), and the target now skips such names.
TEST(OutputFuzzFindings, ControlBytesAndTemporaryLookalikeName) {
  testing::TempDir t;
  const OutputDir dir(t.path(), true);
  // 34 bytes: the last component is \x01 and two NULs (the literal spells all 34; no read past it).
  const std::string name("f\x02li\x01k2//..assay-tmp-\0\0\x01k///A./\x01\0\0", 34);
  ASSERT_TRUE(dir.write(name, ByteView(reinterpret_cast<const std::uint8_t*>(name.data()), name.size())).ok());
  const fs::path file = t / "f_li_k2" / "..assay-tmp-___k" / "A." / "___";
  ASSERT_TRUE(fs::is_regular_file(file));
  EXPECT_EQ(fs::file_size(file), 34u);
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::recursive_directory_iterator(t.path())) ++entries;
  EXPECT_EQ(entries, 4u);  // three folders and the file: no temporary left
}

}  // namespace
}  // namespace assay
