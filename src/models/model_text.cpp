// Model files in the text format (tabular, features, parametric, builtin;
// docs/model-format.md), and the canonical tabular writer.
//
// The reader fails closed: every count is checked against the header, every number is
// parsed exactly, unknown keys and sections are errors, and each error names the file, the
// line and what was expected. Sizes are checked (model_file_limits.hpp) before anything is
// allocated. The writer emits the canonical tabular form, which reads back to an equal model.
#include "models/model_file_limits.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/builtin_models.hpp"
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

namespace kernelrank {
namespace model_files {
namespace {

const char* const kHeaderShape =
    "'kernelrank-model 1 kind=<tabular|features|parametric|builtin> m=<m> ...'";

// ---- header --------------------------------------------------------------------

struct Header {
  std::size_t line = 0;
  std::string kind;
  std::map<std::string, std::string> values;  // every key=value except kind
};

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

// ---- kind=tabular ----------------------------------------------------------------

std::unique_ptr<Model> parse_tabular(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "positions"});
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  const int positions = static_cast<int>(
      header_integer(reader, header, "positions", 1, kMaxPositions, false).value_or(0));
  const auto blocks = static_cast<std::size_t>(positions > 0 ? positions : 1);

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
  std::vector<std::vector<RationalMatrix>> tables[2];
  for (int t = 0; t < 2; ++t) {
    tables[t].resize(blocks);
    for (std::size_t qp = 0; qp < blocks; ++qp)
      for (std::size_t kp = 0; kp < blocks; ++kp)
        tables[t][qp].push_back(std::move(read_blocks[BlockKey{t, qp, kp}].second));
  }

