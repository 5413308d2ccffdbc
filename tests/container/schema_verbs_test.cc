// Every verb printing JSON beyond identify/info/list/verify (schema_test.cc): the edit verbs
// (replace, add, remove) of every family that has them, igz dump (and its alias dump), rw tree,
// warriors classify, warriors load and oni check, validated against docs/schema/<verb>.json and
// the rules of docs/cli.md#json, on files made by our writers (make-samples) and, where present,
// the real samples. A rule a verb still breaks is listed in known_violations() (schema.cc).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "schema.h"
#include "testing/testing.h"

namespace assay {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::quote_path;
using testing::run_cli;
using testing::SchemaLedger;

// `assay ARGS`: the exit code must be `exit` and stdout one JSON document.
json run_json(const std::string& args, int exit) {
  auto r = run_cli(args);
  EXPECT_EQ(r.exit_code, exit) << args << "\n" << r.err;
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << args << ": stdout is not JSON: " << r.out;
  return doc;
}

std::string fmt_hex(unsigned char c) {
  static const char* digits = "0123456789abcdef";
  return {digits[c >> 4], digits[c & 15]};
}

// The entry of `list --json` whose name or path is `name` (null when none).
json entry_named(const json& list, const std::string& name) {
  for (const auto& e : list["entries"])
    if (e["name"] == name || e["path"] == name) return e;
  return nullptr;
}

// make-samples once for the suite (the files are only read; each test writes under its own dir).
class SchemaVerbs : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    samples_ = new testing::TempDir();
    ASSERT_EQ(run_cli("make-samples " + quote_path(samples_->path())).exit_code, 0);
  }
  static void TearDownTestSuite() {
    delete samples_;
    samples_ = nullptr;
  }
  static std::string at(const std::string& rel) { return (samples_->path() / rel).string(); }
  static std::string q(const std::string& rel) { return testing::shell_quote(at(rel)); }
  static testing::TempDir* samples_;
};
testing::TempDir* SchemaVerbs::samples_ = nullptr;

