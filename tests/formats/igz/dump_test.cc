// `igz dump` as a typed report (assay/ops.h read_igz_dump, igz/dump.h print_dump): the real
// test_img sample against the facts its README lists, printed by the text and the JSON printer
// (the text prints hashes in hex, docs/cli.md).
#include <gtest/gtest.h>

#include <sstream>

#include "assay/ops.h"
#include "formats/json_printer.h"
#include "formats/text_printer.h"
#include "testing/testing.h"

namespace assay::igz {
namespace {

// samples/alchemy/README.md: 11 fixups in this order; TMET igObjectList, igImage2, igNameList;
// pools Default, ImageObject, String, Image; version 9, platform 9 (cafe), 32-bit pointers.
const std::vector<std::string> kFixupTags = {"TMET", "MTSZ", "EXID", "TMHN", "RVTB", "RSTR",
                                             "ROFS", "REXT", "RMHN", "ROOT", "ONAM"};

TEST(IgzDump, TypedReportOfTheTestImgSample) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_test_img.igz");
  auto d = read_igz_dump(path.string(), {});
  ASSERT_TRUE(d.ok()) << d.error().str();
  EXPECT_EQ(d->dump.file.header().version, 9u);
  EXPECT_EQ(d->dump.file.header().pointer_size, 4u);
  std::vector<std::string> tags;
  for (const auto& r : d->dump.file.records()) tags.push_back(tag_name(r.tag));
  EXPECT_EQ(tags, kFixupTags);
  EXPECT_EQ(d->dump.fixups.types, (std::vector<std::string_view>{"igObjectList", "igImage2", "igNameList"}));
  // RVTB = 0x0, 0x1c, 0x08000000: three objects, the root (ROOT = 0x0) the first.
  ASSERT_EQ(d->dump.graph.objects.size(), 3u);
  EXPECT_EQ(d->dump.graph.objects[0].type_name, "igObjectList");
  ASSERT_TRUE(d->dump.graph.root.has_value());
  EXPECT_EQ(*d->dump.graph.root, 0u);
  EXPECT_FALSE(d->diags.has_errors());
}

TEST(IgzDump, TextAndJsonPrintersTellTheSameFacts) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/igModelTool_test_img.igz");
  auto d = read_igz_dump(path.string(), {});
  ASSERT_TRUE(d.ok()) << d.error().str();
  std::ostringstream text;
  assay::detail::TextPrinter tp(text);
  print_dump(d->dump, tp);
  const std::string t = text.str();
  for (const char* line : {"format: igz\n", "version: 9\n", "byte_order: big\n", "platform_name: cafe\n",
                           "pointer_size: 4\n", "fixups: (11)\n", "types: (3)\n", "objects: (3)\n",
                           "fields_hash: 0x00000000\n"})  // README: the fields-hash word is 0; hashes in hex
    EXPECT_NE(t.find(line), std::string::npos) << line << "\n" << t;
  Json j;
  assay::detail::JsonPrinter jp(j);
  print_dump(d->dump, jp);
  ASSERT_EQ(j["pools"].size(), 4u);
  EXPECT_EQ(j["pools"][1]["name"], "ImageObject");
  EXPECT_EQ(j["pools"][3]["name"], "Image");
  ASSERT_EQ(j["fixups"].size(), kFixupTags.size());
  for (std::size_t k = 0; k < kFixupTags.size(); ++k) EXPECT_EQ(j["fixups"][k]["tag"], kFixupTags[k]);
  EXPECT_EQ(j["objects"][0]["type"], "igObjectList");
  EXPECT_EQ(j["root"]["object"], 0);
}

TEST(IgzDump, AFileThatIsNoIgzIsAUsageError) {
  ASSAY_REQUIRE_SAMPLE(path, "alchemy/skylanders_zap.pak");
  auto d = read_igz_dump(path.string(), {});
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().kind, ErrorKind::usage);
}

}  // namespace
}  // namespace assay::igz
