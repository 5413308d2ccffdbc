// The JSON printer behind every entry's details and info fields (src/formats/json_printer.h):
// the --json rules of docs/cli.md#json applied as values are printed.
#include <gtest/gtest.h>

#include <optional>
#include <vector>

#include "../../src/formats/json_printer.h"
#include "../../src/formats/text_printer.h"

#include <sstream>

namespace assay {
namespace printer_test {

Json printed(void (*print)(FieldPrinter&)) {
  Json j;
  detail::JsonPrinter p(j);
  print(p);
  return j;
}

TEST(JsonPrinter, LargeIntegersAsHexAndEmptyTextAsNull) {
  const Json j = printed([](FieldPrinter& p) {
    p.field("exact", std::uint64_t{1} << 53).field("above", (std::uint64_t{1} << 53) + 1);
    p.field("negative", std::int64_t{-5}).field("far_below", -(std::int64_t{1} << 60));
    p.field("empty", std::string()).field("text", "abc");
  });
  EXPECT_EQ(j.dump(), R"({"exact":9007199254740992,"above":"0x20000000000001","negative":-5,)"
                      R"("far_below":"-0x1000000000000000","empty":null,"text":"abc"})");
}

TEST(JsonPrinter, OptionalsVectorsAndNesting) {
  const Json j = printed([](FieldPrinter& p) {
    p.field("none", std::optional<int>()).field("some", std::optional<int>(7));
    p.field("list", std::vector<std::uint16_t>{1, 2});
    p.begin_object("data");
    p.field("where", "pool").field("size", 3u);
    p.begin_array("draws");
    p.begin_object("");
    p.field("vertices", 4).field("flag", true).field("scale", 0.5);
    p.end_object();
    p.end_array();
    p.end_object();
    p.field("after", 1);
  });
  EXPECT_EQ(j.dump(), R"({"none":null,"some":7,"list":[1,2],"data":{"where":"pool","size":3,)"
                      R"("draws":[{"vertices":4,"flag":true,"scale":0.5}]},"after":1})");
}

// An entry's own fields come first: a family field of the same name does not replace them.
TEST(JsonPrinter, AKeyAlreadyPrintedKeepsItsValue) {
  Json j = {{"index", 3}};
  detail::JsonPrinter p(j);
  p.field("index", 99).field("tag", "TXMP");
  EXPECT_EQ(j.dump(), R"({"index":3,"tag":"TXMP"})");
}

// A family's JSON printed through a printer that is not the JSON one arrives value by value.
class Recorder final : public FieldPrinter {
 public:
  std::string log;
  void null(std::string_view k) override { log += std::string(k) + "=null "; }
  void boolean(std::string_view k, bool v) override { log += std::string(k) + (v ? "=true " : "=false "); }
  void integer(std::string_view k, std::int64_t v) override { log += std::string(k) + "=i" + std::to_string(v) + " "; }
  void unsigned_integer(std::string_view k, std::uint64_t v) override { log += std::string(k) + "=u" + std::to_string(v) + " "; }
  void real(std::string_view k, double) override { log += std::string(k) + "=real "; }
  void string(std::string_view k, std::string_view v) override { log += std::string(k) + "='" + std::string(v) + "' "; }
  void begin_object(std::string_view k) override { log += std::string(k) + "{ "; }
  void end_object() override { log += "} "; }
  void begin_array(std::string_view k) override { log += std::string(k) + "[ "; }
  void end_array() override { log += "] "; }
};

TEST(JsonPrinter, JsonThroughAnotherPrinter) {
  Recorder r;
  detail::print_json_fields(r, Json{{"a", -1}, {"b", {1u, "x"}}, {"c", {{"d", nullptr}}}});
  EXPECT_EQ(r.log, "a=i-1 b[ =u1 ='x' ] c{ d=null } ");
}

}  // namespace printer_test
}  // namespace assay

namespace assay {
namespace text_printer_test {

// docs/cli.md#info's text: "key: value", objects indented, arrays of objects counted and one JSON
// line each, other arrays as JSON, null and empty text as "-", terminal escapes.
TEST(TextPrinter, LinesByHand) {
  std::ostringstream out;
  detail::TextPrinter p(out);
  p.field("format", "igz").field("version", 10u).field("big", (std::uint64_t{1} << 53) + 1);
  p.field("none", std::optional<int>()).field("empty", "").field("name", std::string("a\x1b" "b"));
  p.field("ratio", 0.5).field("flag", false).field("list", std::vector<int>{1, 2});
  p.begin_object("header");
  p.field("magic", "IGZ\x01");
  p.begin_array("pools");
  p.begin_object("");
  p.field("index", 0);
  p.begin_array("sizes");
  p.field("", 4);
  p.end_array();
  p.end_object();
  p.begin_object("");
  p.field("index", 1);
  p.end_object();
  p.end_array();
  p.end_object();
  p.begin_array("empty_list");
  p.end_array();
  EXPECT_EQ(out.str(),
            "format: igz\nversion: 10\nbig: 0x20000000000001\nnone: -\nempty: -\nname: a\\eb\n"
            "ratio: 0.5\nflag: false\nlist: [1,2]\nheader:\n  magic: IGZ\\x01\n  pools: (2)\n"
            "    {\"index\":0,\"sizes\":[4]}\n    {\"index\":1}\nempty_list: []\n");
}

}  // namespace text_printer_test
}  // namespace assay
