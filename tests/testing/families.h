// A family's verbs over one input, for tests: what `assay info/list/verify/extract` do, through the
// family's Container (include/assay/family.h, ops.h). Tests link assay_formats.
#pragma once

#include <memory>
#include <string_view>

#include "assay/family.h"
#include "assay/ops.h"
#include "formats/serialise.h"

namespace assay::testing {

inline Result<std::unique_ptr<Container>> open_as(const Input& in, std::string_view family, const ReadOptions& ro = {}) {
  ASSAY_TRY(ContainerOptions o, container_options(ro));
  return open(in, o, family);
}

// {"format", ...info} as `info --json` prints it.
inline Result<Json> info_of(const Input& in, std::string_view family, const ReadOptions& ro = {}) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_as(in, family, ro));
  return info_json(*c);
}

// {"format", ...fields, "entries"} as `list --json` prints it.
inline Result<Json> list_of(const Input& in, std::string_view family, const ReadOptions& ro = {}) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_as(in, family, ro));
  return list_json(*c);
}

// Every problem, as `verify` finds them: through the container, else the family's account of why
// the input does not open.
inline void verify_of(const Input& in, std::string_view family, const ReadOptions& ro, Diagnostics& out) {
  auto o = container_options(ro);
  if (!o) return out.error(o.error());
  out.append(verify_input(in, *o, nullptr, family).diags);
}

inline Result<ExtractStats> extract_of(const Input& in, std::string_view family, const ReadOptions& ro,
                                       const ExtractOptions& x, const OutputDir& dir, Diagnostics& findings) {
  ASSAY_TRY(std::unique_ptr<Container> c, open_as(in, family, ro));
  return extract(*c, x, dir, findings);
}

}  // namespace assay::testing
