// An igz object file as a Container (spec: alchemy.md#igz): its entries are the objects of the
// RVTB list (offset = absolute file position, size = MTSZ of the type); read() views an
// object's bytes. Nested igz paths (ARCHIVE::x.igz) come from the archive's Container.
// An igImage2 whose fields are found (image.h) is a "texture" entry: texture() decodes it and
// extract writes it as PNG (--stored: the object's bytes as before). An igModelInfo (or a lone
// igModelData) whose graph reads (model.h) is a "model" entry: model() gives it as GLB, extract
// writes <index>_<name>.glb (--gltf: .gltf + .bin); verify checks its stored bounds and counts.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <optional>

#include "assay/container.h"
#include "assay/family.h"
#include "assay/core/output.h"
#include "assay/formats/igz/dump.h"
#include "assay/formats/igz/graph.h"
#include "assay/formats/igz/image.h"
#include "assay/formats/igz/edge.h"
#include "assay/formats/igz/model.h"
#include "json.h"
#include "model_fields.h"
#include "model_materials.h"
#include "family_parts.h"
#include "formats/texture_budget.h"
#include "assay/model/gltf.h"
#include "formats/model_output.h"
#include "formats/json_printer.h"

namespace assay {

namespace {

class IgzContainer final : public Container {
 public:
  // `file` and `fixups` view the bytes of `in`, which the Container owns from here on.
  IgzContainer(Input in, ContainerOptions opt, igz::IgzFile file, igz::Fixups fixups)
      : Container("igz", std::move(in), std::move(opt)), file_(std::move(file)), fixups_(std::move(fixups)) {
    const igz::Graph g = igz::build_graph(file_, fixups_, nullptr);
    const std::vector<std::size_t> geometry_attrs = igz::find_geometry_attrs(g);
    const bool has_edge = std::any_of(g.objects.begin(), g.objects.end(), [](const igz::Object& o) { return o.type_name == "igPS3EdgeGeometry"; });
    const igz::EdgeSceneIndex scene_index =
        has_edge || (!geometry_attrs.empty() && file_.header().pointer_size == 4)  // the index reads 32-bit graphs
            ? igz::index_edge_scene(file_, fixups_, g)
            : igz::EdgeSceneIndex{};
    std::vector<Entry> entries;
    entries.reserve(g.objects.size());
    for (std::size_t i = 0; i < g.objects.size(); ++i) {
      const igz::Object& o = g.objects[i];
      const std::string type(o.type_name);
      Entry e;
      e.name = type.empty() ? fmt::format("object{}", i) : type;
      e.path = fmt::format("{:04}_{}.bin", i, type.empty() ? "object" : type);
      e.offset = o.position;
      if (o.size != 0) e.size = e.stored_size = o.size;  // 0 = unknown type size
      e.kind = EntryKind::object;
      objects_.push_back(o);
      images_.emplace_back();
      if (o.type_name == "igImage2") texture_entry(g, i, e);
      if (o.type_name == "igPS3EdgeGeometry") edge_entry(g, scene_index, i, e);
      entries.push_back(std::move(e));
    }
    const auto models = igz::find_models(file_, g);
    if (!models.empty() || !geometry_attrs.empty()) {
      const igz::FieldReader fields(file_, fixups_, g);  // one for the file: it sorts ROFS
      for (std::size_t i : models) model_entry(fields, i, entries[i]);
      for (std::size_t i : geometry_attrs) geometry_entry(fields, scene_index, i, entries[i]);
    }
    find_material_objects(g);
    set_entries(std::move(entries));
  }

  // The texture units each material object of the file binds (its details list them).
  void find_material_objects(const igz::Graph& g) {
    std::optional<igz::MaterialReader> reader;
    for (std::size_t i = 0; i < g.objects.size(); ++i) {
      if (!igz::MaterialReader::is_material_type(g.objects[i].type_name)) continue;
      if (!reader) reader.emplace(file_, fixups_, g);
      if (auto m = reader->read(i); !m.bindings.empty()) material_objects_.emplace(i, std::move(m.bindings));
    }
  }

  // The base colour textures of the models' materials, from the material and texture igz files
  // the open context finds (model_materials.h).
  void find_materials(const Siblings& siblings) {
    std::vector<std::string> handles;
    for (const Entry& e : entries())
      if (e.kind == EntryKind::model)
        for (std::string& h : handles_of(e.index)) handles.push_back(std::move(h));
    materials_ = igz::detail::find_material_textures(fixups_, handles, siblings);
  }

  // The material handles model entry `i` draws with, in draw order ("" for none).
  [[nodiscard]] std::vector<std::string> handles_of(std::size_t i) const {
    std::vector<std::string> handles;
    if (auto m = models_.find(i); m != models_.end())
      for (const igz::DrawCall& d : m->second.draws) handles.push_back(d.material);
    if (auto m = edge_models_.find(i); m != edge_models_.end()) handles.push_back(m->second.material);
    return handles;
  }

