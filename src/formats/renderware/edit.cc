// Texture dictionary edits: replace/add/remove textures, PNG in, natives out; the
// dictionary's other children and every untouched native are copied byte for byte.
// spec: renderware.md#rw-5-1 (dictionary struct, natives, extension), #rw-real (GTA IMG padding).
// Input checks before decoding: formats/edit_input.h.
#include "assay/formats/renderware/edit.h"
#include "codes.h"
#include "records.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "assay/core/thread_pool.h"
#include "assay/formats/edit_input.h"
#include "assay/formats/edit_target.h"
#include "assay/image/resize.h"
#include "assay/formats/renderware/verify.h"
#include "assay/formats/renderware/writer.h"
#include "texture_encode_internal.h"
#include "json.h"
#include "formats/serialise.h"

namespace assay::rw {

namespace {

// A request the dictionary cannot take (a usage error: exit 2).
Error edit_usage(std::string msg) { return usage_error(std::move(msg)).with_code("renderware.edit-request"); }

Error edit_error(std::string structure, std::string msg) {
  return detail::rw_error(std::move(structure), kNoOffset, std::move(msg), "renderware.edit");
}

const char* op_name(EditOp op) { return op == EditOp::replace ? "replace" : op == EditOp::add ? "add" : "remove"; }

bool same_name(std::string_view a, std::string_view b) {  // RenderWare finds textures case-insensitively
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// One texture to encode.
struct Job {
  std::size_t change = 0;
  std::optional<std::size_t> replaces;  // index in the dictionary
  NativeSpec spec;
  ByteView original;
  image::Rgba image;
  std::string note;
  std::uint64_t png_bytes = 0;  // the change's data (the progress reported once encoded)
  ByteBuffer native;
  double psnr = 0;
  std::optional<Error> error;
};

Result<std::optional<std::size_t>> find_texture(const TextureDictionary& d, std::string_view name) {
  for (std::size_t i = 0; i < d.textures().size(); ++i)
    if (d.textures()[i].name == name) return std::optional<std::size_t>(i);
  for (std::size_t i = 0; i < d.textures().size(); ++i)
    if (same_name(d.textures()[i].name, name)) return std::optional<std::size_t>(i);
  return std::optional<std::size_t>();
}

ByteView native_bytes(ByteView txd, const TextureNative& t) {
  auto h = read_section_header(txd, t.offset);
  if (!h || !range_ok(t.offset, SectionHeader::kSize + std::uint64_t{h->size}, txd.size())) return {};
  return txd.subspan(t.offset, SectionHeader::kSize + h->size);
}

// The spec of an added texture: --format (or the first texture's format) on the dictionary's
// platform, the first texture's filter/addressing and mip-ness, the dictionary's stamp.
// A name extract can write as a file of its own: no separator, no control character, not "."
// or "..", not empty (the texture's name is the PNG's file name).
bool is_texture_name(std::string_view n) {
  if (n.empty() || n == "." || n == ".." || n.find("..") != std::string_view::npos) return false;
  return std::none_of(n.begin(), n.end(), [](char ch) {
    return ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 0x20 || ch == 0x7F;
  });
}

Result<NativeSpec> spec_for_new(const TextureDictionary& d, std::string name, const DictionaryEditOptions& opt) {
  NativeSpec s;
  if (!d.textures().empty()) {
    const TextureNative& f = d.textures().front();
    s.platform = f.platform;
    s.format = f.format;
    s.filter_addressing = f.filter_addressing;
    s.mip_levels = f.levels.size() > 1 || f.mip_count > 1 ? 0 : 1;
    s.ps2_layout_version = f.platform == kPlatformPS2 ? f.ps2.layout_version : 2;
    s.dxt1_alpha = true;
  } else {
    s.platform = d.device_id() == 6 ? kPlatformPS2 : d.device_id() == 1 ? kPlatformD3D8 : kPlatformD3D9;
    s.format = s.platform == kPlatformPS2 ? TexelFormat::pal8 : TexelFormat::dxt1;
  }
  if (s.platform == kPlatformD3D8 || s.platform == kPlatformD3D9) s.filter_addressing &= 0xFFFF;
  if (opt.new_format != TexelFormat::unknown) s.format = opt.new_format;
  s.name = std::move(name);
  s.stamp = d.stamp();
  if (!platform_supports(s.platform, s.format))
    return edit_error(fmt::format("texture native '{}'", s.name),
                      fmt::format("platform {} cannot hold {} (give --format)", platform_name(s.platform), to_string(s.format)));
  return s;
}

Result<std::vector<Job>> plan(ByteView txd, const TextureDictionary& d, const std::vector<EditChange>& changes,
                              const DictionaryEditOptions& opt, std::vector<bool>& removed) {
  std::vector<Job> jobs;
  std::vector<std::string> added;
  for (std::size_t k = 0; k < changes.size(); ++k) {
    const EditChange& c = changes[k];
    const std::string what = fmt::format("{} '{}'", op_name(c.op), c.name);
    if (c.name.empty() || c.name.size() > 31) return edit_usage(what + ": a texture name has 1 to 31 bytes");
    ASSAY_TRY(auto idx, find_texture(d, c.name));
    for (const Job& j : jobs)
      if ((idx && j.replaces == idx) || same_name(j.spec.name, c.name)) return edit_usage(what + ": named twice");
    if (c.op == EditOp::add && idx) return edit_usage(what + ": the dictionary already has it (use replace)");
    if (c.op != EditOp::add && !idx) return edit_usage(what + ": no texture has that name");
    if (c.op == EditOp::add && !is_texture_name(c.name))  // docs/cli.md#edit: a NAME that escapes is refused
      return edit_usage(what + ": a texture name holds no '/', '\\', control character or '..', and is not empty");
    if (c.op == EditOp::remove) {
      if (removed[*idx]) return edit_usage(what + ": named twice");
      removed[*idx] = true;
      continue;
    }
    Job j;
    j.change = k;
    j.png_bytes = c.data.size();
    if (idx) {
      const TextureNative& t = d.textures()[*idx];
      if (!t.error.empty()) return edit_error(what, "the original texture cannot be read: " + t.error);
      ASSAY_TRY(j.spec, spec_like(t));
      if (opt.force_format && opt.new_format != TexelFormat::unknown) {
        if (!platform_supports(t.platform, opt.new_format))
          return edit_usage(fmt::format("{}: platform {} cannot hold {}", what, platform_name(t.platform), to_string(opt.new_format)));
        j.spec.format = opt.new_format;
      }
      j.replaces = idx;
      j.original = native_bytes(txd, t);
    } else {
      ASSAY_TRY(j.spec, spec_for_new(d, c.name, opt));
    }
    const std::string png_source = k < opt.sources.size() && !opt.sources[k].empty() ? opt.sources[k] : "the PNG for " + c.name;
    auto img = read_source_png(c.data, png_source, what, opt.png);
    if (!img) return img.error();
    std::string resized;  // a PNG of another size than the texture it replaces
    if (idx && opt.size_rule != DictionaryEditOptions::SizeRule::keep) {
      const TextureNative& t = d.textures()[*idx];
      if (img->width != t.width || img->height != t.height) {
        const std::string src = k < opt.sources.size() && !opt.sources[k].empty() ? opt.sources[k] : "the PNG";
        if (opt.size_rule == DictionaryEditOptions::SizeRule::refuse)
          return size_mismatch_error(src, fmt::format("the texture '{}'", t.name), img->width, img->height, t.width, t.height);
        resized = fmt::format("resized {} x {} to the texture's {} x {} (--resize)", img->width, img->height, t.width, t.height);
        ASSAY_TRY(*img, image::resize(*img, t.width, t.height));
      }
    }
    ASSAY_TRY(j.image, fit_texture_size(j.spec, std::move(*img), j.note));
    if (!resized.empty()) j.note = resized + (j.note.empty() ? "" : "; " + j.note);
    jobs.push_back(std::move(j));
  }
  return jobs;
}

// Encodes every job: textures in parallel when there are several, else the one texture's
// mips and blocks use the cores.
void encode_all(std::vector<Job>& jobs, const DictionaryEditOptions& opt) {
  const unsigned cores = opt.threads ? opt.threads : default_threads();
  const bool across = jobs.size() > 1;
  parallel_for(jobs.size(), across ? std::min<unsigned>(cores, static_cast<unsigned>(jobs.size())) : 1, [&](std::size_t i) {
    Job& j = jobs[i];
    if (opt.progress) opt.progress(0, j.spec.name);
    EncodeOptions eo = opt.encode;
    eo.threads = across ? 1 : cores;
    auto n = encode_texture_native(j.spec, j.image, eo, j.original);
    if (opt.progress) opt.progress(j.png_bytes, "");
    if (!n) {
      j.error = n.error();
      return;
    }
    j.native = std::move(*n);
  });
}

// The new dictionary: children in order, natives replaced in place or dropped, added natives
// after the last native, the struct's count updated (spec: #rw-5-1).
Result<ByteBuffer> assemble(ByteView txd, const TextureDictionary& d, const std::vector<Job>& jobs,
                            const std::vector<bool>& removed, std::uint64_t& count) {
  ASSAY_TRY(const SectionHeader top, read_section_header(txd, 0));
  const std::uint64_t end = SectionHeader::kSize + std::uint64_t{top.size};
  std::vector<const Job*> by_index(d.textures().size(), nullptr);
  std::vector<const Job*> adds;
  for (const Job& j : jobs) (j.replaces ? by_index[*j.replaces] : adds.emplace_back()) = &j;
  ByteBuffer body;
  std::uint64_t at = SectionHeader::kSize, struct_at = 0, after_natives = 0;
  std::size_t native = 0;
  count = 0;
  bool first = true, have_struct = false;
  while (at < end) {
    ASSAY_TRY(const SectionHeader h, read_section_header(txd, at));
    const std::uint64_t next = at + SectionHeader::kSize + h.size;
    if (next > end) return edit_error("texture dictionary", "a child runs past the dictionary");
    ByteView bytes = txd.subspan(at, next - at);
    if (first && h.type == id::kStruct) have_struct = true, struct_at = body.size(), after_natives = body.size() + bytes.size();
    if (h.type == id::kTextureNative && native < by_index.size()) {
      const std::size_t i = native++;
      if (!removed[i]) {
        if (by_index[i]) bytes = by_index[i]->native;
        body.insert(body.end(), bytes.begin(), bytes.end());
        ++count;
      }
      after_natives = body.size();
    } else {
      body.insert(body.end(), bytes.begin(), bytes.end());
    }
    first = false;
    at = next;
  }
  if (!have_struct || struct_at + SectionHeader::kSize + records::DictionaryStruct::kSize > body.size())
    return edit_error("texture dictionary", "no struct child holding the texture count");
  ByteBuffer tail(body.begin() + static_cast<std::ptrdiff_t>(after_natives), body.end());
  body.resize(after_natives);
  for (const Job* j : adds) body.insert(body.end(), j->native.begin(), j->native.end()), ++count;
  body.insert(body.end(), tail.begin(), tail.end());
  if (count > 0xFFFF) return edit_error("texture dictionary", "more than 65,535 textures");
  records::DictionaryStruct head = records::decode_at<records::DictionaryStruct>(body, struct_at + SectionHeader::kSize);
  head.count = static_cast<std::uint16_t>(count);
  store_in(body, struct_at + SectionHeader::kSize, head);
  if (body.size() > 0xFFFFFFFFull) return edit_error("texture dictionary", "larger than 4 GiB");
  ByteBuffer out = writer::section(id::kTextureDictionary, body, top.stamp);
  // Bytes after the dictionary: zero padding to 2,048 (GTA IMG) is redone; anything else kept.
  const ByteView trail = txd.subspan(std::min<std::uint64_t>(end, txd.size()));
  const bool zeros = std::all_of(trail.begin(), trail.end(), [](std::uint8_t b) { return b == 0; });
  if (!trail.empty() && zeros && txd.size() % 2048 == 0) out.resize((out.size() + 2047) / 2048 * 2048, 0);
  else out.insert(out.end(), trail.begin(), trail.end());
  return out;
}

// Read back: the whole result opens strictly, verify_stream finds no error, every new native
// decodes to the size encoded; the PSNR of each level 0 against its source goes in the report.
Result<void> read_back(ByteView out, std::uint64_t count, std::vector<Job>& jobs) {
  Diagnostics diags;
  verify_stream(out, 0, diags.sink());
  for (const auto& x : diags.items())
    if (x.severity == Severity::error) return edit_error("edit read-back", "the result breaks a rule: " + x.where.str());
  TextureOptions to;
  to.keep_going = false;
  ASSAY_TRY(auto d, TextureDictionary::open(out, 0, {}, to));
  if (d.texture_count() != count || d.textures().size() != count)
    return edit_error("edit read-back", fmt::format("{} textures, expected {}", d.textures().size(), count));
  for (Job& j : jobs) {
    ASSAY_TRY(auto idx, find_texture(d, j.spec.name));
    if (!idx) return edit_error("edit read-back", fmt::format("'{}' is missing", j.spec.name));
    ASSAY_TRY(image::Rgba got, d.decode(*idx, 0));
    if (got.width != j.image.width || got.height != j.image.height)
      return edit_error("edit read-back", fmt::format("'{}' decodes as {} x {}", j.spec.name, got.width, got.height));
    j.psnr = image::psnr(j.image, got);
  }
  return {};
}

}  // namespace

Result<ByteBuffer> edit_dictionary(ByteView txd, const std::vector<EditChange>& changes,
                                   const DictionaryEditOptions& opt, DictionaryEditReport& report) {
  ASSAY_TRY(const SectionHeader top, read_section_header(txd, 0));
  if (top.type != id::kTextureDictionary)
    return edit_usage(fmt::format("only texture dictionaries can be edited (this stream starts with section 0x{:X})", top.type));
  TextureOptions to;
  to.keep_going = true;  // an unreadable texture that is not touched is copied as it is
  ASSAY_TRY(auto d, TextureDictionary::open(txd, 0, {}, to));
  std::vector<bool> removed(d.textures().size(), false);
  ASSAY_TRY(std::vector<Job> jobs, plan(txd, d, changes, opt, removed));
  encode_all(jobs, opt);
  for (const Job& j : jobs)
    if (j.error) return *j.error;
  std::uint64_t count = 0;
  ASSAY_TRY(ByteBuffer out, assemble(txd, d, jobs, removed, count));
  ASSAY_CHECK(read_back(out, count, jobs));
  report = {};
  std::size_t next_job = 0;
  for (std::size_t k = 0; k < changes.size(); ++k) {
    TextureEditLine c{op_name(changes[k].op), changes[k].name};
    if (next_job < jobs.size() && jobs[next_job].change == k) {
      const Job& j = jobs[next_job++];
      c.encoded = true;
      c.platform = std::string(platform_name(j.spec.platform));
      c.pixel_format = std::string(to_string(j.spec.format));
      c.width = j.image.width, c.height = j.image.height;
      c.mips = detail::level_count(j.spec, j.image.width, j.image.height);
      c.native_bytes = j.native.size();
      c.psnr_db = j.psnr;
      c.note = j.note;
    }
    report.changes.push_back(std::move(c));
  }
  report.textures = count;
  return out;
}

namespace {

Result<Json> edit_request(const Input& in, const EditRequest& req) {
  DictionaryEditOptions opt;
  opt.threads = req.read.threads;
  opt.progress = req.progress;
  const auto& fam = req.read.family;
  if (auto it = fam.find("texture_format"); it != fam.end() && !it->second.empty()) {
    opt.new_format = parse_texel_format(it->second);
    if (opt.new_format == TexelFormat::unknown)
      return edit_usage(fmt::format("--format {}: expected PAL8, PAL4, 8888, 888, 565, 555, 1555, 4444, L8, A8, A8L8, DXT1, DXT3 or DXT5", it->second));
    opt.force_format = true;
  }
  if (auto it = fam.find("dither"); it != fam.end() && !it->second.empty()) {
    char* stop = nullptr;
    const float v = std::strtof(it->second.c_str(), &stop);
    if (stop == it->second.c_str() || *stop != '\0' || !(v >= 0.0f && v <= 1.0f))
      return edit_usage(fmt::format("--dither {}: expected a level from 0 (off) to 1 (full)", it->second));
    opt.encode.dither = v;
  }
  ASSAY_TRY(const std::filesystem::path target, edit_target(in, req));
  // a texture takes a PNG (checked by its magic bytes before anything is
  // decoded); a replacement of another size is refused unless --resize or --png-size.
  for (const EditChange& c : req.changes) {
    if (c.op != EditOp::remove) ASSAY_CHECK(require_png(req, c, fmt::format("the texture '{}'", c.name)));
    opt.sources.push_back(edit_source(req, c));
  }
  const EditSizeRule size = edit_size_rule(req);
  opt.size_rule = size == EditSizeRule::png      ? DictionaryEditOptions::SizeRule::keep
                  : size == EditSizeRule::resize ? DictionaryEditOptions::SizeRule::resize
                                                 : DictionaryEditOptions::SizeRule::refuse;
  DictionaryEditReport report;
  ASSAY_TRY(ByteBuffer out, edit_dictionary(in.bytes, req.changes, opt, report));
  ASSAY_CHECK(write_file_atomic(target, out, req.force || req.in_place));
  Json fields = dictionary_edit_json(report);
  return Json{{"format", kFormat}, {"input", in.name}, {"textures", fields["textures"]}, {"output", target.string()},
              {"in_place", req.in_place}, {"bytes", out.size()}, {"changes", std::move(fields["changes"])}};
}

}  // namespace

// Errors of the shared readers (PNG, records) get the edit's codes; I/O errors stay core's.
Result<Json> edit_format(const Input& in, const EditRequest& req) {
  auto r = edit_request(in, req);
  if (r || !r.error().code.empty() || r.error().kind == ErrorKind::io) return r;
  return coded(r.error(), r.error().kind == ErrorKind::usage ? "renderware.edit-request" : "renderware.edit");
}

}  // namespace assay::rw
