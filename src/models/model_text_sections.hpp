// Internal: the pieces of the text model reader shared by its kinds (model_text.cpp,
// model_text_forms.cpp): the header line, counted rows and section headers.
#pragma once

#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/model_io.hpp"

#include <cstddef>
#include <initializer_list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank::model_files::text {

extern const char* const kHeaderShape;

struct Header {
  std::size_t line = 0;
  std::string kind;
  std::map<std::string, std::string> values;  // every key=value except kind
};

Header read_header(TextReader& reader);

void check_keys(const TextReader& reader, const Header& header,
                const std::vector<std::string>& allowed);

// key=<integer in lo..hi>; nullopt when the key is absent and optional.
std::optional<long long> header_integer(const TextReader& reader, const Header& header,
                                        const std::string& key, long long lo, long long hi,
                                        bool required);

bool is_one_of(const std::string& word, std::initializer_list<const char*> words);

// Reads `count` numbers forming one row of a section; `section_words` are the
// keywords that start a section, reported as "too few rows" when met early.
RationalVector read_row(TextReader& reader, std::size_t count, std::size_t row, std::size_t rows,
                        const std::string& section, const std::string& shape,
                        std::initializer_list<const char*> section_words);

// "kernel", or "kernel 1 2" / "WQ 2" with 1-based positions when position dependent.
std::string block_name(const std::string& word, int positions, std::size_t a, std::size_t b,
                       bool pair);

// Parses the position fields of a section header line (none when position
// independent, `count` 1-based positions otherwise); returns 0-based positions.
std::vector<std::size_t> section_positions(const TextReader& reader, const TextLine& line,
                                           int positions, std::size_t count,
                                           const std::string& shape);

// The optional header key class=PF|NK|signed (kinds tabular, features, parametric): its
// value, or nullopt when absent; an unknown value fails on the header line.
std::optional<ModelClass> header_class(const TextReader& reader, const Header& header);
// Checks a declared class against the model read (declared_class.hpp) and records it on
// the model; a declaration the data contradicts fails on the header line.
std::unique_ptr<Model> with_declared_class(const TextReader& reader, const Header& header,
                                           std::optional<ModelClass> declared,
                                           std::unique_ptr<Model> model);

// kind=features and kind=parametric (model_text_forms.cpp).
std::unique_ptr<Model> parse_features(TextReader& reader, const Header& header);
std::unique_ptr<Model> parse_parametric(TextReader& reader, const Header& header);
// kind=layered (model_text_layered.cpp).
std::unique_ptr<Model> parse_layered(TextReader& reader, const Header& header);

}  // namespace kernelrank::model_files::text
