// A family of formats (igArchive, igz, RenderWare, Warriors, Oni) as the program sees it: one
// descriptor each (src/formats/<family>/family.cc) and one list of them (src/formats/registry.cc).
//
// Opening goes through an OpenContext: the input, the options and the input's siblings, the files
// that go with it (an Oni level's .raw/.sep and level 0, a Warriors DIR's WAD). At top level the
// siblings are the input's folder; inside a container they are that container's other entries,
// so `pack.pak::level1_Final.dat` finds `level1_Final.raw` inside `pack.pak` (7-Zip's
// IArchiveOpenVolumeCallback plays this part there).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "assay/container.h"
#include "assay/document.h"

namespace assay {

// The files beside the one being opened. Used during open() only: a family takes the Inputs it
// needs then (each Input owns its bytes).
class Siblings {
 public:
  virtual ~Siblings() = default;
  // The sibling named `name` (a file name, compared without case), nullopt when there is none.
  [[nodiscard]] virtual Result<std::optional<Input>> open(std::string_view name) const = 0;
  // Every sibling's file name (no folders), e.g. to find the other levels of a level set.
  [[nodiscard]] virtual std::vector<std::string> names() const = 0;
  // A file named `file_name` (compared without case) anywhere in the same tree, not only beside
  // the input: any folder of the container the input came from; for a file on disk, its folder,
  // then each of up to four folders above it and their subfolders one level down (an extracted
  // archive). Alchemy's dependencies name files by a mount ("materials:/x.igz") whose folder the
  // archive does not say. nullopt when there is none; the first in entry (or name) order wins.
  [[nodiscard]] virtual Result<std::optional<Input>> open_anywhere(std::string_view file_name) const;
};

// No siblings (an input held in memory).
const Siblings& no_siblings();
// The files of a folder: for a file, the folder it is in; for a folder, its own files.
std::unique_ptr<Siblings> folder_siblings(const Input& in);
// The entries of `parent` in the same folder (of the entry's path) as `of`.
std::unique_ptr<Siblings> entry_siblings(const Container& parent, const Entry& of);

// PATH or PATH::INNER::... (as resolve_path) with its siblings: the input's folder for a file, the
// entries beside it in its container for an inner file (so w.arc::disc/WARRIORS.DIR finds the
// WAD inside w.arc). The container is kept open while the siblings are used.
struct ResolvedInput {
  Input input;
  std::unique_ptr<Container> parent;  // the container `input` was read from; nullptr for a file
  std::unique_ptr<Siblings> siblings;  // declared after `parent`: destroyed first
};
Result<ResolvedInput> resolve_with_siblings(const std::string& spec, const ContainerOptions& opt = {});

struct OpenContext {
  Input input;
  const ContainerOptions& options;
  const Siblings& siblings;
};

struct Family {
  std::string_view name;         // "igarchive", "igz", "renderware", "warriors", "oni"
  std::string_view description;  // one line for `assay formats`
  // Confidence that `in` is of this family from its bytes and name: 0 = no; 100 = magic matched.
  int (*identify)(const Input& in) = nullptr;
  // Parses the input once and proves its tables (the Container the verbs use).
  Result<std::unique_ptr<Container>> (*open)(const OpenContext& ctx) = nullptr;
  // Every problem of an input that does not open (verify's account of why); nullptr: the open
  // error alone.
  void (*verify_unopened)(const OpenContext& ctx, Diagnostics& out) = nullptr;
  // Writes small demo files with the family's own writers (the README's demo); the names written.
  Result<std::vector<std::string>> (*write_samples)(const std::filesystem::path& dir) = nullptr;
  // Entry fields printed, in order, by the text form of `list`.
  std::vector<std::string> list_columns;
  // Applies `req` to the container `in` and writes the result (never over the input unless
  // req.in_place; nothing is left behind on failure). nullptr: the family cannot be edited.
  // Its report (docs/cli.md#edit) is what `--json` prints.
  Result<JsonDocument> (*edit)(const Input& in, const EditRequest& req) = nullptr;
};

// Every family, in identify order; by name; the most confident for `in` (nullptr: none).
const std::vector<const Family*>& families();
const Family* find_family(std::string_view name);
const Family* identify_family(const Input& in);

// The descriptors (src/formats/<family>/family.cc).
extern const Family kIgArchiveFamily;
extern const Family kIgzFamily;
extern const Family kRenderWareFamily;
extern const Family kWarriorsFamily;
extern const Family kOniFamily;

}  // namespace assay
