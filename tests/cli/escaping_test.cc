// Issue 15 item 1: JSON output never aborts on bytes that are not UTF-8 (docs/cli.md#escaping:
// U+FFFD in the string plus a lossless "<key>_bytes" hex sibling), and text output escapes
// control characters.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "assay/core/text.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/igz/writer.h"
#include "testing/testing.h"
#include "core/json_text.h"

namespace assay {
namespace {

using testing::run_cli;
using testing::shell_quote;

using testing::bytes_of;

std::string archive_with_names(const testing::TempDir& t, const std::vector<std::string>& names) {
  std::vector<igarchive::WriterFile> files;
  for (const auto& n : names) files.push_back({.name = n, .data = bytes_of("payload " + n), .compression = igarchive::Compression::none});
  auto a = igarchive::write_archive(files, {});
  EXPECT_TRUE(a.ok()) << a.error().str();
  const auto p = t / "names.arc";
  testing::write_file(p, *a);
  return shell_quote(p.string());
}

// Every string of a parsed JSON document is valid UTF-8 (nlohmann::json::parse rejects
// anything else), and the name survives losslessly in "name_bytes".
void expect_name_escaped(const nlohmann::json& entries, const std::string& raw) {
  bool found = false;
  for (const auto& e : entries) {
    if (!e.contains("name_bytes")) continue;
    found = true;
    EXPECT_EQ(e["name_bytes"].get<std::string>(), hex_bytes(raw));
    EXPECT_EQ(e["name"].get<std::string>(), utf8_replace_invalid(raw));
  }
  EXPECT_TRUE(found);
}

TEST(CliEscaping, Utf8Rules) {
  EXPECT_TRUE(valid_utf8("plain/ascii.igz"));
  EXPECT_TRUE(valid_utf8("\xC3\xA9t\xC3\xA9"));            // "été"
  EXPECT_FALSE(valid_utf8("a\xFF" "b"));
  EXPECT_FALSE(valid_utf8("\xC0\xAF"));                     // overlong '/'
  EXPECT_FALSE(valid_utf8("\xED\xA0\x80"));                 // surrogate U+D800
  EXPECT_FALSE(valid_utf8("\xF4\x90\x80\x80"));             // above U+10FFFF
  EXPECT_FALSE(valid_utf8("\xE2\x82"));                     // truncated sequence
  EXPECT_EQ(utf8_replace_invalid("a\xFF" "b"), "a\xEF\xBF\xBD" "b");
  EXPECT_EQ(hex_bytes("a\xFF"), "61ff");
  EXPECT_EQ(escape_terminal("a\x1B[2Jb\nc\td\x7F\xFF\xC2\x9B"), "a\\e[2Jb\\nc\\td\\x7f\\xff\\u009b");
  EXPECT_EQ(escape_terminal("\xC3\xA9t\xC3\xA9"), "\xC3\xA9t\xC3\xA9");
  nlohmann::ordered_json j = {{"name", "x\xFFy"}, {"list", {"\xFE"}}, {"ok", "fine"}};
  const std::string s = dump_json(j);
  EXPECT_EQ(s, "{\"name\":\"x\xEF\xBF\xBDy\",\"name_bytes\":\"78ff79\",\"list\":[\"\xEF\xBF\xBD\"],\"ok\":\"fine\"}");
}

TEST(CliEscaping, ArchiveNameWithFFByte) {
  testing::TempDir t;
  const std::string raw = "dir/bad\xFFname.igz";
  const std::string f = archive_with_names(t, {raw, "good.igz"});
  for (const char* verb : {"list", "info"}) {
    auto r = run_cli(std::string(verb) + " --json " + f);
    EXPECT_EQ(r.exit_code, 0) << verb << ": " << r.err;
    ASSERT_NO_THROW((void)nlohmann::json::parse(r.out)) << verb << ": " << r.out;
    if (std::string(verb) == "list") expect_name_escaped(nlohmann::json::parse(r.out)["entries"], raw);
  }
  auto r = run_cli("verify --json " + f);
  EXPECT_LT(r.exit_code, 2) << r.err;
  ASSERT_NO_THROW((void)nlohmann::json::parse(r.out)) << r.out;
  // Text output: the byte shows as \xff, not raw.
  r = run_cli("list " + f);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("dir/bad\\xffname.igz"), std::string::npos) << r.out;
}

TEST(CliEscaping, IdentifyPathWithFFByte) {
  testing::TempDir t;
  const auto p = t / "odd\xFFname.bin";
  testing::write_file(p, bytes_of("not a known format, just text\n"));
  auto r = run_cli("identify --json " + shell_quote(p.string()));
  EXPECT_EQ(r.exit_code, 1) << r.err;  // unrecognised, but no abort
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  EXPECT_EQ(j["files"][0]["file_bytes"].get<std::string>(), hex_bytes(p.string()));
}

TEST(CliEscaping, IgzDumpStringWithFFByte) {
  testing::TempDir t;
  igz::Writer w({9, Endian::big, 9});
  w.add_pool("Default", 4);
  w.add_type("igObjectList", 0x18);
  w.add_string_table_entry("bad\xFFstring");
  const std::uint32_t obj = w.add_object(0, 0);
  w.set_string(obj + w.object_header(), "field\xFFtext");  // an RSTR string of the object
  w.set_root(obj);
  auto b = w.finish();
  ASSERT_TRUE(b.ok()) << b.error().str();
  const auto p = t / "s.igz";
  testing::write_file(p, *b);
  auto r = run_cli("dump --json " + shell_quote(p.string()));
  EXPECT_LT(r.exit_code, 2) << r.err;
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out;
  EXPECT_NE(r.out.find("bad\xEF\xBF\xBDstring"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"text_bytes\": \"" + hex_bytes("field\xFFtext") + "\""), std::string::npos) << r.out;
}

TEST(CliEscaping, TextListEscapesControlCharacters) {
  testing::TempDir t;
  const std::string f = archive_with_names(t, {"esc\x1B[31mred.igz", "two\nlines.igz"});
  auto r = run_cli("list " + f);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1B'), std::string::npos);
  EXPECT_NE(r.out.find("esc\\e[31mred.igz"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("two\\nlines.igz"), std::string::npos) << r.out;
  // Header + 2 rows + the totals line (issue 29 item 6): a newline in a name does not add a row.
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 4) << r.out;
}

}  // namespace
}  // namespace assay
