// Model files in the JSON tabular form (docs/model-format.md), and its writer. Duplicate
// keys, deep nesting and oversized arrays are refused while parsing; errors name the file,
// the line and column of the offending value and its JSON path.
#include "models/json_position.hpp"
#include "models/model_file_limits.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/models/declared_class.hpp"
#include "kernelrank/models/model_io.hpp"
#include "models/multi_head_files.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace kernelrank {
namespace model_files {
namespace {

using Json = nlohmann::json;

// nlohmann's message without its "[json.exception...] " prefix, shortened: the parts it
// quotes from the input can be as long as the file.
std::string json_error_text(const Json::exception& e) {
  std::string what = e.what();
  const std::size_t bracket = what.find("] ");
  if (bracket != std::string::npos) what = what.substr(bracket + 2);
  constexpr std::size_t kShown = 200;
  if (what.size() > kShown) what = what.substr(0, kShown) + "...";
  return what;
}

// An error at a line and column of the file, or about the whole file when the position is
// not known.
[[noreturn]] void throw_at(const std::string& file,
                           const std::optional<json_position::Position>& where,
                           const std::string& message) {
  if (!where) throw InputError(file, 0, message);
  throw InputError(file, where->line, where->column, message);
}

// An error about the value at `path` ("" for the whole document).
[[noreturn]] void fail_at(const std::string& file, const std::string& contents,
                          const std::string& path, const std::string& message) {
  throw_at(file, json_position::of_path(contents, path),
           path.empty() ? message : path + ": " + message);
}

Rational json_rational(const std::string& file, const std::string& contents, const Json& value,
                       const std::string& path) {
  if (value.is_string()) {
    const auto& text = value.get_ref<const std::string&>();
    try {
      return parse_rational(text);
    } catch (const RationalParseError& e) {
      fail_at(file, contents, path,
              "expected an exact number as a string, found " + value.dump() + ": " + e.what() +
                  " at character " + std::to_string(e.position() + 1));
    }
  }
  if (value.is_number_unsigned()) return Rational(value.get<std::uint64_t>());
  if (value.is_number_integer()) return Rational(value.get<std::int64_t>());
  if (value.is_number_float())
    fail_at(file, contents, path,
            "JSON number " + value.dump() +
                " is not exact (JSON fractions and integers beyond 64 bits "
                "are read as floating point); quote it as a string, e.g. "
                "\"1/2\" or \"0.5\"");
  fail_at(file, contents, path,
          "expected an exact number as a string, found " + std::string(value.type_name()));
}

}  // namespace

std::optional<long long> json_integer(const Json& value) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<long long>(u);
  }
  if (value.is_number_integer()) return value.get<std::int64_t>();
  return std::nullopt;
}

// Parses the document: duplicate keys, too many values and deep nesting are errors with
// a position, as are nlohmann's own parse errors.
Json read_document(const std::string& file, const std::string& contents) {
  // nlohmann keeps the last of duplicate keys silently; a model file must not
  // say two things, so track the keys of each open object.
  // The value count is capped too, since the whole document is held in memory
  // before its sizes can be checked.
  // Nesting is capped as well: the form needs three levels, and printing a value for an
  // error message (dump) recurses once per level, so a file of a million '[' overflowed
  // the stack.
  std::vector<std::set<std::string>> open_objects;
  unsigned long long values = 0;
  constexpr int kMaxJsonDepth = 16;
  const Json::parser_callback_t no_duplicates = [&](int depth, Json::parse_event_t event,
                                                    Json& parsed) {
    const bool opens =
        event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start;
    if (opens && depth >= kMaxJsonDepth)
      throw_at(
          file, json_position::of_depth(contents, kMaxJsonDepth),
          "JSON nested deeper than " + std::to_string(kMaxJsonDepth) + " levels (a model needs 3)");
    if ((opens || event == Json::parse_event_t::value) &&
        ++values > kMaxStoredNumbers + kMaxTabularTokens + 16)
      throw InputError(
          file, 0,
          "JSON model too large: more than " + std::to_string(kMaxStoredNumbers) + " numbers");
    if (event == Json::parse_event_t::object_start) open_objects.emplace_back();
    if (event == Json::parse_event_t::object_end && !open_objects.empty()) open_objects.pop_back();
    if (event == Json::parse_event_t::key && !open_objects.empty() &&
        !open_objects.back().insert(parsed.get<std::string>()).second)
      throw_at(file, json_position::of_duplicate_key(contents),
               "duplicate key \"" + parsed.get<std::string>() + "\" in a JSON object");
    return true;
  };
  Json doc;
  try {
    doc = Json::parse(contents, no_duplicates);
  } catch (const Json::parse_error& e) {
    // e.byte counts from 1 and names the byte the parser stopped at.
    throw_at(file, json_position::of_offset(contents, e.byte > 0 ? e.byte - 1 : 0),
             "invalid JSON: " + json_error_text(e));
  } catch (const Json::out_of_range& e) {
    // A number beyond the range of a double (1e400) is reported without a position;
    // the message quotes the number, so its first occurrence names the line.
    const std::string what = e.what();
    const std::size_t open = what.find('\'');
    const std::size_t close = what.rfind('\'');
    std::optional<json_position::Position> where;
    if (open != std::string::npos && close > open + 1) {
      const std::size_t at = contents.find(what.substr(open + 1, close - open - 1));
      if (at != std::string::npos) where = json_position::of_offset(contents, at);
    }
    throw_at(file, where,
             "invalid JSON: " + json_error_text(e) +
                 " (quote exact numbers as strings, e.g. \"1/2\" or \"1e400\")");
  }
  return doc;
}

