#include "formats/model_output.h"

#include "assay/model/gltf.h"

namespace assay {

Result<ExtractCount> write_model_files(const model::Scene& s, const std::string& glb_path, const OutputDir& dir, bool gltf) {
  if (!gltf) {
    ASSAY_TRY(ByteBuffer glb, model::write_glb(s));
    ASSAY_CHECK(dir.write(glb_path, glb));
    return ExtractCount{1, glb.size()};
  }
  // The .bin and the images go beside the .gltf, named from its base name: the URIs inside are
  // relative to the .gltf's folder.
  const std::string stem = glb_path.substr(0, glb_path.size() - 4);  // without ".glb"
  const std::size_t cut = stem.find_last_of("/\\");
  const std::string folder = cut == std::string::npos ? std::string() : stem.substr(0, cut + 1);
  ASSAY_TRY(std::vector<model::GltfFile> files, model::write_gltf(s, stem.substr(folder.size())));
  ExtractCount n;
  for (const model::GltfFile& f : files) {
    ASSAY_CHECK(dir.write(folder + f.name, f.bytes));
    n.files += 1, n.bytes += f.bytes.size();
  }
  return n;
}

}  // namespace assay
