// libFuzzer target for the clump exporter: decode_clump, the glTF scene built from it (with a
// texture dictionary when the input holds one), the GLB and .gltf writers, and the family
// container's model entries (Container::model). Corpus: fuzz/corpus/rw_model/ (clumps made by
// assay's own writer).
#include <cstddef>
#include <cstdint>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/formats/renderware/gltf_export.h"
#include "assay/formats/renderware/model.h"
#include "assay/model/gltf.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace assay;
  const ByteView b(data, size);
  Diagnostics d;
  if (auto clump = rw::decode_clump(b, 0, d.sink()); clump.ok()) {
    rw::ExportNotes notes;
    if (auto scene = rw::clump_scene(std::move(*clump), "fuzz", {}, notes); scene.ok()) {
      (void)model::write_glb(*scene);
      (void)model::write_gltf(*scene, "fuzz");
    }
  } else if (clump.error().code.empty()) {
    __builtin_trap();  // every error has a code (docs/cli.md#codes)
  }
  Input in = Input::from_buffer("fuzz.dff", ByteBuffer(b.begin(), b.end()));
  if (kRenderWareFamily.identify(in) > 0) {
    const ContainerOptions opt;
    if (auto c = kRenderWareFamily.open({in, opt, no_siblings()}); c.ok())
      for (const Entry& e : (*c)->entries())
        if (e.kind == assay::EntryKind::model) (void)(*c)->model(e);
  }
  return 0;
}
