// The text form of multi-head models (docs/model-format.md §13), its writer, and the
// dispatch between the text and JSON forms. Each head section is handed to the single-head
// text reader (model_text.cpp) padded with the blank lines before it, so that every error
// inside a head names its real line in the file.
#include "models/model_file_limits.hpp"
#include "models/multi_head_files.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/multi_head_io.hpp"
#include "kernelrank/models/parametric_writer.hpp"

#include <optional>

namespace kernelrank {
namespace {

constexpr const char* kHeaderWord = "kernelrank-multihead";

struct MultiHeader {
  std::size_t line = 0;
  int m = 0;
  std::size_t heads = 0;
};

MultiHeader read_multi_header(TextReader& reader) {
  const std::optional<TextLine> line = reader.next();
  const std::string expected = std::string("'") + kHeaderWord + " 1 m=<m> heads=<H>'";
  if (!line) reader.fail(0, "empty file: expected a header " + expected);
  if (line->fields[0] != kHeaderWord)
    reader.fail(line->number,
                "expected a header " + expected + ", found '" + line->fields[0] + "'");
  if (line->fields.size() < 2 || line->fields[1] != "1")
    reader.fail(line->number, "unsupported multi-head format version (this build reads 1)");
  MultiHeader header;
  header.line = line->number;
  std::optional<long long> m, heads;
  for (std::size_t i = 2; i < line->fields.size(); ++i) {
    const std::string& field = line->fields[i];
    std::optional<long long>* slot = nullptr;
    if (key_value(field, "m")) slot = &m;
    if (key_value(field, "heads")) slot = &heads;
    if (!slot)
      reader.fail(line->number, "unknown header key '" + field.substr(0, field.find('=')) +
                                    "' (allowed: m, heads)");
    if (*slot) reader.fail(line->number, "duplicate header key '" + field + "'");
    TextLine value{line->number, {field.substr(field.find('=') + 1)}};
    *slot = slot == &m
                ? reader.integer_field(value, 0, 1, model_files::kMaxModelWidth, "m")
                : reader.integer_field(value, 0, 1, static_cast<long long>(kMaxHeads), "heads");
  }
  if (!m) reader.fail(line->number, "missing header key m=<m>");
  if (!heads) reader.fail(line->number, "missing header key heads=<H>");
  header.m = static_cast<int>(*m);
  header.heads = static_cast<std::size_t>(*heads);
  return header;
}

// A head section: its `head h` line and the physical lines of its model text.
struct Section {
  std::size_t head_line = 0;
  std::size_t first_text_line = 0;  // 0 while the section has no non-blank line
  std::size_t begin = 0, end = 0;   // byte range of the section's text
};

// Splits the file into head sections, checking the header, the order and number of the
// `head` lines and the total size before any head is parsed.
std::vector<Section> split_sections(TextReader& reader, const MultiHeader& header,
                                    const std::vector<std::size_t>& line_starts) {
  std::vector<Section> sections;
  unsigned long long fields = 0;
  while (const std::optional<TextLine> line = reader.next()) {
    fields += line->fields.size();
    if (fields > model_files::kMaxStoredNumbers * 2)
      reader.fail(line->number, "multi-head model too large: more than " +
                                    std::to_string(model_files::kMaxStoredNumbers * 2) + " fields");
    if (line->fields[0] != "head") {
      if (sections.empty())
        reader.fail(line->number,
                    "missing 'head 1' line: expected 'head 1' before the first head's model, "
                    "found '" +
                        line->fields[0] + "'");
      if (sections.back().first_text_line == 0) sections.back().first_text_line = line->number;
      continue;
    }
    if (line->fields.size() != 2) reader.fail(line->number, "expected 'head <h>'");
    const auto h = static_cast<std::size_t>(
        reader.integer_field(*line, 1, 1, static_cast<long long>(kMaxHeads), "head number"));
    const std::size_t expected = sections.size() + 1;
    if (expected > header.heads)
      reader.fail(line->number, "wrong head count: 'head " + std::to_string(h) +
                                    "' but the header (line " + std::to_string(header.line) +
                                    ") declares heads=" + std::to_string(header.heads));
    if (h != expected)
      reader.fail(line->number, "heads out of order: expected 'head " + std::to_string(expected) +
                                    "', found 'head " + std::to_string(h) + "'");
    if (!sections.empty()) sections.back().end = line_starts[line->number];
    Section section;
    section.head_line = line->number;
    section.begin = line_starts[line->number + 1];
    sections.push_back(section);
  }
  if (sections.size() != header.heads)
    reader.fail(header.line,
                "wrong head count: the header declares heads=" + std::to_string(header.heads) +
                    " but the file has " + std::to_string(sections.size()) + " head section" +
                    (sections.size() == 1 ? "" : "s"));
  sections.back().end = line_starts.back();
  return sections;
}

// The byte offset of the start of every physical line (index 0 unused: lines count from 1),
// and one past the end of the file last.
std::vector<std::size_t> line_starts_of(const std::string& contents) {
  std::vector<std::size_t> starts{0, 0};
  for (std::size_t i = 0; i < contents.size(); ++i)
    if (contents[i] == '\n') starts.push_back(i + 1);
  starts.push_back(contents.size());
  return starts;
}

std::shared_ptr<const Model> parse_section(const std::string& name, const std::string& contents,
                                           const Section& section, std::size_t h, int m) {
  const std::string prefix = "head " + std::to_string(h) + ": ";
  if (section.first_text_line == 0)
    throw InputError(name, section.head_line,
                     prefix + "no model after 'head " + std::to_string(h) +
                         "' (expected a 'kernelrank-model 1 ...' header)");
  // The lines before the section become blank lines, so line numbers stay those of the file.
  std::string padded(section.head_line, '\n');
  padded.append(contents, section.begin, section.end - section.begin);
  std::shared_ptr<const Model> head;
  try {
    head = model_files::parse_text(name, std::move(padded));
  } catch (const InputError& e) {
    throw InputError(name, e.line() > 0 ? e.line() : section.head_line, prefix + e.message());
  }
  if (head->width() != m)
    throw InputError(name, section.first_text_line,
                     prefix + "width mismatch: the head has m=" + std::to_string(head->width()) +
                         " but the multi-head header declares m=" + std::to_string(m));
  return head;
}

}  // namespace

namespace model_files {

MultiHeadModel parse_multi_head_text(const std::string& name, const std::string& contents) {
  TextReader reader(name, contents);
  const MultiHeader header = read_multi_header(reader);
  const std::vector<std::size_t> line_starts = line_starts_of(contents);
  const std::vector<Section> sections = split_sections(reader, header, line_starts);
  std::vector<std::shared_ptr<const Model>> heads;
  for (std::size_t h = 0; h < sections.size(); ++h)
    heads.push_back(parse_section(name, contents, sections[h], h + 1, header.m));
  return MultiHeadModel(std::move(heads));
}

}  // namespace model_files

bool is_multi_head_contents(const std::string& contents) {
  std::size_t at = 0;
  while (at < contents.size()) {  // the first line with a field
    std::size_t end = contents.find('\n', at);
    if (end == std::string::npos) end = contents.size();
    std::string line = contents.substr(at, end - at);
    line = line.substr(0, line.find('#'));
    const std::size_t start = line.find_first_not_of(" \t\r");
    if (start != std::string::npos) {
      if (line[start] == '{') return model_files::json_format_is_multi_head(contents);
      return line.compare(start, std::char_traits<char>::length(kHeaderWord), kHeaderWord) == 0 &&
             (line.size() == start + std::char_traits<char>::length(kHeaderWord) ||
              line.find_first_of(" \t\r", start) ==
                  start + std::char_traits<char>::length(kHeaderWord));
    }
    at = end + 1;
  }
  return false;
}

std::string feature_model_to_text(const FeatureModel& model) {
  const std::vector<TokenFeatures>& features = model.features();
  const std::size_t slots = features.empty() ? 1 : features.front().phi_q.size();
  const std::size_t d = features.empty() ? 0 : features.front().value.front().size();
  std::string out = "kernelrank-model 1 kind=features m=" + std::to_string(model.width()) +
                    " r=" + std::to_string(model.feature_count().value_or(0)) +
                    " d=" + std::to_string(d);
  if (model.position_dependent()) out += " positions=" + std::to_string(slots);
  out += "\n";
  const auto numbers = [&out](const char* word, const RationalVector& values) {
    out += std::string(" ") + word;
    for (const Rational& v : values) out += " " + to_string(v);
  };
  for (std::size_t t = 0; t < features.size(); ++t)
    for (std::size_t p = 0; p < slots; ++p) {
      out += "token " + model.tokens()[t].to_string();
      if (model.position_dependent()) out += " pos " + std::to_string(p + 1);
      const TokenFeatures& f = features[t];
      numbers("phiQ", f.phi_q[p]);
      numbers("phiK", f.phi_k[p]);
      numbers("v", f.value[p]);
      numbers("c", f.readout_c[p]);
      out += " e " + to_string(f.readout_e[p]) + "\n";
    }
  return out;
}

std::string multi_head_text(const MultiHeadModel& model) {
  std::string out = std::string(kHeaderWord) + " 1 m=" + std::to_string(model.width()) +
                    " heads=" + std::to_string(model.head_count()) + "\n";
  for (std::size_t h = 0; h < model.head_count(); ++h) {
    const Model& head = model.head(h);
    out += "head " + std::to_string(h + 1) + "\n";
    if (const auto* table = dynamic_cast<const TabularModel*>(&head))
      out += tabular_model_to_text(*table);
    else if (const auto* features = dynamic_cast<const FeatureModel*>(&head))
      out += feature_model_to_text(*features);
    else if (const auto* parametric = dynamic_cast<const ParametricModel*>(&head))
      out += parametric_model_to_text(*parametric);
    else
      throw UsageError("head " + std::to_string(h + 1) + " (" + head.description() +
                       ") cannot be written: only tabular, features and parametric heads have a "
                       "text writer");
  }
  return out;
}

}  // namespace kernelrank
