// CLI verbs specific to warriors: `hash warriors`, `warriors classify`, `warriors load`,
// `pack warriors` and `pack warriors-container`. Library calls only (docs/cli.md#warriors).
#include <fmt/format.h>

#include <iostream>
#include <map>

#include "assay/core/folder.h"
#include "assay/core/hash.h"
#include "assay/core/mapped_file.h"
#include "assay/core/output.h"
#include "assay/core/progress.h"
#include "assay/formats/warriors/chunks.h"
#include "assay/formats/warriors/classify.h"
#include "assay/formats/warriors/disc.h"
#include "assay/formats/warriors/writer.h"
#include "assay/ops.h"
#include "cli.h"
#include "formats/json_printer.h"
#include "formats/serialise.h"

namespace assay::cli {

namespace {

struct WarriorsArgs {
  std::string disc, spec, out, like, files_dir, name;
  std::vector<std::string> inputs;
  bool json = false, flat = false, grouped = false, pack = false, force = false;
};

void print_counts(const Json& j) {
  for (auto it = j["counts"].begin(); it != j["counts"].end(); ++it)
    if (it.value().get<std::uint64_t>() != 0)
      std::cout << fmt::format("{:<18} {:>7}  {:>14} bytes\n", it.key(), it.value().get<std::uint64_t>(),
                               j["bytes"][it.key()].get<std::uint64_t>());
  std::cout << fmt::format("{:<18} {:>7}\n", "total", j["entry_count"].get<std::uint64_t>());
}

// One record as a JSON line of text (names not UTF-8: docs/cli.md#escaping).
template <class F>
std::string json_line(F&& print) {
  return dump_json(assay::detail::printed_json(print));
}

void print_load(const warriors::LoadReport& x) {
  const warriors::LoadResult& r = x.result;
  if (x.entry) std::cout << "entry: " << json_line([&](FieldPrinter& p) { warriors::print_loaded_entry(*x.entry, p); }) << '\n';
  if (!x.warning.empty()) std::cout << "warning: " << x.warning << '\n';
  std::cout << "container: " << warriors::to_string(r.shape) << "\nchunks: " << r.chunks.size() << '\n';
  std::map<std::uint32_t, std::uint64_t> per_type;
  for (const auto& c : r.chunks) ++per_type[c.header.type];
  for (auto [t, n] : per_type) std::cout << fmt::format("  0x{:02X} {:<26} {}\n", t, warriors::chunk_type_name(t), n);
  std::cout << "chunk stack (bottom first): " << r.stacks.chunks().size() << '\n';
  for (const auto& c : r.stacks.chunks())
    std::cout << fmt::format("  0x{:02X} {} at 0x{:x}, {} bytes\n", c.type, warriors::chunk_type_name(c.type), x.base + c.offset, c.data.size());
  std::cout << "objects: " << r.stacks.objects().size() << '\n';
  for (const auto& o : r.stacks.objects())
    std::cout << "  " << json_line([&](FieldPrinter& p) { warriors::print_loaded_object(o, p); }) << '\n';
  std::cout << "stored: " << r.stored.size() << '\n';
  for (const auto& s : r.stored)
    std::cout << "  " << json_line([&](FieldPrinter& p) { warriors::print_stored_item(s, x.base, p); }) << '\n';
  std::cout << "trailing bytes: " << r.trailing << '\n';
  for (const auto& d : r.diags.items())
    std::cout << to_string(d.severity) << ": " << (d.where.structure.empty() ? std::string() : d.where.structure + ": ")
              << d.where.message << '\n';
  if (r.error)
    std::cout << "error: " << (r.error->structure.empty() ? r.error->message : r.error->structure + ": " + r.error->message)
              << (r.error->offset == kNoOffset ? std::string() : fmt::format(" (offset 0x{:x})", x.base + r.error->offset)) << '\n';
}

// "0x28=FILE" or "40=FILE": a chunk of that type with the file's bytes.
Result<warriors::ChunkSpec> parse_chunk_arg(const std::string& a) {
  const auto eq = a.find('=');
  if (eq == std::string::npos) return usage_error(a + ": expected TYPE=FILE (e.g. 0x28=bones.bin)");
  std::uint32_t type;
  try {
    type = static_cast<std::uint32_t>(std::stoul(a.substr(0, eq), nullptr, 0));
  } catch (...) {
    return usage_error(a + ": bad chunk type");
  }
  ASSAY_TRY(FileBytes f, FileBytes::read(a.substr(eq + 1)));  // never mapped, never a FIFO
  return warriors::ChunkSpec{type, 0, ByteBuffer(f.bytes().begin(), f.bytes().end()), 0};
}

// The FILE of an input argument: "TYPE=FILE" chunks, or a resource file with --pack.
std::string input_file(const WarriorsArgs& a, const std::string& arg) {
  const auto eq = arg.find('=');
  return a.pack || eq == std::string::npos ? arg : arg.substr(eq + 1);
}

// Bytes of the input files (the progress total of `pack warriors-container`).
std::uint64_t input_bytes(const WarriorsArgs& a) {
  std::uint64_t total = 0;
  std::error_code ec;
  for (const auto& arg : a.inputs) {
    const auto n = std::filesystem::file_size(input_file(a, arg), ec);
    if (!ec) total += n;
  }
  return total;
}

// The container's bytes from the input files, read one by one under `progress`.
Result<ByteBuffer> build_container(const WarriorsArgs& a, Progress& progress) {
  if (a.pack) {
    std::vector<ByteBuffer> res;
    for (const auto& f : a.inputs) {
      progress.set_current(f);
      ASSAY_TRY(FileBytes m, FileBytes::read(f));
      res.emplace_back(m.bytes().begin(), m.bytes().end());
      progress.advance(res.back().size());
    }
    return warriors::write_pack(res);
  }
  std::vector<warriors::ChunkSpec> chunks;
  for (const auto& f : a.inputs) {
    progress.set_current(input_file(a, f));
    ASSAY_TRY(warriors::ChunkSpec c, parse_chunk_arg(f));
    chunks.push_back(std::move(c));
    progress.advance(chunks.back().data.size());
  }
  const std::uint32_t h = warriors_resource_hash(a.name);
  for (auto& c : chunks) c.id = h;
  return warriors::write_resource(h, chunks);
}

int run_pack_container(const Cli& cli, const WarriorsArgs& a) {
  Progress progress("pack", input_bytes(a), cli.progress());
  progress.set_bytes();
  auto out = build_container(a, progress);
  Result<void> w = out ? write_file_atomic(a.out, *out, a.force) : Result<void>(out.error());
  progress.finish();  // the bar's line cleared before any message
  return w ? kExitOk : report(w.error());
}

int run_pack_disc(const Cli& cli, const WarriorsArgs& a) {
  auto in = Input::open(a.like);
  if (!in) return report(in.error());
  auto disc = warriors::Disc::open(*in);
  if (!disc) return report(disc.error());
  auto rep = warriors::collect_replacements(*disc, a.files_dir);
  if (!rep) return report(rep.error());
  Progress progress("pack", disc->wad_bytes().size(), cli.progress());  // the original WAD, slot by slot
  progress.set_bytes();
  auto st = warriors::repack(*disc, *rep, a.out, a.force, progress.reporter());
  progress.finish();
  if (!st) return report(st.error());
  if (!cli.quiet)
    std::fprintf(stderr, "pack warriors: %u of %u entries replaced, WAD %llu bytes\n", st->replaced, disc->count(),
                 static_cast<unsigned long long>(st->wad_size));
  return kExitOk;
}

void add_family_verbs(Cli& cli, const std::shared_ptr<WarriorsArgs>& a) {
  auto* fam = cli.app.add_subcommand("warriors", "The Warriors: classify WAD entries, load chunk containers");
  fam->require_subcommand(1);
  example(*fam, "assay warriors classify GAME/");

  auto* classify = fam->add_subcommand("classify", "count the WAD entries of DISC by kind (spec warriors.md#wr-8)");
  classify->add_option("disc", a->disc, "folder, WARRIORS.DIR or ISO image (A::B inside a container)")->required();
  classify->add_flag("--json", a->json, "machine-readable output");
  example(*classify, "assay warriors classify --json GAME/");
  cli.add_read_options(*classify);
  classify->callback([&cli, a] {
    a->json = a->json || cli.json;  // the global --json too
    auto r = warriors_classify(a->disc, cli.read);  // A::B like every verb's input
    if (!r) return cli.fail(report(r.error().in_file(a->disc)));
    a->json ? print_json(json_of(r->document)) : print_counts(json_of(r->document));
  });

  auto* load = fam->add_subcommand("load", "load one entry (DISC::NAME, DISC::0xHASH) or a container FILE");
  load->add_option("entry", a->spec, "DISC::NAME | DISC::0xHASH | FILE (DISC:NAME also accepted)")->required();
  load->add_flag("--json", a->json, "machine-readable output");
  load->add_flag("--flat", a->flat, "force the flat loader");
  load->add_flag("--grouped", a->grouped, "force the grouped loader");
  example(*load, "assay warriors load GAME::level1.lev");
  cli.add_read_options(*load);
  load->callback([&cli, a] {
    a->json = a->json || cli.json;
    const LoadShape shape = a->flat ? LoadShape::flat : a->grouped ? LoadShape::grouped : LoadShape::automatic;
    auto r = warriors_load_report(a->spec, shape, cli.read);
    if (!r) return cli.fail(report(r.error()));
    if (a->json) print_json(assay::detail::printed_json([&](FieldPrinter& p) { warriors::print_load_report(*r, p); }));
    else print_load(*r);
    if (!r->ok()) cli.fail(kExitProblems);
  });
}

void add_pack_verbs(Cli& cli, const std::shared_ptr<WarriorsArgs>& a) {
  auto* pd = cli.pack->add_subcommand("warriors", "rebuild WARRIORS.DIR/.WAD like DISC with files replaced");
  pd->add_option("-o,--output", a->out, "output folder")->required();
  pd->add_option("--like", a->like, "the original disc (folder, DIR or ISO)")->required();
  pd->add_option("files", a->files_dir, "folder of replacement files (<name> or <8-hex-hash>.bin)")->required();
  pd->add_flag("-f,--force", a->force, "overwrite existing files");
  example(*pd, "assay pack warriors -o newdisc/ --like GAME/ replacements/");
  pd->callback([&cli, a] { cli.fail(run_pack_disc(cli, *a)); });

  auto* pc = cli.pack->add_subcommand("warriors-container", "write a chunk container (resource or --pack)");
  pc->add_option("-o,--output", a->out, "output file")->required();
  pc->add_option("--name", a->name, "resource name hashed as-is (or 0xHASH)")->default_val("resource");
  pc->add_flag("--pack", a->pack, "inputs are resources: write a pack");
  pc->add_option("inputs", a->inputs, "TYPE=FILE chunks, or resource files with --pack")->required();
  pc->add_flag("-f,--force", a->force, "overwrite an existing file");
  example(*pc, "assay pack warriors-container -o res.bin 0x28=bones.bin");
  pc->callback([&cli, a] { cli.fail(run_pack_container(cli, *a)); });
}

}  // namespace

void register_warriors(Cli& cli) {
  cli.hashes["warriors"] = [](const std::string& s) { return hex8(warriors::name_hash(s)); };
  auto a = std::make_shared<WarriorsArgs>();
  if (cli.wants("warriors")) add_family_verbs(cli, a);
  if (cli.pack != nullptr) add_pack_verbs(cli, a);
}

}  // namespace assay::cli
