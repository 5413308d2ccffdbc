// Oni SNDD sounds (issue 27) against the goldens in ../shared/goldens/oni/sounds (README there):
// levels OniSplit built from FFmpeg-encoded MS ADPCM (PC), IMA4 (Mac/sep) and PCM, each sound's
// stored fields in json/, and FFmpeg 5.1's decode of the very bytes stored in ref_pcm/. Every
// sound decodes to exactly FFmpeg's samples; the list details equal the stored fields; verify is
// clean; a damaged record or cut data is an error, never a crash; the WAV (and the --adpcm WAV /
// AIFC) read back through Debian's ffmpeg to the same samples.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "assay/audio/adpcm.h"
#include "assay/container.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/oni/sound.h"
#include "assay/ops.h"
#include "testing/testing.h"
#include "formats/serialise.h"

namespace assay::oni {
namespace {

namespace fs = std::filesystem;

struct Golden {
  std::string level;  // GameDataFolder or GameDataFolder_sep
  Json json;
};

std::vector<Golden> goldens(const fs::path& dir) {
  std::vector<Golden> out;
  for (const auto& f : fs::directory_iterator(dir / "json")) {
    const std::string n = f.path().filename().string();
    if (n.find("__SNDD") == std::string::npos) continue;
    const ByteBuffer b = testing::read_file(f.path());
    out.push_back({n.substr(0, n.find("__")), Json::parse(b.begin(), b.end())});
  }
  return out;
}

ByteBuffer pcm_bytes(const std::vector<std::int16_t>& pcm) {
  ByteBuffer b(pcm.size() * 2);
  for (std::size_t k = 0; k < pcm.size(); ++k) b[2 * k] = static_cast<std::uint8_t>(pcm[k]), b[2 * k + 1] = static_cast<std::uint8_t>(pcm[k] >> 8);
  return b;
}

const Entry* find(const Container& c, const std::string& name) {
  for (const Entry& e : c.entries())
    if (e.name == name) return &e;
  return nullptr;
}

TEST(OniSound, EverySnddDecodesToFfmpegsSamples) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  const auto all = goldens(dir);
  ASSERT_EQ(all.size(), 9u);
  for (const char* level : {"GameDataFolder", "GameDataFolder_sep"}) {
    auto c = open_path((dir / level / "level0_Final.dat").string());
    ASSERT_TRUE(c.ok()) << c.error().str();
    for (const Golden& g : all) {
      if (g.level != level) continue;
      const Json& st = g.json["stored"];
      const Json& ref = g.json["reference_pcm"];
      const Entry* e = find(**c, st["name"]);
      ASSERT_NE(e, nullptr) << st["name"];
      SCOPED_TRACE(*e->name);
      EXPECT_EQ(e->kind, assay::EntryKind::sound);
      const Json details = details_json(**c, *e);
      EXPECT_EQ(details["channels"], st["channels"]);
      EXPECT_EQ(details["rate"], ref["rate"]);
      EXPECT_EQ(details["frames"], ref["frames"]);
      EXPECT_EQ(details["data_size"], st["data_size"]);
      EXPECT_EQ(details["duration_ticks"], st["duration_ticks"]);
      const std::string codec = level == std::string("GameDataFolder_sep") ? "ima4" : st["format_tag"] == 1 ? "pcm" : "ms_adpcm";
      EXPECT_EQ(details["codec"], codec);
      if (codec == "ms_adpcm") {
        EXPECT_EQ(details["block_align"], st["block_align"]);
      }
      auto s = (*c)->sound(*e);
      ASSERT_TRUE(s.ok()) << s.error().str();
      EXPECT_EQ(s->rate, ref["rate"].get<std::uint32_t>());
      EXPECT_EQ(s->channels, ref["channels"].get<std::uint16_t>());
      EXPECT_EQ(s->frames(), ref["frames"].get<std::uint64_t>());
      EXPECT_TRUE(pcm_bytes(s->pcm) == testing::read_file(dir / ref["file"].get<std::string>())) << "differs from FFmpeg's decode";
    }
  }
}

// `extract` (default: NAME.oni, the data in the file's raw block) keeps the sound: the .oni
// decodes to FFmpeg's samples too.
TEST(OniSound, ExtractedOniFileKeepsTheSound) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  testing::TempDir t;
  for (const char* level : {"GameDataFolder", "GameDataFolder_sep"}) {
    auto x = testing::run_cli("extract " + testing::quote_path(dir / level / "level0_Final.dat") + " -o " + testing::quote_path(t / level) + " 'SNDDnoise*'");
    ASSERT_EQ(x.exit_code, 0) << x.err;
    auto c = open_path((t / level / "SNDDnoise_s22.oni").string());
    ASSERT_TRUE(c.ok()) << c.error().str();
    const Entry* e = find(**c, "SNDDnoise_s22");
    ASSERT_NE(e, nullptr);
    ASSERT_EQ(e->kind, assay::EntryKind::sound);
    auto s = (*c)->sound(*e);
    ASSERT_TRUE(s.ok()) << s.error().str();
    const char* ref = level == std::string("GameDataFolder") ? "ref_pcm/noise_s22.pcm" : "ref_pcm/ima4_noise_s22.pcm";
    EXPECT_TRUE(pcm_bytes(s->pcm) == testing::read_file(dir / ref)) << level;
  }
}

