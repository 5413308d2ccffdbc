// End to end through the built CLI on a synthetic disc with an entry of every kind (made by our
// writers): list, classify counts, extract (bytes equal), load, verify, pack (byte-identical and
// with a replacement). Kinds per spec warriors.md#wr-8-1; JSON per docs/cli.md#warriors.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include "assay/ops.h"

#include <nlohmann/json.hpp>

#include "assay/formats/warriors/chunks.h"
#include "assay/options.h"
#include "assay/formats/warriors/disc.h"
#include "helpers.h"
#include "testing/families.h"

namespace assay::warriors {
namespace {

using assay::testing::run_cli;
using assay::testing::shell_quote;
using nlohmann::json;

struct WarriorsCli : ::testing::Test {
  assay::testing::TempDir tmp;
  std::vector<samples::SampleEntry> entries = samples::disc_entries();
  DiscImage image = samples::disc(entries);
  std::string disc = (tmp / "disc").string();
  std::string names = (tmp / "names.txt").string();
  void SetUp() override {
    test::write_disc_folder(tmp / "disc", image);
    std::string text;
    for (const auto& e : entries) text += e.name + "\n";
    assay::testing::write_file(names, ByteView(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  }
  json run_json(const std::string& args, int want_rc = 0) {
    auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, want_rc) << args << "\n" << r.err << r.out;
    return json::parse(r.out, nullptr, false);
  }
};

TEST_F(WarriorsCli, IdentifyAndList) {
  auto id = run_json("identify --json " + shell_quote(disc) + " " + shell_quote(disc + "/WARRIORS.DIR"));
  for (const auto& f : id["files"]) EXPECT_EQ(f["format"], "warriors");
  auto j = run_json("list --json " + shell_quote(disc) + " --names " + shell_quote(names));
  EXPECT_EQ(j["format"], "warriors");
  ASSERT_EQ(j["entries"].size(), entries.size());
  std::uint64_t expect_offset = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = j["entries"][i];
    EXPECT_EQ(e["index"], i);
    EXPECT_EQ(e["hash"].get<std::uint32_t>(), name_hash(entries[i].name));
    EXPECT_EQ(e["name"], entries[i].name);
    EXPECT_EQ(e["offset"], expect_offset);
    EXPECT_EQ(e["size"], entries[i].data.size());
    EXPECT_EQ(e["kind"], to_string(entries[i].kind)) << entries[i].name;
    expect_offset = align2048(expect_offset + entries[i].data.size());
  }
  // without names: no name, and the hash file name
  auto k = run_json("list --json " + shell_quote(disc));
  EXPECT_TRUE(k["entries"][0]["name"].is_null());
}

TEST_F(WarriorsCli, ClassifyCounts) {
  auto j = run_json("warriors classify --json " + shell_quote(disc));
  std::map<std::string, int> want;
  for (const auto& e : entries) ++want[std::string(to_string(e.kind))];
  EXPECT_EQ(j["counts"]["resource"], 9);
  EXPECT_EQ(j["counts"]["pack"], 1);
  EXPECT_EQ(j["counts"]["world_part"], 1);
  for (const auto& [k, n] : want) EXPECT_EQ(j["counts"][k], n) << k;
  EXPECT_EQ(j["entry_count"], entries.size());
}

TEST_F(WarriorsCli, ExtractBytesEqual) {
  const std::string out = (tmp / "out").string();
  auto r = run_cli("extract " + shell_quote(disc) + " -o " + shell_quote(out) + " --names " + shell_quote(names));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& e : entries) EXPECT_EQ(assay::testing::read_file(tmp / "out" / e.name), e.data) << e.name;
  // selectors: a 0xHASH and a glob, without names (files are <hash>.bin). Called through the
  // Format record: the shared `extract FILE GLOB...` positional parsing refuses extra arguments
  // at the time of writing (reported to the lead).
  auto in = Input::open(tmp / "disc");
  ASSERT_TRUE(in);
  ExtractOptions x;
  x.globs = {"0x7E23A6F2", "393f*", "WALK.ANM"};
  Diagnostics diags;
  auto st = ::assay::testing::extract_of(*in, "warriors", ReadOptions{}, x, OutputDir(tmp / "sel", false), diags);
  ASSERT_TRUE(st) << st.error().str();
  EXPECT_EQ(st->files, 3u);
  EXPECT_EQ(assay::testing::read_file(tmp / "sel" / "7e23a6f2.bin"), entries[14].data);
  EXPECT_EQ(assay::testing::read_file(tmp / "sel" / "393f70e2.bin"), entries[5].data);
  EXPECT_EQ(assay::testing::read_file(tmp / "sel" / "b71b7149.bin"), entries[3].data);  // a plain name is hashed
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(tmp / "sel"), {}), 3);
  // an existing file is not overwritten without --force: each selected entry is named as not
  // extracted (the shared loop goes on past it), the files stay as they were
  auto again = ::assay::testing::extract_of(*in, "warriors", ReadOptions{}, x, OutputDir(tmp / "sel", false), diags);
  ASSERT_TRUE(again) << again.error().str();
  EXPECT_EQ(again->files, 0u);
  ASSERT_EQ(again->failed.size(), 3u);
  EXPECT_EQ(again->failed[0].name, "b71b7149.bin");  // entry order: the DIR rows' order
  EXPECT_EQ(assay::testing::read_file(tmp / "sel" / "7e23a6f2.bin"), entries[14].data);
}

