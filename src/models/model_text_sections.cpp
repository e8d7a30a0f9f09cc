// The header line, counted rows and section headers of text model files (see
// model_text_sections.hpp).
#include "models/model_text_sections.hpp"

#include "models/model_file_limits.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/declared_class.hpp"
#include "kernelrank/models/model_io.hpp"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace kernelrank::model_files::text {

extern const char* const kHeaderShape;
const char* const kHeaderShape =
    "'kernelrank-model 1 kind=<tabular|features|parametric|builtin> m=<m> ...'";

// ---- header --------------------------------------------------------------------

Header read_header(TextReader& reader) {
  const std::optional<TextLine> line = reader.next();
  if (!line) reader.fail(0, std::string("empty model file: expected the header ") + kHeaderShape);
  const auto& fields = line->fields;
  if (fields[0] != "kernelrank-model")
    reader.fail(line->number,
                std::string("expected the header ") + kHeaderShape + ", found '" + fields[0] + "'");
  if (fields.size() < 2)
    reader.fail(line->number, "expected the format version 1 after 'kernelrank-model'");
  if (fields[1] != "1")
    reader.fail(line->number, "unsupported model format version '" + fields[1] +
                                  "' (this build reads version 1)");
  Header header;
  header.line = line->number;
  bool have_kind = false;
  for (std::size_t i = 2; i < fields.size(); ++i) {
    const std::size_t eq = fields[i].find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == fields[i].size())
      reader.fail(line->number, "expected key=value in header field " + std::to_string(i + 1) +
                                    ", found '" + fields[i] + "'");
    const std::string key = fields[i].substr(0, eq);
    const std::string value = fields[i].substr(eq + 1);
    if ((key == "kind" && have_kind) || header.values.count(key) != 0)
      reader.fail(line->number, "header key '" + key + "' given twice");
    if (key == "kind") {
      header.kind = value;
      have_kind = true;
    } else {
      header.values[key] = value;
    }
  }
  if (!have_kind)
    reader.fail(line->number,
                "missing kind=<tabular|features|parametric|builtin> in the model header");
  return header;
}

void check_keys(const TextReader& reader, const Header& header,
                const std::vector<std::string>& allowed) {
  for (const auto& [key, value] : header.values) {
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string list;
    for (const std::string& name : allowed) list += (list.empty() ? "" : ", ") + name;
    reader.fail(header.line, "unknown header key '" + key + "' for kind=" + header.kind +
                                 " (allowed: kind, " + list + ")");
  }
}

// key=<integer in lo..hi>; nullopt when the key is absent and optional.
std::optional<long long> header_integer(const TextReader& reader, const Header& header,
                                        const std::string& key, long long lo, long long hi,
                                        bool required) {
  const auto it = header.values.find(key);
  if (it == header.values.end()) {
    if (required)
      reader.fail(header.line, "missing " + key + "=<integer in " + std::to_string(lo) + ".." +
                                   std::to_string(hi) + "> in the model header");
    return std::nullopt;
  }
  const std::string& text = it->second;
  bool ok = !text.empty() && text.size() <= 18;
  for (char c : text) ok = ok && c >= '0' && c <= '9';
  const long long value = ok ? std::stoll(text) : 0;
  if (!ok || value < lo || value > hi)
    reader.fail(header.line, "expected " + key + "=<integer in " + std::to_string(lo) + ".." +
                                 std::to_string(hi) + "> in the model header, found '" + key + "=" +
                                 text + "'");
  return value;
}

std::optional<ModelClass> header_class(const TextReader& reader, const Header& header) {
  const auto it = header.values.find("class");
  if (it == header.values.end()) return std::nullopt;
  const std::optional<ModelClass> declared = parse_model_class(it->second);
  if (!declared)
    reader.fail(header.line,
                "expected class=PF, class=NK or class=signed in the model header, found 'class=" +
                    it->second + "'");
  return declared;
}

std::unique_ptr<Model> with_declared_class(const TextReader& reader, const Header& header,
                                           std::optional<ModelClass> declared,
                                           std::unique_ptr<Model> model) {
  if (!declared) return model;
  if (const std::optional<std::string> why = declared_class_violation(*model, *declared))
    reader.fail(header.line, "the header declares class=" + to_string(*declared) + " but " + *why);
  model->set_declared_class(declared);
  return model;
}

// ---- shared line helpers -----------------------------------------------------------

bool is_one_of(const std::string& word, std::initializer_list<const char*> words) {
  return std::any_of(words.begin(), words.end(), [&](const char* w) { return word == w; });
}

// Reads `count` numbers forming one row of a section; `section_words` are the
// keywords that start a section, reported as "too few rows" when met early.
RationalVector read_row(TextReader& reader, std::size_t count, std::size_t row, std::size_t rows,
                        const std::string& section, const std::string& shape,
                        std::initializer_list<const char*> section_words) {
  const std::optional<TextLine> line = reader.next();
  if (!line)
    reader.fail(reader.current_line(), "expected " + std::to_string(rows) + " rows in '" + section +
                                           "', found " + std::to_string(row - 1) +
                                           " before the end of the file");
  if (is_one_of(line->fields[0], section_words))
    reader.fail(line->number, "expected " + std::to_string(rows) + " rows in '" + section +
                                  "', found " + std::to_string(row - 1) + " before '" +
                                  line->fields[0] + "'");
  if (line->fields.size() != count)
    reader.fail(line->number, "expected " + std::to_string(count) + " numbers in " + section +
                                  " row " + std::to_string(row) + shape + ", found " +
                                  std::to_string(line->fields.size()));
  const std::string what = "an entry of " + section + " row " + std::to_string(row);
  RationalVector values;
  values.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
    values.push_back(reader.rational_field(*line, i, what.c_str()));
  return values;
}

// "kernel", or "kernel 1 2" / "WQ 2" with 1-based positions when position dependent.
std::string block_name(const std::string& word, int positions, std::size_t a, std::size_t b,
                       bool pair) {
  if (positions == 0) return word;
  return word + " " + std::to_string(a + 1) + (pair ? " " + std::to_string(b + 1) : "");
}

// Parses the position fields of a section header line (none when position
// independent, `count` 1-based positions otherwise); returns 0-based positions.
std::vector<std::size_t> section_positions(const TextReader& reader, const TextLine& line,
                                           int positions, std::size_t count,
                                           const std::string& shape) {
  const std::string& word = line.fields[0];
  if (positions == 0) {
    if (line.fields.size() != 1)
      reader.fail(line.number,
                  "expected '" + word + "' alone on its line (the header declares no positions=)");
    return {};
  }
  if (line.fields.size() != count + 1)
    reader.fail(line.number, "expected '" + word + shape + "' with 1-based positions in 1.." +
                                 std::to_string(positions) + " (the header declares positions=" +
                                 std::to_string(positions) + ")");
  std::vector<std::size_t> result;
  for (std::size_t i = 1; i <= count; ++i)
    result.push_back(
        static_cast<std::size_t>(reader.integer_field(line, i, 1, positions,
                                                      i == 1 && count == 2 ? "the query position"
                                                      : i == 2             ? "the key position"
                                                                           : "the position")) -
        1);
  return result;
}

}  // namespace kernelrank::model_files::text
