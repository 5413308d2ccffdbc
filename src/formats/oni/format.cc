// The oni Format record: the family's functions (family.cc, json.cc) under the string-map API.
#include "assay/container.h"
#include "assay/formats/format.h"
#include "assay/formats/oni/edit.h"
#include "assay/formats/oni/oni.h"
#include "assay/ops.h"
#include "family_parts.h"

namespace assay {

namespace {

using namespace oni;

Result<Json> info(const Input& in, const ReadOptions&) {
  ASSAY_TRY(InstanceFile f, InstanceFile::open(in.bytes, in.name));
  Json j;
  j["format"] = "oni";
  j.update(info_fields(f, in));
  return j;
}

Result<Json> list(const Input& in, const ReadOptions&) {
  ASSAY_TRY(InstanceFile f, InstanceFile::open(in.bytes, in.name));
  return list_document(f);
}

// One .oni per named instance, or with --textures one PNG per TXMP: the container's write_entry
// through the shared extract loop (ops.h).
Result<ExtractStats> extract(const Input& in, const ReadOptions& opt, const ExtractOptions& x, const OutputDir& dir, Diagnostics& diags) {
  ASSAY_TRY(assay::ContainerOptions co, container_options(opt));
  ASSAY_TRY(std::unique_ptr<Container> c, assay::open(in, co, "oni"));
  return assay::extract(*c, x, dir, diags);
}

}  // namespace

const Format kOniFormat = {
    .name = "oni",
    .description = "Oni instance file (.dat/.raw/.sep, .oni)",
    .identify = identify_input,
    .info = info,
    .list = list,
    .verify = verify_input,
    .extract = extract,
    .write_samples = write_sample_files,
    .list_columns = {"index", "tag", "flags", "size", "name"},
    .edit = oni::edit_format,
};

}  // namespace assay
