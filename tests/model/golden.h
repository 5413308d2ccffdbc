// Shared by the tests that compare exports with librw's goldens (../shared/goldens/renderware):
// reading a golden, its floats, and exporting every model of a DFF read back with tinygltf.
#pragma once

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "assay/container.h"
#include "gltf_reader.h"
#include "testing/testing.h"

namespace assay::testing {

// A golden's JSON, plain or gzip-compressed (gzread reads both).
inline nlohmann::json load_golden(const std::filesystem::path& p) {
  gzFile f = gzopen(p.string().c_str(), "rb");
  std::string text;
  char buf[65536];
  for (int n; (n = gzread(f, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  return nlohmann::json::parse(text);
}

// The Khronos glTF validator (npm gltf-validator under tests/node, installed by scripts/setup.sh).
inline std::filesystem::path validator_dir() { return std::filesystem::path(ASSAY_SOURCE_DIR) / "tests" / "node"; }
inline bool validator_installed() { return std::filesystem::exists(validator_dir() / "node_modules" / "gltf-validator"); }

// A test that needs the validator fails in CI without it and skips elsewhere.
#define ASSAY_REQUIRE_VALIDATOR()                                                               \
  if (!::assay::testing::validator_installed()) {                                               \
    if (::assay::testing::in_ci()) FAIL() << "the glTF validator is not installed (scripts/setup.sh)"; \
    GTEST_SKIP() << "the glTF validator is not installed (scripts/setup.sh)";                   \
  }                                                                                             \
  static_assert(true)

// The validator's reports, one JSON object per file in `files` order (tests/node/validate.js).
inline std::vector<nlohmann::json> validate_gltf(const std::vector<std::filesystem::path>& files) {
  std::string command = "node " + quote_path(validator_dir() / "validate.js");
  for (const auto& f : files) command += " " + quote_path(f);
  std::string out;
  if (FILE* p = popen(command.c_str(), "r")) {
    char buf[4096];
    for (std::size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
    pclose(p);
  }
  std::vector<nlohmann::json> reports;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);) reports.push_back(nlohmann::json::parse(line));
  return reports;
}

// Every report says no error and no warning, and there is one per file.
inline void expect_valid_gltf(const std::vector<std::filesystem::path>& files) {
  const auto reports = validate_gltf(files);
  EXPECT_EQ(reports.size(), files.size());
  for (const auto& j : reports) {
    EXPECT_EQ(j["errors"], 0) << j.dump();
    EXPECT_EQ(j["warnings"], 0) << j.dump();
  }
}

// A golden float: a number, or "nan:0x..." (the exporter writes non-finite values as 0).
inline float golden_float(const nlohmann::json& v) { return v.is_string() ? 0.0f : v.get<float>(); }

// Every model entry of `dff` written as extract writes it into `t`, read back, in entry order.
inline std::vector<ReadModel> export_models(const std::filesystem::path& dff, const TempDir& t) {
  std::vector<ReadModel> out;
  auto c = open_path(dff.string());
  EXPECT_TRUE(c.ok()) << (c.ok() ? "" : c.error().message);
  if (!c.ok()) return out;
  OutputDir dir(t.path(), false);
  for (const Entry& e : (*c)->entries()) {
    if (e.kind != assay::EntryKind::model) continue;
    auto w = (*c)->write_entry(e, dir, WriteOptions{});
    EXPECT_TRUE(w.ok()) << e.path << ": " << (w.ok() ? "" : w.error().message);
    out.push_back(read_gltf(t / e.path));
    EXPECT_EQ(out.back().error, "") << e.path;
  }
  return out;
}

// A 2d Effect section (gtamods.com "2d Effect (RW Section)") by hand: a light at (1, 2, 3)
// coloured (255, 128, 0), range 5.5, corona "coronastar" of size 1.25, shadow "shad_exp"; and a
// particle (type 1, 24 bytes) that glTF has no place for.
inline ByteBuffer two_effects() {
  ByteWriter w;
  w.u32(2);
  for (float x : {1.0f, 2.0f, 3.0f}) w.f32(x);
  w.u32(0), w.u32(76);
  for (std::uint8_t c : {255, 128, 0, 255}) w.u8(c);
  for (float x : {100.0f, 5.5f, 1.25f, 2.0f}) w.f32(x);
  w.zeros(5);
  std::string corona = "coronastar", shadow = "shad_exp";
  corona.resize(24, '\0'), shadow.resize(24, '\0');
  w.str(corona), w.str(shadow);
  w.zeros(3);
  for (float x : {0.0f, 0.0f, 0.0f}) w.f32(x);
  w.u32(1), w.u32(24);
  w.zeros(24);
  return w.take();
}

}  // namespace assay::testing
