// Where a value sits in a JSON text, for error messages: nlohmann's documents keep no
// positions, so the model reader finds the line and column of a JSON path (or of the first
// duplicate key, or of the first bracket nested too deep) by scanning the text again.
// The text has already been parsed successfully, or failed only through the reader's own
// callback, so the scanner may assume well-formed JSON up to the point it looks for.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace kernelrank::json_position {

struct Position {
  std::size_t line = 1;    // from 1
  std::size_t column = 1;  // from 1, in bytes
};

// The start of the value at `path`: "" is the whole document, "m" a top-level key,
// "kernel[1][0]" an element, "heads[1].kernel[0][2]" an element inside an element. nullopt when the
// text has no such value.
std::optional<Position> of_path(const std::string& text, const std::string& path);
// The byte at `offset` (from 0).
Position of_offset(const std::string& text, std::size_t offset);
// The first key repeated inside one object.
std::optional<Position> of_duplicate_key(const std::string& text);
// The first '[' or '{' opened at nesting depth `depth` (the top level is depth 0).
std::optional<Position> of_depth(const std::string& text, int depth);

}  // namespace kernelrank::json_position