TEST_F(SchemaVerbs, EditVerbsOfEveryFamily) {
  testing::TempDir dir;
  const std::string hello = "hello\n";
  testing::write_file(dir / "hello.txt", ByteView(reinterpret_cast<const std::uint8_t*>(hello.data()), hello.size()));
  const std::string h = quote_path(dir / "hello.txt");
  // A PNG of a texture of the PS2 dictionary, a .oni of an Oni instance: the FILEs of the edits.
  ASSERT_EQ(run_cli("extract -q " + q("rw_ps2.txd") + " -o " + quote_path(dir / "png")).exit_code, 0);
  ASSERT_EQ(run_cli("extract -q " + q("level1_X.dat") + " -o " + quote_path(dir / "oni")).exit_code, 0);
  const std::string png = quote_path(dir / "png" / "checker_pal4.png");
  struct Case {
    std::string family, container, verb, item, out, name;  // name: the change's name (empty: null)
  };
  const std::vector<Case> cases = {
      {"igarchive", "demo_v8_lzma.bld", "replace", "readme.txt=" + h, "ig_replace.bld", "readme.txt"},
      {"igarchive", "demo_v8_lzma.bld", "add", "new/hello.txt=" + h, "ig_add.bld", "new/hello.txt"},
      {"igarchive", "demo_v8_lzma.bld", "remove", "readme.txt", "ig_remove.bld", "readme.txt"},
      {"renderware", "rw_ps2.txd", "replace", "checker_pal4=" + png, "rw_replace.txd", "checker_pal4"},
      {"renderware", "rw_ps2.txd", "add", "new_tex=" + png, "rw_add.txd", "new_tex"},
      {"renderware", "rw_ps2.txd", "remove", "ramp_pal8", "rw_remove.txd", "ramp_pal8"},
      {"oni", "level1_X.dat", "replace", "ZLSTlist=" + quote_path(dir / "oni" / "ZLSTlist.oni"), "level1_X.dat",
       "ZLSTlist"},
      {"warriors", "warriors", "replace", "0x73fa1317=" + h, "w_replace", ""},
      {"warriors", "warriors", "add", "hello.txt=" + h, "w_add", "hello.txt"},
      {"warriors", "warriors", "remove", "0x6ef67c0d", "w_remove", ""},
  };
  std::map<std::string, std::unique_ptr<SchemaLedger>> ledgers;
  for (const std::string verb : {"replace", "add", "remove"}) ledgers[verb] = std::make_unique<SchemaLedger>(verb);
  const json before_w = run_json("list --json " + q("warriors"), 0);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.verb + " " + c.container);
    fs::create_directories(dir / c.family);
    const fs::path out = dir / c.family / c.out;
    const std::string args = c.verb + " --json " + q(c.container) + " -o " + quote_path(out) + " " + c.item;
    const json doc = run_json(args, 0);
    ledgers[c.verb]->check(doc, args);
    EXPECT_EQ(doc["format"], c.family);
    EXPECT_EQ(doc["input"], at(c.container));
    EXPECT_EQ(doc["output"], out.string());
    EXPECT_EQ(doc["in_place"], false);
    ASSERT_EQ(doc["changes"].size(), 1u);
    EXPECT_EQ(doc["changes"][0]["op"], c.verb);
    if (c.name.empty()) EXPECT_TRUE(doc["changes"][0]["name"].is_null());  // a hash without a name list
    else EXPECT_EQ(doc["changes"][0]["name"], c.name);
    // What the edit wrote, read back by list.
    const json after = run_json("list --json " + quote_path(out), 0);
    if (c.family == "warriors") {
      const std::string target = c.verb == "add" ? "" : c.item.substr(2, 8) + ".bin";
      const std::size_t n = before_w["entries"].size();
      EXPECT_EQ(after["entries"].size(), c.verb == "add" ? n + 1 : c.verb == "remove" ? n - 1 : n);
      if (c.verb == "replace") EXPECT_EQ(entry_named(after, target)["size"], hello.size());
      if (c.verb == "remove") EXPECT_TRUE(entry_named(after, target).is_null());
      if (c.verb == "replace") EXPECT_EQ(doc["changes"][0]["hash"], 0x73fa1317u);
      if (c.verb == "remove") EXPECT_EQ(doc["changes"][0]["hash"], 0x6ef67c0du);
    } else if (c.verb == "remove") {
      EXPECT_TRUE(entry_named(after, c.name).is_null());
    } else {
      EXPECT_FALSE(entry_named(after, c.name).is_null());
      if (c.family == "igarchive") EXPECT_EQ(entry_named(after, c.name)["size"], hello.size());
      // The PNG of a PAL4 texture goes back into its own native (docs/textures.md): the texel
      // format is pixel_format, `format` stays the family.
      if (c.family == "renderware" && c.verb == "replace") {
        EXPECT_EQ(doc["changes"][0]["pixel_format"], "PAL4");
        EXPECT_FALSE(doc["changes"][0].contains("format"));
      }
    }
  }
  // Families and verbs that refuse: exit 2 and no JSON on stdout (the message is on stderr).
  for (const std::string args :
       {"add --json " + q("level1_X.dat") + " -o " + quote_path(dir / "x.dat") + " ZLSTcopy=" + h,
        "remove --json " + q("level1_X.dat") + " -o " + quote_path(dir / "x.dat") + " ZLSTlist",
        "replace --json " + q("sample_v9_be.igz") + " -o " + quote_path(dir / "x.igz") + " a=" + h}) {
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
  }
}