TEST_F(WarriorsCli, LoadEntries) {
  auto lev = run_json("warriors load --json " + shell_quote(disc + ":level1.lev"));
  EXPECT_EQ(lev["format"], "warriors");
  EXPECT_EQ(lev["container"], "flat");
  EXPECT_EQ(lev["chunks"], 18);
  EXPECT_TRUE(lev["chunk_stack"].empty());
  ASSERT_EQ(lev["objects"].size(), 1u);
  EXPECT_EQ(lev["objects"][0]["type"], "level");
  EXPECT_EQ(lev["stored"].size(), 2u);
  EXPECT_EQ(lev["trailing"], 0);
  // The text printer over the same typed report (ops.h warriors_load_report).
  auto text = run_cli("warriors load " + shell_quote(disc + ":level1.lev"));
  EXPECT_EQ(text.exit_code, 0) << text.err;
  for (const char* line : {"container: flat\n", "chunks: 18\n", "chunk stack (bottom first): 0\n", "objects: 1\n",
                           "stored: 2\n", "trailing bytes: 0\n"})
    EXPECT_NE(text.out.find(line), std::string::npos) << line << text.out;
  auto typed = warriors_load_report(disc + "::level1.lev", LoadShape::automatic, {});
  ASSERT_TRUE(typed.ok()) << typed.error().str();
  EXPECT_EQ(typed->result.chunks.size(), 18u);
  ASSERT_TRUE(typed->entry.has_value());
  EXPECT_EQ(typed->entry->entry.hash, name_hash("level1.lev"));  // the disc has no name list
  EXPECT_EQ(typed->entry->path, fmt::format("{:08x}.bin", name_hash("level1.lev")));
  EXPECT_EQ(typed->base, typed->entry->entry.offset);
  auto pak = run_json("warriors load --json " + shell_quote(disc + ":0xa564c2ad"));
  EXPECT_EQ(pak["container"], "grouped");
  ASSERT_EQ(pak["chunk_stack"].size(), 2u);
  EXPECT_EQ(pak["chunk_stack"][0]["type"], 0x41);  // bottom first: the model
  EXPECT_EQ(pak["chunk_stack"][1]["type"], 0x0B);
  EXPECT_EQ(pak["objects"][0]["type"], "animation");
  // "<8 hex digits>.bin", the name list prints for an entry without a known name, with the "::"
  // every verb takes: the same entry as its 0xHASH
  auto pak_bin = run_json("warriors load --json " + shell_quote(disc + "::a564c2ad.bin"));
  EXPECT_EQ(pak_bin["container"], "grouped");
  EXPECT_EQ(pak_bin["entry"]["hash"], 0xa564c2adu);
  EXPECT_EQ(pak_bin["chunk_stack"], pak["chunk_stack"]);
  // a loose container file
  assay::testing::write_file(tmp / "swapped.bin", [] {
    auto c = samples::level_chunks();
    std::swap(c[11], c[12]);
    return *write_resource(1, c);
  }());
  auto bad = run_json("warriors load --json " + shell_quote((tmp / "swapped.bin").string()), 1);
  ASSERT_TRUE(bad.contains("error"));
  EXPECT_NE(bad["error"]["message"].get<std::string>().find("found 0x07"), std::string::npos);
  EXPECT_TRUE(bad["error"]["offset"].is_number());
  // a world part is not a container: the flat parse runs the World Header model and fails
  auto part = run_json("warriors load --json " + shell_quote(disc + ":level1s_ms1.sec"), 1);
  EXPECT_TRUE(part.contains("warning"));
  EXPECT_TRUE(part.contains("error"));
  EXPECT_EQ(run_cli("warriors load " + shell_quote(disc + ":nothere.lua")).exit_code, 2);
}