// Where a model document is being read: failures name the file and the JSON path.
struct JsonModelSource {
  const std::string& file;
  const std::string& contents;
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    fail_at(file, contents, path, message);
  }
};

// Format, version and the set of keys; returns the declared class, if any.
std::optional<ModelClass> read_envelope(const JsonModelSource& source, Json& doc) {
  const auto fail = [&](const std::string& path, const std::string& message) {
    source.fail(path, message);
  };
  if (!doc.is_object()) fail("", "expected a JSON object at the top level");
  // Format and version first: a file of another version is best reported as such.
  for (const char* key : {"format", "version"})
    if (!doc.contains(key)) fail("", std::string("missing key \"") + key + "\"");
  if (!doc["format"].is_string() || doc["format"].get<std::string>() != "kernelrank-model")
    fail("format", "expected \"kernelrank-model\", found " + doc["format"].dump());
  const std::optional<long long> version = json_integer(doc["version"]);
  if (!version || *version != 1)
    fail("version", "unsupported version " + doc["version"].dump() + " (this build reads 1)");
  const char* const keys[] = {"format", "version", "m", "tokens", "kernel", "readout"};
  const auto known = [&](const std::string& key) {
    return key == "class" || std::find_if(std::begin(keys), std::end(keys), [&](const char* k) {
                               return key == k;
                             }) != std::end(keys);
  };
  for (const auto& item : doc.items())
    if (!known(item.key()))
      fail(item.key(), "unknown key \"" + item.key() +
                           "\" (expected format, version, m, tokens, kernel, readout and "
                           "optionally class)");
  for (const char* key : keys)
    if (!doc.contains(key)) fail("", std::string("missing key \"") + key + "\"");
  // The optional declared class, read before the tables so that a bad value is named first.
  std::optional<ModelClass> declared;
  if (doc.contains("class")) {
    declared = doc["class"].is_string() ? parse_model_class(doc["class"].get<std::string>())
                                        : std::nullopt;
    if (!declared)
      fail("class", "expected \"PF\", \"NK\" or \"signed\", found " + doc["class"].dump());
  }
  return declared;
}

std::vector<Token> read_tokens(const JsonModelSource& source, const Json& token_list, int m) {
  const auto fail = [&](const std::string& path, const std::string& message) {
    source.fail(path, message);
  };
  if (!token_list.is_array() || token_list.empty() ||
      token_list.size() > static_cast<std::size_t>(kMaxTabularTokens))
    fail("tokens", "expected an array of 1.." + std::to_string(kMaxTabularTokens) + " 0/1 strings");
  std::vector<Token> tokens;
  std::unordered_map<Token, std::size_t, TokenHash> first;
  for (std::size_t i = 0; i < token_list.size(); ++i) {
    const std::string path = "tokens[" + std::to_string(i) + "]";
    if (!token_list[i].is_string())
      fail(path, "expected a 0/1 string of width " + std::to_string(m) + ", found " +
                     token_list[i].type_name());
    Token token;
    try {
      token = parse_token(token_list[i].get<std::string>(), m);
    } catch (const TokenParseError& e) {
      fail(path, "expected a 0/1 string of width " + std::to_string(m) + ": " + e.what());
    }
    const auto [it, inserted] = first.emplace(token, i);
    if (!inserted)
      fail(path, "duplicate token " + token.to_string() + " (also tokens[" +
                     std::to_string(it->second) + "])");
    tokens.push_back(std::move(token));
  }
  return tokens;
}

