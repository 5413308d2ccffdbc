// `assay serve`'s API (issue 13, docs/serve.md): the server runs in-process on a free port over
// the samples `assay make-samples` writes (the project's own writers), and httplib's client asks
// it. Expected values come from elsewhere: the CLI's own --json output and `assay extract`
// (a separate code path through the Format records), the bytes on disk, RFC 9110's Range rules,
// and the make-samples definitions (which textures, which Oni links).
#include <gtest/gtest.h>
#include <httplib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "assay/formats/igarchive/archive.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/image/png.h"
#include "assay/serve/server.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::serve {
namespace {

namespace fs = std::filesystem;
using testing::run_cli;
using testing::shell_quote;

constexpr std::string_view kSecret = "SECRET-OUTSIDE-THE-ROOT-7d1f";

// One server for the whole suite: TMP/ss (make-samples output, plus a corrupt file and symlinks
// pointing out of the root) is served; TMP/secret.txt lies outside it.
class ServeApi : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new testing::TempDir();
    const fs::path ss = tmp_->path() / "ss";
    auto r = run_cli("make-samples " + shell_quote(ss.string()));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::ofstream(tmp_->path() / "secret.txt") << kSecret;
    fs::create_symlink(tmp_->path() / "secret.txt", ss / "link_out.txt");
    fs::create_symlink(tmp_->path(), ss / "linkdir_out");
    // A corrupt TXD: the sample cut in the middle of its first texture.
    auto txd = testing::read_file(ss / "rw_ps2.txd");
    txd.resize(txd.size() / 2);
    testing::write_file(ss / "cut.txd", txd);
    std::ofstream(ss / "junk.bin") << "not any format at all";
    // An igArchive whose byte 100 (inside file[0]'s block table) is flipped: block 0 then starts
    // past the end of the file.
    auto bld = testing::read_file(ss / "demo_v8_lzma.bld");
    bld.at(100) ^= 0x5a;
    testing::write_file(ss / "flipped.bld", bld);
    // Containers inside containers (issue 29 item 1), written by our igArchive writer: nest.pak
    // (case-insensitive) holds an igArchive, an igz stored as "actors\zap.igz" (as Skylanders
    // archives spell names) and a text file; strict.pak (case-sensitive) holds the same igz.
    namespace iga = igarchive;
    const std::string text = "a text file: not a container\n";
    std::vector<iga::WriterFile> files;
    files.push_back({.name = "inner.bld", .data = testing::read_file(ss / "demo_v8_lzma.bld")});
    files.push_back({.name = "actors\\zap.igz", .data = testing::read_file(ss / "sample_v9_be.igz"),
                     .compression = iga::Compression::deflate});
    files.push_back({.name = "notes.txt", .data = ByteBuffer(text.begin(), text.end()), .compression = iga::Compression::stored});
    iga::WriterOptions wo;
    wo.flags = iga::kFlagCaseInsensitive;
    auto nest = iga::write_archive(files, wo);
    ASSERT_TRUE(nest) << nest.error().str();
    testing::write_file(ss / "nest.pak", *nest);
    files.erase(files.begin());
    auto strict = iga::write_archive(files, iga::WriterOptions{});
    ASSERT_TRUE(strict) << strict.error().str();
    testing::write_file(ss / "strict.pak", *strict);
    ServeOptions opt;
    opt.roots = {ss.string()};
    auto s = Server::create(opt);
    ASSERT_TRUE(s) << s.error().str();
    server_ = s->release();
    thread_ = new std::thread([] { server_->run(); });
    for (int i = 0; i < 100 && !client().Get("/api/roots?token=" + server_->token()); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  static void TearDownTestSuite() {
    server_->stop();
    thread_->join();
    delete thread_;
    delete server_;
    delete tmp_;
  }

  static httplib::Client client() {
    httplib::Client c("127.0.0.1", server_->port());
    c.set_url_encode(false);  // the tests spell their escapes themselves
    c.set_read_timeout(20, 0);
    return c;
  }
  static std::string q(const std::string& endpoint, const std::string& path_param, const std::string& extra = "") {
    return "/api/" + endpoint + "?token=" + server_->token() + "&path=" + path_param + extra;
  }
  static httplib::Result get(const std::string& target, const httplib::Headers& h = {}) { return client().Get(target, h); }
  static Json json_of(const httplib::Result& r) { return Json::parse(r->body); }
  static fs::path samples() { return tmp_->path() / "ss"; }
  static Json cli_json(const std::string& args) {
    auto r = run_cli(args);
    return Json::parse(r.out);
  }

  static testing::TempDir* tmp_;
  static Server* server_;
  static std::thread* thread_;
};
testing::TempDir* ServeApi::tmp_ = nullptr;
Server* ServeApi::server_ = nullptr;
std::thread* ServeApi::thread_ = nullptr;

TEST_F(ServeApi, UrlCarriesA128BitTokenOnLoopback) {
  const std::string url = server_->url();
  EXPECT_EQ(url.rfind("http://127.0.0.1:" + std::to_string(server_->port()) + "/?token=", 0), 0u) << url;
  EXPECT_EQ(server_->token().size(), 32u);  // 16 random bytes as hex
  EXPECT_EQ(server_->token().find_first_not_of("0123456789abcdef"), std::string::npos);
  auto other = random_token();
  ASSERT_TRUE(other);
  EXPECT_NE(*other, server_->token());
}

TEST_F(ServeApi, TokenIsRequired) {
  auto none = get("/api/roots");
  ASSERT_TRUE(none);
  EXPECT_EQ(none->status, 401);
  EXPECT_TRUE(json_of(none)["error"].contains("message"));
  auto wrong = get("/api/roots?token=00000000000000000000000000000000");
  EXPECT_EQ(wrong->status, 403);
  auto shorter = get("/api/roots?token=" + server_->token().substr(0, 31));
  EXPECT_EQ(shorter->status, 403);
  EXPECT_EQ(get("/?token=x")->status, 403);  // the page too
  auto ok = get("/api/roots?token=" + server_->token());
  EXPECT_EQ(ok->status, 200);
  // No cookie is set (a cookie for 127.0.0.1 would be sent to every local port); a client that
  // has one anyway may use it; a wrong cookie does not work.
  EXPECT_FALSE(ok->has_header("Set-Cookie"));
  EXPECT_EQ(get("/api/roots", {{"Cookie", "a=b; assay_token=" + server_->token()}})->status, 200);
  EXPECT_EQ(get("/api/roots", {{"Cookie", "assay_token=" + std::string(32, 'f')}})->status, 401);
}

TEST_F(ServeApi, ForeignHostIsRefused) {
  const std::string t = "/api/roots?token=" + server_->token();
  const std::string port = std::to_string(server_->port());
  for (const std::string& host : std::vector<std::string>{"evil.example:" + port, "evil.example", "127.0.0.1", "127.0.0.1:1", "127.0.0.1:" + port + "0",
                                 "localhost.evil.example:" + port, "[::1]:" + port, "0.0.0.0:" + port}) {
    auto r = get(t, {{"Host", host}});
    ASSERT_TRUE(r) << host;
    EXPECT_EQ(r->status, 403) << host;
    EXPECT_EQ(r->body.find("\"roots\""), std::string::npos) << host;
  }
  EXPECT_EQ(get(t, {{"Host", "localhost:" + port}})->status, 200);
  EXPECT_EQ(get(t, {{"Host", "LocalHost:" + port}})->status, 200);
  EXPECT_EQ(get(t, {{"Host", "127.0.0.1:" + port}})->status, 200);
}

TEST_F(ServeApi, RootsAndDir) {
  auto roots = json_of(get("/api/roots?token=" + server_->token()));
  ASSERT_EQ(roots["roots"].size(), 1u);
  EXPECT_EQ(roots["roots"][0]["name"], "ss");
  EXPECT_EQ(roots["roots"][0]["kind"], "folder");
  auto dir = get(q("dir", "ss"));
  ASSERT_EQ(dir->status, 200);
  std::set<std::string> names;
  const Json listing = json_of(dir);
  for (const auto& e : listing["entries"]) names.insert(e["name"].get<std::string>());
  for (const char* n : {"rw_ps2.txd", "rw_pc_dxt1.txd", "rw_model.dff", "demo_v8_lzma.bld", "demo_v11_be_deflate.arc",
                        "sample_v9_be.igz", "level0_Final.dat", "level1_X.dat", "warriors_level1.lev", "warriors"})
    EXPECT_TRUE(names.count(n)) << n << " in " << dir->body;
  EXPECT_FALSE(names.count("link_out.txt"));  // a symlink out of the root is not listed
  EXPECT_FALSE(names.count("linkdir_out"));
  auto disc = json_of(get(q("dir", "ss/warriors")));
  EXPECT_EQ(disc["format"], "warriors");  // the disc folder is a container
}

// The list JSON without the "container" field the API adds to each entry (the CLI's JSON).
Json without_container(Json list) {
  for (Json& e : list["entries"]) e.erase("container");
  return list;
}

TEST_F(ServeApi, ListInfoVerifyAreTheCliJson) {
  for (const std::string f : {"rw_ps2.txd", "demo_v8_lzma.bld", "sample_v9_be.igz", "level1_X.dat", "warriors_level1.lev"}) {
    const std::string file = (samples() / f).string();
    auto list = get(q("list", "ss/" + f));
    ASSERT_EQ(list->status, 200) << f << list->body;
    // The CLI's JSON, plus "container" on every entry (true, false or null).
    Json served = json_of(list);
    for (Json& e : served["entries"]) {
      ASSERT_TRUE(e.contains("container")) << f;
      EXPECT_TRUE(e["container"].is_boolean() || e["container"].is_null()) << f;
      e.erase("container");
    }
    EXPECT_EQ(served, cli_json("list --json " + shell_quote(file))) << f;
    auto info = get(q("info", "ss/" + f));
    ASSERT_EQ(info->status, 200) << f;
    EXPECT_EQ(json_of(info), cli_json("info --json " + shell_quote(file))) << f;
    auto ver = json_of(get(q("verify", "ss/" + f)));
    Json cli = cli_json("verify --json " + shell_quote(file));
    if (cli.is_array()) cli = cli[0];
    if (cli.contains("files")) cli = cli["files"][0];
    EXPECT_EQ(ver["ok"], cli["ok"]) << f;
    EXPECT_EQ(ver["errors"], cli["errors"]) << f;
    EXPECT_EQ(ver["problems"].size(), cli["problems"].size()) << f;
    EXPECT_EQ(ver["file"], "ss/" + f);
  }
  auto deep = get(q("verify", "ss/demo_v8_lzma.bld", "&deep=1"));
  EXPECT_EQ(deep->status, 200);
  EXPECT_TRUE(json_of(deep)["ok"].get<bool>());
}

TEST_F(ServeApi, NestedPathsAnyDepth) {
  // The disc folder's entries, and a container inside the igArchive: same JSON as the CLI's A::B.
  auto disc = get(q("list", "ss/warriors"));
  ASSERT_EQ(disc->status, 200);
  EXPECT_EQ(without_container(json_of(disc)), cli_json("list --json " + shell_quote((samples() / "warriors").string())));
  auto inner = get(q("list", "ss/warriors::%231"));  // "#1"
  ASSERT_EQ(inner->status, 200) << inner->body;
  EXPECT_EQ(without_container(json_of(inner)), cli_json("list --json " + shell_quote((samples() / "warriors").string() + "::#1")));
}

// "container" per entry of /api/list: whether the entry opens as a container of its own.
std::map<std::string, Json> container_flags(const Json& list) {
  std::map<std::string, Json> out;
  for (const auto& e : list["entries"]) out[e["name"].is_string() ? e["name"].get<std::string>() : "#" + e["index"].dump()] = e["container"];
  return out;
}

TEST_F(ServeApi, ListSaysWhichEntriesAreContainers) {
  // nest.pak as written in SetUpTestSuite: an igArchive and an igz are containers, text is not.
  auto flags = container_flags(json_of(get(q("list", "ss/nest.pak"))));
  ASSERT_EQ(flags.size(), 3u);
  EXPECT_EQ(flags["inner.bld"], true);
  EXPECT_EQ(flags["actors\\zap.igz"], true);
  EXPECT_EQ(flags["notes.txt"], false);
  // make-samples: demo_v8_lzma.bld's three members are text (JAPANESE.pak too: "language pack:
  // JAPANESE" lines); a TXD's textures and an Oni level's instances hold no files.
  for (const auto& [name, f] : container_flags(json_of(get(q("list", "ss/demo_v8_lzma.bld"))))) EXPECT_EQ(f, false) << name;
  for (const auto& [name, f] : container_flags(json_of(get(q("list", "ss/rw_ps2.txd"))))) EXPECT_EQ(f, false) << name;
  for (const auto& [name, f] : container_flags(json_of(get(q("list", "ss/level0_Final.dat"))))) EXPECT_EQ(f, false) << name;
  // The opened inner archive is the sample: JAPANESE.pak, levels.txt, readme.txt.
  auto inner = json_of(get(q("list", "ss/nest.pak::inner.bld")));
  ASSERT_EQ(inner["entries"].size(), 3u);
  EXPECT_EQ(inner["entries"][2]["name"], "readme.txt");
  auto readme = get(q("entry", "ss/nest.pak::inner.bld::readme.txt"));
  ASSERT_EQ(readme->status, 200);
  EXPECT_EQ(readme->body, "A demo igArchive made by assay's own writer.\n");
  // The disc folder: an entry is a container exactly when `assay list A::B` (a separate process)
  // opens it.
  const Json disc = json_of(get(q("list", "ss/warriors")));
  ASSERT_FALSE(disc["entries"].empty());
  int containers = 0;
  for (const auto& e : disc["entries"]) {
    const std::string step = "#" + e["index"].dump();
    const auto r = run_cli("list --json " + shell_quote((samples() / "warriors").string() + "::" + step));
    EXPECT_EQ(e["container"], r.exit_code == 0) << step << " " << r.err;
    containers += e["container"] == true;
  }
  EXPECT_GT(containers, 0);
}

TEST_F(ServeApi, StepsSpelledWithSlashFindBackslashNames) {
  // select= answers the index of the entry a step names, as the path lookup finds it.
  auto sel = [&](const std::string& archive, const std::string& step) {
    return json_of(get(q("list", archive, "&select=" + step)))["selected"];
  };
  // The entries' order is the archive's (its TOC is sorted by hash): look the index up by name.
  auto index_of = [&](const std::string& archive, const std::string& name) {
    const Json list = json_of(get(q("list", archive)));
    for (const auto& e : list["entries"])
      if (e["name"] == name) return e["index"];
    return Json(nullptr);
  };
  const Json zap = index_of("ss/nest.pak", "actors\\zap.igz");
  ASSERT_TRUE(zap.is_number());
  EXPECT_EQ(sel("ss/nest.pak", "actors/zap.igz"), zap);
  EXPECT_EQ(sel("ss/nest.pak", "ACTORS%5CZAP.IGZ"), zap);  // the archive folds case
  EXPECT_EQ(sel("ss/nest.pak", "notes.txt"), index_of("ss/nest.pak", "notes.txt"));
  EXPECT_EQ(sel("ss/nest.pak", "%230"), 0);  // #0
  EXPECT_TRUE(sel("ss/nest.pak", "nothing.txt").is_null());
  const Json strict_zap = index_of("ss/strict.pak", "actors\\zap.igz");
  ASSERT_TRUE(strict_zap.is_number());
  EXPECT_EQ(sel("ss/strict.pak", "actors/zap.igz"), strict_zap);  // a case-sensitive archive too
  EXPECT_TRUE(sel("ss/strict.pak", "ACTORS/ZAP.IGZ").is_null());
  EXPECT_FALSE(json_of(get(q("list", "ss/nest.pak"))).contains("selected"));
  // Paths through the entry open it, whichever separator they use.
  for (const std::string p : {"ss/nest.pak::actors/zap.igz", "ss/strict.pak::actors/zap.igz", "ss/strict.pak::actors%5Czap.igz"}) {
    auto r = get(q("list", p));
    ASSERT_EQ(r->status, 200) << p << " " << r->body;
    EXPECT_EQ(json_of(r)["format"], "igz") << p;
  }
  const auto igz = testing::read_file(samples() / "sample_v9_be.igz");
  EXPECT_EQ(get(q("entry", "ss/strict.pak::actors/zap.igz"))->body, std::string(igz.begin(), igz.end()));
}

TEST_F(ServeApi, EntryBytesAndRanges) {
  const auto disk = testing::read_file(samples() / "rw_ps2.txd");
  const std::string whole(disk.begin(), disk.end());
  auto all = get(q("entry", "ss/rw_ps2.txd"));
  ASSERT_EQ(all->status, 200);
  EXPECT_EQ(all->body, whole);
  EXPECT_EQ(all->get_header_value("Accept-Ranges"), "bytes");
  auto mid = get(q("entry", "ss/rw_ps2.txd"), {{"Range", "bytes=2-5"}});
  EXPECT_EQ(mid->status, 206);
  EXPECT_EQ(mid->body, whole.substr(2, 4));
  EXPECT_EQ(mid->get_header_value("Content-Range"), "bytes 2-5/" + std::to_string(whole.size()));
  auto tail = get(q("entry", "ss/rw_ps2.txd"), {{"Range", "bytes=-4"}});
  EXPECT_EQ(tail->status, 206);
  EXPECT_EQ(tail->body, whole.substr(whole.size() - 4));
  auto open_end = get(q("entry", "ss/rw_ps2.txd"), {{"Range", "bytes=" + std::to_string(whole.size() - 3) + "-"}});
  EXPECT_EQ(open_end->body, whole.substr(whole.size() - 3));
  auto clamp = get(q("entry", "ss/rw_ps2.txd"), {{"Range", "bytes=10-999999999"}});
  EXPECT_EQ(clamp->body, whole.substr(10));
  for (const std::string& bad : std::vector<std::string>{"bytes=" + std::to_string(whole.size()) + "-", "bytes=5-2", "bytes=-0", "items=0-1", "bytes=a-b"}) {
    auto r = get(q("entry", "ss/rw_ps2.txd"), {{"Range", bad}});
    ASSERT_TRUE(r) << bad;
    EXPECT_EQ(r->status, 416) << bad;
    EXPECT_EQ(r->body.find(whole.substr(0, 16)), std::string::npos) << bad;
  }
  // Past the end (RFC 9110 section 15.5.17): 416 with the size in Content-Range. (Malformed
  // headers are refused with 416 by the HTTP layer before any handler runs.)
  auto past = get(q("entry", "ss/rw_ps2.txd"), {{"Range", "bytes=" + std::to_string(whole.size()) + "-"}});
  EXPECT_EQ(past->get_header_value("Content-Range"), "bytes */" + std::to_string(whole.size()));
  EXPECT_TRUE(json_of(past).contains("error"));
  auto multi = get(q("entry", "ss/rw_ps2.txd"), {{"Range", "bytes=0-1,4-5"}});  // ignored: whole entry
  EXPECT_EQ(multi->status, 200);
  EXPECT_EQ(multi->body, whole);
  // An inner entry: readme.txt of the igArchive sample is what `assay extract` writes.
  testing::TempDir out;
  ASSERT_EQ(run_cli("extract " + shell_quote((samples() / "demo_v8_lzma.bld").string()) + " -o " + shell_quote(out.path().string())).exit_code, 0);
  const auto readme = testing::read_file(out / "readme.txt");
  auto r = get(q("entry", "ss/demo_v8_lzma.bld::readme.txt", "&download=1"));
  ASSERT_EQ(r->status, 200);
  EXPECT_EQ(r->body, std::string(readme.begin(), readme.end()));
  EXPECT_EQ(r->get_header_value("Content-Disposition"), "attachment; filename=\"readme.txt\"");
  // An entry of the disc folder: its bytes are the WAD's at the offset and size the list gives.
  const Json disc = cli_json("list --json " + shell_quote((samples() / "warriors").string()));
  const Json& e12 = disc["entries"][12];
  const auto wad = testing::read_file(samples() / "warriors" / "WARRIORS.WAD");
  auto w = get(q("entry", "ss/warriors::%2312"));
  ASSERT_EQ(w->status, 200) << w->body;
  EXPECT_EQ(w->body, std::string(wad.begin() + e12["offset"].get<long>(),
                                 wad.begin() + e12["offset"].get<long>() + e12["size"].get<long>()));
  EXPECT_EQ(get(q("entry", "ss/warriors"))->status, 400);  // a folder has no bytes
  // A large decoded entry (81209 bytes of levels.txt) arrives whole, streamed in chunks.
  auto big = get(q("entry", "ss/demo_v8_lzma.bld::levels.txt"));
  EXPECT_EQ(big->body.size(), 81209u);
}

TEST_F(ServeApi, TexturePngMatchesExtract) {
  testing::TempDir out;
  ASSERT_EQ(run_cli("extract " + shell_quote((samples() / "rw_ps2.txd").string()) + " -o " + shell_quote(out.path().string())).exit_code, 0);
  for (const std::string name : {"checker_pal4", "ramp_pal8"}) {
    auto r = get(q("texture", "ss/rw_ps2.txd::" + name));
    ASSERT_EQ(r->status, 200) << r->body;
    EXPECT_EQ(r->get_header_value("Content-Type"), "image/png");
    auto served = image::decode_png(ByteView(reinterpret_cast<const std::uint8_t*>(r->body.data()), r->body.size()));
    ASSERT_TRUE(served);
    const auto file = testing::read_file(out / (name + ".png"));
    auto extracted = image::decode_png(file);
    ASSERT_TRUE(extracted);
    EXPECT_EQ(served->width, extracted->width);
    EXPECT_EQ(served->height, extracted->height);
    EXPECT_TRUE(served->pixels == extracted->pixels) << name;
  }
  // ramp_pal8 is 64x64 with 2 mips (make-samples): mip 1 is 32x32, mip 5 does not exist.
  auto m1 = get(q("texture", "ss/rw_ps2.txd::ramp_pal8", "&mip=1"));
  ASSERT_EQ(m1->status, 200);
  auto img = image::decode_png(ByteView(reinterpret_cast<const std::uint8_t*>(m1->body.data()), m1->body.size()));
  ASSERT_TRUE(img);
  EXPECT_EQ(img->width, 32u);
  EXPECT_EQ(img->height, 32u);
  auto m5 = get(q("texture", "ss/rw_ps2.txd::ramp_pal8", "&mip=5"));
  EXPECT_GE(m5->status, 400);
  EXPECT_LT(m5->status, 500);
  EXPECT_TRUE(json_of(m5).contains("error"));
  EXPECT_EQ(get(q("texture", "ss/rw_ps2.txd::ramp_pal8", "&mip=x"))->status, 400);
  EXPECT_EQ(get(q("texture", "ss/rw_ps2.txd"))->status, 400);  // no entry named
}

// The model entry of make-samples' rw_model.dff (one clump of 2 frames "root" and "body", one
// 4-vertex geometry): the GLB is what `assay extract` writes for it, and glTF 2.0 by its header.
TEST_F(ServeApi, ModelIsTheExtractedGlb) {
  testing::TempDir out;
  ASSERT_EQ(run_cli("extract " + shell_quote((samples() / "rw_model.dff").string()) + " -o " + shell_quote(out.path().string())).exit_code, 0);
  auto r = get(q("model", "ss/rw_model.dff::rw_model"));
  ASSERT_EQ(r->status, 200) << r->body;
  EXPECT_EQ(r->get_header_value("Content-Type"), "model/gltf-binary");
  const auto file = testing::read_file(out / "rw_model.glb");
  EXPECT_EQ(r->body, std::string(file.begin(), file.end()));
  // GLB header (glTF 2.0 spec, "Binary glTF Layout"): magic "glTF", version 2, total length.
  ASSERT_GE(r->body.size(), 20u);
  const auto u32 = [&](std::size_t at) {
    std::uint32_t v = 0;
    for (int i = 3; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(r->body[at + i]);
    return v;
  };
  EXPECT_EQ(r->body.substr(0, 4), "glTF");
  EXPECT_EQ(u32(4), 2u);
  EXPECT_EQ(u32(8), r->body.size());
  const Json gltf = Json::parse(r->body.substr(20, u32(12)));
  std::set<std::string> names;
  for (const Json& n : gltf["nodes"]) names.insert(n.value("name", ""));
  EXPECT_TRUE(names.count("root") && names.count("body")) << gltf["nodes"].dump();
  // Path addressing and errors as the other routes: by #INDEX, not a model, no entry, no file.
  EXPECT_EQ(get(q("model", "ss/rw_model.dff::%231"))->body, r->body);
  auto atomic = get(q("model", "ss/rw_model.dff::%230"));
  EXPECT_EQ(atomic->status, 422);
  EXPECT_EQ(json_of(atomic)["error"]["kind"], "unsupported");
  auto tex = get(q("model", "ss/rw_ps2.txd::ramp_pal8"));
  EXPECT_EQ(tex->status, 422);
  EXPECT_EQ(get(q("model", "ss/rw_model.dff"))->status, 400);
  EXPECT_EQ(json_of(get(q("model", "ss/rw_model.dff::nothing")))["error"]["kind"], "io");
  EXPECT_EQ(get(q("model", "ss/none.dff::x"))->status, 404);
  EXPECT_EQ(get("/api/model?path=ss/rw_model.dff::rw_model")->status, 401);
}

TEST_F(ServeApi, TraversalInManySpellingsIsRefused) {
  const std::vector<std::string> attempts = {
      "..%2Fsecret.txt", "ss%2F..%2Fsecret.txt", "ss/../secret.txt", "ss/%2e%2e/secret.txt", "ss%2F%2E%2E%2Fsecret.txt",
      "ss/%252e%252e/secret.txt", "%2Fetc%2Fpasswd", "/etc/passwd", tmp_->path().string() + "/secret.txt",
      "ss/link_out.txt", "ss/linkdir_out/secret.txt", "ss/linkdir_out", "ss%5C..%5Csecret.txt", "ss/..%5Csecret.txt",
      "ss/x%00/../../secret.txt", "ss%00/../secret.txt", "ss/./../secret.txt", "ss//..//secret.txt", "ss/rw_ps2.txd::..",
      "ss/rw_ps2.txd::..%2F..%2Fsecret.txt", "ss::..%2Fsecret.txt", "secret.txt", ".", "..", "", "ss/warriors/..%2F..%2Fsecret.txt"};
  for (const std::string endpoint : {"entry", "list", "dir", "info"})
    for (const auto& a : attempts) {
      auto r = get(q(endpoint, a));
      ASSERT_TRUE(r) << endpoint << " " << a;
      EXPECT_TRUE(r->status == 400 || r->status == 403 || r->status == 404 || r->status == 422) << endpoint << " " << a << " " << r->status << r->body;
      EXPECT_EQ(r->body.find(kSecret), std::string::npos) << endpoint << " " << a;
      EXPECT_TRUE(json_of(r).contains("error")) << endpoint << " " << a;
    }
  EXPECT_EQ(get(q("entry", "ss/../secret.txt"))->status, 403);
  EXPECT_EQ(get(q("entry", "ss/link_out.txt"))->status, 403);
  EXPECT_EQ(get(q("entry", "%2Fetc%2Fpasswd"))->status, 403);
  EXPECT_EQ(get(q("entry", "ss/nothing-here"))->status, 404);
}

TEST_F(ServeApi, CorruptFileIsAJsonError) {
  for (const std::string ep : {"list", "info", "verify"}) {
    auto r = get(q(ep, "ss/junk.bin"));
    ASSERT_TRUE(r);
    EXPECT_EQ(r->status, 422) << ep;
    EXPECT_NE(json_of(r)["error"]["message"].get<std::string>().find("unrecognised"), std::string::npos) << r->body;
  }
  // The cut TXD: whatever step fails, it is a 4xx with a message naming a structure or offset,
  // or a verify report with errors; never a hang (the client's timeout) or a 5xx.
  for (const std::string ep : {"list", "info", "verify"}) {
    auto r = get(q(ep, "ss/cut.txd"));
    ASSERT_TRUE(r) << ep;
    EXPECT_LT(r->status, 500) << ep;
    const Json j = json_of(r);
    if (r->status == 200) {
      if (ep == "verify") {
        EXPECT_FALSE(j["ok"].get<bool>());
      }
    } else {
      EXPECT_GE(r->status, 400);
      EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
    }
  }
  auto tex = get(q("texture", "ss/cut.txd::ramp_pal8"));
  ASSERT_TRUE(tex);
  EXPECT_GE(tex->status, 400);
  EXPECT_LT(tex->status, 500);
}

TEST_F(ServeApi, VerifyNamesTheFlippedByte) {
  auto r = get(q("verify", "ss/flipped.bld"));
  ASSERT_EQ(r->status, 200) << r->body;
  const Json j = json_of(r);
  EXPECT_FALSE(j["ok"].get<bool>());
  bool found = false;
  for (const auto& p : j["problems"]) found = found || (p["severity"] == "error" && p["offset"] == 100);
  EXPECT_TRUE(found) << j.dump();
  // Reading the broken member is a 422 with the reader's message, not a hang or a crash.
  // (The member is named: an archive read as cut may list only its intact members.)
  auto e = get(q("entry", "ss/flipped.bld::JAPANESE.pak"));
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->status == 422 || e->status == 404) << e->status << " " << e->body;
  EXPECT_FALSE(json_of(e)["error"]["message"].get<std::string>().empty());
}

TEST_F(ServeApi, IgzGraphIsTheDump) {
  auto r = get(q("igz", "ss/sample_v9_be.igz"));
  ASSERT_EQ(r->status, 200) << r->body;
  const Json dump = cli_json("igz dump --json " + shell_quote((samples() / "sample_v9_be.igz").string()));
  EXPECT_EQ(json_of(r)["objects"], dump["objects"]);
  EXPECT_EQ(json_of(r)["objects"][0]["type"], "igObjectList");
  EXPECT_EQ(get(q("igz", "ss/rw_ps2.txd"))->status, 422);
}

TEST_F(ServeApi, OniInstanceLinks) {
  // make-samples' level1_X.dat: ZLSTlist links ZANMwalk (a placeholder here, data in level 0),
  // ZANMlevel1_only, ZANMmissing and TXMPbrick.
  auto r = get(q("oni", "ss/level1_X.dat::ZLSTlist"));
  ASSERT_EQ(r->status, 200) << r->body;
  const Json j = json_of(r);
  std::map<std::string, Json> by_name;
  for (const auto& l : j["links"]) by_name[l["name"].get<std::string>()] = l;
  ASSERT_EQ(by_name.size(), 4u) << j.dump();
  EXPECT_EQ(by_name["ZANMwalk"]["path"], "ss/level0_Final.dat::ZANMwalk");
  // TXMPbrick has data in both levels: level 0's copy wins (spec: oni.md#oni-7-1, rule 2: the first
  // loaded file with data for the name; level 0 loads first)
  EXPECT_EQ(by_name["TXMPbrick"]["path"], "ss/level0_Final.dat::TXMPbrick");
  EXPECT_EQ(by_name["ZANMlevel1_only"]["path"], "ss/level1_X.dat::#1");  // level 0 has only a placeholder
  EXPECT_TRUE(by_name["ZANMmissing"]["path"].is_null());                 // data nowhere
  EXPECT_EQ(by_name["TXMPbrick"]["tag"], "TXMP");
  // The link target opens (across files).
  EXPECT_EQ(get(q("info", "ss/level0_Final.dat"))->status, 200);
  auto walk = get(q("entry", "ss/level0_Final.dat::ZANMwalk"));
  EXPECT_EQ(walk->status, 200);
  EXPECT_EQ(get(q("oni", "ss/level1_X.dat"))->status, 400);
}

TEST_F(ServeApi, WarriorsLoadTraceIsTheCli) {
  auto r = get(q("warriors", "ss/warriors_level1.lev"));
  ASSERT_EQ(r->status, 200) << r->body;
  const Json cli = cli_json("warriors load --json " + shell_quote((samples() / "warriors_level1.lev").string()));
  EXPECT_EQ(json_of(r)["chunks"], cli["chunks"]);
  EXPECT_EQ(json_of(r)["chunk_counts"], cli["chunk_counts"]);
  EXPECT_EQ(json_of(r)["ok"], cli["ok"]);
  auto disc = get(q("warriors", "ss/warriors::%230"));
  ASSERT_TRUE(disc);
  EXPECT_TRUE(disc->status == 200 || disc->status == 422) << disc->body;
}

TEST_F(ServeApi, PageIsServed) {
  auto page = get("/?token=" + server_->token());
  ASSERT_EQ(page->status, 200);
  EXPECT_NE(page->body.find("<script src=\"app.js?token=" + server_->token() + "\""), std::string::npos);
  EXPECT_NE(page->body.find("href=\"style.css?token=" + server_->token() + "\""), std::string::npos);
  EXPECT_EQ(page->get_header_value("X-Content-Type-Options"), "nosniff");
  EXPECT_NE(page->get_header_value("Content-Security-Policy").find("default-src 'self'"), std::string::npos);
  EXPECT_EQ(get("/app.js")->status, 401);
  auto js = get("/app.js?token=" + server_->token());
  EXPECT_EQ(js->status, 200);
  EXPECT_NE(js->get_header_value("Content-Type").find("javascript"), std::string::npos);
  EXPECT_EQ(get("/nothing.js?token=" + server_->token())->status, 404);
}

// The Model tab's modules: model.js and three.js (Debian's libjs-three, embedded) import each
// other with the token filled in, and need it like every other file.
TEST_F(ServeApi, ModelModulesCarryTheToken) {
  const std::string tok = "?token=" + server_->token();
  for (const std::string f : {"/model.js", "/vendor/three/three.module.js", "/vendor/three/GLTFLoader.js",
                              "/vendor/three/OrbitControls.js"}) {
    EXPECT_EQ(get(f)->status, 401) << f;
    auto r = get(f + tok);
    ASSERT_EQ(r->status, 200) << f;
    EXPECT_NE(r->get_header_value("Content-Type").find("javascript"), std::string::npos) << f;
    EXPECT_EQ(r->body.find("__ASSAY_TOKEN__"), std::string::npos) << f;
    EXPECT_EQ(r->body.find("../build/three.module.js"), std::string::npos) << f;
  }
  EXPECT_NE(get("/vendor/three/three.module.js" + tok)->body.find("REVISION"), std::string::npos);
  for (const std::string f : {"/model.js", "/vendor/three/GLTFLoader.js", "/vendor/three/OrbitControls.js"})
    EXPECT_NE(get(f + tok)->body.find("three.module.js" + tok + "\""), std::string::npos) << f;
}

}  // namespace
}  // namespace assay::serve