TEST_F(SchemaVerbs, EditVerbsOnRealSamples) {
  testing::TempDir dir;
  SchemaLedger ledger("replace", false);
  const std::string hello = "hello\n";
  testing::write_file(dir / "hello.txt", ByteView(reinterpret_cast<const std::uint8_t*>(hello.data()), hello.size()));
  bool any = false;
  // The Crash NST archive's hkx member is 9,184 bytes (docs/cli.md#edit, spec alchemy.md C6).
  if (const auto crash = testing::shared_sample("alchemy/crash_nst_L332_CollisionTemplate.pak"); !crash.empty()) {
    any = true;
    const std::string args = "replace --json " + quote_path(crash) + " -o " + quote_path(dir / "crash.pak") +
                             " models/maps/Crash1/Custom_Level/StaticCollision_Custom_Level.hkx=" +
                             quote_path(dir / "hello.txt");
    const json doc = run_json(args, 0);
    ledger.check(doc, args);
    EXPECT_EQ(doc["format"], "igarchive");
    EXPECT_EQ(doc["changes"][0]["old_size"], 9184);
    EXPECT_EQ(doc["changes"][0]["new_size"], hello.size());
  }
  // OniSplit's level 1: a TXMP replaced by the PNG extract wrote of it.
  if (const auto oni = testing::shared_sample("oni/GameDataFolder/level1_Final.dat"); !oni.empty()) {
    any = true;
    ASSERT_EQ(run_cli("extract -q --textures " + quote_path(oni) + " -o " + quote_path(dir / "png")).exit_code, 0);
    fs::create_directories(dir / "oni");
    const std::string args = "replace --json " + quote_path(oni) + " -o " + quote_path(dir / "oni" / "level1_Final.dat") +
                             " TXMPl1_dxt1=" + quote_path(dir / "png" / "TXMPl1_dxt1.png");
    const json doc = run_json(args, 0);
    ledger.check(doc, args);
    EXPECT_EQ(doc["format"], "oni");
    EXPECT_EQ(doc["changes"][0]["source"], "png");
  }
  if (const auto txd = testing::shared_sample("renderware/rw-parser/infernus.txd"); !txd.empty()) {
    any = true;
    ASSERT_EQ(run_cli("extract -q " + quote_path(txd) + " -o " + quote_path(dir / "rw")).exit_code, 0);
    const json list = run_json("list --json " + quote_path(txd), 0);
    const std::string name = list["entries"][0]["name"].get<std::string>();
    const std::string args = "replace --json " + quote_path(txd) + " -o " + quote_path(dir / "infernus.txd") + " " +
                             name + "=" + quote_path(dir / "rw" / (name + ".png"));
    const json doc = run_json(args, 0);
    ledger.check(doc, args);
    EXPECT_EQ(doc["format"], "renderware");
  }
  // zap.pak's igz texture (DXT1, PS3) replaced by the PNG extract wrote of it: `format` is the
  // family, the texel format is pixel_format (docs/cli.md#json).
  if (const auto zap = testing::shared_sample("alchemy/skylanders_zap.pak"); !zap.empty()) {
    any = true;
    const auto member = run_cli("cat " + quote_path(zap.string() + "::textures/colormap_electric_02_d_11.igz"));
    ASSERT_EQ(member.exit_code, 0) << member.err;
    testing::write_file(dir / "c.igz", ByteView(reinterpret_cast<const std::uint8_t*>(member.out.data()), member.out.size()));
    ASSERT_EQ(run_cli("extract -q " + quote_path(dir / "c.igz") + " -o " + quote_path(dir / "igzpng")).exit_code, 0);
    const std::string args = "replace --json " + quote_path(dir / "c.igz") + " -o " + quote_path(dir / "d.igz") +
                             " _electric_02_D=" + quote_path(dir / "igzpng" / "0002__electric_02_D.png");
    const json doc = run_json(args, 0);
    ledger.check(doc, args);
    EXPECT_EQ(doc["format"], "igz");
    EXPECT_EQ(doc["changes"][0]["pixel_format"], "dxt1_tile_big_ps3");
    EXPECT_FALSE(doc["changes"][0].contains("format"));
  }
  if (!any) GTEST_SKIP() << "no shared samples";
}

// An empty TSTR string (a user zeroed the first byte of one in the NST sample) is null in the
// dump, by the JSON rule (docs/cli.md#json: no empty string); the schema takes it.
TEST_F(SchemaVerbs, IgzDumpOfAnEmptyTableString) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/nst_pc_v10le_music_bank_CB2_L200_Hub_WarpRoom.igz");
  testing::TempDir dir;
  ByteBuffer b = testing::read_file(path);
  ASSERT_GT(b.size(), 3442u);
  b[3442] = 0;
  testing::write_file(dir / "e.igz", b);
  SchemaLedger ledger("igz-dump");
  const std::string args = "igz dump --json " + quote_path(dir / "e.igz");
  const auto r = run_cli(args);
  ASSERT_LE(r.exit_code, 1) << r.err;
  const json doc = json::parse(r.out);
  ledger.check(doc, args);
  bool null_string = false;
  for (const auto& t : doc["strings"]["table"]) null_string = null_string || t.is_null();
  EXPECT_TRUE(null_string);
}