// The k x k table `name` ("kernel" or "readout"), every entry an exact rational.
RationalMatrix read_table(const JsonModelSource& source, const Json& rows, const std::string& name,
                          std::size_t k) {
  if (!rows.is_array() || rows.size() != k)
    source.fail(name,
                "expected an array of " + std::to_string(k) + " rows (one per token), found " +
                    (rows.is_array() ? std::to_string(rows.size()) + " rows" : rows.type_name()));
  RationalMatrix table;
  for (std::size_t i = 0; i < k; ++i) {
    const std::string row_path = name + "[" + std::to_string(i) + "]";
    if (!rows[i].is_array() || rows[i].size() != k)
      source.fail(row_path,
                  "expected an array of " + std::to_string(k) + " numbers, found " +
                      (rows[i].is_array() ? std::to_string(rows[i].size()) : rows[i].type_name()));
    RationalVector row;
    row.reserve(k);
    for (std::size_t j = 0; j < k; ++j)
      row.push_back(json_rational(source.file, source.contents, rows[i][j],
                                  row_path + "[" + std::to_string(j) + "]"));
    table.push_back(std::move(row));
  }
  return table;
}

std::unique_ptr<Model> parse_json(const std::string& file, const std::string& contents) {
  Json doc = read_document(file, contents);  // mutable: the checks below use operator[]
  const JsonModelSource source{file, contents};
  const std::optional<ModelClass> declared = read_envelope(source, doc);
  const std::optional<long long> width = json_integer(doc["m"]);
  if (!width || *width < 1 || *width > kMaxModelWidth)
    source.fail("m", "expected an integer in 1.." + std::to_string(kMaxModelWidth) + ", found " +
                         doc["m"].dump());
  const int m = static_cast<int>(*width);
  std::vector<Token> tokens = read_tokens(source, doc["tokens"], m);
  const std::size_t k = tokens.size();
  RationalMatrix kernel = read_table(source, doc["kernel"], "kernel", k);
  RationalMatrix readout = read_table(source, doc["readout"], "readout", k);
  auto model =
      std::make_unique<TabularModel>(m, std::move(tokens), std::move(kernel), std::move(readout));
  if (declared) {
    if (const std::optional<std::string> why = declared_class_violation(*model, *declared))
      source.fail("class", "the model declares class " + to_string(*declared) + " but " + *why);
    model->set_declared_class(declared);
  }
  return model;
}

}  // namespace model_files

std::string tabular_model_to_json(const TabularModel& model) {
  using Json = nlohmann::json;
  if (model.position_dependent())
    throw UsageError(
        "the JSON model form has no position-dependent variant; write the text form instead");
  // Written by hand (one table row per line) so that large tables stay readable;
  // strings go through nlohmann for correct quoting.
  const auto quoted = [](const std::string& s) { return Json(s).dump(); };
  std::string out = "{\n  \"format\": \"kernelrank-model\",\n  \"version\": 1,\n  \"m\": " +
                    std::to_string(model.width()) + ",\n";
  if (const auto declared = model.declared_class())
    out += "  \"class\": " + quoted(to_string(*declared)) + ",\n";
  out += "  \"tokens\": [";
  const auto& tokens = model.tokens();
  for (std::size_t i = 0; i < tokens.size(); ++i)
    out += (i > 0 ? ", " : "") + quoted(tokens[i].to_string());
  out += "]";
  for (int t = 0; t < 2; ++t) {
    const RationalMatrix& table = t == 0 ? model.kernel_table() : model.readout_table();
    out += t == 0 ? ",\n  \"kernel\": [\n" : ",\n  \"readout\": [\n";
    for (std::size_t i = 0; i < table.size(); ++i) {
      out += "    [";
      for (std::size_t j = 0; j < table[i].size(); ++j)
        out += (j > 0 ? ", " : "") + quoted(to_string(table[i][j]));
      out += i + 1 < table.size() ? "],\n" : "]\n";
    }
    out += "  ]";
  }
  out += "\n}\n";
  return out;
}

}  // namespace kernelrank
