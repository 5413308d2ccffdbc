// DIR/WAD edits. spec: warriors.md#wr-2-6 (replace, adding, removing), #wr-2-5 (D1-D10 checked on
// the input and on the result read back).
#include "assay/formats/warriors/edit.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "assay/core/interrupt.h"
#include "assay/core/mapped_file.h"
#include "assay/core/temp_file.h"
#include "family_parts.h"
#include "formats/serialise.h"

namespace assay::warriors {

namespace fs = std::filesystem;

namespace {

Error edit_error(std::string msg) { return make_error(kFormat, "edit", kNoOffset, std::move(msg)); }

Result<void> refuse_broken(const Disc& d) {
  Diagnostics diags;
  d.validate(diags);
  for (const auto& x : diags.items())
    if (x.severity == Severity::error) {
      Error e = x.where;
      e.message = "the original DIR breaks a rule, not editing: " + e.message;
      return e;
    }
  return {};
}

}  // namespace

Result<ByteBuffer> edit_disc(const Disc& original, const DiscEdit& edit,
                             const std::function<Result<void>(ByteView)>& wad_out) {
  ASSAY_CHECK(refuse_broken(original));
  const ByteView wad = original.wad_bytes();
  const std::uint32_t n = original.count();
  static const ByteBuffer zeros(kSector, 0);
  std::uint64_t pos = 0, new_pos = 0;  // old WAD: written up to pos; new WAD: size so far
  auto put = [&](ByteView b) -> Result<void> {
    new_pos += b.size();
    return wad_out(b);
  };
  auto copy = [&](std::uint64_t from, std::uint64_t to) { return put(wad.subspan(from, to - from)); };
  auto pad = [&]() { return put(ByteView(zeros).first(align2048(new_pos) - new_pos)); };
  auto put_new = [&](std::uint32_t hash, const EditData& b) -> Result<void> {
    if (edit.new_data_written) edit.new_data_written(hash, 0);
    // 1 MiB at a time: a file given is never held whole.
    ASSAY_CHECK(b.each_piece(std::uint64_t{1} << 20, [&](std::uint64_t, ByteView piece) -> Result<void> {
      ASSAY_CHECK(put(piece));
      if (edit.new_data_written) edit.new_data_written(hash, piece.size());
      return {};
    }));
    return {};
  };
  struct Row {
    std::uint64_t offset;
    std::uint32_t size, hash;
  };
  std::vector<Row> rows;
  for (std::uint32_t i = 0; i < n; ++i) {
    const DirEntry e = original.entry(i);
    ASSAY_CHECK(copy(pos, std::max<std::uint64_t>(pos, e.offset)));
    // The slot runs to the next row's offset (D4); the last one to its 2,048 boundary.
    const std::uint64_t slot_end = i + 1 < n ? original.entry(i + 1).offset
                                             : std::min<std::uint64_t>(align2048(std::uint64_t{e.offset} + e.size), wad.size());
    pos = std::max<std::uint64_t>(pos, slot_end);
    if (edit.remove.count(i)) continue;  // row and slot out: later offsets move down
    Row r{new_pos, e.size, e.hash};
    if (auto it = edit.replace.find(i); it != edit.replace.end()) {
      ASSAY_CHECK(put_new(e.hash, it->second));
      ASSAY_CHECK(pad());
      r.size = static_cast<std::uint32_t>(it->second.size());
    } else {
      ASSAY_CHECK(copy(e.offset, slot_end));
    }
    rows.push_back(r);
  }
  ASSAY_CHECK(copy(pos, wad.size()));  // whatever followed the last slot
  for (const DiscEdit::Added& a : edit.add) {  // spec #wr-2-6 "Adding": next boundary, row last
    ASSAY_CHECK(pad());
    rows.push_back({new_pos, static_cast<std::uint32_t>(a.data.size()), a.hash});
    ASSAY_CHECK(put_new(a.hash, a.data));
    ASSAY_CHECK(pad());
  }
  for (const Row& r : rows)
    if (r.offset > 0xFFFFFFFFull) return edit_error("the new WAD exceeds 4 GiB");
  DirHeader head = decode_in<DirHeader>(original.dir_bytes(), 0);  // its unused bytes 4-15 kept
  head.count = static_cast<std::uint32_t>(rows.size());
  ByteWriter w;
  put_record(w, head);
  for (const Row& r : rows) put_record(w, DirRow{static_cast<std::uint32_t>(r.offset), r.size, r.hash});
  return w.take();
}

namespace {

std::optional<fs::path> find_ci(const fs::path& folder, std::string_view name) {
  std::error_code ec;
  for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string f = it->path().filename().string();
    if (f.size() == name.size() && std::equal(f.begin(), f.end(), name.begin(), [](char x, char y) {
          return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
        }))
      return it->path();
  }
  return std::nullopt;
}

bool escapes(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\' || (name.size() >= 2 && name[1] == ':')) return true;
  for (std::size_t b = 0; b <= name.size();) {
    std::size_t e = name.find_first_of("/\\", b);
    if (e == std::string_view::npos) e = name.size();
    if (name.substr(b, e - b) == "..") return true;
    b = e + 1;
  }
  return false;
}

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  return fs::exists(a, ec) && fs::exists(b, ec) && fs::equivalent(a, b, ec);
}

}  // namespace

