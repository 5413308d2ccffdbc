// Writes the seed corpora of the fuzz targets added for issue 15 item 7, with assay's own
// writers only (never sample or game bytes). Built as fuzz_make_corpora in test builds:
//   fuzz_make_corpora fuzz/corpus
// Re-running rewrites the same files (deterministic). The targets' input layouts are described
// at the top of each fuzz/<name>.cc.
#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "assay/family.h"
#include "assay/core/output.h"
#include "assay/options.h"
#include "assay/formats/igarchive/writer.h"
#include "assay/formats/oni/oni.h"
#include "assay/formats/warriors/samples.h"
#include "assay/image/png.h"
#include "formats/warriors/helpers.h"
#include "model/oni_m3gm_fixture.h"

namespace fs = std::filesystem;
using namespace assay;
using namespace std::string_literals;

namespace {

void put(const fs::path& p, const void* d, std::size_t n) {
  fs::create_directories(p.parent_path());
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(static_cast<const char*>(d), static_cast<std::streamsize>(n));
}
void put(const fs::path& p, ByteView b) { put(p, b.data(), b.size()); }
void put(const fs::path& p, std::string_view s) { put(p, s.data(), s.size()); }
ByteBuffer slurp(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return ByteBuffer((std::istreambuf_iterator<char>(f)), {});
}
void append(ByteBuffer& b, ByteView x) { b.insert(b.end(), x.begin(), x.end()); }
void append(ByteBuffer& b, std::string_view x) { b.insert(b.end(), x.begin(), x.end()); }
void u16(ByteBuffer& b, std::size_t v) {
  b.push_back(static_cast<std::uint8_t>(v));
  b.push_back(static_cast<std::uint8_t>(v >> 8));
}

// A synthetic PE32 in the shape of Oni.exe v1.0 as spec oni.md#oni-4-5 describes it (the same
// construction as tests/formats/oni/exe_test.cc build_pe).
ByteBuffer build_pe(const std::vector<oni::Layout>& ls) {
  constexpr std::uint32_t kBase = 0x400000, kTextRva = 0x11D000, kTextRaw = 0x200, kTextSize = 0x400;
  constexpr std::uint32_t kDataRva = 0x158000, kDataRaw = 0x600, kDataSize = 0x1000;
  constexpr std::uint32_t kTable = 0x558100, kNames = 0x558400, kCode = 0x558600;
  ByteBuffer b(kDataRaw + kDataSize, 0);
  auto w16 = [&](std::size_t at, std::uint16_t v) { store<std::uint16_t>(b.data() + at, v, Endian::little); };
  auto w32 = [&](std::size_t at, std::uint32_t v) { store<std::uint32_t>(b.data() + at, v, Endian::little); };
  auto data_off = [&](std::uint32_t va) { return kDataRaw + (va - kBase - kDataRva); };
  b[0] = 'M', b[1] = 'Z';
  w32(0x3C, 0x40);
  b[0x40] = 'P', b[0x41] = 'E';
  w16(0x44, 0x14C);
  w16(0x46, 2);
  w16(0x54, 0xE0);
  w16(0x58, 0x10B);
  w32(0x58 + 28, kBase);
  const std::size_t st = 0x58 + 0xE0;
  const std::uint32_t sec[2][4] = {{0x1000, kTextRva, kTextSize, kTextRaw}, {0x2000, kDataRva, kDataSize, kDataRaw}};
  for (int s = 0; s < 2; ++s)
    for (int k = 0; k < 4; ++k) w32(st + s * 40 + 8 + k * 4, sec[s][k]);
  w32(data_off(0x558CF0), static_cast<std::uint32_t>(ls.size()));
  std::size_t code = kTextRaw + (0x51D1C0 - kBase - kTextRva);
  auto mov = [&](std::uint32_t addr, std::uint32_t imm) {
    b[code] = 0xC7, b[code + 1] = 0x05;
    w32(code + 2, addr);
    w32(code + 6, imm);
    code += 10;
  };
  std::uint32_t name_va = kNames, code_va = kCode;
  for (std::size_t i = 0; i < ls.size(); ++i) {
    const oni::Layout& l = ls[i];
    const std::uint32_t e = kTable + static_cast<std::uint32_t>(i) * 0x30;
    store<std::uint64_t>(b.data() + data_off(e), l.checksum, Endian::little);
    w32(data_off(e) + 8, l.tag);
    w32(data_off(e) + 0x0C, name_va);
    w32(data_off(e) + 0x14, l.flags);
    auto cc = oni::compile_layout(l.code);
    w32(data_off(e) + 0x18, static_cast<std::uint32_t>(cc->fixed_size));
    w32(data_off(e) + 0x1C, cc->has_var ? static_cast<std::uint32_t>(cc->var_element.value_or(0)) : 0);
    std::copy(l.name.begin(), l.name.end(), b.begin() + static_cast<std::ptrdiff_t>(data_off(name_va)));
    name_va += static_cast<std::uint32_t>(l.name.size()) + 1;
    std::copy(l.code.begin(), l.code.end(), b.begin() + static_cast<std::ptrdiff_t>(data_off(code_va)));
    mov(e + 0x10, code_va);
    code_va += static_cast<std::uint32_t>(l.code.size()) + 16;
  }
  mov(0x620138, kTable);
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_corpora FUZZ_CORPUS_DIR\n");
    return 2;
  }
  const fs::path out = argv[1];
  const fs::path tmp = fs::temp_directory_path() / "assay-make-corpora";
  fs::remove_all(tmp);
  fs::create_directories(tmp);
  for (const Family* f : families()) {
    if (f->write_samples == nullptr) continue;
    if (auto r = f->write_samples(tmp); !r) {
      std::fprintf(stderr, "%s: %s\n", std::string(f->name).c_str(), r.error().str().c_str());
      return 1;
    }
  }
  // small writer-made files of every family (the existing corpora hold the igArchives)
  const std::vector<std::string> small = {"sample_v9_be.igz", "rw_pc_dxt1.txd", "rw_model.dff",
                                          "level0_Final.dat", "level1_X.dat", "warriors_level1.lev"};
  std::vector<fs::path> igarchives;
  for (const auto& e : fs::directory_iterator(out / "igarchive")) igarchives.push_back(e.path());
  for (const char* t : {"json_output", "extract_formats"}) {
    fs::create_directories(out / t);
    for (const auto& s : small) fs::copy_file(tmp / s, out / t / s, fs::copy_options::overwrite_existing);
  }
  fs::create_directories(out / "verify_deep");
  fs::create_directories(out / "igarchive_extract");
  fs::create_directories(out / "igarchive_pack_like");
  // an archive of inner files of every family (for --deep), stored and LZMA
  {
    std::vector<igarchive::WriterFile> files;
    for (const auto& s : {"sample_v9_be.igz", "rw_model.dff", "level1_X.dat"})
      files.push_back({.name = std::string("inner/") + s, .data = slurp(tmp / s), .compression = igarchive::Compression::lzma});
    igarchive::WriterOptions o;
    o.version = 0x0B;
    o.threads = 1;
    put(out / "verify_deep" / "v11_inner_files.arc", *igarchive::write_archive(files, o));
    o.version = 8;
    o.endian = Endian::big;
    files[1].compression = igarchive::Compression::none;
    put(out / "verify_deep" / "v8_be_inner_files.arc", *igarchive::write_archive(files, o));
  }
  // hostile names in small archives (extract, pack --like)
  {
    std::vector<igarchive::WriterFile> files = {
        {.name = "../../escape.txt", .data = ByteBuffer(40, 'e'), .compression = igarchive::Compression::none},
        {.name = "a\\b\\c.igz", .data = ByteBuffer(300, 'c'), .compression = igarchive::Compression::lzma},
        {.name = "a/b/c.igz", .data = ByteBuffer(20, 'd'), .compression = igarchive::Compression::none},
        {.name = "C:/x/./y//z.bin", .data = ByteBuffer(70000, 'z'), .compression = igarchive::Compression::lzma}};
    igarchive::WriterOptions o;
    o.version = 0x0C;
    o.threads = 1;
    const ByteBuffer arc = *igarchive::write_archive(files, o);
    put(out / "igarchive_extract" / "v12_hostile_names.pak", arc);
    put(out / "igarchive_pack_like" / "v12_hostile_names.pak", arc);
  }
  for (const auto& p : igarchives) {
    fs::copy_file(p, out / "igarchive_extract" / p.filename(), fs::copy_options::overwrite_existing);
    fs::copy_file(p, out / "igarchive_pack_like" / p.filename(), fs::copy_options::overwrite_existing);
  }
  // PNG: encode inputs (even byte 0) and PNGs from our encoder (odd byte 0)
  {
    ByteBuffer enc = {0, 2, 0, 2, 0};
    for (int i = 0; i < 16; ++i) enc.push_back(static_cast<std::uint8_t>(i * 17));
    put(out / "png_encode" / "encode_2x2", enc);
    image::Rgba img{3, 2, ByteBuffer(24)};
    for (std::size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<std::uint8_t>(i * 11);
    ByteBuffer dec = {1};
    append(dec, *image::encode_png(img));
    put(out / "png_encode" / "decode_3x2", dec);
  }
  // ISO 9660 images holding a small disc (tests/formats/warriors/helpers.cc make_iso)
  {
    auto entries = warriors::samples::disc_entries();
    entries.resize(std::min<std::size_t>(entries.size(), 3));
    const warriors::DiscImage d = warriors::samples::disc(entries);
    // one entry: an image is at least 21 sectors (system area, descriptors, path tables, root)
    const warriors::DiscImage d1 = warriors::samples::disc({entries.front()});
    put(out / "warriors_iso" / "disc.iso",
        warriors::test::make_iso({{"SYSTEM.CNF;1", ByteBuffer(20, 'c')}, {"warriors.dir;1", d1.dir}, {"WARRIORS.WAD", d1.wad}}));
    // warriors_names: u16 names length, names, u16 DIR length, DIR, WAD
    std::string names = "# names\n";
    for (const auto& e : entries) names += "./ee_files/" + e.name + "\r\n";
    names += "  0x1234\nGLOBAL.LUA\n../../../etc/passwd\nC:\\x\\y.bin\n";
    ByteBuffer n;
    u16(n, names.size());
    append(n, names);
    u16(n, d.dir.size());
    append(n, d.dir);
    append(n, d.wad);
    put(out / "warriors_names" / "three_entries.bin", n);
  }
  // edit (fuzz/edit.cc): byte 0 family + ops + codec, byte 1 replaced entry, byte 2 removed
  // entry, then an igArchive, or a u16 DIR length, the DIR and the WAD.
  {
    std::vector<igarchive::WriterFile> files = {
        {.name = "a.igz", .data = ByteBuffer(300, 'a'), .compression = igarchive::Compression::lz4},
        {.name = "dir/b.bin", .data = ByteBuffer(70000, 'b'), .compression = igarchive::Compression::lzma},
        {.name = "c.txt", .data = ByteBuffer(20, 'c'), .compression = igarchive::Compression::none}};
    igarchive::WriterOptions o;
    o.threads = 1;
    for (std::uint32_t v : {0x0Bu, 0x08u}) {
      o.version = v;
      o.endian = v == 8 ? Endian::big : Endian::little;
      const ByteBuffer arc = *igarchive::write_archive(files, o);
      for (std::uint8_t ops : {0x0E, 0x24}) {  // replace + add + remove (codec none); add (deflate)
        ByteBuffer b = {ops, 1, 2};
        append(b, arc);
        put(out / "edit" / fmt::format("iga_v{:x}_ops{:02x}.bin", v, ops), b);
      }
    }
    auto entries = warriors::samples::disc_entries();
    entries.resize(std::min<std::size_t>(entries.size(), 3));
    const warriors::DiscImage d = warriors::samples::disc(entries);
    for (std::uint8_t ops : {0x0F, 0x03}) {  // all three; replace
      ByteBuffer b = {ops, 0, 2};
      u16(b, d.dir.size());
      append(b, d.dir);
      append(b, d.wad);
      put(out / "edit" / fmt::format("warriors_ops{:02x}.bin", ops), b);
    }
  }
  // Oni: the exe, .oni files exported from the sample level, the two-level set
  {
    auto set = oni::parse_layouts_file(oni::sample_layouts_text(), "samples");
    std::vector<oni::Layout> ls;
    for (const auto& c : set->all()) ls.push_back(c.layout);
    put(out / "oni_exe" / "Oni.exe", build_pe(ls));
    const fs::path x = tmp / "oni-export";
    auto f = oni::load_file(tmp / "level0_Final.dat", &*set);
    Diagnostics d;
    if (auto r = oni::export_oni_files(*f, {}, OutputDir(x, true), d); !r) {
      std::fprintf(stderr, "oni export: %s\n", r.error().str().c_str());
      return 1;
    }
    std::vector<fs::path> onis;
    for (const auto& e : fs::directory_iterator(x)) onis.push_back(e.path());
    std::sort(onis.begin(), onis.end());
    ByteBuffer all;
    for (std::size_t i = 0; i < onis.size() && i < 4; ++i) {
      const ByteBuffer b = slurp(onis[i]);
      put(out / "oni_pack" / ("one_" + std::to_string(i) + ".bin"), b);
      if (i) append(all, std::string_view("ONIFUZZSPLIT"));
      append(all, b);
    }
    put(out / "oni_pack" / "several.bin", all);
    ByteBuffer link = slurp(tmp / "level0_Final.dat");
    append(link, std::string_view("ONIFUZZSPLIT"));
    append(link, slurp(tmp / "level1_X.dat"));
    put(out / "oni_link" / "level0_level1.bin", link);
    append(link, std::string_view("ONIFUZZSPLIT"));
    append(link, slurp(tmp / "level0_Final.raw"));
    put(out / "oni_link" / "level0_level1_raw.bin", link);
  }
  // names, globs, output folders, TXMP pixels: small hand-made inputs
  {
    const std::vector<std::string> names = {"a/b/c.igz", "../../etc/passwd", "C:\\Windows\\x.dll", "./a//b/./c",
                                            "a\x1b[31mred\n.txt", std::string(250, 'n') + ".bin", "/abs/path", "D:"};
    for (std::size_t i = 0; i < names.size(); ++i) {
      put(out / "sanitize_path" / ("name" + std::to_string(i)), names[i]);
      put(out / "naming" / ("name" + std::to_string(i)), names[i]);
    }
    put(out / "naming" / "oni_name", "TXMP%2E/..:*?\"<>|x"s);
    put(out / "naming" / "level_name", "level12_Final.dat"s);
    put(out / "naming" / "warriors_name", "./ee_files/Global.LUA"s);
    const std::vector<std::string> globs = {"*.igz\0dir/a.igz"s, "[a-c]?x\0bbx"s,
                                            "a*b*c*d*e*f*\0aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"s,
                                            "[!0-9]\\*\0x*"s};
    for (std::size_t i = 0; i < globs.size(); ++i) put(out / "glob" / ("glob" + std::to_string(i)), globs[i]);
    put(out / "output_dir" / "collide", "\0a/b\na\\b\n./a/b\na//b\na"s);
    put(out / "output_dir" / "symlink", "\2link/x\nlink\n../link/y\nfile/z\nC:/q"s);
    put(out / "output_dir" / "force", "\1x\nx\n\x01\x02\ny/../x"s);
    const std::pair<int, int> fmts[] = {{0, 2}, {1, 2}, {2, 2}, {7, 4}, {8, 4}};
    for (auto [f, bpp] : fmts) {
      ByteBuffer t = {4, 0, 4, 0, static_cast<std::uint8_t>(f)};
      for (int i = 0; i < 16 * bpp; ++i) t.push_back(static_cast<std::uint8_t>(i * 7 + f));
      put(out / "oni_txmp" / ("fmt" + std::to_string(f)), t);
    }
    ByteBuffer dxt = {8, 0, 8, 0, 9};
    for (int i = 0; i < 32; ++i) dxt.push_back(static_cast<std::uint8_t>(i * 29));
    put(out / "oni_txmp" / "fmt9", dxt);
  }
  {  // oni_m3gm: the hand-made M3GM level (tests/model/oni_m3gm_fixture.h), and one with a bad strip index
    put(out / "oni_m3gm" / "hand.dat", assay::testing::m3gm_level());
    assay::testing::M3gmFixture bad;
    bad.strips[3] = 9;
    put(out / "oni_m3gm" / "bad_strip.dat", assay::testing::m3gm_level(bad));
  }
  fs::copy_file(igarchives.front(), out / "json_output" / igarchives.front().filename(), fs::copy_options::overwrite_existing);
  fs::remove_all(tmp);
  return 0;
}
