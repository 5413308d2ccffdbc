// Shared by the tests that compare exports with librw's goldens (../shared/goldens/renderware):
// reading a golden, its floats, and exporting every model of a DFF read back with tinygltf.
#pragma once

#include <zlib.h>

#include <filesystem>
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
    if (e.kind != "model") continue;
    auto w = (*c)->write_entry(e, dir, WriteOptions{});
    EXPECT_TRUE(w.ok()) << e.path << ": " << (w.ok() ? "" : w.error().message);
    out.push_back(read_gltf(t / e.path));
    EXPECT_EQ(out.back().error, "") << e.path;
  }
  return out;
}

}  // namespace assay::testing
