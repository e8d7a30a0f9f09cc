// Model files in the text format (tabular, features, parametric, builtin;
// docs/model-format.md), and the canonical tabular writer.
//
// The reader fails closed: every count is checked against the header, every number is
// parsed exactly, unknown keys and sections are errors, and each error names the file, the
// line and what was expected. Sizes are checked (model_file_limits.hpp) before anything is
// allocated. The writer emits the canonical tabular form, which reads back to an equal model.
#include "models/model_file_limits.hpp"
#include "models/model_text_sections.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/model_io.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace kernelrank {
namespace model_files {
namespace {

using namespace text;  // the shared reader pieces

// ---- kind=tabular ----------------------------------------------------------------

// The 'tokens <K>' section: K distinct tokens of width m, one a line.
std::vector<Token> read_token_section(TextReader& reader, int m, std::size_t blocks) {
  std::optional<TextLine> line = reader.next();
  if (!line || line->fields[0] != "tokens" || line->fields.size() != 2)
    reader.fail(line ? line->number : reader.current_line(),
                "expected 'tokens <K>' after the header, found " +
                    (line ? "'" + line->fields[0] + "'" : std::string("the end of the file")));
  const auto k = static_cast<std::size_t>(
      reader.integer_field(*line, 1, 1, kMaxTabularTokens, "the token count K"));
  const unsigned long long numbers = 2ULL * k * k * blocks * blocks;
  if (numbers > kMaxStoredNumbers)
    reader.fail(line->number, "tabular model too large: " + std::to_string(k) + " tokens and " +
                                  std::to_string(blocks * blocks) + " position blocks need " +
                                  std::to_string(numbers) + " numbers (limit " +
                                  std::to_string(kMaxStoredNumbers) + ")");

  std::vector<Token> tokens;
  std::unordered_map<Token, std::size_t, TokenHash> first_line;
  const std::string width_what = "a 0/1 token of width " + std::to_string(m);
  for (std::size_t i = 0; i < k; ++i) {
    line = reader.next();
    if (!line || is_one_of(line->fields[0], {"tokens", "kernel", "readout"}))
      reader.fail(line ? line->number : reader.current_line(),
                  "expected " + std::to_string(k) + " token lines after 'tokens " +
                      std::to_string(k) + "', found " + std::to_string(i));
    if (line->fields.size() != 1)
      reader.fail(line->number, "expected one token per line in the tokens section, found " +
                                    std::to_string(line->fields.size()) + " fields");
    Token token = reader.token_field(*line, 0, m, width_what.c_str());
    const auto [it, inserted] = first_line.emplace(token, line->number);
    if (!inserted)
      reader.fail(line->number, "duplicate token " + token.to_string() + " (first listed on line " +
                                    std::to_string(it->second) + ")");
    tokens.push_back(std::move(token));
  }

  return tokens;
}

using TabularBlocks = std::vector<std::vector<RationalMatrix>>;  // [qpos][kpos]

// The kernel and readout sections, every (qpos, kpos) block exactly once.
std::array<TabularBlocks, 2> read_table_sections(TextReader& reader, std::size_t k, int positions) {
  const auto blocks = static_cast<std::size_t>(positions > 0 ? positions : 1);
  std::optional<TextLine> line;
  // Blocks as they are read, keyed by (kernel=0/readout=1, qpos, kpos), with the line of
  // their header. Nothing is allocated for a position pair before its block is read: the
  // header "positions=4096" alone used to allocate a gigabyte of empty tables.
  using BlockKey = std::tuple<int, std::size_t, std::size_t>;
  std::map<BlockKey, std::pair<std::size_t, RationalMatrix>> read_blocks;
  while ((line = reader.next())) {
    const std::string& word = line->fields[0];
    if (word == "tokens") reader.fail(line->number, "duplicate section 'tokens'");
    if (word != "kernel" && word != "readout")
      reader.fail(line->number, "expected a 'kernel' or 'readout' section, found '" + word + "'");
    const int t = word == "kernel" ? 0 : 1;
    const auto pos = section_positions(reader, *line, positions, 2, " <qpos> <kpos>");
    const std::size_t qp = pos.empty() ? 0 : pos[0];
    const std::size_t kp = pos.empty() ? 0 : pos[1];
    const std::string name = block_name(word, positions, qp, kp, true);
    const BlockKey key{t, qp, kp};
    if (const auto earlier = read_blocks.find(key); earlier != read_blocks.end())
      reader.fail(line->number, "duplicate section '" + name + "' (first on line " +
                                    std::to_string(earlier->second.first) + ")");
    const std::size_t header_line = line->number;
    RationalMatrix table;
    table.reserve(k);
    for (std::size_t row = 1; row <= k; ++row)
      table.push_back(read_row(reader, k, row, k, name, "", {"tokens", "kernel", "readout"}));
    read_blocks.emplace(key, std::make_pair(header_line, std::move(table)));
  }
  if (read_blocks.size() != 2 * blocks * blocks)  // name the first missing block
    for (int t = 0; t < 2; ++t)
      for (std::size_t qp = 0; qp < blocks; ++qp)
        for (std::size_t kp = 0; kp < blocks; ++kp)
          if (read_blocks.count(BlockKey{t, qp, kp}) == 0)
            reader.fail(reader.current_line(),
                        "missing section '" +
                            block_name(t == 0 ? "kernel" : "readout", positions, qp, kp, true) +
                            "'");
  std::array<TabularBlocks, 2> tables;
  for (int t = 0; t < 2; ++t) {
    tables[t].resize(blocks);
    for (std::size_t qp = 0; qp < blocks; ++qp)
      for (std::size_t kp = 0; kp < blocks; ++kp)
        tables[t][qp].push_back(std::move(read_blocks[BlockKey{t, qp, kp}].second));
  }

  return tables;
}

std::unique_ptr<Model> parse_tabular(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "positions", "class"});
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  const int positions = static_cast<int>(
      header_integer(reader, header, "positions", 1, kMaxPositions, false).value_or(0));
  const auto blocks = static_cast<std::size_t>(positions > 0 ? positions : 1);
  std::vector<Token> tokens = read_token_section(reader, m, blocks);
  std::array<TabularBlocks, 2> tables = read_table_sections(reader, tokens.size(), positions);
  if (positions == 0)
    return std::make_unique<TabularModel>(m, std::move(tokens), std::move(tables[0][0][0]),
                                          std::move(tables[1][0][0]));
  return std::make_unique<TabularModel>(m, std::move(tokens), positions, std::move(tables[0]),
                                        std::move(tables[1]));
}