  if (positions == 0)
    return std::make_unique<TabularModel>(m, std::move(tokens), std::move(tables[0][0][0]),
                                          std::move(tables[1][0][0]));
  return std::make_unique<TabularModel>(m, std::move(tokens), positions, std::move(tables[0]),
                                        std::move(tables[1]));
}

// ---- kind=features ---------------------------------------------------------------

std::unique_ptr<Model> parse_features(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "r", "d", "positions"});
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  const int r =
      static_cast<int>(*header_integer(reader, header, "r", 1, kMaxFeatureDimension, true));
  const int d =
      static_cast<int>(*header_integer(reader, header, "d", 0, kMaxFeatureDimension, true));
  const int positions = static_cast<int>(
      header_integer(reader, header, "positions", 1, kMaxPositions, false).value_or(0));
  const auto slots = static_cast<std::size_t>(positions > 0 ? positions : 1);
  const auto rr = static_cast<std::size_t>(r);
  const auto dd = static_cast<std::size_t>(d);

  struct Part {
    const char* keyword;
    std::size_t count;
  };
  const Part parts[] = {{"phiQ", rr}, {"phiK", rr}, {"v", dd}, {"c", dd}, {"e", 1}};
  const auto is_keyword = [&](const std::string& field) {
    return std::any_of(std::begin(parts), std::end(parts),
                       [&](const Part& p) { return field == p.keyword; });
  };
  const unsigned long long numbers_per_line = 2ULL * rr + 2ULL * dd + 1;

  std::vector<Token> tokens;
  std::vector<TokenFeatures> features;
  std::unordered_map<Token, std::size_t, TokenHash> index;
  std::vector<std::vector<std::size_t>> seen;  // [token][slot] -> line number, 0 = absent
  unsigned long long stored = 0;
  const std::string width_what = "a 0/1 token of width " + std::to_string(m);

  while (const std::optional<TextLine> line = reader.next()) {
    const auto& fields = line->fields;
    if (fields[0] != "token")
      reader.fail(line->number,
                  "expected a line 'token <0/1> " + std::string(positions > 0 ? "pos <p> " : "") +
                      "phiQ ... phiK ... v ... c ... e ...', found '" + fields[0] + "'");
    Token token = reader.token_field(*line, 1, m, width_what.c_str());
    std::size_t at = 2;
    std::size_t slot = 0;
    if (positions > 0) {
      if (at >= fields.size() || fields[at] != "pos")
        reader.fail(line->number, "expected 'pos <p>' in field 3 (the header declares positions=" +
                                      std::to_string(positions) + ")");
      slot = static_cast<std::size_t>(
                 reader.integer_field(*line, at + 1, 1, positions, "the position")) -
             1;
      at += 2;
    } else if (at < fields.size() && fields[at] == "pos") {
      reader.fail(line->number, "unexpected 'pos' in field 3: the header declares no positions=");
    }

    stored += numbers_per_line;
    if (stored > kMaxStoredNumbers)
      reader.fail(line->number, "feature model too large: more than " +
                                    std::to_string(kMaxStoredNumbers) + " numbers");

    auto [it, inserted] = index.emplace(token, tokens.size());
    if (inserted) {
      // A new token holds five vectors and a line number per position (about four
      // numbers' worth): with positions=4096 a short line cost half a megabyte.
      stored += 4ULL * slots;
      if (stored > kMaxStoredNumbers)
        reader.fail(line->number, "feature model too large: more than " +
                                      std::to_string(kMaxStoredNumbers) + " numbers");
      tokens.push_back(token);
      TokenFeatures blank;
      blank.phi_q.resize(slots);
      blank.phi_k.resize(slots);
      blank.value.resize(slots);
      blank.readout_c.resize(slots);
      blank.readout_e.resize(slots);
      features.push_back(std::move(blank));
      seen.emplace_back(slots, 0);
    }
    const std::size_t i = it->second;
    if (seen[i][slot] != 0) {
      if (positions > 0)
        reader.fail(line->number, "duplicate line for token " + token.to_string() +
                                      " at position " + std::to_string(slot + 1) +
                                      " (first on line " + std::to_string(seen[i][slot]) + ")");
      reader.fail(line->number, "duplicate token " + token.to_string() + " (first listed on line " +
                                    std::to_string(seen[i][slot]) + ")");
    }
    seen[i][slot] = line->number;

    RationalVector parsed[5];
    for (std::size_t p = 0; p < 5; ++p) {
      const Part& part = parts[p];
      if (at >= fields.size())
        reader.fail(line->number, std::string("expected '") + part.keyword + "' in field " +
                                      std::to_string(at + 1) + ", found the end of the line");
      if (fields[at] != part.keyword)
        reader.fail(line->number, std::string("expected '") + part.keyword + "' in field " +
                                      std::to_string(at + 1) + ", found '" + fields[at] + "'");
      const std::size_t begin = ++at;
      while (at < fields.size() && !is_keyword(fields[at])) ++at;
      if (at - begin != part.count)
        reader.fail(line->number, "expected " + std::to_string(part.count) + " number" +
                                      (part.count == 1 ? "" : "s") + " after '" + part.keyword +
                                      "', found " + std::to_string(at - begin));
      const std::string what = std::string("a ") + part.keyword + " entry";
      for (std::size_t f = begin; f < at; ++f)
        parsed[p].push_back(reader.rational_field(*line, f, what.c_str()));
    }
    if (at < fields.size())
      reader.fail(line->number, "unexpected field '" + fields[at] + "' after the e number");
    TokenFeatures& f = features[i];
    f.phi_q[slot] = std::move(parsed[0]);
    f.phi_k[slot] = std::move(parsed[1]);
    f.value[slot] = std::move(parsed[2]);
    f.readout_c[slot] = std::move(parsed[3]);
    f.readout_e[slot] = std::move(parsed[4][0]);
  }
  if (tokens.empty()) reader.fail(reader.current_line(), "feature model lists no tokens");
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (std::size_t s = 0; s < slots; ++s)
      if (seen[i][s] == 0)
        reader.fail(reader.current_line(),
                    "token " + tokens[i].to_string() + " has no line for position " +
                        std::to_string(s + 1) + " (every token needs positions 1.." +
                        std::to_string(positions) + ")");
  return std::make_unique<FeatureModel>(m, r, d, positions, std::move(tokens), std::move(features));
}

// ---- kind=parametric -------------------------------------------------------------

