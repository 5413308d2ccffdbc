// The base colour textures of a model file's materials (model_materials.h).
#include "model_materials.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "assay/family.h"
#include "assay/formats/igz/image.h"
#include "assay/image/png.h"

namespace assay::igz::detail {

namespace {

struct OpenedIgz {
  IgzFile file;
  Fixups fixups;
  Graph graph;
};

Result<OpenedIgz> open_igz(const Input& in) {
  ASSAY_TRY(IgzFile f, IgzFile::open(in.bytes));
  ASSAY_TRY(Fixups fx, decode_fixups(f));
  Graph g = build_graph(f, fx, nullptr);
  return OpenedIgz{std::move(f), std::move(fx), std::move(g)};
}

// The files one model file's materials need, each read from the siblings and each material file
// opened once (an actor's materials share one material file and often one texture).
class MaterialFiles {
 public:
  explicit MaterialFiles(const Siblings& siblings) : siblings_(siblings) {}

  // The file `name` from the siblings; `why` says what failed when there is none.
  std::optional<Input> input(const std::string& name, std::string_view role, std::string& why) {
    auto it = inputs_.find(name);
    if (it == inputs_.end()) it = inputs_.emplace(name, siblings_.open_anywhere(name)).first;
    const Result<std::optional<Input>>& in = it->second;
    if (!in) why = fmt::format("{} does not read: {}", name, in.error().message);
    else if (!*in) why = fmt::format("{} ({}) is not in this container or folder", name, role);
    return in ? *in : std::nullopt;
  }

  struct Opened {
    explicit Opened(OpenedIgz o) : igz(std::move(o)), reader(igz.file, igz.fixups, igz.graph) {}
    OpenedIgz igz;
    MaterialReader reader;  // views igz
  };

  // The material file `name` opened with its reader; nullptr when it does not open (`why`).
  const Opened* material(const std::string& name, const Input& in, std::string& why) {
    auto it = materials_.find(name);
    if (it == materials_.end()) {
      auto opened = open_igz(in);
      it = materials_.emplace(name, opened ? Slot{std::make_unique<Opened>(std::move(*opened)), {}} : Slot{nullptr, opened.error().message}).first;
    }
    if (!it->second.opened) why = fmt::format("{} does not open: {}", name, it->second.error);
    return it->second.opened.get();
  }

