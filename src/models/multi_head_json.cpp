// The JSON form of multi-head models (docs/model-format.md §13): a top-level object whose
// "heads" are JSON tabular objects (§8). The document is read by model_json.cpp's reader
// (duplicate keys, nesting and size refused with positions); every other error names the
// JSON path of the offending value ("heads[1].kernel[0][2]") and its line and column.
#include "models/json_position.hpp"
#include "models/model_file_limits.hpp"
#include "models/multi_head_files.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/declared_class.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <algorithm>
#include <optional>
#include <unordered_map>

namespace kernelrank::model_files {
namespace {

using Json = nlohmann::json;

class JsonErrors {
 public:
  JsonErrors(const std::string& file, const std::string& contents)
      : file_(file), contents_(contents) {}
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    const std::string text = path.empty() ? message : path + ": " + message;
    const auto where = json_position::of_path(contents_, path);
    if (!where) throw InputError(file_, 0, text);
    throw InputError(file_, where->line, where->column, text);
  }

 private:
  const std::string& file_;
  const std::string& contents_;
};

Rational json_number(const JsonErrors& errors, const Json& value, const std::string& path) {
  if (value.is_string()) {
    try {
      return parse_rational(value.get_ref<const std::string&>());
    } catch (const RationalParseError& e) {
      errors.fail(path, "expected an exact number as a string, found " + value.dump() + ": " +
                            e.what() + " at character " + std::to_string(e.position() + 1));
    }
  }
  if (const std::optional<long long> integer = json_integer(value)) return Rational(*integer);
  if (value.is_number())
    errors.fail(path, "JSON number " + value.dump() +
                          " is not exact; quote it as a string, e.g. \"1/2\" or \"0.5\"");
  errors.fail(path,
              "expected an exact number as a string, found " + std::string(value.type_name()));
}

// The object at `path` has exactly `keys` (in any order), and perhaps some of `optional`.
void check_keys(const JsonErrors& errors, const Json& object, const std::string& path,
                const std::vector<std::string>& keys,
                const std::vector<std::string>& optional = {}) {
  const std::string prefix = path.empty() ? "" : path + ".";
  std::string list;
  for (const std::string& key : keys) list += (list.empty() ? "" : ", ") + key;
  for (const std::string& key : optional) list += " and optionally " + key;
  const auto known = [](const std::vector<std::string>& names, const std::string& key) {
    return std::find(names.begin(), names.end(), key) != names.end();
  };
  if (!object.is_object()) errors.fail(path, "expected a JSON object");
  for (const auto& item : object.items())
    if (!known(keys, item.key()) && !known(optional, item.key()))
      errors.fail(prefix + item.key(),
                  "unknown key \"" + item.key() + "\" (expected " + list + ")");
  for (const std::string& key : keys)
    if (!object.contains(key)) errors.fail(path, "missing key \"" + key + "\"");
}

void check_format(const JsonErrors& errors, const Json& object, const std::string& path,
                  const std::string& format) {
  const std::string prefix = path.empty() ? "" : path + ".";
  const Json& value = object.at("format");
  if (!value.is_string() || value.get<std::string>() != format)
    errors.fail(prefix + "format", "expected \"" + format + "\", found " + value.dump());
  const std::optional<long long> version = json_integer(object.at("version"));
  if (!version || *version != 1)
    errors.fail(prefix + "version",
                "unsupported version " + object.at("version").dump() + " (this build reads 1)");
}

std::vector<Token> head_tokens(const JsonErrors& errors, const Json& list, const std::string& path,
                               int m) {
  if (!list.is_array() || list.empty() || list.size() > static_cast<std::size_t>(kMaxTabularTokens))
    errors.fail(path,
                "expected an array of 1.." + std::to_string(kMaxTabularTokens) + " 0/1 strings");
  std::vector<Token> tokens;
  std::unordered_map<Token, std::size_t, TokenHash> first;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    if (!list[i].is_string())
      errors.fail(at, "expected a 0/1 string of width " + std::to_string(m));
    Token token;
    try {
      token = parse_token(list[i].get<std::string>(), m);
    } catch (const TokenParseError& e) {
      errors.fail(at, "expected a 0/1 string of width " + std::to_string(m) + ": " + e.what());
    }
    const auto [it, inserted] = first.emplace(token, i);
    if (!inserted)
      errors.fail(at, "duplicate token " + token.to_string() + " (also " + path + "[" +
                          std::to_string(it->second) + "])");
    tokens.push_back(std::move(token));
  }
  return tokens;
}