TEST_F(SchemaVerbs, IgzDump) {
  testing::TempDir dir;
  SchemaLedger ledger("igz-dump");
  // An igArchive holding an igArchive holding an igz: A::B::C.
  fs::create_directories(dir / "src");
  fs::create_directories(dir / "nest");
  fs::copy_file(at("sample_v9_be.igz"), dir / "src" / "x.igz");
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(dir / "nest" / "inner.bld") + " " + quote_path(dir / "src")).exit_code, 0);
  ASSERT_EQ(run_cli("pack igarchive -o " + quote_path(dir / "outer.arc") + " " + quote_path(dir / "nest")).exit_code, 0);
  // The writer's two samples: v9 big-endian 32-bit (Wii U, "cafe") and v8 little-endian 64-bit.
  struct Case {
    std::string file;
    int version;
    std::string byte_order;
    int pointer_size;
  };
  for (const Case& c : {Case{q("sample_v9_be.igz"), 9, "big", 4}, Case{q("sample_v8_le64.igz"), 8, "little", 8},
                        Case{quote_path(dir / "outer.arc") + "::inner.bld::x.igz", 9, "big", 4}}) {
    SCOPED_TRACE(c.file);
    const json doc = run_json("igz dump --json " + c.file, 0);
    ledger.check(doc, "igz dump --json " + c.file);
    EXPECT_EQ(doc["format"], "igz");
    EXPECT_EQ(doc["version"], c.version);
    EXPECT_EQ(doc["byte_order"], c.byte_order);
    EXPECT_EQ(doc["pointer_size"], c.pointer_size);
    EXPECT_TRUE(doc["problems"].empty());
    EXPECT_EQ(run_json("dump --json " + c.file, 0), doc);  // the alias prints the same document
  }
  // Problems: the first fixup record starts at the fixup section (spec: alchemy.md#igz-fixups);
  // an unknown tag there is a warning at that offset (exit 0), a count of 0xFFFFFFFF an error (exit 1).
  const json good = run_json("igz dump --json " + q("sample_v9_be.igz"), 0);
  const std::size_t fx = good["fixup_section"]["offset"].get<std::size_t>();
  auto bytes = testing::read_file(at("sample_v9_be.igz"));
  for (int k = 0; k < 4; ++k) bytes[fx + k] = 0xFF;
  testing::write_file(dir / "tag.igz", bytes);
  bytes = testing::read_file(at("sample_v9_be.igz"));
  for (int k = 4; k < 8; ++k) bytes[fx + k] = 0xFF;
  testing::write_file(dir / "count.igz", bytes);
  for (const auto& [file, exit, severity] : {std::tuple{"tag.igz", 0, "warning"}, std::tuple{"count.igz", 1, "error"}}) {
    SCOPED_TRACE(file);
    const json doc = run_json("igz dump --json " + quote_path(dir / file), exit);
    ledger.check(doc, std::string("igz dump --json ") + file);
    bool found = false;
    for (const auto& p : doc["problems"]) found = found || (p["severity"] == severity && p["offset"] == fx);
    EXPECT_TRUE(found) << doc["problems"].dump();
  }
  auto r = run_cli("igz dump --json " + q("rw_ps2.txd"));  // not an igz: a usage error, no JSON
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
}

