// The layouts file: one template a line, `TAG CHECKSUM FLAGS HEXBYTES...` (spec: oni.md#oni-5).
#include <fmt/format.h>

#include <cctype>

#include "assay/formats/oni/layout.h"
#include "assay/formats/oni/names.h"

namespace assay::oni {

namespace {

constexpr std::size_t kMaxLine = 200000;
constexpr std::size_t kMaxTemplates = 4096;

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

bool parse_hex(std::string_view s, std::uint64_t& v) {
  v = 0;
  for (char c : s) {
    const int d = hex_digit(c);
    if (d < 0) return false;
    v = v << 4 | static_cast<unsigned>(d);
  }
  return !s.empty();
}

struct Line {
  std::vector<std::string_view> tokens;
  std::string_view comment;
};

// Splits on spaces/tabs; a '#' at the start or after whitespace starts a comment.
Line split(std::string_view s) {
  Line l;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
    if (i >= s.size()) break;
    if (s[i] == '#') {
      l.comment = s.substr(i + 1);
      break;
    }
    const std::size_t b = i;
    while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
    l.tokens.push_back(s.substr(b, i - b));
  }
  return l;
}

Result<Layout> parse_line(const Line& l) {
  auto bad = [](std::string m) { return make_error(kFormat, "", kNoOffset, std::move(m)); };
  if (l.tokens.size() < 4) return bad("expected TAG CHECKSUM FLAGS HEXBYTES...");
  Layout out;
  const auto tag = l.tokens[0];
  if (tag.size() != 4) return bad(fmt::format("tag '{}' is not four bytes", tag));
  for (char c : tag)
    if (static_cast<unsigned char>(c) < 0x21 || static_cast<unsigned char>(c) > 0x7E || c == '#')
      return bad(fmt::format("tag '{}' has a byte outside 0x21-0x7e or '#'", tag));
  parse_tag(tag, out.tag);
  const auto ck = l.tokens[1];
  if (ck.size() != 18 || ck.substr(0, 2) != "0x" || !parse_hex(ck.substr(2), out.checksum))
    return bad(fmt::format("checksum '{}' needs 0x and 16 hex digits", ck));
  const auto fl = l.tokens[2];
  std::uint64_t flags = 0;
  if (fl.substr(0, 2) == "0x") {
    if (fl.size() < 3 || fl.size() > 10 || !parse_hex(fl.substr(2), flags)) return bad(fmt::format("flags '{}' is not 0x and 1-8 hex digits", fl));
  } else {
    if (fl.empty() || fl.size() > 10) return bad(fmt::format("flags '{}' is not a number", fl));
    for (char c : fl) {
      if (c < '0' || c > '9') return bad(fmt::format("flags '{}' is not a decimal number", fl));
      flags = flags * 10 + static_cast<unsigned>(c - '0');
    }
    if (flags > 0xFFFFFFFFull) return bad(fmt::format("flags '{}' above 32 bits", fl));
  }
  out.flags = static_cast<std::uint32_t>(flags);
  for (std::size_t k = 3; k < l.tokens.size(); ++k) {
    std::uint64_t b = 0;
    if (l.tokens[k].size() != 2 || !parse_hex(l.tokens[k], b))
      return bad(fmt::format("byte '{}' is not two hex digits", l.tokens[k]));
    out.code.push_back(static_cast<std::uint8_t>(b));
  }
  std::string_view name = l.comment;
  while (!name.empty() && (name.front() == ' ' || name.front() == '\t')) name.remove_prefix(1);
  out.name = std::string(name);
  return out;
}

}  // namespace

Result<LayoutSet> parse_layouts_file(std::string_view text, std::string_view display, Diagnostics* warnings) {
  LayoutSet set;
  set.source = fmt::format("layouts file {}", display);
  std::size_t line_no = 0, templates = 0, pos = 0;
  auto at_line = [&](Error e) {
    e.file = std::string(display);
    e.structure = fmt::format("line {}", line_no);
    return e;
  };
  while (pos < text.size()) {
    std::size_t nl = text.find('\n', pos);
    if (nl == std::string_view::npos) nl = text.size();
    std::string_view s = text.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (!s.empty() && s.back() == '\r') s.remove_suffix(1);
    if (s.size() > kMaxLine) return at_line(make_error(kFormat, "", kNoOffset, "line longer than 200,000 bytes"));
    const Line l = split(s);
    if (l.tokens.empty()) continue;
    if (++templates > kMaxTemplates) return at_line(make_error(kFormat, "", kNoOffset, "more than 4,096 templates"));
    auto layout = parse_line(l);
    if (!layout) return at_line(layout.error());
    if (auto r = set.add(std::move(*layout), warnings); !r) {
      Error e = r.error();
      e.message = e.structure + (e.offset != kNoOffset ? fmt::format(" 0x{:x}", e.offset) : "") + ": " + e.message;
      e.offset = kNoOffset;
      return at_line(e);
    }
  }
  return set;
}

std::string format_layout_line(const Layout& l) {
  std::string s = fmt::format("{} 0x{:016x} {}", tag_string(l.tag), l.checksum, l.flags);
  for (std::uint8_t b : l.code) s += fmt::format(" {:02x}", b);
  if (!l.name.empty()) s += "  # " + l.name;
  return s;
}

std::string format_layouts_file(const std::vector<Layout>& layouts, std::string_view source_line) {
  std::string s = "# assay layouts v1\n";
  s += fmt::format("# source: {}\n", source_line);
  for (const Layout& l : layouts) s += format_layout_line(l) + "\n";
  return s;
}

}  // namespace assay::oni
