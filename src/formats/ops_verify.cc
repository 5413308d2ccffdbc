// verify_file (assay/ops.h): the one verify of a file or A::B path, for the CLI, Python and the viewer.
#include "assay/ops.h"

#include "assay/family.h"

namespace assay {

Result<VerifyOutcome> verify_file(const std::string& spec, const ContainerOptions& opt, const DeepOptions* deep) {
  ASSAY_TRY(Input in, resolve_path(spec, opt));
  VerifyOutcome out;
  const Family* f = identify_family(in);
  if (f == nullptr) {
    out.diags.error(unrecognised_error(spec));
    out.hint = unrecognised_hint(in);
    return out;
  }
  out.family = std::string(f->name);
  auto c = open(in, opt, f->name);
  if (c) {
    (*c)->verify(out.diags);
    if (deep != nullptr) verify_deep(**c, out.diags, *deep);
    return out;
  }
  if (f->verify_unopened != nullptr) {
    const std::unique_ptr<Siblings> siblings = folder_siblings(in);
    f->verify_unopened(OpenContext{in, opt, *siblings}, out.diags);
  }
  if (!out.diags.has_errors()) out.diags.error(c.error());
  return out;
}

}  // namespace assay