 private:
  struct Slot {
    std::unique_ptr<Opened> opened;
    std::string error;  // why it did not open
  };
  const Siblings& siblings_;
  std::map<std::string, Result<std::optional<Input>>> inputs_;
  std::map<std::string, Slot> materials_;
};

// The material's bindings (its object named by `h.name` in the material file); the note says what failed.
void read_bindings(MaterialFiles& files, const Input& in, HandleHashes h, MaterialTexture& m) {
  const MaterialFiles::Opened* file = files.material(m.material_file, in, m.note);
  if (file == nullptr) return;
  const auto object = named_object(file->igz.graph, h.name);
  if (!object) {
    m.note = fmt::format("{} names no object {:08x}", m.material_file, h.name);
    return;
  }
  m.bindings = file->reader.read(*object).bindings;
}

// The binding at unit 0, else none (the note lists what there is).
void choose_base(MaterialFiles& files, MaterialTexture& m) {
  const auto unit0 = std::find_if(m.bindings.begin(), m.bindings.end(), [](const TextureBinding& b) { return b.unit == 0; });
  if (unit0 == m.bindings.end()) {
    m.note = fmt::format("{} binds no texture at unit 0 ({} bindings)", m.material_file, m.bindings.size());
    return;
  }
  m.base = *unit0;
  if (unit0->file.empty()) {
    m.note = fmt::format("unit 0's image {} is in no file {} lists", unit0->image, m.material_file);
    return;
  }
  m.image_file = files.input(unit0->file, "unit 0's image", m.note);
}

MaterialTexture find_one(const Fixups& fx, std::string_view handle, MaterialFiles& files) {
  MaterialTexture m;
  const auto h = handle_hashes(handle);
  const Dependency* d = h ? dependency_for(fx, h->name_space) : nullptr;
  if (!d) {
    m.note = "no dependency (TDEP) of this file is the material's namespace";
    return m;
  }
  m.material_file = std::string(dependency_file(d->path));
  const std::optional<Input> in = files.input(m.material_file, "the material", m.note);
  if (!in) return m;
  read_bindings(files, *in, *h, m);
  if (m.note.empty()) choose_base(files, m);
  return m;
}

int gl_wrap(std::uint32_t ig) { return ig == 1 || ig == 3 ? 10497 : 33071; }  // REPEAT, else CLAMP_TO_EDGE

int gl_min_filter(std::uint32_t ig) {
  switch (ig) {
    case 0: return 9728;            // NEAREST
    case 2: return 9984;            // NEAREST_MIPMAP_NEAREST
    case 3: return 9986;            // NEAREST_MIPMAP_LINEAR
    case 4: case 7: return 9985;    // LINEAR_MIPMAP_NEAREST
    case 5: case 8: return 9987;    // LINEAR_MIPMAP_LINEAR
    default: return 9729;           // LINEAR, anisotropic
  }
}

model::Sampler sampler(const TextureBinding& b) {
  return {.mag_filter = b.mag_filter == 0 || b.mag_filter == 2 || b.mag_filter == 3 ? 9728 : 9729,
          .min_filter = gl_min_filter(b.min_filter),
          .wrap_s = gl_wrap(b.wrap_s),
          .wrap_t = gl_wrap(b.wrap_t)};
}

// The igImage2 the handle names (the first one when the name is not in the root list), as PNG.
Result<model::Image> image_png(const MaterialTexture& m) {
  ASSAY_TRY(OpenedIgz t, open_igz(*m.image_file));
  std::optional<std::size_t> object = named_object(t.graph, m.base->name_hash);
  if (!object || t.graph.objects[*object].type_name != "igImage2") {
    const auto& o = t.graph.objects;
    const auto it = std::find_if(o.begin(), o.end(), [](const Object& x) { return x.type_name == "igImage2"; });
    if (it == o.end()) return make_error("igz", m.base->file, 0, "holds no igImage2");
    object = static_cast<std::size_t>(it - o.begin());
  }
  ASSAY_TRY(Image2 img, read_image2(t.file, t.fixups, t.graph, *object));
  ASSAY_TRY(image::Rgba rgba, decode_image2(t.file, img, 0));
  ASSAY_TRY(ByteBuffer png, image::encode_png(rgba));
  const std::string_view file = m.base->file;  // named after the texture igz, without ".igz"
  return model::Image{.name = std::string(file.substr(0, file.rfind('.'))), .png = std::move(png)};
}

// Whether every primitive drawn with material `k` has TEXCOORD_0.
bool texcoords_for(const model::Scene& s, std::uint32_t k) {
  for (const model::Mesh& mesh : s.meshes)
    for (const model::Primitive& p : mesh.primitives)
      if (p.material == k && mesh.texcoords.empty()) return false;
  return true;
}

void put_facts(const MaterialTexture& m, model::Material& mat) {
  if (!m.material_file.empty()) mat.extras["material_file"] = m.material_file;
  std::string units;
  for (const TextureBinding& b : m.bindings)
    units += fmt::format("{}unit {}: {}", units.empty() ? "" : "; ", b.unit, b.file.empty() ? b.image : b.file);
  if (!units.empty()) mat.extras["texture_units"] = units;
  if (m.base) mat.extras["base_color_texture"] = fmt::format("{} (unit 0, assumed the base colour)", m.base->file);
  if (!m.note.empty()) mat.extras["texture_note"] = m.note;
}

}  // namespace

MaterialTextures find_material_textures(const Fixups& model_fixups, const std::vector<std::string>& handles,
                                        const Siblings& siblings) {
  MaterialTextures out;
  MaterialFiles files(siblings);
  for (const std::string& h : handles)
    if (!h.empty() && !out.contains(h)) out.emplace(h, find_one(model_fixups, h, files));
  return out;
}

void apply_material_textures(const MaterialTextures& found, model::Scene& s) {
  std::map<std::string, std::uint32_t> images;  // by file: one image per texture igz
  for (std::uint32_t k = 0; k < s.materials.size(); ++k) {
    model::Material& mat = s.materials[k];
    const auto handle = mat.extras.find("handle");
    if (handle == mat.extras.end() || !std::holds_alternative<std::string>(handle->second)) continue;
    const auto it = found.find(std::get<std::string>(handle->second));
    if (it == found.end()) continue;
    const MaterialTexture& m = it->second;
    put_facts(m, mat);
    if (!m.image_file) continue;
    if (!texcoords_for(s, k)) {
      mat.extras["texture_note"] = "the mesh has no texture coordinates";
      continue;
    }
    auto [at, added] = images.emplace(m.base->file, static_cast<std::uint32_t>(s.images.size()));
    if (added) {
      auto img = image_png(m);
      if (!img) {
        images.erase(at);
        mat.extras["texture_note"] = fmt::format("{} does not decode: {}", m.base->file, img.error().message);
        continue;
      }
      s.images.push_back(std::move(*img));
    }
    mat.texture = model::TextureRef{.image = at->second, .sampler = sampler(*m.base)};
  }
}

}  // namespace assay::igz::detail