  [[nodiscard]] Result<image::Rgba> texture(const Entry& e, unsigned mip) const override {
    if (e.kind != EntryKind::texture || !images_[e.index]) return Container::texture(e, mip);
    ASSAY_TRY(MemoryLease lease, texture_lease(*this, e, mip));
    auto img = igz::decode_image2(file_, *images_[e.index], mip);
    if (!img) return with_file(img.error());
    return img;
  }

  // A texture: NAME.png (with mips NAME.mip<k>.png too); --stored: the object's bytes.
  [[nodiscard]] Result<ExtractCount> write_entry(const Entry& e, const OutputDir& dir,
                                                 const WriteOptions& w) const override {
    if (e.kind == EntryKind::model && !w.stored) return write_model(e, dir, w.gltf);
    if (e.kind != EntryKind::texture || w.stored) return Container::write_entry(e, dir, w);
    const std::string stem = e.path.substr(0, e.path.size() - 4);
    const unsigned levels = w.mips ? images_[e.index]->levels : 1;
    std::vector<ByteBuffer> pngs;  // every level decoded before anything is written
    for (unsigned l = 0; l < levels; ++l) {  // texture() and encode_png, BC1-BC3 a band at a time
      ASSAY_TRY(MemoryLease lease, texture_lease(*this, e, l));
      auto png = igz::encode_image2_png(file_, *images_[e.index], l);
      if (!png) return with_file(png.error());
      pngs.push_back(std::move(*png));
    }
    ExtractCount n;
    for (unsigned l = 0; l < levels; ++l) {
      ASSAY_CHECK(dir.write(l == 0 ? e.path : fmt::format("{}.mip{}.png", stem, l), pngs[l]));
      n.files += 1, n.bytes += pngs[l].size();
    }
    return n;
  }

  [[nodiscard]] std::string stored_path(const Entry& e) const override {
    return e.kind == EntryKind::texture || e.kind == EntryKind::model ? stored_paths_.at(e.index) : e.path;
  }

  [[nodiscard]] Result<void> print_info(FieldPrinter& p) const override {
    igz::print_header(file_, p);
    p.begin_array("externals");  // spec: #igz-externals, "verify and info list each one"
    for (const std::string& line : igz::external_lines(fixups_)) p.field("", line);
    p.end_array();
    return {};
  }

  // The object's pool and type; a texture's image fields, a model's draw calls, or why not.
  void print_details(const Entry& e, FieldPrinter& p) const override {
    const std::size_t i = e.index;
    igz::print_object_details(file_, objects_[i], p);
    if (auto it = errors_.find(i); it != errors_.end()) p.field(it->second.first, it->second.second);
    if (images_[i]) detail::print_json_fields(p, igz::image_details_json(*images_[i]));
    if (auto it = models_.find(i); it != models_.end()) detail::print_json(p, "model", igz::model_details_json(it->second));
    if (auto it = edge_models_.find(i); it != edge_models_.end()) detail::print_json(p, "model", igz::edge_details_json(it->second));
    if (e.kind == EntryKind::model) detail::print_json(p, "materials", igz::materials_json(materials_of(i)));
    if (auto it = material_objects_.find(i); it != material_objects_.end()) detail::print_json(p, "texture_units", igz::texture_units_json(it->second));
  }

  // The materials entry `i` draws with, in the order first drawn, and what was found for each.
  [[nodiscard]] std::vector<std::pair<std::string, const igz::detail::MaterialTexture*>> materials_of(std::size_t i) const {
    std::vector<std::pair<std::string, const igz::detail::MaterialTexture*>> out;
    for (const std::string& h : handles_of(i)) {
      const auto it = materials_.find(h);
      const bool seen = std::any_of(out.begin(), out.end(), [&](const auto& x) { return x.first == h; });
      if (it != materials_.end() && !seen) out.emplace_back(h, &it->second);
    }
    return out;
  }

  void verify(Diagnostics& out) const override {
    igz::verify_input(input(), options(), out);
    const DiagSink sink = out.sink();
    for (const auto& [i, m] : models_) igz::check_model(file_, m, sink);
    // What extract stops at: _data shorter than the levels that decode need. A warning, not an
    // error: the one real file that shows it (the Wii U igModelTool_test_img.igz, a tool's test
    // output) is otherwise sound, and the samples' check expects verify to pass on it.
    for (const auto& img : images_)
      if (img)
        if (auto short_data = igz::check_data_size(*img); !short_data)
          out.warning(make_error("igz", fmt::format("igImage2[{}] _data", img->object), short_data.error().offset,
                               short_data.error().message)
                        .with_code("igz.image-data"));
    for (const auto& [i, e] : edge_models_) igz::check_edge_geometry(file_, e, sink);
  }

  [[nodiscard]] Result<ByteBuffer> model(const Entry& e) const override {
    if (e.kind != EntryKind::model) return Container::model(e);
    ASSAY_TRY(model::Scene s, scene(e));
    return model::write_glb(s);
  }