TEST(OniSound, OtherEntriesHaveNoSound) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/GameDataFolder/level0_Final.dat");
  auto c = open_path(dir.string());
  ASSERT_TRUE(c.ok());
  const Entry* osbd = find(**c, "OSBDgrp_sine");
  ASSERT_NE(osbd, nullptr);
  EXPECT_NE(osbd->kind, assay::EntryKind::sound);
  EXPECT_FALSE((*c)->sound(*osbd).ok());
}

TEST(OniSound, VerifyIsCleanOnTheGoldenLevels) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  for (const char* level : {"GameDataFolder", "GameDataFolder_sep"}) {
    auto v = verify_file((dir / level / "level0_Final.dat").string(), {}, nullptr);
    ASSERT_TRUE(v.ok());
    for (const auto& d : v->diags.items()) EXPECT_EQ(d.where.code.rfind("oni.sndd", 0), std::string::npos) << level << ": " << d.where.str();
  }
}

// The goldens' oni_created/pc_broken/ files: OniSplit 0.9.99.2's WAV importer wrote their header 4
// bytes late (the goldens README: 0x08 stays 0, the format lands at 0x10). Extract says so.
TEST(OniSound, OniSplitShiftedHeaderIsNamed) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds/oni_created/pc_broken");
  testing::TempDir t;
  int files = 0;
  for (const auto& f : fs::directory_iterator(dir)) {
    auto c = open_path(f.path().string());
    ASSERT_TRUE(c.ok()) << c.error().str();
    for (const Entry& e : (*c)->entries()) {
      if (e.kind != assay::EntryKind::sound) continue;
      auto s = (*c)->sound(e);
      ASSERT_FALSE(s.ok()) << f.path();
      EXPECT_EQ(s.error().code, "oni.sndd-shifted") << f.path() << ": " << s.error().str();
      EXPECT_NE(s.error().message.find("OniSplit 0.9.99.2"), std::string::npos) << s.error().message;
      ++files;
    }
  }
  EXPECT_EQ(files, 6);
}

// A copy of the PC golden level with bytes of SNDDsine440_m22's record changed: verify's findings.
std::vector<Diagnostic> verify_patched(const fs::path& src, std::size_t field, std::uint32_t v, std::size_t width) {
  testing::TempDir t;
  fs::copy_file(src / "level0_Final.raw", t / "level0_Final.raw");
  ByteBuffer dat = testing::read_file(src / "level0_Final.dat");
  auto c = open_path((src / "level0_Final.dat").string());
  const Entry* e = find(**c, "SNDDsine440_m22");
  for (std::size_t k = 0; k < width; ++k) dat[*e->offset + field + k] = static_cast<std::uint8_t>(v >> (8 * k));
  testing::write_file(t / "level0_Final.dat", dat);
  auto out = verify_file((t / "level0_Final.dat").string(), {}, nullptr);
  return out ? out->diags.items() : std::vector<Diagnostic>{};
}

