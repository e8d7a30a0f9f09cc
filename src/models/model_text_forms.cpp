// kind=features and kind=parametric text model files (docs/model-format.md); the reader
// fails closed as in model_text.cpp.
#include "models/model_text_sections.hpp"

#include "models/model_file_limits.hpp"

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

namespace kernelrank::model_files::text {

// ---- kind=features ---------------------------------------------------------------

// One part of a feature line: a keyword and how many numbers follow it.
struct Part {
  const char* keyword;
  std::size_t count;
};

// Reads the five parts phiQ, phiK, v, c, e of a token line from field `at` on; `at` ends
// past the last number read.
std::array<RationalVector, 5> read_parts(TextReader& reader, const TextLine& line, std::size_t& at,
                                         const std::array<Part, 5>& parts) {
  const auto& fields = line.fields;
  const auto is_keyword = [&](const std::string& field) {
    return std::any_of(parts.begin(), parts.end(),
                       [&](const Part& p) { return field == p.keyword; });
  };
  std::array<RationalVector, 5> parsed;
  for (std::size_t p = 0; p < 5; ++p) {
    const Part& part = parts[p];
    if (at >= fields.size())
      reader.fail(line.number, std::string("expected '") + part.keyword + "' in field " +
                                   std::to_string(at + 1) + ", found the end of the line");
    if (fields[at] != part.keyword)
      reader.fail(line.number, std::string("expected '") + part.keyword + "' in field " +
                                   std::to_string(at + 1) + ", found '" + fields[at] + "'");
    const std::size_t begin = ++at;
    while (at < fields.size() && !is_keyword(fields[at])) ++at;
    if (at - begin != part.count)
      reader.fail(line.number, "expected " + std::to_string(part.count) + " number" +
                                   (part.count == 1 ? "" : "s") + " after '" + part.keyword +
                                   "', found " + std::to_string(at - begin));
    const std::string what = std::string("a ") + part.keyword + " entry";
    for (std::size_t f = begin; f < at; ++f)
      parsed[p].push_back(reader.rational_field(line, f, what.c_str()));
  }
  return parsed;
}

// The "pos <p>" fields of a features line (if the header declares positions): the slot,
// 0-based, and `at` moved past them.
std::size_t read_slot(TextReader& reader, const TextLine& line, std::size_t& at, int positions) {
  const auto& fields = line.fields;
  if (positions == 0) {
    if (at < fields.size() && fields[at] == "pos")
      reader.fail(line.number, "unexpected 'pos' in field 3: the header declares no positions=");
    return 0;
  }
  if (at >= fields.size() || fields[at] != "pos")
    reader.fail(line.number, "expected 'pos <p>' in field 3 (the header declares positions=" +
                                 std::to_string(positions) + ")");
  const auto slot =
      static_cast<std::size_t>(reader.integer_field(line, at + 1, 1, positions, "the position")) -
      1;
  at += 2;
  return slot;
}

// The tokens of a features file as they are read: one entry per token, a line number per
// position, and the count of stored numbers against kMaxStoredNumbers.
struct FeatureTable {
  int positions = 0;
  std::size_t slots = 1;
  std::vector<Token> tokens;
  std::vector<TokenFeatures> features;
  std::unordered_map<Token, std::size_t, TokenHash> index;
  std::vector<std::vector<std::size_t>> seen;  // [token][slot] -> line number, 0 = absent
  unsigned long long stored = 0;

  void charge(TextReader& reader, std::size_t line, unsigned long long numbers) {
    stored += numbers;
    if (stored > kMaxStoredNumbers)
      reader.fail(line, "feature model too large: more than " + std::to_string(kMaxStoredNumbers) +
                            " numbers");
  }

  // The features of (token, slot), which must not have been given before.
  TokenFeatures& entry(TextReader& reader, const Token& token, std::size_t slot, std::size_t line) {
    auto [it, inserted] = index.emplace(token, tokens.size());
    if (inserted) {
      // A new token holds five vectors and a line number per position (about four
      // numbers' worth): with positions=4096 a short line cost half a megabyte.
      charge(reader, line, 4ULL * slots);
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
        reader.fail(line, "duplicate line for token " + token.to_string() + " at position " +
                              std::to_string(slot + 1) + " (first on line " +
                              std::to_string(seen[i][slot]) + ")");
      reader.fail(line, "duplicate token " + token.to_string() + " (first listed on line " +
                            std::to_string(seen[i][slot]) + ")");
    }
    seen[i][slot] = line;
    return features[i];
  }