std::unique_ptr<Model> parse_parametric(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "r", "d", "activation", "positions"});
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  const auto r =
      static_cast<std::size_t>(*header_integer(reader, header, "r", 1, kMaxFeatureDimension, true));
  const auto d =
      static_cast<std::size_t>(*header_integer(reader, header, "d", 0, kMaxFeatureDimension, true));
  const int positions = static_cast<int>(
      header_integer(reader, header, "positions", 1, kMaxPositions, false).value_or(0));
  const auto act = header.values.find("activation");
  if (act == header.values.end())
    reader.fail(header.line, "missing activation=relu|square in the model header");
  if (act->second != "relu" && act->second != "square")
    reader.fail(header.line,
                "expected activation=relu or activation=square in the model header, found "
                "'activation=" +
                    act->second + "'");
  const Activation activation = act->second == "relu" ? Activation::Relu : Activation::Square;
  const auto slots = static_cast<std::size_t>(positions > 0 ? positions : 1);
  const unsigned long long numbers =
      (2ULL * r + 2ULL * d + 1) * static_cast<unsigned long long>(m + 1) * slots;
  if (numbers > kMaxStoredNumbers)
    reader.fail(header.line, "parametric model too large: " + std::to_string(numbers) +
                                 " numbers (limit " + std::to_string(kMaxStoredNumbers) + ")");

  const char* const names[] = {"WQ", "WK", "V", "C", "E"};
  const std::size_t rows_of[] = {r, r, d, d, 1};
  std::vector<ParametricMaps> maps(slots);
  std::vector<std::vector<std::size_t>> seen(slots, std::vector<std::size_t>(5, 0));
  const auto map_of = [&](std::size_t slot, std::size_t s) -> AffineMap& {
    ParametricMaps& p = maps[slot];
    AffineMap* all[] = {&p.query, &p.key, &p.value, &p.readout_c, &p.readout_e};
    return *all[s];
  };
  const std::string shape = " (" + std::to_string(m) + " weights and a bias)";

  while (const std::optional<TextLine> line = reader.next()) {
    const std::string& word = line->fields[0];
    const auto found =
        std::find_if(std::begin(names), std::end(names), [&](const char* n) { return word == n; });
    if (found == std::end(names))
      reader.fail(line->number,
                  "expected a section 'WQ', 'WK', 'V', 'C' or 'E', found '" + word + "'");
    const auto s = static_cast<std::size_t>(found - std::begin(names));
    const auto pos = section_positions(reader, *line, positions, 1, " <p>");
    const std::size_t slot = pos.empty() ? 0 : pos[0];
    const std::string name = block_name(word, positions, slot, 0, false);
    if (seen[slot][s] != 0)
      reader.fail(line->number, "duplicate section '" + name + "' (first on line " +
                                    std::to_string(seen[slot][s]) + ")");
    seen[slot][s] = line->number;
    AffineMap& map = map_of(slot, s);
    map.weight.reserve(rows_of[s]);
    for (std::size_t row = 1; row <= rows_of[s]; ++row) {
      RationalVector values = read_row(reader, static_cast<std::size_t>(m) + 1, row, rows_of[s],
                                       name, shape, {"WQ", "WK", "V", "C", "E"});
      map.bias.push_back(std::move(values.back()));
      values.pop_back();
      map.weight.push_back(std::move(values));
    }
  }
  for (std::size_t slot = 0; slot < slots; ++slot)
    for (std::size_t s = 0; s < 5; ++s)
      if (seen[slot][s] == 0)
        reader.fail(reader.current_line(),
                    "missing section '" + block_name(names[s], positions, slot, 0, false) + "'");
  return std::make_unique<ParametricModel>(m, activation, std::move(maps), positions > 0);
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
  if (header.kind == "tabular") return parse_tabular(reader, header);
  if (header.kind == "features") return parse_features(reader, header);
  if (header.kind == "parametric") return parse_parametric(reader, header);
  if (header.kind == "builtin") return parse_builtin(reader, header);
  reader.fail(header.line, "unknown model kind '" + header.kind +
                               "' (expected tabular, features, parametric or builtin)");
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
