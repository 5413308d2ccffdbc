// Small things a day of use found: an @LIST saved with a UTF-8 BOM, the empty-file hint naming its
// file, a folder that does not exist called so (not "vanished").
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "testing/testing.h"

namespace assay {
namespace {

using testing::quote_path;
using testing::run_cli;

TEST(SmallMessages, ListFileWithAByteOrderMark) {
  testing::TempDir t;
  ASSERT_EQ(run_cli("make-samples " + quote_path(t / "s")).exit_code, 0);
  const std::string list = "\xEF\xBB\xBFreadme.txt\r\n";
  testing::write_file(t / "names.txt", ByteView(reinterpret_cast<const std::uint8_t*>(list.data()), list.size()));
  auto r = run_cli("list " + quote_path(t / "s" / "demo_v8_lzma.bld") + " @" + (t / "names.txt").string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("readme.txt"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("total: 1 entry"), std::string::npos) << r.out;
}

TEST(SmallMessages, EmptyFileHintNamesTheFile) {
  testing::TempDir t;
  testing::write_file(t / "empty.bin", ByteBuffer{});
  auto r = run_cli("info " + quote_path(t / "empty.bin"));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find((t / "empty.bin").string() + ": hint: the file is empty"), std::string::npos) << r.err;
}

TEST(SmallMessages, PackOfAFolderThatDoesNotExist) {
  testing::TempDir t;
  auto r = run_cli("pack igarchive -o " + quote_path(t / "x.arc") + " " + quote_path(t / "nothere"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find("vanished"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("nothere"), std::string::npos) << r.err;
}

// verify --json of a file that cannot be read lists it (not ok, code "io") beside the others; exit 2.
TEST(SmallMessages, VerifyJsonListsAMissingFile) {
  testing::TempDir t;
  ASSERT_EQ(run_cli("make-samples " + quote_path(t / "s")).exit_code, 0);
  auto r = run_cli("verify --json " + quote_path(t / "s" / "demo_v8_lzma.bld") + " " + quote_path(t / "missing.bld"));
  EXPECT_EQ(r.exit_code, 2) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["files"].size(), 2u);
  EXPECT_EQ(j["files"][0]["ok"], true);
  EXPECT_EQ(j["files"][1]["ok"], false);
  EXPECT_EQ(j["files"][1]["problems"][0]["code"], "io");
}

// Parse errors carry the program's name once: CLI11's message prefixed, an unknown option named
// once (not CLI11's "not expected" line too), an unknown pack kind with the nearest one.
TEST(SmallMessages, ParseErrors) {
  auto r = run_cli("extract x.bld");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("assay: --output is required"), std::string::npos) << r.err;
  r = run_cli("list --bogus x.bld");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("assay: unknown option '--bogus'"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("not expected"), std::string::npos) << r.err;
  r = run_cli("pack igarchve -o x y");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("assay: pack: unknown kind 'igarchve'; did you mean 'igarchive'?"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace assay