TEST_F(SchemaVerbs, IgzDumpRealSamples) {
  SchemaLedger ledger("igz-dump", false);
  const std::vector<std::string> files = {
      "alchemy/igModelTool_model.igz", "alchemy/igModelTool_test_img.igz", "alchemy/skylanders_zap.pak::#0",
      "alchemy/crash_nst_L332_CollisionTemplate.pak::maps/Crash1/Custom_Level/StaticCollision_Custom_Level.igz"};
  std::size_t ran = 0;
  for (const std::string& rel : files) {
    const std::string outer = rel.substr(0, rel.find("::"));
    const auto path = testing::shared_sample(outer);
    if (path.empty()) continue;
    ++ran;
    SCOPED_TRACE(rel);
    const std::string f = testing::shell_quote(path.string() + rel.substr(outer.size()));
    const json doc = run_json("igz dump --json " + f, 0);
    ledger.check(doc, "igz dump --json " + rel);
    EXPECT_EQ(doc["format"], "igz");
    // The Crash NST file names its own namespace after the member (spec: alchemy.md C5).
    if (rel.find("StaticCollision") != std::string::npos) EXPECT_EQ(doc["namespace"]["name"], "StaticCollision_Custom_Level");
  }
  if (ran == 0) GTEST_SKIP() << "no alchemy samples";
}

// The section tree: pre-order, each parent before its children; the stream's sections end at
// stream_end, then `padding` zero bytes to the end of the file.
void check_tree(const json& doc, std::uint64_t file_size, std::uint32_t top_id) {
  ASSERT_FALSE(doc["sections"].empty());
  const json& top = doc["sections"][0];
  EXPECT_EQ(top["id"], top_id);
  EXPECT_EQ(top["offset"], 0);
  EXPECT_TRUE(top["parent"].is_null());
  EXPECT_EQ(top["depth"], 0);
  std::size_t children_of_top = 0;
  for (std::size_t i = 1; i < doc["sections"].size(); ++i) {
    const json& s = doc["sections"][i];
    if (s["parent"].is_null()) continue;
    EXPECT_LT(s["parent"].get<std::size_t>(), i);
    children_of_top += s["parent"] == 0;
  }
  EXPECT_EQ(top["children"], children_of_top);
  EXPECT_EQ(doc["stream_end"].get<std::uint64_t>() + doc["padding"].get<std::uint64_t>(), file_size);
}

