// The container model: one typed API over every family.
//
//   auto c = assay::open_path("GAME::level1.lev::0003_47.bin", opt);   // or open(Input, opt)
//   for (const Entry& e : (*c)->entries()) { auto bytes = (*c)->read(e); ... }
//   auto inner = (*c)->open(*(*c)->find("x.igz"));                     // any depth
//   Diagnostics d; (*c)->verify(d);  verify_deep(**c, d, {});
//
// A Container is opened once: the family parses its tables in open() (LLVM Object's create()),
// entries() is a span over that parse, find() is a hash lookup, read() views or decodes one
// entry, open() makes a Container of an inner file. The family readers stay the non-owning
// views underneath; the Container owns the Input (mapping or buffer) they view.
//
// The JSON the CLI prints for info/list/verify --json is written by one serialiser
// (src/formats/serialise.h) from what the families print (print_info, print_details), so every
// family follows docs/cli.md and docs/schema/.
// A new family: src/formats/<fmt>/container.cc defines open_<fmt>_container() and adds one
// line to the table in src/formats/container.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "assay/core/diag.h"
#include "assay/core/input.h"
#include "assay/options.h"
#include "assay/printer.h"
#include "assay/image/png.h"
#include "assay/audio/sound.h"

namespace assay {

struct OpenContext;  // assay/family.h
class Siblings;     // assay/family.h

// ---- Options: typed per family, converted once from the CLI's string map -------------------
namespace igarchive {
struct ContainerOptions {
  std::uint64_t member_cap = std::uint64_t{1} << 30;  // --igarchive-max-member (spec: alchemy.md#verify)
};
}  // namespace igarchive
namespace igz {
struct ContainerOptions {
  unsigned pointer_size = 0;  // --igz-pointer-size: 0 = from the platform, 4 or 8
  // Models' materials followed at open to their texture (the material and texture igz read from
  // the container or folder around); off where only the entries matter (the viewer's scan of
  // which members open as containers), so the models export untextured.
  bool material_textures = true;
};
}  // namespace igz
namespace rw {
struct ContainerOptions {
  std::vector<std::string> txd;  // --txd FILE...: dictionaries for the models' textures
  // Texture dictionary streams the holding container supplies (a game's rule, such as the
  // Warriors' chunk containers): searched after --txd and the sibling <stem>.txd.
  std::vector<Input> dictionaries;
};
}  // namespace rw
namespace oni {
struct ContainerOptions {
  std::string layouts;  // --layouts FILE
  std::string exe;      // --exe Oni.exe
  bool sounds = false;  // --sounds: SNDD as 16-bit PCM NAME.wav
  bool adpcm = false;   // --adpcm: SNDD data as stored, in a WAV (MS ADPCM, PCM) or AIFC (IMA4)
};
}  // namespace oni

struct ContainerOptions {
  std::vector<std::string> names_files;  // --names: hash -> name lists
  unsigned threads = 0;                  // 0 = all cores
  bool progress = false;                 // progress on stderr (terminal only)
  // extract's conversions a family applies where its default is the stored bytes:
  bool textures = false;  // --textures: texture entries as PNG (Oni TXMPs; igz images inside an igArchive)
  bool models = false;    // --models: model entries as glTF (Oni M3GMs)
  igarchive::ContainerOptions igarchive;
  igz::ContainerOptions igz;
  oni::ContainerOptions oni;
  rw::ContainerOptions renderware;
  // The same options as the string map the Format records still take (for the family
  // functions not yet typed).
  [[nodiscard]] ReadOptions read_options() const;
};

// Parses ReadOptions::family once ("1M" sizes, "4"/"8" pointer sizes); a bad value is a usage
// error naming the option.
Result<ContainerOptions> container_options(const ReadOptions& ro);
// "123", "64K", "1M", "2G" (binary: K = 1024), optional "iB"/"B"; usage error otherwise.
Result<std::uint64_t> parse_size(std::string_view text);

// How write_entry writes one entry (extract's options that reach it).
struct WriteOptions {
  unsigned threads = 1;  // cores for one large entry (extract_each gives 1 when entries run in parallel)
  bool mips = false;     // textures: every mip level
  bool stored = false;   // the bytes as stored, not converted
  bool gltf = false;     // models: .gltf + .bin + PNG files instead of one .glb
};

// ---- Entries ---------------------------------------------------------------------------------
// What an entry is, in every family's terms (docs/cli.md#list): the verbs, the viewer and Python
// branch on it; list prints its name ("file", "instance", ...).
enum class EntryKind : std::uint8_t { file, instance, object, section, chunk, atomic, texture, model, animation, sound };
std::string_view entry_kind_name(EntryKind k);

// A texture entry's size, known at open: the memory budget before decoding, the viewer.
struct TextureInfo {
  std::uint32_t width = 0, height = 0;
  std::uint32_t mips = 0;  // 0 when unknown
};
// A sound entry's shape, known at open.
struct SoundInfo {
  std::uint32_t channels = 0, rate = 0;
  std::uint64_t frames = 0;
  std::string_view codec;  // "ms_adpcm", "ima4", "pcm"...; "" when not decoded. Static text.
};

struct Entry {
  std::uint64_t index = 0;                   // position in entries()
  std::optional<std::string> name;           // in the file's own terms; nullopt when unknown
  std::string path;                          // the relative path `extract` writes (unsanitised)
  std::optional<std::uint64_t> offset;       // absolute in the container's bytes
  std::optional<std::uint64_t> size;         // bytes read() returns
  std::optional<std::uint64_t> stored_size;  // bytes in the container (compressed size)
  EntryKind kind = EntryKind::file;
  // A finer class in the family's own terms that list prints instead of the kind's name (a
  // Warriors disc row's "pack", "lua", "sound_bank"...); "" when none. Static text.
  std::string_view family_kind;
  bool nested = false;  // read() gives a whole file that open() / verify --deep parse
  std::optional<TextureInfo> texture_info;  // kind texture, when its header reads
  std::optional<SoundInfo> sound_info;      // kind sound, when its header reads
  // family_kind when set, else entry_kind_name(kind): what list prints as "kind".
  [[nodiscard]] std::string_view kind_name() const { return family_kind.empty() ? entry_kind_name(kind) : family_kind; }
};

// ---- Container -------------------------------------------------------------------------------
class Container {
 public:
  virtual ~Container() = default;
  Container(const Container&) = delete;
  Container& operator=(const Container&) = delete;