Result<Json> edit_format(const Input& in, const EditRequest& req) {
  ASSAY_TRY(Disc disc, Disc::open(in));
  ASSAY_TRY(NameTable names, NameTable::load(req.read.names_files));
  // Where the input's files are (for --in-place and for refusing an output that is the input).
  std::optional<fs::path> in_dir, in_wad;
  if (in.is_directory) in_dir = find_ci(in.path, "WARRIORS.DIR"), in_wad = find_ci(in.path, "WARRIORS.WAD");
  else if (disc.source() == DiscSource::dir_file)
    in_dir = in.path, in_wad = find_ci(in.path.has_parent_path() ? in.path.parent_path() : ".", "WARRIORS.WAD");
  fs::path out_dir_file, out_wad_file;
  if (req.in_place) {
    if (!in_dir || !in_wad) return usage_error(in.name + ": only a folder or WARRIORS.DIR can be edited in place (not an ISO)");
    out_dir_file = fs::canonical(*in_dir), out_wad_file = fs::canonical(*in_wad);
  } else {
    if (req.output.empty()) return usage_error("give -o OUTDIR or --in-place");
    std::error_code ec;
    fs::create_directories(req.output, ec);
    if (!fs::is_directory(req.output, ec)) return io_error(req.output.string(), "is not a folder (OUT receives WARRIORS.DIR and WARRIORS.WAD)");
    out_dir_file = req.output / "WARRIORS.DIR", out_wad_file = req.output / "WARRIORS.WAD";
    for (const auto& p : {out_dir_file, out_wad_file})
      if ((in_dir && same_file(p, *in_dir)) || (in_wad && same_file(p, *in_wad)))
        return usage_error(req.output.string() + " holds the input; use --in-place to rewrite it");
    if (!req.force)
      for (const auto& p : {out_dir_file, out_wad_file})
        if (fs::symlink_status(p, ec).type() != fs::file_type::not_found)
          return io_error(p.string(), "already exists (use --force to overwrite)");
  }

  DiscEdit edit;
  std::map<std::uint32_t, std::string> given;  // hash -> the name as given (progress)
  if (req.progress)
    edit.new_data_written = [&](std::uint32_t h, std::uint64_t n) { req.progress(n, n == 0 ? given[h] : std::string()); };
  std::vector<DiscEditLine> changes;
  std::set<std::uint32_t> touched;
  for (const EditChange& c : req.changes) {
    const char* op = c.op == EditOp::replace ? "replace" : c.op == EditOp::add ? "add" : "remove";
    if (escapes(c.name)) return usage_error(fmt::format("{} '{}': the name escapes the folder (.., absolute)", op, c.name));
    const std::uint32_t h = name_hash(c.name);
    EditData data;
    if (c.op != EditOp::remove) {
      ASSAY_TRY(data, EditData::of(req, c));  // a FILE given stays on disk, read in pieces
    }
    if (data.size() > 0xFFFFFFFFull) return usage_error(fmt::format("{} '{}': larger than 4 GiB", op, c.name));
    const auto row = disc.find(h);
    const std::string* known = names.find(h);
    DiscEditLine j{op, parse_hash(c.name) ? (known ? std::optional<std::string>(*known) : std::nullopt) : std::optional<std::string>(base_name(c.name)), h};
    if (!touched.insert(h).second) return usage_error(fmt::format("'{}' is named twice", c.name));
    given[h] = c.name;
    if (c.op == EditOp::add) {
      if (row) return usage_error(fmt::format("add '{}': the DIR already has hash {} (use replace)", c.name, hex8(h)));
      edit.add.push_back({h, data});
      j.new_size = data.size();
    } else {
      if (!row) return usage_error(fmt::format("{} '{}': no row has hash {}", op, c.name, hex8(h)));
      j.index = row->index;
      j.old_size = row->size;
      if (c.op == EditOp::replace) edit.replace[row->index] = data, j.new_size = data.size();
      else edit.remove.insert(row->index);
    }
    changes.push_back(std::move(j));
  }

  ASSAY_TRY(TempFile wad_tmp, TempFile::create(out_wad_file));
  std::uint64_t wad_size = 0;
  ASSAY_TRY(ByteBuffer dir, edit_disc(disc, edit, [&](ByteView b) {
              wad_size += b.size();
              return wad_tmp.write(b);
            }));
  ASSAY_CHECK(wad_tmp.finish());
  ASSAY_TRY(TempFile dir_tmp, TempFile::create(out_dir_file));
  ASSAY_CHECK(dir_tmp.write(dir));
  ASSAY_CHECK(dir_tmp.finish());
  {  // Read back: the files as written pass D1-D10 without errors and hold the new bytes.
    ASSAY_TRY(MappedFile d, MappedFile::open(dir_tmp.path()));
    ASSAY_TRY(MappedFile w, MappedFile::open(wad_tmp.path()));
    if (!std::equal(d.bytes().begin(), d.bytes().end(), dir.begin(), dir.end()) || w.bytes().size() != wad_size)
      return io_error(out_dir_file.string(), "the written files do not read back as written; nothing was changed");
    ASSAY_TRY(Disc back, Disc::from_views(d.bytes(), w.bytes()));
    ASSAY_CHECK(refuse_broken(back));  // the DIR's rows against the WAD's size: no WAD byte is read
    // New entries compared 1 MiB at a time through pread, not the mapping (whose pages would stay
    // resident): bounded memory whatever their size.
    ASSAY_TRY(FileReader wad_back, FileReader::open(wad_tmp.path()));
    ByteBuffer got;
    for (const EditChange& c : req.changes) {
      const auto row = back.find(name_hash(c.name));
      if (c.op == EditOp::remove ? row.has_value() : !row.has_value())
        return edit_error(fmt::format("read-back: '{}' is {}", c.name, row ? "still there" : "missing"));
      if (c.op == EditOp::remove) continue;
      ASSAY_TRY(EditData want, EditData::of(req, c));
      const auto differs = [&] { return edit_error(fmt::format("read-back: '{}' does not hold the bytes given", c.name)); };
      if (row->size != want.size() || !range_ok(row->offset, row->size, wad_back.size())) return differs();
      ASSAY_CHECK(want.each_piece(std::uint64_t{1} << 20, [&](std::uint64_t at, ByteView piece) -> Result<void> {
        got.resize(piece.size());
        ASSAY_CHECK(wad_back.read(row->offset + at, got));
        if (!std::equal(got.begin(), got.end(), piece.begin(), piece.end())) return differs();
        return {};
      }));
    }
  }
  // The WAD first: until the DIR is renamed too, the old DIR no longer matches (a crash here
  // leaves the new WAD with the old DIR; documented in docs/cli.md#edit).
  {  // Ctrl-C waits until both are in place (core/interrupt.h)
    SignalShield both;
    ASSAY_CHECK(wad_tmp.commit());
    ASSAY_CHECK(dir_tmp.commit());
  }
  return disc_edit_json(in.name, req.in_place ? out_dir_file.parent_path().string() : req.output.string(), req.in_place,
                        (dir.size() - kDirHeaderSize) / kDirRowSize, wad_size, changes);
}

}  // namespace assay::warriors
