// verify_file and verify_input (assay/ops.h): the one verify of a file or A::B path, for the CLI,
// Python, the viewer and the tests.
#include "assay/ops.h"

#include <filesystem>
#include <optional>
#include <system_error>

#include "assay/family.h"

namespace assay {

namespace {

// verify_input with the siblings given: the input's folder, or the container's entries beside it.
VerifyOutcome verify_with(const Input& in, const ContainerOptions& opt, const DeepOptions* deep,
                          std::string_view family, const Siblings& siblings) {
  VerifyOutcome out;
  const Family* f = family.empty() ? identify_family(in) : find_family(family);
  if (f == nullptr) {
    out.diags.error(unrecognised_error(in.name));
    out.hint = unrecognised_hint(in);
    return out;
  }
  out.family = std::string(f->name);
  auto c = open(in, opt, f->name, siblings);
  if (c) {
    (*c)->verify(out.diags);
    if (deep != nullptr) verify_deep(**c, out.diags, *deep);
    return out;
  }
  if (f->verify_unopened != nullptr) f->verify_unopened(OpenContext{in, opt, siblings}, out.diags);
  if (!out.diags.has_errors()) out.diags.error(c.error());
  return out;
}

// A::B whose container A opens and holds B: B read from it, its siblings A's entries beside it
// (so a WARRIORS.DIR finds its WAD); nullopt otherwise (resolve_path then reports why).
std::optional<VerifyOutcome> verify_entry_of(const std::string& spec, const ContainerOptions& opt,
                                             const DeepOptions* deep) {
  std::error_code ec;
  const auto sep = spec.rfind("::");
  if (sep == std::string::npos || std::filesystem::exists(spec, ec)) return std::nullopt;
  auto parent = open_path(spec.substr(0, sep), opt);
  if (!parent) return std::nullopt;
  const Entry* e = (*parent)->find(spec.substr(sep + 2));
  if (e == nullptr) return std::nullopt;
  auto in = (*parent)->read(*e);
  if (!in) return std::nullopt;
  in->name = spec;
  const std::unique_ptr<Siblings> siblings = entry_siblings(**parent, *e);
  return verify_with(*in, opt, deep, {}, *siblings);
}

}  // namespace

VerifyOutcome verify_input(const Input& in, const ContainerOptions& opt, const DeepOptions* deep,
                           std::string_view family) {
  const std::unique_ptr<Siblings> siblings = folder_siblings(in);
  return verify_with(in, opt, deep, family, *siblings);
}

Result<VerifyOutcome> verify_file(const std::string& spec, const ContainerOptions& opt, const DeepOptions* deep) {
  if (auto v = verify_entry_of(spec, opt, deep)) return std::move(*v);
  ASSAY_TRY(Input in, resolve_path(spec, opt));
  return verify_input(in, opt, deep);  // in.name is the spec (resolve_path)
}

}  // namespace assay