  [[nodiscard]] std::string_view format() const noexcept { return format_; }  // the family
  [[nodiscard]] const Input& input() const noexcept { return input_; }
  [[nodiscard]] const ContainerOptions& options() const noexcept { return options_; }
  // Header fields in the family's terms (without "format", which the serialiser prints first).
  [[nodiscard]] virtual Result<void> print_info(FieldPrinter& p) const = 0;
  // Fields list prints before "entries" (container-level, e.g. "version").
  virtual void print_list_fields(FieldPrinter&) const {}
  // An entry's fields in the family's terms (docs/cli.md, per family), after the fields every
  // entry has; printed from the family's records when asked for, not held by the entry.
  virtual void print_details(const Entry&, FieldPrinter&) const {}
  [[nodiscard]] std::span<const Entry> entries() const noexcept { return entries_; }
  // By name, path, family alias (hash spellings, case rules) or "#INDEX"; nullptr if none.
  // A hash lookup, not a scan.
  [[nodiscard]] const Entry* find(std::string_view name) const;
  // True when the file's own lookup ignores case (an igArchive whose flags say so, a Warriors
  // disc's hashed names): globs then fold case too (core/glob.h).
  [[nodiscard]] virtual bool case_insensitive() const { return false; }
  // The entry's bytes (viewed in place or decoded; the Input owns them). Thread-safe.
  // `threads` decode one large entry on several cores (0 = all); callers that already read
  // entries in parallel pass 1.
  [[nodiscard]] virtual Result<Input> read(const Entry& e, unsigned threads) const;
  [[nodiscard]] Result<Input> read(const Entry& e) const { return read(e, options_.threads); }
  // A Container over the entry's bytes (identified by content). Thread-safe.
  [[nodiscard]] virtual Result<std::unique_ptr<Container>> open(const Entry& e) const;
  // False when the entry's first bytes already show no family claims it, so it need not be
  // decoded whole to find that out (igArchive looks at the first block of a
  // large member). True means "read it and identify it". Thread-safe.
  [[nodiscard]] virtual Result<bool> may_hold_format(const Entry&) const { return true; }
  // Every problem of this file (not of inner files: verify_deep). Errors stay errors.
  virtual void verify(Diagnostics& out) const = 0;
  // Decodes mip `mip` of a texture entry to RGBA (unsupported for other entries).
  [[nodiscard]] virtual Result<image::Rgba> texture(const Entry& e, unsigned mip = 0) const;
  // What `extract` writes for `e` under `dir`: by default its bytes (read()) at e.path; a family
  // converts where the entry is a texture, model or sound (PNG with mips, .oni, glTF, WAV). With
  // w.stored, the bytes as stored at stored_path(e). An entry without a path writes nothing.
  // Thread-safe; an error leaves no file of `e` behind (OutputDir writes atomically).
  [[nodiscard]] virtual Result<ExtractCount> write_entry(const Entry& e, const OutputDir& dir,
                                                         const WriteOptions& w) const;
  // A model entry as one binary glTF 2.0 file (GLB), what extract writes for it (unsupported for
  // other entries). Thread-safe.
  [[nodiscard]] virtual Result<ByteBuffer> model(const Entry& e) const;
  // A sound entry decoded to 16-bit PCM, what extract writes as WAV (unsupported for other
  // entries). Thread-safe.
  [[nodiscard]] virtual Result<audio::Sound> sound(const Entry& e) const;
  // Where w.stored writes `e` (default: e.path).
  [[nodiscard]] virtual std::string stored_path(const Entry& e) const { return e.path; }
  // Problems of the file itself that extract reports before its entries (a cut archive's lost
  // files, a dictionary's damaged textures); an error makes extract exit 1.
  virtual void extract_findings(Diagnostics&) const {}
  // An error when the container holds nothing extract writes (e.g. a clump: "only texture
  // dictionaries (.txd) hold files to extract").
  [[nodiscard]] virtual Result<void> extractable() const { return {}; }
  // An error about `e` in this container's terms.
  [[nodiscard]] Error entry_error(const Entry& e, std::string message, ErrorKind kind = ErrorKind::data) const;