RationalMatrix head_table(const JsonErrors& errors, const Json& rows, const std::string& path,
                          std::size_t k) {
  if (!rows.is_array() || rows.size() != k)
    errors.fail(path, "expected an array of " + std::to_string(k) + " rows (one per token)");
  RationalMatrix table;
  for (std::size_t i = 0; i < k; ++i) {
    const std::string row_path = path + "[" + std::to_string(i) + "]";
    if (!rows[i].is_array() || rows[i].size() != k)
      errors.fail(row_path, "expected an array of " + std::to_string(k) + " numbers");
    RationalVector row;
    for (std::size_t j = 0; j < k; ++j)
      row.push_back(json_number(errors, rows[i][j], row_path + "[" + std::to_string(j) + "]"));
    table.push_back(std::move(row));
  }
  return table;
}

std::shared_ptr<const Model> tabular_head(const JsonErrors& errors, const Json& head,
                                          const std::string& path, int m) {
  check_keys(errors, head, path, {"format", "version", "m", "tokens", "kernel", "readout"},
             {"class"});
  check_format(errors, head, path, "kernelrank-model");
  std::optional<ModelClass> declared;
  if (head.contains("class")) {
    const Json& value = head.at("class");
    declared = value.is_string() ? parse_model_class(value.get<std::string>()) : std::nullopt;
    if (!declared)
      errors.fail(path + ".class", "expected \"PF\", \"NK\" or \"signed\", found " + value.dump());
  }
  const std::optional<long long> width = json_integer(head.at("m"));
  if (!width || *width != m)
    errors.fail(path + ".m", "width mismatch: the head has m=" + head.at("m").dump() +
                                 " but the multi-head model declares m=" + std::to_string(m));
  std::vector<Token> tokens = head_tokens(errors, head.at("tokens"), path + ".tokens", m);
  const std::size_t k = tokens.size();
  RationalMatrix kernel = head_table(errors, head.at("kernel"), path + ".kernel", k);
  RationalMatrix readout = head_table(errors, head.at("readout"), path + ".readout", k);
  auto model =
      std::make_shared<TabularModel>(m, std::move(tokens), std::move(kernel), std::move(readout));
  if (declared) {
    if (const std::optional<std::string> why = declared_class_violation(*model, *declared))
      errors.fail(path + ".class",
                  "the head declares class " + to_string(*declared) + " but " + *why);
    model->set_declared_class(declared);
  }
  return model;
}

}  // namespace

MultiHeadModel parse_multi_head_json(const std::string& name, const std::string& contents) {
  const Json doc = read_document(name, contents);
  const JsonErrors errors(name, contents);
  if (!doc.is_object()) errors.fail("", "expected a JSON object at the top level");
  check_keys(errors, doc, "", {"format", "version", "m", "heads"});
  check_format(errors, doc, "", "kernelrank-multihead");
  const std::optional<long long> width = json_integer(doc.at("m"));
  if (!width || *width < 1 || *width > kMaxModelWidth)
    errors.fail("m", "expected an integer in 1.." + std::to_string(kMaxModelWidth) + ", found " +
                         doc.at("m").dump());
  const Json& heads = doc.at("heads");
  if (!heads.is_array() || heads.empty() || heads.size() > kMaxHeads)
    errors.fail("heads",
                "expected an array of 1.." + std::to_string(kMaxHeads) + " JSON tabular heads");
  std::vector<std::shared_ptr<const Model>> models;
  for (std::size_t h = 0; h < heads.size(); ++h)
    models.push_back(tabular_head(errors, heads[h], "heads[" + std::to_string(h) + "]",
                                  static_cast<int>(*width)));
  return MultiHeadModel(std::move(models));
}

bool json_format_is_multi_head(const std::string& contents) {
  // A scan for the top-level key "format" and its string value; anything unexpected is a no.
  int depth = 0;
  std::string last_string;
  bool expect_value = false, key_is_format = false;
  for (std::size_t i = 0; i < contents.size(); ++i) {
    const char c = contents[i];
    if (c == '"') {
      std::size_t j = i + 1;
      while (j < contents.size() && contents[j] != '"') j += contents[j] == '\\' ? 2 : 1;
      if (j >= contents.size()) return false;
      const std::string text = contents.substr(i + 1, j - i - 1);
      if (expect_value && depth == 1 && key_is_format) return text == "kernelrank-multihead";
      last_string = text;
      expect_value = false;
      i = j;
    } else if (c == ':') {
      expect_value = true;
      key_is_format = last_string == "format";
    } else if (c == '{' || c == '[') {
      ++depth;
      expect_value = false;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == ',') {
      expect_value = false;
    }
  }
  return false;
}

}  // namespace kernelrank::model_files