TEST_F(SchemaVerbs, RwTree) {
  testing::TempDir dir;
  SchemaLedger ledger("rw-tree");
  // Section ids (spec: renderware.md): 0x16 texture dictionary, 0x10 clump.
  for (const auto& [file, id] : {std::pair{"rw_ps2.txd", 0x16u}, std::pair{"rw_pc_dxt1.txd", 0x16u}, std::pair{"rw_model.dff", 0x10u}}) {
    SCOPED_TRACE(file);
    const json doc = run_json("rw tree --json " + q(file), 0);
    ledger.check(doc, std::string("rw tree --json ") + file);
    EXPECT_EQ(doc["format"], "renderware");
    EXPECT_EQ(doc["file"], at(file));
    check_tree(doc, fs::file_size(at(file)), id);
  }
  // A clump chunk of a Warriors level (A::B): the chunk's bytes as list gives their size.
  const json lev = run_json("list --json " + q("warriors_level1.lev"), 0);
  const json chunk = entry_named(lev, "0002_47.bin");
  ASSERT_FALSE(chunk.is_null());
  const json inner = run_json("rw tree --json " + q("warriors_level1.lev") + "::0002_47.bin", 0);
  ledger.check(inner, "rw tree --json warriors_level1.lev::0002_47.bin");
  check_tree(inner, chunk["size"].get<std::uint64_t>(), 0x10u);
  // An id assay does not know (0x7777) at the top: walked as raw, its name missing.
  auto bytes = testing::read_file(at("rw_model.dff"));
  bytes[0] = 0x77, bytes[1] = 0x77, bytes[2] = 0, bytes[3] = 0;
  testing::write_file(dir / "unknown.dff", bytes);
  const json unknown = run_json("rw tree --json " + quote_path(dir / "unknown.dff"), 0);
  ledger.check(unknown, "rw tree --json unknown.dff");
  ASSERT_EQ(unknown["sections"].size(), 1u);
  EXPECT_EQ(unknown["sections"][0]["id"], 0x7777);
  EXPECT_TRUE(unknown["sections"][0]["name"].is_null());
  // ... and a note of rule R22 (spec: renderware.md: an unknown id is walked as raw) at offset 0.
  ASSERT_EQ(unknown["problems"].size(), 1u) << unknown["problems"].dump();
  EXPECT_EQ(unknown["problems"][0]["severity"], "note");
  EXPECT_EQ(unknown["problems"][0]["code"], "R22");
  EXPECT_EQ(unknown["problems"][0]["offset"], 0);
  // 16 zero bytes after the stream: padding, a note of rule R5 where the stream ends.
  bytes = testing::read_file(at("rw_model.dff"));
  const std::size_t model_size = bytes.size();
  bytes.resize(model_size + 16, 0);
  testing::write_file(dir / "padded.dff", bytes);
  const json padded = run_json("rw tree --json " + quote_path(dir / "padded.dff"), 0);
  ledger.check(padded, "rw tree --json padded.dff");
  EXPECT_EQ(padded["stream_end"], model_size);
  EXPECT_EQ(padded["padding"], 16);
  ASSERT_EQ(padded["problems"].size(), 1u) << padded["problems"].dump();
  EXPECT_EQ(padded["problems"][0]["code"], "R5");
  EXPECT_EQ(padded["problems"][0]["offset"], model_size);
  // A file name that is not UTF-8 (docs/cli.md#escaping): U+FFFD in `file`, its bytes beside.
  const std::string bad = "bad\xFFname.dff";
  fs::copy_file(at("rw_model.dff"), dir / bad);
  const json escaped = run_json("rw tree --json " + quote_path(dir / bad), 0);
  ledger.check(escaped, "rw tree --json bad\\xFFname.dff");
  EXPECT_NE(escaped["file"].get<std::string>().find("\xEF\xBF\xBD"), std::string::npos);
  // Truncated inside the clump's body: exit 1, `error`, no section (the top one runs past the end).
  bytes = testing::read_file(at("rw_model.dff"));
  bytes.resize(100);
  testing::write_file(dir / "cut.dff", bytes);
  const json cut = run_json("rw tree --json " + quote_path(dir / "cut.dff"), 1);
  ledger.check(cut, "rw tree --json cut.dff");
  EXPECT_TRUE(cut["sections"].empty());
  // The error names rule R1 (a body past the end of the data) at the clump's header, offset 0.
  ASSERT_TRUE(cut["error"].is_object()) << cut.dump();
  EXPECT_NE(cut["error"]["message"].get<std::string>().find("(R1)"), std::string::npos) << cut["error"].dump();
  EXPECT_EQ(cut["error"]["offset"], 0);
}

// Non-UTF-8 file names through every verb that prints the name (docs/cli.md#escaping): the
// string gets U+FFFD and a sibling "<key>_bytes" with the name's bytes in hex.
TEST_F(SchemaVerbs, NonUtf8FileNamesAreEscaped) {
  testing::TempDir dir;
  const std::string name = "bad\xFFname";
  std::string hex;
  for (unsigned char c : name) hex += fmt_hex(c);
  fs::copy_file(at("sample_v9_be.igz"), dir / (name + ".igz"));
  fs::copy_file(at("warriors_level1.lev"), dir / (name + ".lev"));
  fs::copy_file(at("rw_ps2.txd"), dir / (name + ".txd"));
  struct Case {
    std::string schema, args, key;  // key: the member holding the file name ("" for files[0].file)
  };
  const std::string igz = quote_path(dir / (name + ".igz")), lev = quote_path(dir / (name + ".lev"));
  const std::string txd = quote_path(dir / (name + ".txd"));
  for (const Case& c : {Case{"identify", "identify --json " + igz, ""}, Case{"verify", "verify --json " + lev, ""},
                        Case{"warriors-load", "warriors load --json " + lev, "file"},
                        Case{"remove", "remove --json " + txd + " -o " + quote_path(dir / "out.txd") + " ramp_pal8", "input"}}) {
    SCOPED_TRACE(c.args);
    SchemaLedger ledger(c.schema, false);
    auto r = run_cli(c.args);
    const json doc = json::parse(r.out, nullptr, false);
    ASSERT_FALSE(doc.is_discarded()) << r.out << r.err;
    ledger.check(doc, c.args);
    const json& holder = c.key.empty() ? doc["files"][0] : doc;
    const std::string key = c.key.empty() ? "file" : c.key;
    ASSERT_TRUE(holder.contains(key + "_bytes")) << holder.dump();
    // The path's hex ends with the name's hex (the temporary folder's bytes come first).
    const std::string bytes = holder[key + "_bytes"].get<std::string>();
    EXPECT_NE(bytes.find(hex), std::string::npos) << bytes;
  }
}