 protected:
  Container(std::string_view format, Input in, ContainerOptions opt);
  // Sets the entries (index = position) and builds the lookup by name and path.
  void set_entries(std::vector<Entry> entries);
  // Extra spellings: family aliases (checked after name, path and #INDEX).
  [[nodiscard]] virtual const Entry* find_alias(std::string_view) const { return nullptr; }
  // The bytes [offset, offset + size) of the input, or an error naming the entry.
  [[nodiscard]] Result<Input> slice(const Entry& e) const;

 private:
  std::string format_;
  Input input_;
  ContainerOptions options_;
  std::vector<Entry> entries_;
  std::unordered_map<std::string, std::size_t> by_name_;
};

// "Did you mean" for a name or glob that selects nothing in `c` (core/suggest.h over the
// entries' paths and names, folding case where c.case_insensitive()); "" when nothing is close.
std::string suggest_entry(const Container& c, std::string_view selector);

// Opens `in` with the family that identifies it (or `family` when given). Unrecognised input is
// a data error "unrecognised file format".
Result<std::unique_ptr<Container>> open(Input in, const ContainerOptions& opt = {},
                                        std::string_view family = {});
// The same with the siblings the family may open (an Oni level's .raw, a Warriors DIR's WAD).
Result<std::unique_ptr<Container>> open(Input in, const ContainerOptions& opt, std::string_view family,
                                        const Siblings& siblings);
// Opens `in`, the bytes of `parent`'s entry `e`: its siblings are parent's other entries.
Result<std::unique_ptr<Container>> open_entry(const Container& parent, const Entry& e, Input in,
                                              const ContainerOptions& opt);
// Opens PATH or PATH::INNER::INNER... (each step found in the container before it, to any
// depth). A real file whose name contains "::" wins.
Result<std::unique_ptr<Container>> open_path(const std::string& spec, const ContainerOptions& opt = {});
// The bytes of PATH or PATH::INNER::... (for verbs that need bytes, not a container).
Result<Input> resolve_path(const std::string& spec, const ContainerOptions& opt = {});

// For input no family recognises: a sentence pointing to the fix ("" when there is none),
// e.g. a folder that is not a disc, or a WARRIORS.WAD given without its DIR.
std::string unrecognised_hint(const Input& in);

// ---- verify --deep ---------------------------------------------------------------------------
struct DeepOptions {
  unsigned depth = 1;     // levels of inner files below the container
  unsigned threads = 0;   // 0 = all cores (inner files in parallel)
  bool progress = false;
};
// Verifies every nested entry of `c` with its own family (opened from `c`, never re-parsing
// `c`), in parallel, appending in entry order; each diagnostic's structure starts with the
// entry's name. Time grows linearly with the number of inner files.
void verify_deep(const Container& c, Diagnostics& out, const DeepOptions& opt);

// ---- The one serialiser: src/formats/serialise.h (info, list, verify --json) -------------------

// ---- Families (src/formats/<fmt>/container.cc) -----------------------------------------------
Result<std::unique_ptr<Container>> open_igarchive_container(const OpenContext& ctx);
Result<std::unique_ptr<Container>> open_igz_container(const OpenContext& ctx);
Result<std::unique_ptr<Container>> open_renderware_container(const OpenContext& ctx);
Result<std::unique_ptr<Container>> open_warriors_container(const OpenContext& ctx);
Result<std::unique_ptr<Container>> open_oni_container(const OpenContext& ctx);



}  // namespace assay