bool has(const std::vector<Diagnostic>& ds, std::string_view code, Severity sev) {
  for (const auto& d : ds)
    if (d.where.code == code && d.severity == sev) return true;
  return false;
}

TEST(OniSound, VerifyFindsBadDurationsAndBlocks) {
  ASSAY_REQUIRE_GOLDEN(src, "oni/sounds/GameDataFolder");
  // 22,264 frames at 22,050 Hz last 60.58 ticks: 200 is a warning, 60 and 61 are not.
  EXPECT_TRUE(has(verify_patched(src, 0x3E, 200, 2), "oni.sndd-duration", Severity::warning));
  EXPECT_FALSE(has(verify_patched(src, 0x3E, 60, 2), "oni.sndd-duration", Severity::warning));
  // 22 blocks of 512 bytes and 3 more: a last block without room for its 7-byte header.
  EXPECT_TRUE(has(verify_patched(src, 0x40, 11264 + 3, 4), "oni.sndd-data", Severity::error));
  EXPECT_FALSE(has(verify_patched(src, 0x40, 11264 + 7, 4), "oni.sndd-data", Severity::error));
  // Samples per block 1000 (512 bytes hold 1,012) and format tag 0x11 (IMA ADPCM in a WAV).
  EXPECT_TRUE(has(verify_patched(src, 0x1E, 1000, 2), "oni.sndd", Severity::warning));
  EXPECT_TRUE(has(verify_patched(src, 0x0C, 0x11, 2), "oni.sndd", Severity::error));
}

// A PC record (0x48 bytes) as the wiki's OBD:SNDD/wav table lays it out, for the sweep below.
ByteBuffer pc_record(std::uint16_t tag, std::uint16_t ch, std::uint16_t align, std::uint32_t size) {
  ByteWriter w;
  w.zeros(8);
  w.u32(8);
  w.u16(tag), w.u16(ch), w.u32(22050), w.u32(11155), w.u16(align), w.u16(4), w.u16(32);
  w.u16(static_cast<std::uint16_t>(audio::ms_adpcm_block_frames(align, ch))), w.u16(7);
  for (const auto& c : audio::kMsAdpcmCoefficients) w.u16(static_cast<std::uint16_t>(c[0])), w.u16(static_cast<std::uint16_t>(c[1]));
  w.u16(61), w.u32(size), w.u32(32);
  return w.take();
}

TEST(OniSound, RecordFieldsAsTheWikiLaysThemOut) {
  const ByteBuffer b = pc_record(2, 1, 512, 11264);
  ASSERT_EQ(b.size(), SnddRecord::kPcSize);
  auto r = read_sndd(b, false, "SNDD", 0);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->rate, 22050u);
  EXPECT_EQ(r->block_align, 512);
  EXPECT_EQ(r->samples_per_block, 1012);
  EXPECT_EQ(r->duration_ticks, 61);
  EXPECT_EQ(r->frames(), 22u * 1012u);  // the README: 22 blocks x 1,012
  // Mac: flags 3 = stereo, 173 packets of 2 x 34 bytes = 11,072 frames (the README's noise_s22).
  const ByteBuffer mac{0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 30, 0, 0, 0, 0xF4, 0x2D, 0, 0, 0, 0x0E, 0, 0};
  auto m = read_sndd(mac, true, "SNDD", 0);
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->channels, 2);
  EXPECT_EQ(m->rate, 22050u);
  EXPECT_EQ(m->frames(), 11072u);
  EXPECT_FALSE(read_sndd(ByteView(b).first(0x47), false, "SNDD", 0).ok());
  EXPECT_FALSE(read_sndd(ByteView(mac).first(0x17), true, "SNDD", 0).ok());
}

