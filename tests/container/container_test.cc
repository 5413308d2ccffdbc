// The container model's API over every family: entries, find (names, aliases, #INDEX), read,
// open to any depth, texture, verify, verify_deep. Facts come from the inputs our own writers
// were given (the bytes packed, the names, the image sizes), not from the reader's output.
#include <gtest/gtest.h>

#include <ctime>

#include <fmt/format.h>

#include <chrono>

#include "assay/container.h"
#include "assay/formats/igarchive/extract.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/igz/writer.h"
#include "assay/formats/warriors/samples.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "testing/testing.h"
#include "testing/families.h"
#include "formats/serialise.h"

namespace assay {
namespace {

namespace fs = std::filesystem;

Input buffer_input(const std::string& name, const ByteBuffer& b) { return Input::from_buffer(name, b); }

ByteBuffer igarchive_of(const std::vector<std::pair<std::string, ByteBuffer>>& files, std::uint32_t flags = 0) {
  std::vector<igarchive::WriterFile> w;
  for (const auto& [n, d] : files) w.push_back({.name = n, .data = d});
  igarchive::WriterOptions o;
  o.flags = flags;
  auto a = igarchive::write_archive(w, o);
  EXPECT_TRUE(a.ok());
  return a.ok() ? *a : ByteBuffer{};
}

TEST(Container, IgArchiveEntriesReadBackTheFilesPacked) {
  for (const auto& [file, spec] : igarchive::sample_archives()) {
    SCOPED_TRACE(file);
    auto bytes = igarchive::write_archive(spec.second, spec.first);
    ASSERT_TRUE(bytes.ok());
    auto c = open(buffer_input(file, *bytes));
    ASSERT_TRUE(c.ok()) << c.error().str();
    EXPECT_EQ((*c)->format(), "igarchive");
    ASSERT_EQ((*c)->entries().size(), spec.second.size());
    for (const igarchive::WriterFile& w : spec.second) {
      const Entry* e = (*c)->find(w.name);
      ASSERT_NE(e, nullptr) << w.name;
      EXPECT_EQ(e->path, w.name);
      EXPECT_EQ(e->size, w.data.size());
      EXPECT_EQ((*c)->find("#" + std::to_string(e->index)), e);
      auto r = (*c)->read(*e);
      ASSERT_TRUE(r.ok()) << r.error().str();
      EXPECT_TRUE(std::equal(r->bytes.begin(), r->bytes.end(), w.data.begin(), w.data.end())) << w.name;
      if (w.compression == igarchive::Compression::stored) EXPECT_EQ(e->stored_size, w.data.size());
    }
    Diagnostics d;
    (*c)->verify(d);
    EXPECT_FALSE(d.has_errors());
  }
}

TEST(Container, IgArchiveFindFollowsTheCaseFlag) {
  const ByteBuffer data = {1, 2, 3};
  const ByteBuffer a = igarchive_of({{"Levels/One.txt", data}}, igarchive::kFlagCaseInsensitive);
  auto c = open(buffer_input("ci.arc", a));
  ASSERT_TRUE(c.ok());
  EXPECT_NE((*c)->find("levels/one.txt"), nullptr);  // spec: alchemy.md#iga-hash: lowercased before hashing
  EXPECT_EQ((*c)->find("levels/two.txt"), nullptr);
  EXPECT_EQ((*c)->find("#1"), nullptr);
  const ByteBuffer b = igarchive_of({{"Levels/One.txt", data}});
  auto cs = open(buffer_input("cs.arc", b));
  ASSERT_TRUE(cs.ok());
  EXPECT_EQ((*cs)->find("levels/one.txt"), nullptr);  // case-sensitive archive
}

// outer.arc holds inner.bld holds x.igz: A::B::C by path and by Container::open.
TEST(Container, NestedPathsToAnyDepth) {
  auto igz = igz::build_sample({9, Endian::big, 9});
  ASSERT_TRUE(igz.ok());
  const ByteBuffer inner = igarchive_of({{"x.igz", *igz}, {"note.txt", {'h', 'i'}}});
  const ByteBuffer outer = igarchive_of({{"inner.bld", inner}});
  testing::TempDir t;
  testing::write_file(t / "outer.arc", outer);
  auto c = open_path((t / "outer.arc").string() + "::inner.bld::x.igz");
  ASSERT_TRUE(c.ok()) << c.error().str();
  EXPECT_EQ((*c)->format(), "igz");
  EXPECT_EQ((*c)->input().bytes.size(), igz->size());
  ASSERT_FALSE((*c)->entries().empty());
  for (const Entry& e : (*c)->entries()) {
    EXPECT_EQ(e.kind, assay::EntryKind::object);
    if (!e.size) continue;
    auto r = (*c)->read(e);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->bytes.size(), *e.size);
    EXPECT_EQ(r->bytes.data(), (*c)->input().bytes.data() + *e.offset);  // a view, not a copy
  }
  // the same through Container::open, one level at a time
  auto o = open_path((t / "outer.arc").string());
  ASSERT_TRUE(o.ok());
  auto i = (*o)->open(*(*o)->find("inner.bld"));
  ASSERT_TRUE(i.ok());
  EXPECT_EQ((*i)->entries().size(), 2u);
  auto x = (*i)->open(*(*i)->find("x.igz"));
  ASSERT_TRUE(x.ok());
  EXPECT_EQ((*x)->entries().size(), (*c)->entries().size());
  // a missing step names itself; a text file is not a container
  auto bad = open_path((t / "outer.arc").string() + "::inner.bld::y.igz");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("'y.igz'"), std::string::npos);
  EXPECT_EQ(bad.error().kind, ErrorKind::usage);
  auto txt = (*i)->open(*(*i)->find("note.txt"));
  ASSERT_FALSE(txt.ok());
  EXPECT_EQ(txt.error().message, "unrecognised file format");
}