 private:
  // An igImage2 with its fields found: kind "texture", written as <index>_<name>.png.
  void texture_entry(const igz::Graph& g, std::size_t i, Entry& e) {
    auto img = igz::read_image2(file_, fixups_, g, i);
    if (!img) {
      errors_.emplace(i, std::pair{"image_error", img.error().message});
      return;
    }
    stored_paths_[i] = e.path;
    e.kind = EntryKind::texture;
    e.path = fmt::format("{:04}_{}.png", i, img->name && !img->name->empty() ? *img->name : "igImage2");
    e.texture_info = TextureInfo{img->width, img->height, img->levels};
    images_[i] = std::move(*img);
  }

  // A model read: entry i becomes kind "model", written as <index>_<name>.glb (--stored: the
  // object's bytes at its old path); else the reason is kept for its details.
  template <class M, class Name>
  void take_model(Result<M> m, std::size_t i, Entry& e, std::map<std::size_t, M>& into, Name&& name) {
    if (!m) {
      errors_.emplace(i, std::pair{"model_error", m.error().message});
      return;
    }
    stored_paths_[i] = e.path;
    e.kind = EntryKind::model;
    e.path = fmt::format("{:04}_{}.glb", i, name(*m));
    into.emplace(i, std::move(*m));
  }
  // An igModelInfo (or lone igModelData) whose graph reads: named after it.
  void model_entry(const igz::FieldReader& fields, std::size_t i, Entry& e) {
    take_model(igz::read_model(fields, i), i, e, models_, [](const igz::Model& m) { return m.name; });
  }
  // An igGeometryAttr whose buffers read: named after the igz.
  void geometry_entry(const igz::FieldReader& fields, const igz::EdgeSceneIndex& index, std::size_t i, Entry& e) {
    auto m = igz::read_geometry_attr(fields, i, index);
    if (m) m->name = file_stem();
    take_model(std::move(m), i, e, models_, [](const igz::Model& x) { return x.name; });
  }
  // A PS3 EDGE geometry whose segments read: named after the igz.
  void edge_entry(const igz::Graph& g, const igz::EdgeSceneIndex& index, std::size_t i, Entry& e) {
    take_model(igz::read_edge_geometry(file_, g, i, index), i, e, edge_models_, [&](const igz::EdgeGeometry&) { return file_stem(); });
  }

  // The igz's own name without folders or extension ("zapwave" for "x.pak::models\\zapwave.igz").
  [[nodiscard]] std::string file_stem() const {
    std::string_view n = input().name;
    if (const auto cut = n.find_last_of("/\\:"); cut != std::string_view::npos) n.remove_prefix(cut + 1);
    if (const auto dot = n.rfind('.'); dot != std::string_view::npos && dot > 0) n = n.substr(0, dot);
    return n.empty() ? std::string("igPS3EdgeGeometry") : std::string(n);
  }

  [[nodiscard]] Result<model::Scene> scene(const Entry& e) const {
    const auto edge = edge_models_.find(e.index);
    auto s = edge != edge_models_.end() ? igz::edge_scene(file_, edge->second, file_stem())
                                        : igz::model_scene(file_, models_.at(e.index));
    if (!s) return with_file(s.error());
    igz::detail::apply_material_textures(materials_, *s);
    return s;
  }

  // NAME.glb, or with `gltf` NAME.gltf, NAME.bin and one PNG per texture.
  [[nodiscard]] Result<ExtractCount> write_model(const Entry& e, const OutputDir& dir, bool gltf) const {
    ASSAY_TRY(model::Scene s, scene(e));
    return write_model_files(s, e.path, dir, gltf);
  }

  Error with_file(Error e) const {
    if (e.file.empty()) e.file = input().name;
    return e;
  }

  igz::IgzFile file_;
  igz::Fixups fixups_;
  std::vector<igz::Object> objects_;                   // by entry index
  std::vector<std::optional<igz::Image2>> images_;     // by entry index
  std::map<std::size_t, std::pair<const char*, std::string>> errors_;  // why an image or model did not read
  std::map<std::size_t, std::string> stored_paths_;    // texture and model entries' object blob paths
  std::map<std::size_t, igz::Model> models_;           // model entries by index
  std::map<std::size_t, igz::EdgeGeometry> edge_models_;  // PS3 EDGE model entries by index
  igz::detail::MaterialTextures materials_;               // the models' materials by handle
  std::map<std::size_t, std::vector<igz::TextureBinding>> material_objects_;  // a material object's bindings by index
};

}  // namespace

Result<std::unique_ptr<Container>> open_igz_container(const OpenContext& ctx) {
  igz::OpenOptions o;
  o.pointer_size = ctx.options.igz.pointer_size;
  ASSAY_TRY(igz::IgzFile f, igz::IgzFile::open(ctx.input.bytes, o));
  ASSAY_TRY(igz::Fixups fx, igz::decode_fixups(f));
  auto c = std::make_unique<IgzContainer>(ctx.input, ctx.options, std::move(f), std::move(fx));
  if (ctx.options.igz.material_textures) c->find_materials(ctx.siblings);
  return std::unique_ptr<Container>(std::move(c));
}

}  // namespace assay