// Every byte of a PC record set to 0x00, 0x7F, 0xFF and every cut of its data: an error or a
// sound, never a crash, and never more samples than the data can hold.
TEST(OniSound, MutatedRecordsAndCutDataNeverCrash) {
  // 0x01: predictor index 1 in every block header; as IMA4, preambles 0x0101 (step index 1).
  const ByteBuffer data(2048 + 300, 0x01);
  for (std::size_t at = 0; at < SnddRecord::kPcSize; ++at)
    for (std::uint8_t v : {0x00, 0x7F, 0xFF}) {
      ByteBuffer rec = pc_record(2, 2, 1024, static_cast<std::uint32_t>(data.size()));
      rec[at] = v;
      auto r = read_sndd(rec, false, "SNDD", 0);
      ASSERT_TRUE(r.ok());
      auto s = decode_sndd(*r, data);
      if (s) {
        EXPECT_LE(s->pcm.size(), data.size() * 2 + 64);
      }
    }
  for (std::size_t cut = 0; cut <= data.size(); cut += 7) {
    auto r = read_sndd(pc_record(2, 2, 1024, static_cast<std::uint32_t>(cut)), false, "SNDD", 0);
    auto s = decode_sndd(*r, ByteView(data).first(cut));
    const std::size_t rest = cut % 1024;
    EXPECT_EQ(s.ok(), rest == 0 || rest >= 14) << cut;  // a last block must hold its 14-byte header
    if (!s) {
      EXPECT_EQ(s.error().offset, cut - rest) << "names the short block";
    }
  }
  for (std::size_t cut = 0; cut <= 5 * 68; ++cut) {
    SnddRecord mac;
    mac.mac = true, mac.channels = 2, mac.rate = kMacSoundRate;
    auto s = decode_sndd(mac, ByteView(data).first(cut));
    EXPECT_EQ(s.ok(), cut % 68 == 0) << cut;
  }
}

TEST(OniSound, DataOutsideTheRawIsAnError) {
  ASSAY_REQUIRE_GOLDEN(src, "oni/sounds/GameDataFolder");
  testing::TempDir t;
  fs::copy_file(src / "level0_Final.dat", t / "level0_Final.dat");
  const ByteBuffer raw = testing::read_file(src / "level0_Final.raw");
  testing::write_file(t / "level0_Final.raw", ByteView(raw).first(raw.size() / 2));
  auto c = open_path((t / "level0_Final.dat").string());
  ASSERT_TRUE(c.ok());
  int bad = 0;
  for (const Entry& e : (*c)->entries()) {
    if (e.kind != assay::EntryKind::sound) continue;
    auto s = (*c)->sound(e);
    if (!s) {
      ++bad;
      EXPECT_EQ(s.error().code, "oni.sndd-data");
      EXPECT_NE(s.error().message.find("outside the .raw"), std::string::npos) << s.error().message;
    }
  }
  EXPECT_GE(bad, 3);  // the sounds stored in the second half
}

// ---- read back through Debian's ffmpeg (tests only) ----

bool have_ffmpeg() { return std::system("ffmpeg -version >/dev/null 2>&1") == 0; }

#define REQUIRE_FFMPEG()                                                       \
  if (!have_ffmpeg()) {                                                        \
    if (testing::in_ci()) FAIL() << "ffmpeg missing in CI";                   \
    GTEST_SKIP() << "ffmpeg not installed";                                    \
  }                                                                            \
  static_assert(true)

// ffmpeg's decode of `file` as interleaved s16le (empty when it fails).
ByteBuffer ffmpeg_pcm(const fs::path& file, const fs::path& out) {
  const std::string cmd = "ffmpeg -v error -y -i " + testing::quote_path(file) + " -f s16le -acodec pcm_s16le " + testing::quote_path(out);
  if (std::system(cmd.c_str()) != 0) return {};
  return testing::read_file(out);
}

std::uint32_t le32(const ByteBuffer& b, std::size_t at) { return load<std::uint32_t>(&b[at], Endian::little); }
std::uint16_t le16(const ByteBuffer& b, std::size_t at) { return load<std::uint16_t>(&b[at], Endian::little); }