TEST_F(SchemaVerbs, RwTreeRealSamples) {
  SchemaLedger ledger("rw-tree", false);
  std::size_t ran = 0;
  for (const std::string rel :
       {"renderware/rw-parser/infernus.txd", "renderware/rw-parser/dxtDecoding.txd", "renderware/rw-parser/wuzimu.dff",
        "renderware/librw/teapot.dff", "renderware/librw/camera_clump.dff", "renderware/librw/subrast_clump.dff",
        "renderware/librw/checker.dff", "renderware/librw-ps2/ps2_v36003.txd", "renderware/more/mh1_ps2_MODELS.DFF",
        "renderware/more/imgfactory_generic.txd"}) {
    const auto path = testing::shared_sample(rel);
    if (path.empty()) continue;
    ++ran;
    SCOPED_TRACE(rel);
    const json doc = run_json("rw tree --json " + quote_path(path), 0);
    ledger.check(doc, "rw tree --json " + rel);
    const bool txd = rel.find(".txd") != std::string::npos || rel.find(".TXD") != std::string::npos;
    check_tree(doc, fs::file_size(path), txd ? 0x16u : 0x10u);
  }
  if (ran == 0) GTEST_SKIP() << "no renderware samples";
}

TEST_F(SchemaVerbs, WarriorsClassify) {
  SchemaLedger ledger("warriors-classify");
  // Counted by kind, they are the disc's entries as list classifies them, with their sizes.
  const json list = run_json("list --json " + q("warriors"), 0);
  std::map<std::string, std::uint64_t> count, bytes;
  for (const auto& e : list["entries"]) {
    ++count[e["kind"].get<std::string>()];
    bytes[e["kind"].get<std::string>()] += e["size"].get<std::uint64_t>();
  }
  for (const std::string disc : {q("warriors"), q("warriors/WARRIORS.DIR")}) {
    SCOPED_TRACE(disc);
    const json doc = run_json("warriors classify --json " + disc, 0);
    ledger.check(doc, "warriors classify --json " + disc);
    EXPECT_EQ(doc["format"], "warriors");
    EXPECT_EQ(doc["entry_count"], list["entries"].size());
    for (const auto& [kind, n] : doc["counts"].items()) {
      EXPECT_EQ(n.get<std::uint64_t>(), count[kind]) << kind;
      EXPECT_EQ(doc["bytes"][kind].get<std::uint64_t>(), bytes[kind]) << kind;
    }
  }
}

