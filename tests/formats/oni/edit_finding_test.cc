// Fuzz finding of the 600 s run (oni_edit, issue 15): a .oni whose header declares no instances
// made `replace` read descriptor 0 past the end of the file. Now a clear error naming the .oni.
#include <gtest/gtest.h>

#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "testing/testing.h"
#include "../../../src/formats/oni/family_parts.h"

namespace assay::oni {
namespace {

TEST(OniEditFinding, AnOniWithNoInstancesIsRefusedNotReadPastItsEnd) {
  testing::TempDir t;
  ASSERT_TRUE(write_sample_files(t.path()).ok());
  auto in = Input::open(t / "level0_Final.dat");
  ASSERT_TRUE(in.ok()) << in.error().str();
  // VR32 header (0x40 bytes) with instance count 0, then 10 stray bytes: 74 bytes in all.
  const ByteBuffer oni{0x1f, 0x27, 0xdc, 0x33, 0xdf, 0xbc, 0x03, 0x00, 0x32, 0x33, 0x52, 0x56, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x1f, 0x00, 0xff, 0x7f};
  ASSERT_EQ(oni.size(), 74u);
  EditRequest req;
  req.output = t / "out" / "level0_Final.dat";
  req.changes.push_back({EditOp::replace, "TXMPbrick", oni});
  auto r = edit_format(*in, req);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().str().find("main instance"), std::string::npos) << r.error().str();
  EXPECT_FALSE(std::filesystem::exists(t / "out" / "level0_Final.dat"));
}

}  // namespace
}  // namespace assay::oni