// ffprobe's "sample_rate,channels,codec_name" of the first audio stream of `file`.
std::string ffprobe(const fs::path& file, const fs::path& scratch) {
  const std::string cmd = "ffprobe -v error -select_streams a:0 -show_entries stream=sample_rate,channels,codec_name -of csv=p=0 " +
                          testing::quote_path(file) + " > " + testing::quote_path(scratch);
  if (std::system(cmd.c_str()) != 0) return {};
  const ByteBuffer b = testing::read_file(scratch);
  std::string s(b.begin(), b.end());
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

// The --adpcm file's header against the file FFmpeg encoded and OniSplit imported (the golden's
// "fed_file"): MS ADPCM's fmt fields, coefficient pairs and fact frames; IMA4's COMM channels,
// packets and compression type.
void expect_stored_header(const ByteBuffer& b, const Json& fed, bool mac) {
  if (mac) {  // FORM AIFC, FVER (12 bytes), COMM at 24
    ASSERT_GE(b.size(), 54u);
    EXPECT_EQ(std::string(b.begin() + 24, b.begin() + 28), "COMM");
    EXPECT_EQ(load<std::uint16_t>(&b[32], Endian::big), fed["channels"].get<std::uint16_t>());
    EXPECT_EQ(load<std::uint32_t>(&b[34], Endian::big), fed["num_sample_frames"].get<std::uint32_t>());
    EXPECT_EQ(std::string(b.begin() + 50, b.begin() + 54), fed["compression"].get<std::string>());
    return;
  }
  ASSERT_GE(b.size(), 90u);
  EXPECT_EQ(le32(b, 16), 50u);  // fmt size: WAVEFORMATEX 18 + cbSize 32
  EXPECT_EQ(le16(b, 20), fed["format_tag"].get<std::uint16_t>());
  EXPECT_EQ(le16(b, 22), fed["channels"].get<std::uint16_t>());
  EXPECT_EQ(le32(b, 24), fed["rate"].get<std::uint32_t>());
  EXPECT_EQ(le16(b, 32), fed["block_align"].get<std::uint16_t>());
  EXPECT_EQ(le16(b, 34), fed["bits_per_sample"].get<std::uint16_t>());
  EXPECT_EQ(le16(b, 36), fed["cb_size"].get<std::uint16_t>());
  EXPECT_EQ(le16(b, 38), fed["samples_per_block"].get<std::uint16_t>());
  for (std::size_t k = 0; k < 7; ++k) {
    EXPECT_EQ(static_cast<std::int16_t>(le16(b, 42 + 4 * k)), fed["coefs"][k][0].get<int>());
    EXPECT_EQ(static_cast<std::int16_t>(le16(b, 44 + 4 * k)), fed["coefs"][k][1].get<int>());
  }
  EXPECT_EQ(std::string(b.begin() + 70, b.begin() + 74), "fact");
  EXPECT_EQ(le32(b, 78), fed["fact_frames"].get<std::uint32_t>());
  EXPECT_EQ(le32(b, 86), fed["payload_size"].get<std::uint32_t>());
}

// What extract writes (write_sndd): NAME.wav, with adpcm NAME.wav (MS ADPCM, PCM) / NAME.aifc
// (IMA4), each read by ffprobe with the golden's rate, channels and codec, and by ffmpeg back to
// FFmpeg's reference samples.
TEST(OniSound, ExtractFilesProbeAsTheGoldens) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  REQUIRE_FFMPEG();
  testing::TempDir t;
  const OutputDir out(t / "x", false);
  int written = 0;
  for (const Golden& g : goldens(dir)) {
    const Json& st = g.json["stored"];
    const Json& ref = g.json["reference_pcm"];
    const std::string name = st["name"];
    SCOPED_TRACE(g.level + "/" + name);
    auto f = load_file(dir / g.level / "level0_Final.dat", LayoutSource{});
    std::uint32_t i = 0;
    while (i < f->file.instance_count() && f->names[i] != name) ++i;
    ASSERT_LT(i, f->file.instance_count());
    const bool mac = g.level == "GameDataFolder_sep";
    const std::string stem = g.level + "_" + name;
    for (bool adpcm : {false, true}) {
      auto n = write_sndd(*f, i, stem + (adpcm ? "_adpcm" : ""), adpcm, out);
      ASSERT_TRUE(n.ok()) << n.error().str();
      written += static_cast<int>(n->files);
      const fs::path file = t / "x" / (stem + (adpcm ? "_adpcm" : "") + (adpcm && mac ? ".aifc" : ".wav"));
      ASSERT_TRUE(fs::exists(file));
      const std::string codec = !adpcm || st.value("format_tag", 0) == 1 ? "pcm_s16le" : mac ? "adpcm_ima_qt" : "adpcm_ms";
      EXPECT_EQ(ffprobe(file, t / "probe.txt"), codec + "," + std::to_string(ref["rate"].get<int>()) + "," + std::to_string(st["channels"].get<int>()));
      EXPECT_TRUE(ffmpeg_pcm(file, t / "x.pcm") == testing::read_file(dir / ref["file"].get<std::string>()));
      if (adpcm && codec != "pcm_s16le") expect_stored_header(testing::read_file(file), g.json["fed_file"], mac);
    }
  }
  EXPECT_EQ(written, 18);
}