class WarriorsContainer : public ::testing::Test {
 protected:
  void SetUp() override {
    entries = warriors::samples::disc_entries();
    const warriors::DiscImage img = warriors::samples::disc(entries);
    fs::create_directories(t / "disc");
    testing::write_file(t / "disc" / "WARRIORS.DIR", img.dir);
    testing::write_file(t / "disc" / "WARRIORS.WAD", img.wad);
    std::string names;
    for (const auto& e : entries) names += e.name + "\n";
    testing::write_file(t / "names.txt", ByteView(reinterpret_cast<const std::uint8_t*>(names.data()), names.size()));
    opt.names_files = {(t / "names.txt").string()};
  }
  testing::TempDir t;
  std::vector<warriors::samples::SampleEntry> entries;
  ContainerOptions opt;
};

TEST_F(WarriorsContainer, DiscEntriesNamesAndHashSpellings) {
  auto c = open_path((t / "disc").string(), opt);
  ASSERT_TRUE(c.ok()) << c.error().str();
  ASSERT_EQ((*c)->entries().size(), entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& e = (*c)->entries()[i];
    EXPECT_EQ(e.name, entries[i].name);
    EXPECT_EQ(e.kind_name(), warriors::to_string(entries[i].kind));
    auto r = (*c)->read(e);
    ASSERT_TRUE(r.ok());
    EXPECT_TRUE(std::equal(r->bytes.begin(), r->bytes.end(), entries[i].data.begin(), entries[i].data.end()));
    // spec: warriors.md#wr-2-2: crc32 of the normalised name; any case and "./" find the row
    const std::uint32_t h = warriors::name_hash(entries[i].name);
    EXPECT_EQ((*c)->find(fmt::format("0x{:08x}", h)), &e);
    EXPECT_EQ((*c)->find(fmt::format("{:08x}.bin", h)), &e);
  }
  // without names: no name, and the hash is the file name
  auto bare = open_path((t / "disc").string());
  ASSERT_TRUE(bare.ok());
  EXPECT_FALSE((*bare)->entries()[0].name.has_value());
  EXPECT_EQ((*bare)->entries()[0].path, fmt::format("{:08x}.bin", warriors::name_hash(entries[0].name)));
  EXPECT_NE((*bare)->find(entries[0].name), nullptr);  // a name is hashed even when not listed
}

