// Text that leaves the program: JSON strings are valid UTF-8 and terminal text has no control
// characters, whatever bytes a file's names hold (docs/cli.md#escaping).
//
// JSON rule: a string that is not valid UTF-8 is printed with each invalid byte replaced by
// U+FFFD, and (for an object member "<key>") a sibling "<key>_bytes" holds the original bytes as
// lowercase hex, so nothing is lost. Object keys and array items get the replacement only.
// Terminal rule: control characters (C0, DEL, C1) and invalid bytes print as \xHH (\n, \r, \t
// and \e as themselves); everything else, valid UTF-8 included, prints as is.
#pragma once

#include <string>
#include <string_view>

namespace assay {

// True when `s` is well-formed UTF-8 (no overlongs, surrogates or code points above U+10FFFF).
[[nodiscard]] bool valid_utf8(std::string_view s);
// `s` with every byte of an ill-formed sequence replaced by U+FFFD (valid input is unchanged).
[[nodiscard]] std::string utf8_replace_invalid(std::string_view s);
// Lowercase hex of every byte ("ff41").
[[nodiscard]] std::string hex_bytes(std::string_view s);
// `s` safe to print on a terminal or in one table cell (the terminal rule above).
[[nodiscard]] std::string escape_terminal(std::string_view s);
// The JSON rule's functions: src/core/json_text.h (internal: no public header names JSON values).

}  // namespace assay