// `assay extract --sounds`: the WAVs are FFmpeg's samples at the golden's format.
TEST(OniSound, CliExtractSoundsWritesWavs) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  REQUIRE_FFMPEG();
  testing::TempDir t;
  for (const char* level : {"GameDataFolder", "GameDataFolder_sep"}) {
    const fs::path o = t / level;
    auto x = testing::run_cli("extract --sounds " + testing::quote_path(dir / level / "level0_Final.dat") + " -o " + testing::quote_path(o));
    ASSERT_EQ(x.exit_code, 0) << x.err;
    for (const Golden& g : goldens(dir)) {
      if (g.level != level) continue;
      const Json& ref = g.json["reference_pcm"];
      const fs::path wav = o / (g.json["stored"]["name"].get<std::string>() + ".wav");
      const ByteBuffer b = testing::read_file(wav);
      ASSERT_GE(b.size(), 44u) << wav;
      EXPECT_EQ(le16(b, 20), 1);  // PCM
      EXPECT_EQ(le16(b, 22), g.json["stored"]["channels"].get<std::uint16_t>());
      EXPECT_EQ(le32(b, 24), ref["rate"].get<std::uint32_t>());
      EXPECT_TRUE(ffmpeg_pcm(wav, t / "x.pcm") == testing::read_file(dir / ref["file"].get<std::string>())) << wav;
    }
  }
}

// `assay extract --adpcm`: Mac (IMA4) data as AIFC, PC data as WAV, each probed by ffprobe as the
// codec the golden was made with, at its rate and channel count.
TEST(OniSound, CliExtractAdpcmKeepsTheStoredCodec) {
  ASSAY_REQUIRE_GOLDEN(dir, "oni/sounds");
  REQUIRE_FFMPEG();
  testing::TempDir t;
  int probed = 0;
  for (const char* level : {"GameDataFolder", "GameDataFolder_sep"}) {
    const bool mac = std::string(level) == "GameDataFolder_sep";
    const fs::path o = t / level;
    auto x = testing::run_cli("extract --adpcm " + testing::quote_path(dir / level / "level0_Final.dat") + " -o " + testing::quote_path(o));
    ASSERT_EQ(x.exit_code, 0) << x.err;
    for (const Golden& g : goldens(dir)) {
      if (g.level != level) continue;
      const Json& st = g.json["stored"];
      const fs::path file = o / (st["name"].get<std::string>() + (mac ? ".aifc" : ".wav"));
      ASSERT_TRUE(fs::exists(file)) << file;
      const std::string codec = st.value("format_tag", 0) == 1 ? "pcm_s16le" : mac ? "adpcm_ima_qt" : "adpcm_ms";
      EXPECT_EQ(ffprobe(file, t / "probe.txt"),
                codec + "," + std::to_string(g.json["reference_pcm"]["rate"].get<int>()) + "," + std::to_string(st["channels"].get<int>()));
      ++probed;
    }
  }
  EXPECT_EQ(probed, 9);
}

}  // namespace
}  // namespace assay::oni
