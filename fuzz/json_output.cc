// libFuzzer target: the JSON every reading verb prints. The input goes through every format
// that identifies it (info, list, verify as `verify --json` builds it) and the family JSON views
// (igz dump/list, Warriors load); each Json is serialised as the CLI prints it (dump(2) and the
// text printer's compact dump()). Issue 15 item 1: a name that is not UTF-8 must not abort
// (see fuzz_util.h dump_all for how that known case is handled until the escaping lands).
#include <cstddef>
#include <cstdint>

#include "assay/family.h"
#include "assay/ops.h"
#include "assay/options.h"
#include "formats/json_printer.h"
#include "assay/formats/oni/oni.h"
#include "../src/formats/warriors/family_parts.h"
#include "fuzz_util.h"
#include "formats/serialise.h"
#include "core/json_text.h"

namespace {

assay::Json diagnostics_json(const assay::Diagnostics& d) {
  // the shape of tools/assay/cli.cc diagnostic_json
  assay::Json arr = assay::Json::array();
  for (const auto& x : d.items()) {
    assay::Json j;
    j["severity"] = assay::to_string(x.severity);
    j["structure"] = x.where.structure;
    if (x.where.offset == assay::kNoOffset) j["offset"] = nullptr;
    else j["offset"] = x.where.offset;
    j["message"] = x.where.message;
    j["text"] = x.where.str();
    arr.push_back(std::move(j));
  }
  return arr;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  static const ReadOptions opt = [] {
    ReadOptions o;
    o.threads = 1;
    const auto p = fuzz::scratch() / "oni-layouts.txt";
    const std::string t = oni::sample_layouts_text();
    fuzz::write_bytes(p, t.data(), t.size());
    o.family["layouts"] = p.string();
    return o;
  }();
  if (size > (1u << 20)) return 0;
  const ByteView b(data, size);
  const Input in = Input::from_buffer("level0_Final.dat", ByteBuffer(b.begin(), b.end()));
  const ContainerOptions co = *container_options(opt);
  for (const Family* f : families()) {
    if (f->identify(in) <= 0) continue;
    Json out;
    if (auto c = open(in, co, f->name)) {
      if (auto i = info_json(**c)) out["info"] = std::move(*i);
      else out["info_error"] = i.error().str();
      out["list"] = list_json(**c);
    } else {
      out["open_error"] = c.error().str();
    }
    out["verify"] = diagnostics_json(verify_input(in, co, nullptr, f->name).diags);
    fuzz::dump_all(out);
  }
  // family JSON views
  {
    Diagnostics d;
    if (auto x = igz::read_dump(b, {}, d.sink()))
      fuzz::dump_all(detail::printed_json([&](FieldPrinter& p) { igz::print_dump(*x, p); }));
    fuzz::dump_all(diagnostics_json(d));
  }
  static const warriors::HandlerTable table = warriors::HandlerTable::standard();
  warriors::LoadReport load;
  load.result = warriors::load_container(b, table);
  fuzz::dump_all(detail::printed_json([&](FieldPrinter& p) { warriors::print_load_report(load, p); }));
  return 0;
}