TEST_F(WarriorsContainer, DiscLevelChunkRenderWareThreeLevelsDown) {
  // level1.lev: the 18 chunks of spec warriors.md#wr-6-3, 0x53 first and 0x51 last
  auto lev = open_path((t / "disc").string() + "::level1.lev", opt);
  ASSERT_TRUE(lev.ok()) << lev.error().str();
  ASSERT_EQ((*lev)->entries().size(), 18u);
  EXPECT_EQ(details_json(**lev, (*lev)->entries()[0])["type"], 0x53);
  EXPECT_EQ(details_json(**lev, (*lev)->entries()[17])["type"], 0x51);
  bool found_rw = false;
  for (const Entry& e : (*lev)->entries()) {
    auto inner = (*lev)->open(e);
    if (inner.ok() && (*inner)->format() == "renderware") found_rw = true;
  }
  EXPECT_TRUE(found_rw);
  auto rw = open_path((t / "disc").string() + "::LEVEL1.LEV::0002_47.bin", opt);  // any case (hashed)
  ASSERT_TRUE(rw.ok()) << rw.error().str();
  EXPECT_EQ((*rw)->format(), "renderware");
}

TEST(Container, RenderWareTexturesDecodeAtTheirSizes) {
  testing::TempDir t;
  ASSERT_TRUE(kRenderWareFamily.write_samples(t.path()).ok());
  auto c = open_path((t / "rw_ps2.txd").string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  ASSERT_EQ((*c)->entries().size(), 2u);
  // write_samples: checker_pal4 32x32 one level, ramp_pal8 64x64 + 32x32
  const Entry* pal4 = (*c)->find("checker_pal4");
  const Entry* pal8 = (*c)->find("ramp_pal8");
  ASSERT_TRUE(pal4 && pal8);
  EXPECT_EQ(pal4->path, "checker_pal4.png");
  EXPECT_EQ(pal8->kind, assay::EntryKind::texture);
  auto img = (*c)->texture(*pal8, 1);
  ASSERT_TRUE(img.ok()) << img.error().str();
  EXPECT_EQ(img->width, 32u);
  EXPECT_EQ(img->pixels.size(), 32u * 32u * 4u);
  auto top = (*c)->texture(*pal4, 0);
  ASSERT_TRUE(top.ok());
  EXPECT_EQ(top->width, 32u);
  auto sec = (*c)->read(*pal4);  // the texture native section: id 0x15 (spec: renderware.md)
  ASSERT_TRUE(sec.ok());
  EXPECT_EQ(load<std::uint32_t>(sec->bytes.data(), Endian::little), 0x15u);
  EXPECT_EQ(sec->bytes.size(), 12u + load<std::uint32_t>(sec->bytes.data() + 4, Endian::little));
  // a clump's atomics have no bytes of their own
  auto dff = open_path((t / "rw_model.dff").string());
  ASSERT_TRUE(dff.ok());
  ASSERT_FALSE((*dff)->entries().empty());
  EXPECT_EQ((*dff)->entries()[0].kind, assay::EntryKind::atomic);
  EXPECT_FALSE((*dff)->read((*dff)->entries()[0]).ok());
  EXPECT_FALSE((*dff)->texture((*dff)->entries()[0]).ok());
}

TEST(Container, OniInstancesByFullName) {
  testing::TempDir t;
  ASSERT_TRUE(kOniFamily.write_samples(t.path()).ok());
  auto c = open_path((t / "level0_Final.dat").string());
  ASSERT_TRUE(c.ok()) << c.error().str();
  const Entry* e = (*c)->find("ZTEXbrick");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(details_json(**c, *e)["tag"], "ZTEX");
  ASSERT_TRUE(e->size.has_value());
  auto r = (*c)->read(*e);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->bytes.size(), *e->size);
  const Entry& unnamed = (*c)->entries()[2];  // spec: oni.md#oni-3-6 flag 1: unnamed
  EXPECT_FALSE(unnamed.name.has_value());
  EXPECT_TRUE(unnamed.path.empty());
}

TEST(Container, OptionsParseSizesOnce) {
  EXPECT_EQ(*parse_size("1M"), 1u << 20);
  EXPECT_EQ(*parse_size("64K"), 64u << 10);
  EXPECT_EQ(*parse_size("2GiB"), std::uint64_t{2} << 30);
  EXPECT_EQ(*parse_size("4096"), 4096u);
  EXPECT_FALSE(parse_size("1X").ok());
  EXPECT_FALSE(parse_size("M").ok());
  EXPECT_FALSE(parse_size("99999999999999G").ok());
  ReadOptions ro;
  ro.family["igarchive-max-member"] = "1M";
  ro.family["igz-pointer-size"] = "8";
  auto o = container_options(ro);
  ASSERT_TRUE(o.ok());
  EXPECT_EQ(o->igarchive.member_cap, 1u << 20);
  EXPECT_EQ(o->igz.pointer_size, 8u);
  EXPECT_EQ(o->read_options().family.at("igarchive-max-member"), std::to_string(1u << 20));
  ro.family["igz-pointer-size"] = "6";
  EXPECT_EQ(container_options(ro).error().kind, ErrorKind::usage);
}

