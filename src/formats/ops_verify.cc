// verify_file and verify_input (assay/ops.h): the one verify of a file or A::B path, for the CLI,
// Python, the viewer and the tests.
#include "assay/ops.h"

#include "assay/family.h"

namespace assay {

VerifyOutcome verify_input(const Input& in, const ContainerOptions& opt, const DeepOptions* deep,
                           std::string_view family) {
  VerifyOutcome out;
  const Family* f = family.empty() ? identify_family(in) : find_family(family);
  if (f == nullptr) {
    out.diags.error(unrecognised_error(in.name));
    out.hint = unrecognised_hint(in);
    return out;
  }
  out.family = std::string(f->name);
  const std::unique_ptr<Siblings> siblings = folder_siblings(in);
  auto c = open(in, opt, f->name, *siblings);
  if (c) {
    (*c)->verify(out.diags);
    if (deep != nullptr) verify_deep(**c, out.diags, *deep);
    return out;
  }
  if (f->verify_unopened != nullptr) f->verify_unopened(OpenContext{in, opt, *siblings}, out.diags);
  if (!out.diags.has_errors()) out.diags.error(c.error());
  return out;
}

Result<VerifyOutcome> verify_file(const std::string& spec, const ContainerOptions& opt, const DeepOptions* deep) {
  ASSAY_TRY(Input in, resolve_path(spec, opt));
  return verify_input(in, opt, deep);  // in.name is the spec (resolve_path)
}

}  // namespace assay