TEST_F(WarriorsCli, VerifyCleanAndBroken) {
  auto ok = run_json("verify --json " + shell_quote(disc) + " --names " + shell_quote(names));
  EXPECT_EQ(ok["files"][0]["errors"], 0) << ok.dump(1);
  EXPECT_EQ(ok["files"][0]["warnings"], 0) << ok.dump(1);
  // break the level inside the WAD: swap the types of chunks 12 and 13 (same sizes? no: rebuild)
  auto c = samples::level_chunks();
  std::swap(c[11], c[12]);
  auto broken = entries;
  broken[5].data = *write_resource(1, c);
  test::write_disc_folder(tmp / "bad", samples::disc(broken));
  auto bad = run_json("verify --json " + shell_quote((tmp / "bad").string()) + " --names " + shell_quote(names), 1);
  bool found = false;
  for (const auto& p : bad["files"][0]["problems"]) {
    const std::string s = p["structure"].get<std::string>();
    if (s.find("entry[5] 393f70e2 (level1.lev)") != std::string::npos && p["severity"] == "error") {
      found = true;
      EXPECT_GE(p["offset"].get<std::uint64_t>(), 10240u);  // absolute in the WAD
    }
  }
  EXPECT_TRUE(found) << bad.dump(1);
}

TEST_F(WarriorsCli, PackLikeIsByteIdenticalAndReplaces) {
  const std::string files = (tmp / "files").string();
  ASSERT_EQ(run_cli("extract " + shell_quote(disc) + " -o " + shell_quote(files)).exit_code, 0);
  auto r = run_cli("pack warriors -o " + shell_quote((tmp / "same").string()) + " --like " + shell_quote(disc) + " " + shell_quote(files));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(assay::testing::read_file(tmp / "same" / "WARRIORS.DIR"), image.dir);
  EXPECT_EQ(assay::testing::read_file(tmp / "same" / "WARRIORS.WAD"), image.wad);
  // replace global.lua (entry 14) by name with 5,000 bytes: later entries shift by whole sectors
  std::filesystem::create_directories(tmp / "rep");
  ByteBuffer lua = entries[14].data;
  lua.resize(5000, 0x42);
  assay::testing::write_file(tmp / "rep" / "GLOBAL.LUA", lua);
  r = run_cli("pack warriors -o " + shell_quote((tmp / "new").string()) + " --like " + shell_quote(disc) + " " +
              shell_quote((tmp / "rep").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto in = Input::open(tmp / "new");
  auto d = Disc::open(*in);
  ASSERT_TRUE(d);
  Diagnostics diag;
  d->validate(diag);
  EXPECT_FALSE(diag.has_errors());
  ASSERT_EQ(d->count(), entries.size());
  const std::uint64_t delta = 6144 - 2048;  // align2048(5000) - the old slot
  for (std::uint32_t i = 0; i < d->count(); ++i) {
    const DirEntry e = d->entry(i), o = *Disc::from_views(image.dir, image.wad)->find(e.hash);
    EXPECT_EQ(e.hash, name_hash(entries[i].name));
    EXPECT_EQ(e.offset, i > 14 ? o.offset + delta : o.offset) << i;
    auto bytes = d->entry_bytes(e);
    ASSERT_TRUE(bytes);
    const ByteBuffer& want = i == 14 ? lua : entries[i].data;
    EXPECT_TRUE(std::equal(bytes->begin(), bytes->end(), want.begin(), want.end())) << i;
  }
  // a file that matches no entry is refused
  assay::testing::write_file(tmp / "rep" / "unknown.xyz", ByteBuffer(3, 1));
  r = run_cli("pack warriors -o " + shell_quote((tmp / "new2").string()) + " --like " + shell_quote(disc) + " " +
              shell_quote((tmp / "rep").string()));
  EXPECT_EQ(r.exit_code, 1);
}

TEST_F(WarriorsCli, PackContainerVerb) {
  assay::testing::write_file(tmp / "bones.bin", ByteBuffer(544, 3));
  const std::string res = (tmp / "res.bin").string();
  auto r = run_cli("pack warriors-container -o " + shell_quote(res) + " --name test 0x28=" + shell_quote((tmp / "bones.bin").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ByteBuffer b = assay::testing::read_file(res);
  EXPECT_TRUE(check_exact_resource(b).exact);
  EXPECT_EQ(test::get32(b, 12), 0xD87F7E0Cu);  // crc32("test")
  const std::string pak = (tmp / "p.pak").string();
  r = run_cli("pack warriors-container --pack -o " + shell_quote(pak) + " " + shell_quote(res) + " " + shell_quote(res));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ByteBuffer p = assay::testing::read_file(pak);
  EXPECT_TRUE(check_exact_pack(p).exact);
  auto j = run_json("warriors load --json " + shell_quote(pak));
  EXPECT_EQ(j["container"], "grouped");
  EXPECT_EQ(j["chunk_stack"].size(), 2u);
  auto id = run_json("identify --json " + shell_quote(pak) + " " + shell_quote(res));
  EXPECT_EQ(id["files"][0]["format"], "warriors");
  EXPECT_EQ(id["files"][1]["format"], "warriors");
}

TEST_F(WarriorsCli, IsoDiscWorksEndToEnd) {
  const std::string iso = (tmp / "disc.iso").string();
  assay::testing::write_file(iso, test::make_iso({{"SYSTEM.CNF;1", ByteBuffer(20, 'c')},
                                                   {"warriors.dir;1", image.dir},
                                                   {"WARRIORS.WAD;1", image.wad}}));
  auto j = run_json("warriors classify --json " + shell_quote(iso));
  EXPECT_EQ(j["counts"]["resource"], 9);
  auto v = run_json("verify --json " + shell_quote(iso));
  EXPECT_EQ(v["files"][0]["errors"], 0);
  auto l = run_json("warriors load --json " + shell_quote(iso + ":global.pak"));
  EXPECT_EQ(l["container"], "grouped");
}

}  // namespace
}  // namespace assay::warriors

namespace assay::warriors {
namespace {

TEST_F(WarriorsCli, InnerEntriesThroughDoubleColon) {
  auto j = run_json("list --json " + shell_quote(disc + "::level1.lev"));
  ASSERT_EQ(j["entries"].size(), 18u);
  EXPECT_EQ(j["entries"][0]["type"], 0x53);
  EXPECT_EQ(j["entries"][17]["type"], 0x51);
  auto i = run_json("info --json " + shell_quote(disc + "::0xa564c2ad"));
  EXPECT_EQ(i["container"], "pack");
  auto v = run_json("verify --json " + shell_quote(disc + "::f5c908b1.bin"));
  EXPECT_EQ(v["files"][0]["errors"], 0);
  // extracting chunks of an inner container gives exactly each chunk's bytes
  auto r = run_cli("extract " + shell_quote(disc + "::level1.lev") + " -o " + shell_quote((tmp / "ch").string()));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto lev = samples::level_chunks();
  EXPECT_EQ(assay::testing::read_file(tmp / "ch" / "0000_53.bin"), lev[0].data);
}

}  // namespace
}  // namespace assay::warriors

namespace assay::warriors {
namespace {

// `warriors classify` and `warriors load` take A::B like every verb: a disc and a level inside an
// igArchive packed from make-samples (the disc is samples::disc(disc_entries()), the fixture's
// `entries`; the level is samples::level(), level_chunks()). The DIR finds its WAD among the
// archive's entries, as `list w.arc::warriors/WARRIORS.DIR` does.
TEST_F(WarriorsCli, ClassifyAndLoadInsideAnArchive) {
  const std::string samples_dir = (tmp / "samples").string(), arc = (tmp / "w.arc").string();
  ASSERT_EQ(run_cli("make-samples " + shell_quote(samples_dir)).exit_code, 0);
  auto packed = run_cli("pack igarchive -o " + shell_quote(arc) + " " + shell_quote(samples_dir));
  ASSERT_EQ(packed.exit_code, 0) << packed.err;
  const std::string dir_in_arc = arc + "::warriors/WARRIORS.DIR";

  auto j = run_json("warriors classify --json " + shell_quote(dir_in_arc));
  std::map<std::string, int> want;
  for (const auto& e : entries) ++want[std::string(to_string(e.kind))];
  EXPECT_EQ(j["entry_count"], entries.size());
  for (const auto& [k, n] : want) EXPECT_EQ(j["counts"][k], n) << k;
  EXPECT_EQ(j["counts"]["resource"], 9);

  // a container file inside the archive: the 18 chunks of the level (spec #wr-6-3)
  auto lev = run_json("warriors load --json " + shell_quote(arc + "::warriors_level1.lev"));
  EXPECT_EQ(lev["container"], "flat");
  EXPECT_EQ(lev["chunks"], samples::level_chunks().size());
  EXPECT_EQ(lev["chunks"], 18);
  ASSERT_EQ(lev["objects"].size(), 1u);
  EXPECT_EQ(lev["objects"][0]["type"], "level");

  // a disc entry of the disc inside the archive, by name, 0xHASH and DISC:NAME
  for (const std::string sel : {"::level1.lev", "::0x393f70e2", ":level1.lev"}) {
    auto e = run_json("warriors load --json " + shell_quote(dir_in_arc + sel));
    EXPECT_EQ(e["container"], "flat") << sel;
    EXPECT_EQ(e["chunks"], 18) << sel;
    EXPECT_EQ(e["entry"]["hash"], name_hash("level1.lev")) << sel;
  }
  auto pak = run_json("warriors load --json " + shell_quote(dir_in_arc + "::0xa564c2ad"));
  EXPECT_EQ(pak["container"], "grouped");

  // what is not there: a usage or I/O error (exit 2) naming it
  auto missing = run_cli("warriors load " + shell_quote(arc + "::nothere.lev"));
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("nothere.lev"), std::string::npos) << missing.err;
  EXPECT_EQ(run_cli("warriors load " + shell_quote(dir_in_arc + "::nothere.lua")).exit_code, 2);
  auto no_file = run_cli("warriors classify " + shell_quote((tmp / "nonexist").string()));
  EXPECT_EQ(no_file.exit_code, 2);
  EXPECT_NE(no_file.err.find("No such file"), std::string::npos) << no_file.err;
}

}  // namespace
}  // namespace assay::warriors