TEST(Container, SerialiserNormalises) {
  Json j = {{"big", (std::uint64_t{1} << 53) + 1}, {"ok", std::uint64_t{1} << 53}, {"neg", -(std::int64_t{1} << 60)},
            {"empty", ""}, {"nested", {{"s", ""}}}};
  const Json n = normalise_json(j);
  EXPECT_EQ(n["big"], "0x20000000000001");
  EXPECT_EQ(n["ok"], std::uint64_t{1} << 53);
  EXPECT_EQ(n["neg"], "-0x1000000000000000");
  EXPECT_TRUE(n["empty"].is_null());
  EXPECT_TRUE(n["nested"]["s"].is_null());
  Diagnostic d{Severity::warning, make_error("warriors", "level", 0x20, "V13: chunk order differs")};
  const Json p = problem_json(d);
  EXPECT_EQ(p["code"], "V13");
  EXPECT_EQ(p["offset"], 0x20);
  EXPECT_EQ(problem_json({Severity::note, make_error("x", "", kNoOffset, "no code here")})["code"], "x.file");
  EXPECT_TRUE(problem_json({Severity::note, make_error("", "", kNoOffset, "no family")})["code"].is_null());
}

// verify --deep reports each inner file's problems under its name, once; and its time per inner
// file does not grow with the number of files (the old path re-parsed the archive per file).
ByteBuffer deep_archive(std::uint32_t files, std::uint32_t bad) {
  std::vector<std::pair<std::string, ByteBuffer>> v;
  auto igz = igz::build_sample({9, Endian::big, 9});
  for (std::uint32_t i = 0; i < files; ++i) {
    ByteBuffer b = *igz;
    if (i == bad) b.resize(b.size() / 2);  // truncated: an error inside this one
    v.emplace_back(fmt::format("f/{:05}.igz", i), std::move(b));
  }
  return igarchive_of(v);
}

TEST(Container, DeepVerifyNamesTheBrokenInnerFile) {
  const ByteBuffer a = deep_archive(20, 7);
  auto c = open(buffer_input("deep.bld", a));
  ASSERT_TRUE(c.ok());
  Diagnostics d;
  verify_deep(**c, d, DeepOptions{1, 2, false});
  ASSERT_TRUE(d.has_errors());
  for (const auto& x : d.items())
    if (x.severity == Severity::error) {
      EXPECT_EQ(x.where.structure.rfind("f/00007.igz", 0), 0u) << x.where.structure;
    }
}

// One deep verify (one thread) of an archive of inner igz files, in seconds of this process's CPU
// time: other processes on a loaded machine stretch wall time, not CPU time.
double seconds_for_deep(const ByteBuffer& a) {
  const auto cpu = [] {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + ts.tv_nsec * 1e-9;
  };
  const double t0 = cpu();
  auto c = open(buffer_input("deep.bld", a));
  Diagnostics d;
  verify_deep(**c, d, DeepOptions{1, 1, false});
  EXPECT_FALSE(d.has_errors());
  return cpu() - t0;
}

TEST(Container, DeepVerifyTimeIsLinearInInnerFiles) {
  const std::uint32_t n = 300;
  const ByteBuffer small = deep_archive(n, ~0u), large = deep_archive(4 * n, ~0u);
  double t1 = 1e9, t4 = 1e9;
  for (int rep = 0; rep < 6; ++rep)  // interleaved, best of each: a busy stretch hits both sizes
    t1 = std::min(t1, seconds_for_deep(small)), t4 = std::min(t4, seconds_for_deep(large));
  const double ratio = (t4 / (4 * n)) / (t1 / n);  // time per inner file at 4N over N: 1 when linear
  std::printf("deep verify: %.3f s for %u inner files, %.3f s for %u: per-file ratio %.2f\n", t1, n, t4, 4 * n, ratio);
  EXPECT_LT(ratio, 1.8);  // the per-file re-open measured 2.5 (bench_container_deep)
}

}  // namespace
}  // namespace assay