// ---- kind=builtin ----------------------------------------------------------------

std::unique_ptr<Model> parse_builtin(TextReader& reader, const Header& header) {
  // Names and parameters (n=, base=, ...) are checked by make_builtin_model,
  // which knows what each built-in model takes.
  const auto name = header.values.find("name");
  if (name == header.values.end())
    reader.fail(header.line, "missing name=<rank1-mean|softmax|product> in the model header");
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  if (const std::optional<TextLine> line = reader.next())
    reader.fail(line->number,
                "unexpected line after the header: a builtin model file is the "
                "header line only");
  std::map<std::string, std::string> params;
  for (const auto& [key, value] : header.values)
    if (key != "name" && key != "m") params[key] = value;
  try {
    return make_builtin_model(name->second, m, params);
  } catch (const UsageError& e) {
    reader.fail(header.line, "builtin model " + name->second + ": " + e.what());
  } catch (const std::invalid_argument& e) {
    reader.fail(header.line, "builtin model " + name->second + ": " + e.what());
  }
}

}  // namespace

std::unique_ptr<Model> parse_text(std::string name, std::string contents) {
  TextReader reader(std::move(name), std::move(contents));
  const Header header = read_header(reader);
  if (header.kind == "builtin") return parse_builtin(reader, header);
  if (header.kind == "layered") return parse_layered(reader, header);
  const bool known =
      header.kind == "tabular" || header.kind == "features" || header.kind == "parametric";
  // class= is read before the body, so that an unknown value is reported as such.
  const std::optional<ModelClass> declared = known ? header_class(reader, header) : std::nullopt;
  if (header.kind == "tabular")
    return with_declared_class(reader, header, declared, parse_tabular(reader, header));
  if (header.kind == "features")
    return with_declared_class(reader, header, declared, parse_features(reader, header));
  if (header.kind == "parametric")
    return with_declared_class(reader, header, declared, parse_parametric(reader, header));
  reader.fail(header.line, "unknown model kind '" + header.kind +
                               "' (expected tabular, features, parametric, builtin or layered)");
}

}  // namespace model_files

namespace {

void append_row(std::string& out, const RationalVector& row) {
  for (std::size_t j = 0; j < row.size(); ++j) {
    if (j > 0) out += ' ';
    out += to_string(row[j]);
  }
  out += '\n';
}

}  // namespace

std::string tabular_model_to_text(const TabularModel& model) {
  const int n = model.positions();
  const auto blocks = static_cast<std::size_t>(n > 0 ? n : 1);
  std::string out = "kernelrank-model 1 kind=tabular m=" + std::to_string(model.width());
  if (n > 0) out += " positions=" + std::to_string(n);
  if (const auto declared = model.declared_class()) out += " class=" + to_string(*declared);
  out += "\n# rows: query token; columns: key token (both in the order of 'tokens')\n";
  out += "tokens " + std::to_string(model.tokens().size()) + "\n";
  for (const Token& token : model.tokens()) out += token.to_string() + "\n";
  for (int t = 0; t < 2; ++t) {
    const char* word = t == 0 ? "kernel" : "readout";
    for (std::size_t qp = 0; qp < blocks; ++qp)
      for (std::size_t kp = 0; kp < blocks; ++kp) {
        out += model_files::block_name(word, n, qp, kp, true) + "\n";
        const int q = static_cast<int>(qp);
        const int k = static_cast<int>(kp);
        const RationalMatrix& table = t == 0 ? model.kernel_table(q, k) : model.readout_table(q, k);
        for (const RationalVector& row : table) append_row(out, row);
      }
  }
  return out;
}

}  // namespace kernelrank
