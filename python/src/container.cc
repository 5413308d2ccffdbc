// assay.Container, assay.Entry, assay.Problem and assay.Image over the Container API
// (include/assay/container.h). A Container is held by shared_ptr: an Entry holds its
// Container, and a Container opened from an entry holds its parent, so Python may drop the
// parent first. Decoding runs with the GIL released.
#include <fmt/format.h>

#include <mutex>

#include "assay/family.h"
#include "assay/core/thread_pool.h"
#include "assay/ops.h"
#include "bindings.h"
#include "formats/serialise.h"

namespace assay::python {

namespace {

using ContainerPtr = std::shared_ptr<Container>;

struct EntryRef {
  ContainerPtr owner;
  const Entry* e = nullptr;
};

struct Problem {
  std::string severity, code, structure, message, file;
  std::optional<std::uint64_t> offset;
};

std::optional<std::string> opt_str(const std::string& s) { return s.empty() ? std::nullopt : std::optional(s); }

// An entry of `c` given as an Entry, a name (any spelling find() knows) or an index.
const Entry& entry_of(const ContainerPtr& c, const py::handle& which) {
  if (py::isinstance<EntryRef>(which)) {
    const auto& r = which.cast<const EntryRef&>();
    if (r.owner != c) throw py::value_error("the entry belongs to another Container");
    return *r.e;
  }
  if (py::isinstance<py::int_>(which)) {
    int overflow = 0;
    auto i = static_cast<std::int64_t>(PyLong_AsLongLongAndOverflow(which.ptr(), &overflow));
    const auto n = static_cast<std::int64_t>(c->entries().size());
    if (i < 0) i += n;
    if (overflow != 0 || i < 0 || i >= n) throw py::index_error(fmt::format("entry index out of range ({} entries)", n));
    return c->entries()[static_cast<std::size_t>(i)];
  }
  const std::string name = name_of(which, "entry");  // a str, or the name's bytes (Entry.name_bytes)
  const Entry* e = c->find(name);
  if (e == nullptr) throw py::key_error(shown(fmt::format("{}: no entry named '{}'", c->input().name, name)));
  return *e;
}

py::bytes bytes_from(const Input& in) {
  return py::bytes(reinterpret_cast<const char*>(in.bytes.data()), in.bytes.size());
}

// A child Container that keeps its parent alive (its bytes may view the parent's).
ContainerPtr child_of(const ContainerPtr& parent, std::unique_ptr<Container> child) {
  return ContainerPtr(child.release(), [parent](Container* p) { delete p; });
}

std::vector<Problem> problems_of(const Diagnostics& d, const std::string& file) {
  std::vector<Problem> out;
  for (const Diagnostic& x : d.items()) {
    const Json j = problem_json(x);  // the CLI's verify --json fields, code = rule id
    Problem p;
    p.severity = std::string(to_string(x.severity));
    p.code = j["code"].is_string() ? j["code"].get<std::string>() : "";
    p.structure = shown(x.where.structure);  // names from the file: U+FFFD for bytes not UTF-8
    p.message = shown(x.where.message);
    p.file = shown(x.where.file.empty() ? file : x.where.file);
    if (x.where.offset != kNoOffset) p.offset = x.where.offset;
    out.push_back(std::move(p));
  }
  return out;
}

unsigned depth_of(const py::handle& depth) {
  return static_cast<unsigned>(uint_arg(depth, "depth", 0xFFFFFFFFu, "a non-negative integer (levels of inner files)"));
}

std::optional<unsigned> threads_of(const py::handle& threads) {
  if (threads.is_none()) return std::nullopt;
  return static_cast<unsigned>(uint_arg(threads, "threads", 0xFFFFFFFFu, "0 (all cores) or a positive integer"));
}

std::vector<Problem> verify_container(const ContainerPtr& c, bool deep, const py::object& depth_arg) {
  const unsigned depth = depth_of(depth_arg);
  Diagnostics d;
  {
    py::gil_scoped_release nogil;
    c->verify(d);
    if (deep) verify_deep(*c, d, DeepOptions{depth, c->options().threads, false});
  }
  return problems_of(d, c->input().name);
}

// Module-level verify: like `assay verify FILE`, also for files that do not open (the family's
// own verify then says why).
std::vector<Problem> verify_path(const py::handle& src, bool deep, const py::object& depth_arg, const py::kwargs& kw) {
  const ContainerOptions opt = container_options_of(kw, "verify");
  const unsigned depth = depth_of(depth_arg);
  const std::string spec = path_of(src);
  Result<VerifyOutcome> v = Error{};
  {
    py::gil_scoped_release nogil;
    const DeepOptions d{depth, opt.threads, false};
    v = verify_file(spec, opt, deep ? &d : nullptr);
  }
  if (!v && v.error().kind != ErrorKind::data) raise(v.error());
  Diagnostics d;
  if (v) d = std::move(v->diags);
  else d.error(v.error());
  return problems_of(d, spec);
}

ContainerPtr open_source(const py::handle& src, const py::object& format_arg, const py::kwargs& kw) {
  const ContainerOptions opt = container_options_of(kw, "open");
  const std::string format = format_arg.is_none() ? "" : str_arg(format_arg, "format");
  Result<std::unique_ptr<Container>> c = Error{};
  if (is_path_like(src)) {
    const std::string spec = path_of(src);
    py::gil_scoped_release nogil;
    if (format.empty()) {
      c = open_path(spec, opt);
    } else {
      auto in = resolve_path(spec, opt);
      c = in ? open(std::move(*in), opt, format) : Result<std::unique_ptr<Container>>(in.error());
    }
  } else {
    ByteBuffer data = bytes_of(src);
    py::gil_scoped_release nogil;
    c = open(Input::from_buffer("<bytes>", std::move(data)), opt, format);
  }
  return ContainerPtr(unwrap(std::move(c)));
}

std::optional<std::string> identify_source(const py::handle& src) {
  Result<Input> in = is_path_like(src) ? resolve_path(path_of(src)) : Input::from_buffer("<bytes>", bytes_of(src));
  const Input& i = unwrap(std::move(in));
  const Family* f = identify_family(i);
  return f ? std::optional<std::string>(std::string(f->name)) : std::nullopt;
}

py::str entry_repr(const EntryRef& r) {
  const Entry& e = *r.e;
  std::string s = fmt::format("<assay.Entry #{} '{}'", e.index, e.name.value_or(e.path));
  if (e.size) s += fmt::format(" size={}", *e.size);
  if (e.offset) s += fmt::format(" offset={:#x}", *e.offset);
  return text(s + " kind='" + std::string(e.kind_name()) + "'>");
}

// Reads every entry (or `which`) in parallel, in order: small entries one per core, large ones
// with their blocks on all cores (the CLI's extract plan without the output).
py::list read_many(const ContainerPtr& c, const std::optional<py::iterable>& which, const py::object& threads_arg) {
  const unsigned threads = threads_of(threads_arg).value_or(0);
  std::vector<const Entry*> sel;
  if (which)
    for (const auto& w : *which) sel.push_back(&entry_of(c, w));
  else
    for (const Entry& e : c->entries()) sel.push_back(&e);
  std::vector<std::optional<Input>> got(sel.size());
  std::optional<Error> err;
  {
    py::gil_scoped_release nogil;
    std::mutex mu;
    const unsigned n = threads ? threads : default_threads();
    constexpr std::uint64_t kLarge = 16u << 20;
    std::vector<std::size_t> small;
    for (std::size_t i = 0; i < sel.size(); ++i)
      if (sel[i]->size.value_or(0) >= kLarge) {
        auto r = c->read(*sel[i], n);
        if (!r) {
          err = r.error();
          break;
        }
        got[i] = std::move(*r);
      } else {
        small.push_back(i);
      }
    if (!err)
      parallel_for(small.size(), n, [&](std::size_t k) {
        auto r = c->read(*sel[small[k]], 1);
        std::lock_guard lk(mu);
        if (!r) {
          if (!err) err = r.error();
          return;
        }
        got[small[k]] = std::move(*r);
      });
  }
  if (err) raise(*err);
  py::list out;
  for (auto& g : got) out.append(bytes_from(*g));
  return out;
}

void bind_entry(py::module_& m) {
  py::class_<EntryRef>(m, "Entry", "One entry of a Container (a file, resource, texture, chunk...).")
      .def_property_readonly("index", [](const EntryRef& r) { return r.e->index; }, "position in Container.entries")
      .def_property_readonly("name", [](const EntryRef& r) { return opt_text(r.e->name); },
                             "name in the file's own terms, or None (bytes that are not UTF-8 shown as U+FFFD: name_bytes has them)")
      .def_property_readonly("name_bytes", [](const EntryRef& r) -> std::optional<py::bytes> {
        if (!r.e->name) return std::nullopt;
        return py::bytes(*r.e->name);
      }, "the name's bytes as stored, or None")
      .def_property_readonly("path", [](const EntryRef& r) { return opt_text(opt_str(r.e->path)); },
                             "relative path `assay extract` writes (None: nothing of its own to write; U+FFFD as name)")
      .def_property_readonly("path_bytes", [](const EntryRef& r) -> std::optional<py::bytes> {
        if (r.e->path.empty()) return std::nullopt;
        return py::bytes(r.e->path);
      }, "the path's bytes (os.path.join(os.fsencode(out_dir), e.path_bytes) is the file extract writes), or None")
      .def_property_readonly("offset", [](const EntryRef& r) { return r.e->offset; }, "absolute offset in the container, or None")
      .def_property_readonly("size", [](const EntryRef& r) { return r.e->size; }, "bytes read() returns, or None")
      .def_property_readonly("stored_size", [](const EntryRef& r) { return r.e->stored_size; }, "bytes stored (compressed), or None")
      .def_property_readonly("kind", [](const EntryRef& r) { return std::string(r.e->kind_name()); }, "'file', 'instance', 'texture', 'model', 'sound', ... (docs/cli.md#list)")
      .def_property_readonly("nested", [](const EntryRef& r) { return r.e->nested; }, "read() gives a whole file open() can parse")
      .def_property_readonly("details", [](const EntryRef& r) { return to_python(details_json(*r.owner, *r.e)); }, "family fields (docs/cli.md)")
      .def_property_readonly("container", [](const EntryRef& r) { return r.owner; },
                             "the Container this entry belongs to")
      .def("to_dict", [](const EntryRef& r) { return to_python(entry_json(*r.owner, *r.e)); }, "the entry as `assay list --json` prints it")
      .def("__repr__", &entry_repr);
}

void bind_problem(py::module_& m) {
  py::class_<Problem>(m, "Problem", "One finding of verify(): severity 'error', 'warning' or 'note'.")
      .def_readonly("severity", &Problem::severity)  // Problem's strings are made valid UTF-8 in problems_of
      .def_property_readonly("code", [](const Problem& p) { return opt_str(p.code); }, "rule id such as 'V13', or None")
      .def_property_readonly("structure", [](const Problem& p) { return opt_str(p.structure); })
      .def_readonly("offset", &Problem::offset, "absolute byte offset, or None")
      .def_readonly("message", &Problem::message)
      .def_property_readonly("file", [](const Problem& p) { return opt_str(p.file); })
      .def("__repr__", [](const Problem& p) {
        std::string where = p.code;
        if (!p.structure.empty()) where += (where.empty() ? "" : " ") + p.structure;
        if (p.offset) where += fmt::format(" at {:#x}", *p.offset);
        return fmt::format("<assay.Problem {}{}{}: {}>", p.severity, where.empty() ? "" : " ", where, p.message);
      });
}

void bind_image(py::module_& m) {
  py::class_<image::Rgba>(m, "Image", py::buffer_protocol(),
                          "A decoded texture: 8-bit RGBA, rows top to bottom. Supports the buffer protocol "
                          "(shape (height, width, 4), uint8): memoryview(img), numpy.asarray(img).")
      .def_readonly("width", &image::Rgba::width)
      .def_readonly("height", &image::Rgba::height)
      .def_property_readonly("rgba", [](py::object self) { return py::memoryview(self); },
                             "memoryview of the pixels, shape (height, width, 4), format 'B'")
      .def("tobytes", [](const image::Rgba& i) { return py::bytes(reinterpret_cast<const char*>(i.pixels.data()), i.pixels.size()); })
      .def("to_png", [](const image::Rgba& i) {
        ByteBuffer png;
        {
          py::gil_scoped_release nogil;
          png = unwrap(image::encode_png(i));
        }
        return py::bytes(reinterpret_cast<const char*>(png.data()), png.size());
      }, "the image as PNG bytes (what `assay extract` writes)")
      .def_buffer([](image::Rgba& i) {
        return py::buffer_info(i.pixels.data(), 1, py::format_descriptor<std::uint8_t>::format(), 3,
                               {static_cast<py::ssize_t>(i.height), static_cast<py::ssize_t>(i.width), py::ssize_t{4}},
                               {static_cast<py::ssize_t>(i.width) * 4, py::ssize_t{4}, py::ssize_t{1}}, true);
      })
      .def("__repr__", [](const image::Rgba& i) { return fmt::format("<assay.Image {}x{} RGBA>", i.width, i.height); });
}

// assay.Sound: a decoded sound, interleaved int16 PCM through the buffer protocol.
void bind_sound(py::module_& m) {
  py::class_<audio::Sound>(m, "Sound", py::buffer_protocol(),
                           "A decoded sound: signed 16-bit PCM, channels interleaved. Supports the buffer protocol "
                           "(shape (frames, channels), int16): memoryview(s), numpy.asarray(s).")
      .def_readonly("rate", &audio::Sound::rate, "frames per second")
      .def_readonly("channels", &audio::Sound::channels)
      .def_property_readonly("frames", &audio::Sound::frames, "samples per channel")
      .def_property_readonly("pcm", [](py::object self) { return py::memoryview(self); },
                             "memoryview of the samples, shape (frames, channels), format 'h'")
      .def("tobytes", [](const audio::Sound& s) { return py::bytes(reinterpret_cast<const char*>(s.pcm.data()), s.pcm.size() * 2); },
           "the samples as bytes in the machine's order (little-endian s16 on x86 and ARM)")
      .def("to_wav", [](const audio::Sound& s) {
        const ByteBuffer b = audio::wav_bytes(s);
        return py::bytes(reinterpret_cast<const char*>(b.data()), b.size());
      }, "the sound as a 16-bit PCM WAV file (what `assay extract --sounds` writes)")
      .def_buffer([](audio::Sound& s) {
        const auto ch = static_cast<py::ssize_t>(s.channels ? s.channels : 1);
        return py::buffer_info(s.pcm.data(), 2, py::format_descriptor<std::int16_t>::format(), 2,
                               {static_cast<py::ssize_t>(s.frames()), ch}, {ch * 2, py::ssize_t{2}}, true);
      })
      .def("__repr__", [](const audio::Sound& s) {
        return fmt::format("<assay.Sound {} Hz {} ch {} frames>", s.rate, s.channels, s.frames());
      });
}

void bind_container(py::module_& m) {
  py::class_<Container, std::shared_ptr<Container>>(m, "Container",
                                                     "An open container file: assay.open(path_or_bytes).")
      .def_property_readonly("format", [](const Container& c) { return std::string(c.format()); }, "the family: 'igarchive', ...")
      .def_property_readonly("name", [](const Container& c) { return text(c.input().name); }, "the file (A::B for inner files)")
      .def("info", [](const Container& c) { return to_python(unwrap(info_json(c))); }, "header fields, as `assay info --json`")
      .def("list", [](const Container& c) { return to_python(list_json(c)); }, "everything `assay list --json` prints")
      .def_property_readonly("entries", [](const ContainerPtr& c) {
        py::list l;
        for (const Entry& e : c->entries()) l.append(EntryRef{c, &e});
        return l;
      }, "every entry, in file order (list[Entry])")
      .def("__len__", [](const Container& c) { return c.entries().size(); })
      .def("__iter__", [](const ContainerPtr& c) {
        py::list l;
        for (const Entry& e : c->entries()) l.append(EntryRef{c, &e});
        return py::iter(l);
      })
      .def("find", [](const ContainerPtr& c, const py::handle& name) -> std::optional<EntryRef> {
        const Entry* e = c->find(name_of(name));
        if (e == nullptr) return std::nullopt;
        return EntryRef{c, e};
      }, py::arg("name"), "the entry by name, path, '#INDEX' or a hash spelling; None if absent")
      .def("read", [](const ContainerPtr& c, const py::handle& which, const py::object& threads_arg) {
        const std::optional<unsigned> threads = threads_of(threads_arg);
        const Entry& e = entry_of(c, which);
        Result<Input> r = Error{};
        {
          py::gil_scoped_release nogil;
          r = c->read(e, threads.value_or(c->options().threads));
        }
        return bytes_from(unwrap(std::move(r)));
      }, py::arg("entry"), py::arg("threads") = py::none(),
         "the entry's bytes (decoded; a large entry's blocks on all cores unless threads=N)")
      .def("read_many", &read_many, py::arg("entries") = py::none(), py::arg("threads") = py::int_(0),
           "the bytes of every entry (or of `entries`), decoded in parallel, in order (list[bytes])")
      .def("open", [](const ContainerPtr& c, const py::handle& which) {
        const Entry& e = entry_of(c, which);
        Result<std::unique_ptr<Container>> r = Error{};
        {
          py::gil_scoped_release nogil;
          r = c->open(e);
        }
        return child_of(c, unwrap(std::move(r)));
      }, py::arg("entry"), "a Container over the entry's bytes (its family found from its content)")
      .def("verify", &verify_container, py::arg("deep") = false, py::arg("depth") = py::int_(1),
           "every problem (list[Problem]); deep=True also verifies inner files, `depth` levels down")
      .def("texture", [](const ContainerPtr& c, const py::handle& which, const py::object& mip_arg) {
        const auto mip = static_cast<unsigned>(uint_arg(mip_arg, "mip", 0xFFFFFFFFu, "a non-negative integer (0 = the full-size level)"));
        const Entry& e = entry_of(c, which);
        Result<image::Rgba> r = Error{};
        {
          py::gil_scoped_release nogil;
          r = c->texture(e, mip);
        }
        return unwrap(std::move(r));
      }, py::arg("entry"), py::arg("mip") = py::int_(0), "mip level `mip` of a texture entry, decoded to RGBA (Image)")
      .def("model", [](const ContainerPtr& c, const py::handle& which) {
        const Entry& e = entry_of(c, which);
        Result<ByteBuffer> r = Error{};
        {
          py::gil_scoped_release nogil;
          r = c->model(e);
        }
        const ByteBuffer glb = unwrap(std::move(r));
        return py::bytes(reinterpret_cast<const char*>(glb.data()), glb.size());
      }, py::arg("entry"), "a model entry (kind 'model') as binary glTF 2.0 (GLB bytes), what extract writes")
      .def("sound", [](const ContainerPtr& c, const py::handle& which) {
        const Entry& e = entry_of(c, which);
        Result<audio::Sound> r = Error{};
        {
          py::gil_scoped_release nogil;
          r = c->sound(e);
        }
        return unwrap(std::move(r));
      }, py::arg("entry"), "a sound entry (kind 'sound') decoded to 16-bit PCM (Sound)")
      .def("__repr__", [](const Container& c) {
        return text(fmt::format("<assay.Container {} '{}' entries={}>", c.format(), c.input().name, c.entries().size()));
      });
}

}  // namespace

void register_container(py::module_& m) {
  bind_entry(m);
  bind_problem(m);
  bind_image(m);
  bind_sound(m);
  bind_container(m);
  m.def("open", [](const py::object& src, const py::object& format, const py::kwargs& kw) {
    return open_source(src, format, kw);
  }, py::arg("source"), py::kw_only(), py::arg("format") = py::none(),
     "Opens a file, 'A::B::C' path or bytes; options: names=, threads=, igarchive_max_member=, "
     "igz_pointer_size=, layouts=, exe=, textures=, models=, sounds=, adpcm=");
  m.def("identify", &identify_source, py::arg("source"), "the family of a file, 'A::B' path or bytes, or None");
  m.def("verify", &verify_path, py::arg("path"), py::arg("deep") = false, py::arg("depth") = py::int_(1),
        "every problem of a file or 'A::B' path, as `assay verify` (also for files that do not open)");
}

}  // namespace assay::python