TEST_F(SchemaVerbs, WarriorsLoad) {
  SchemaLedger ledger("warriors-load");
  // A level file: one chunk record per chunk list shows, at the chunk's header.
  const json lev_list = run_json("list --json " + q("warriors_level1.lev"), 0);
  const json lev = run_json("warriors load --json " + q("warriors_level1.lev"), 0);
  ledger.check(lev, "warriors load --json warriors_level1.lev");
  EXPECT_EQ(lev["file"], at("warriors_level1.lev"));
  EXPECT_TRUE(lev["ok"].get<bool>());
  ASSERT_EQ(lev["chunk_records"].size(), lev_list["entries"].size());
  for (std::size_t i = 0; i < lev_list["entries"].size(); ++i)
    EXPECT_EQ(lev["chunk_records"][i]["offset"], lev_list["entries"][i]["header_offset"]);
  // A level file is a flat container (spec: warriors.md#wr-5-3): no chunk has a group.
  EXPECT_EQ(lev["container"], "flat");
  EXPECT_EQ(lev_list["container"], "flat");
  for (std::size_t i = 0; i < lev_list["entries"].size(); ++i) {
    EXPECT_TRUE(lev["chunk_records"][i]["group"].is_null());
    EXPECT_TRUE(lev_list["entries"][i]["group"].is_null());
  }
  // Disc entries by hash (DISC::0xHASH): a resource (flat), a pack (grouped), a world part
  // (not a container: a warning, the load stops with an error, exit 1).
  const json disc = run_json("list --json " + q("warriors"), 0);
  struct Case {
    std::string hash, loader;
    int exit;
  };
  for (const Case& c : {Case{"73fa1317", "flat", 0}, Case{"a564c2ad", "grouped", 0}, Case{"73edf170", "flat", 1}}) {
    SCOPED_TRACE(c.hash);
    const std::string args = "warriors load --json " + q("warriors") + "::0x" + c.hash;
    const json doc = run_json(args, c.exit);
    ledger.check(doc, args);
    const json listed = entry_named(disc, c.hash + ".bin");
    ASSERT_FALSE(listed.is_null());
    EXPECT_EQ(doc["entry"]["hash"], std::stoul(c.hash, nullptr, 16));
    EXPECT_EQ(doc["entry"]["index"], listed["index"]);
    EXPECT_EQ(doc["entry"]["offset"], listed["offset"]);
    EXPECT_EQ(doc["entry"]["size"], listed["size"]);
    EXPECT_EQ(doc["entry"]["path"], listed["path"]);
    EXPECT_EQ(doc["entry"]["stored_size"], listed["stored_size"]);
    EXPECT_EQ(doc["format"], "warriors");
    EXPECT_EQ(doc["container"], c.loader);
    EXPECT_EQ(doc.contains("error"), c.exit == 1);
    EXPECT_EQ(doc.contains("warning"), c.exit == 1);
  }
}

// Problems of oni check, under their name today or after the fix (known_violations()).
const json& oni_problems(const json& doc) { return doc.contains("problems") ? doc["problems"] : doc["diagnostics"]; }

TEST_F(SchemaVerbs, OniCheck) {
  SchemaLedger ledger("oni-check");
  // Level numbers come from the file names (spec: oni.md, levelN_X.dat).
  for (const std::string args : {"oni check --json " + testing::shell_quote(samples_->path().string()),
                                 "oni check --json " + q("level0_Final.dat") + " " + q("level1_X.dat")}) {
    SCOPED_TRACE(args);
    const json doc = run_json(args, 0);
    ledger.check(doc, args);
    ASSERT_EQ(doc["levels"].size(), 2u);
    EXPECT_EQ(doc["levels"][0]["level"], 0);
    EXPECT_EQ(doc["levels"][1]["level"], 1);
    EXPECT_EQ(doc["levels"][1]["files"], json::array({"level1_X.dat"}));
    EXPECT_EQ(doc["all"]["levels"], 2);
    bool no_final = false;  // level 1 has no level1_Final.dat: a warning, not an error
    for (const auto& p : oni_problems(doc))
      no_final = no_final || (p["severity"] == "warning" && p["message"].get<std::string>().find("level1_Final.dat") != std::string::npos);
    EXPECT_TRUE(no_final) << oni_problems(doc).dump();
  }
}

TEST_F(SchemaVerbs, OniCheckRealSamples) {
  ASSAY_REQUIRE_SAMPLE(gdf, "oni/GameDataFolder");
  SchemaLedger ledger("oni-check", false);
  const json doc = run_json("oni check --json " + quote_path(gdf), 0);
  ledger.check(doc, "oni check --json GameDataFolder");
  // OniSplit's counts (the samples' README): level 0 31 instances, 0 placeholders; level 1 19
  // instances, 4 placeholders, 6 links into level 0.
  ASSERT_EQ(doc["levels"].size(), 2u);
  EXPECT_EQ(doc["levels"][0]["instances"], 31);
  EXPECT_EQ(doc["levels"][0]["placeholders"], 0);
  EXPECT_EQ(doc["levels"][1]["instances"], 19);
  EXPECT_EQ(doc["levels"][1]["placeholders"], 4);
  EXPECT_EQ(doc["levels"][1]["into_level0"], 6);
  EXPECT_EQ(doc["all"]["instances"], 50);
}

}  // namespace
}  // namespace assay
