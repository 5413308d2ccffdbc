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

}  // namespace
}  // namespace assay