  void require_complete(TextReader& reader) const {
    if (tokens.empty()) reader.fail(reader.current_line(), "feature model lists no tokens");
    for (std::size_t i = 0; i < tokens.size(); ++i)
      for (std::size_t s = 0; s < slots; ++s)
        if (seen[i][s] == 0)
          reader.fail(reader.current_line(),
                      "token " + tokens[i].to_string() + " has no line for position " +
                          std::to_string(s + 1) + " (every token needs positions 1.." +
                          std::to_string(positions) + ")");
  }
};

std::unique_ptr<Model> parse_features(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "r", "d", "positions", "class"});
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  const int r =
      static_cast<int>(*header_integer(reader, header, "r", 1, kMaxFeatureDimension, true));
  const int d =
      static_cast<int>(*header_integer(reader, header, "d", 0, kMaxFeatureDimension, true));
  const int positions = static_cast<int>(
      header_integer(reader, header, "positions", 1, kMaxPositions, false).value_or(0));
  const auto rr = static_cast<std::size_t>(r);
  const auto dd = static_cast<std::size_t>(d);

  const std::array<Part, 5> parts = {{{"phiQ", rr}, {"phiK", rr}, {"v", dd}, {"c", dd}, {"e", 1}}};
  const unsigned long long numbers_per_line = 2ULL * rr + 2ULL * dd + 1;
  FeatureTable table;
  table.positions = positions;
  table.slots = static_cast<std::size_t>(positions > 0 ? positions : 1);
  const std::string width_what = "a 0/1 token of width " + std::to_string(m);

  while (const std::optional<TextLine> line = reader.next()) {
    const auto& fields = line->fields;
    if (fields[0] != "token")
      reader.fail(line->number,
                  "expected a line 'token <0/1> " + std::string(positions > 0 ? "pos <p> " : "") +
                      "phiQ ... phiK ... v ... c ... e ...', found '" + fields[0] + "'");
    Token token = reader.token_field(*line, 1, m, width_what.c_str());
    std::size_t at = 2;
    const std::size_t slot = read_slot(reader, *line, at, positions);
    table.charge(reader, line->number, numbers_per_line);
    TokenFeatures& f = table.entry(reader, token, slot, line->number);

    std::array<RationalVector, 5> parsed = read_parts(reader, *line, at, parts);
    if (at < fields.size())
      reader.fail(line->number, "unexpected field '" + fields[at] + "' after the e number");
    f.phi_q[slot] = std::move(parsed[0]);
    f.phi_k[slot] = std::move(parsed[1]);
    f.value[slot] = std::move(parsed[2]);
    f.readout_c[slot] = std::move(parsed[3]);
    f.readout_e[slot] = std::move(parsed[4][0]);
  }
  table.require_complete(reader);
  return std::make_unique<FeatureModel>(m, r, d, positions, std::move(table.tokens),
                                        std::move(table.features));
}

// ---- kind=parametric -------------------------------------------------------------

std::unique_ptr<Model> parse_parametric(TextReader& reader, const Header& header) {
  check_keys(reader, header, {"m", "r", "d", "activation", "positions", "class"});
  const int m = static_cast<int>(*header_integer(reader, header, "m", 1, kMaxModelWidth, true));
  const auto r =
      static_cast<std::size_t>(*header_integer(reader, header, "r", 1, kMaxFeatureDimension, true));
  const auto d =
      static_cast<std::size_t>(*header_integer(reader, header, "d", 0, kMaxFeatureDimension, true));
  const int positions = static_cast<int>(
      header_integer(reader, header, "positions", 1, kMaxPositions, false).value_or(0));
  const auto act = header.values.find("activation");
  if (act == header.values.end())
    reader.fail(header.line, "missing activation=relu|square|identity in the model header");
  const std::optional<FeatureMap> parsed = parse_activation(act->second);
  if (!parsed)
    reader.fail(header.line,
                "expected activation=relu, activation=square or activation=identity in the "
                "model header, found 'activation=" +
                    act->second + "'");
  const FeatureMap activation = *parsed;
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

}  // namespace kernelrank::model_files::text
