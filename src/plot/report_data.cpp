// Reading the plot inputs (see report_data.hpp): training reports, the markdown bound table
// and the exact minimal ranks.
//
// Readers are strict, like every kernelrank parser: a report that does not have the
// documented shape is refused with a message naming the file, the model and the field,
// rather than drawn half-right. Rationals in a report are converted to doubles for drawing
// only; the bound table allows thousands separators; the min-rank file goes through the
// shared TextReader ('#' comments, line numbers in messages).
#include "kernelrank/plot/report_data.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/text_input.hpp"

#include <nlohmann/json.hpp>

#include <sstream>
#include <utility>

namespace kernelrank::plot {
namespace {

using nlohmann::json;

constexpr const char* kVerdictSolves = "solves (verified exactly)";
constexpr const char* kVerdictFails = "fails";
constexpr const char* kVerdictFloatOnly = "float-only";

// ---- training reports ------------------------------------------------------------------

class ReportParser {
 public:
  explicit ReportParser(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& message) const {
    throw InputError(path_, 0, where.empty() ? message : where + ": " + message);
  }

  const json& member(const json& object, const char* key, const std::string& where) const {
    const auto found = object.find(key);
    if (found == object.end()) fail(where, std::string("missing \"") + key + "\"");
    return *found;
  }

  long long integer(const json& object, const char* key, const std::string& where,
                    long long lowest) const {
    const json& value = member(object, key, where);
    if (!value.is_number_integer())
      fail(where + "." + key, "expected an integer, got " + value.dump());
    const long long number = value.get<long long>();
    if (number < lowest) fail(where + "." + key, "must be at least " + std::to_string(lowest));
    return number;
  }

  // A share in [0, 1]: a JSON number, or an exact rational "p/q" / "p" as a string.
  double share(const json& value, const std::string& where) const {
    const double number = value.is_string() ? rational(value, where) : plain_number(value, where);
    if (!(number >= 0 && number <= 1)) fail(where, "must lie between 0 and 1, got " + value.dump());
    return number;
  }

  double nonnegative(const json& value, const std::string& where) const {
    const double number = value.is_string() ? rational(value, where) : plain_number(value, where);
    if (!(number >= 0)) fail(where, "must be nonnegative, got " + value.dump());
    return number;
  }

  SplitResult split(const json& value, const std::string& where) const;
  ModelRecord model(const json& value, const std::string& where) const;

 private:
  double plain_number(const json& value, const std::string& where) const {
    if (!value.is_number())
      fail(where, "expected a number or a rational string, got " + value.dump());
    return value.get<double>();
  }

  // Exact text to double for drawing only (the exact value stays in the report).
  double rational(const json& value, const std::string& where) const {
    const std::string text = value.get<std::string>();
    try {
      return parse_rational(text).convert_to<double>();
    } catch (const RationalParseError&) {
      fail(where, "expected a rational \"p/q\" or \"p\", got " + value.dump());
    }
  }

  std::string path_;
};

SplitResult ReportParser::split(const json& value, const std::string& where) const {
  if (!value.is_object()) fail(where, "expected an object, got " + value.dump());
  SplitResult result;
  result.instances = integer(value, "instances", where, 0);
  result.float_error_rate =
      share(member(value, "float_error_rate", where), where + ".float_error_rate");
  const json& exact = member(value, "exact", where);
  const std::string exact_where = where + ".exact";
  if (!exact.is_object()) fail(exact_where, "expected an object, got " + exact.dump());
  const json& verdict = member(exact, "verdict", exact_where);
  if (!verdict.is_string())
    fail(exact_where + ".verdict", "expected a string, got " + verdict.dump());
  result.verdict = verdict.get<std::string>();
  if (result.verdict == kVerdictFloatOnly) return result;
  const bool ball_verdict = result.verdict == "solves (decided rigorously)" ||
                            result.verdict.rfind("undecided at ", 0) == 0;
  if (result.verdict != kVerdictSolves && result.verdict != kVerdictFails && !ball_verdict)
    fail(exact_where + ".verdict", "expected \"" + std::string(kVerdictSolves) + "\", \"" +
                                       kVerdictFails + "\" or \"" + kVerdictFloatOnly + "\", got " +
                                       verdict.dump());
  result.exact_error_rate =
      share(member(exact, "error_rate", exact_where), exact_where + ".error_rate");
  const json& max_error = member(exact, "max_error", exact_where);
  if (!max_error.is_null())
    result.exact_max_error = nonnegative(max_error, exact_where + ".max_error");
  return result;
}

ModelRecord ReportParser::model(const json& value, const std::string& index_where) const {
  if (!value.is_object()) fail(index_where, "expected an object, got " + value.dump());
  ModelRecord record;
  std::string where = index_where;
  if (const auto name = value.find("name"); name != value.end() && name->is_string()) {
    record.name = name->get<std::string>();
    where += " (" + record.name + ")";
  }
  const json& feature = member(value, "feature", where);
  const std::optional<FeatureMap> map =
      feature.is_string() ? feature_map_named(feature.get<std::string>()) : std::nullopt;
  if (!map) fail(where + ".feature", "expected a feature-map name, got " + feature.dump());
  record.feature = *map;
  record.seed = integer(value, "seed", where, 0);
  record.train = split(member(value, "train", where), where + ".train");
  if (const auto test = value.find("test"); test != value.end() && !test->is_null())
    record.test = split(*test, where + ".test");
  const auto r = value.find("r");
  if (r != value.end() && !r->is_null()) {
    record.r = integer(value, "r", where, 1);
  } else if (!record.baseline()) {
    fail(where,
         "missing \"r\" (the number of features); only baseline (softmax) records may omit it");
  }
  return record;
}

json parse_json_file(const std::string& path) {
  const std::string text = read_file_checked(path);
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    // e.what() starts with "[json.exception.parse_error.101] "; the rest is the useful part.
    std::string message = e.what();
    const std::size_t bracket = message.find("] ");
    if (bracket != std::string::npos) message = message.substr(bracket + 2);
    throw InputError(path, 0, "not valid JSON: " + message);
  }
}

}  // namespace

bool ModelRecord::baseline() const {
  return feature == FeatureMap::Softmax || train.verdict == kVerdictFloatOnly;
}

TrainReport read_train_report(const std::string& path) {
  const json document = parse_json_file(path);
  const ReportParser parser(path);
  if (!document.is_object()) parser.fail("", "expected a JSON object (a kernelrank-train-report)");
  const json& format = parser.member(document, "format", "");
  if (format != "kernelrank-train-report")
    parser.fail("format", "expected \"kernelrank-train-report\", got " + format.dump());
  const json& version = parser.member(document, "version", "");
  if (version != 1) parser.fail("version", "only version 1 is understood, got " + version.dump());
  const json& models = parser.member(document, "models", "");
  if (!models.is_array()) parser.fail("models", "expected an array, got " + models.dump());
  if (models.empty()) parser.fail("models", "the report lists no models");
  TrainReport report;
  report.path = path;
  for (std::size_t i = 0; i < models.size(); ++i)
    report.models.push_back(parser.model(models[i], "models[" + std::to_string(i) + "]"));
  return report;
}

TrainReport only_feature(const TrainReport& report, const std::string& feature) {
  TrainReport out{report.path, {}};
  const std::optional<FeatureMap> map = feature_map_named(feature);
  bool found = false;
  for (const ModelRecord& record : report.models) {
    const bool keep = map == record.feature;
    found = found || keep;
    if (keep || record.baseline()) out.models.push_back(record);
  }
  if (!found) throw InputError(report.path, 0, "no model with feature map '" + feature + "'");
  return out;
}

// ---- bound table and exact minimal ranks -------------------------------------------------

namespace {

std::vector<std::string> table_cells(const std::string& line) {
  std::vector<std::string> cells;
  std::string cell;
  for (std::size_t i = 1; i < line.size(); ++i) {  // line[0] is the leading '|'
    if (line[i] == '|') {
      const std::size_t first = cell.find_first_not_of(" \t");
      const std::size_t last = cell.find_last_not_of(" \t\r");
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
      cell.clear();
    } else {
      cell += line[i];
    }
  }
  return cells;
}

// "1,038" -> 1038; nullopt unless the text is digits with optional thousands separators.
std::optional<long long> table_integer(const std::string& cell) {
  std::string digits;
  for (const char c : cell) {
    if (c == ',') continue;
    if (c < '0' || c > '9') return std::nullopt;
    digits += c;
  }
  if (digits.empty() || digits.size() > 18) return std::nullopt;
  return std::stoll(digits);
}

}  // namespace

std::vector<BoundRow> read_bound_table(const std::string& path) {
  std::istringstream text(read_file_checked(path));
  std::vector<BoundRow> rows;
  std::string line;
  std::size_t line_number = 0;
  bool in_table = false;  // after the `| m | r >= |` header, until the table ends
  while (std::getline(text, line)) {
    ++line_number;
    if (line.empty() || line[0] != '|') {
      if (in_table && !rows.empty()) break;  // only the first such table is read
      continue;
    }
    const std::vector<std::string> cells = table_cells(line);
    if (!in_table) {
      in_table = cells.size() >= 2 && cells[0] == "m" && cells[1] == "r >=";
      continue;
    }
    if (cells.empty() || cells[0].find_first_not_of("-: ") == std::string::npos)
      continue;  // |---:|
    const long long m = table_integer(cells[0]).value_or(0);
    const long long lower = cells.size() >= 2 ? table_integer(cells[1]).value_or(0) : 0;
    if (m < 1 || m > 1000)
      throw InputError(path, line_number,
                       "expected m (1 to 1000) in the first cell, got '" + cells[0] + "'");
    if (lower < 1)
      throw InputError(path, line_number, "expected a bound r >= 1 in the second cell");
    rows.push_back({static_cast<int>(m), lower});
  }
  if (rows.empty())
    throw InputError(path, 0,
                     "no bound table found (a markdown table whose header starts '| m | r >= |')");
  return rows;
}

std::vector<BoundRow> read_upper_heads(const std::string& path) {
  std::istringstream text(read_file_checked(path));
  std::vector<BoundRow> rows;
  std::string line;
  std::size_t line_number = 0;
  bool in_table = false;
  while (std::getline(text, line)) {
    ++line_number;
    if (line.empty() || line[0] != '|') {
      if (in_table && !rows.empty()) break;
      continue;
    }
    const std::vector<std::string> cells = table_cells(line);
    if (!in_table) {
      in_table = cells.size() >= 3 && cells[0] == "m" && cells[2] == "PF head: r <=";
      continue;
    }
    if (cells.empty() || cells[0].find_first_not_of("-: ") == std::string::npos) continue;
    // "593" or "6,568,429,447,841 (best found)": the number before any remark.
    const std::string head = cells.size() >= 3 ? cells[2].substr(0, cells[2].find(' ')) : "";
    const long long m = table_integer(cells[0]).value_or(0);
    const long long r = table_integer(head).value_or(0);
    if (m < 1 || m > 1000 || r < 1)
      throw InputError(path, line_number, "expected m and a head's r in the table 'Both sides'");
    rows.push_back({static_cast<int>(m), r});
  }
  return rows;
}

std::vector<MinRankEntry> read_min_rank(const std::string& path) {
  TextReader reader(path);
  std::vector<MinRankEntry> entries;
  while (const auto line = reader.next()) {
    if (line->fields.size() != 3)
      reader.fail(line->number, "expected three fields 'm lower upper', got " +
                                    std::to_string(line->fields.size()));
    MinRankEntry entry;
    entry.m = static_cast<int>(reader.integer_field(*line, 0, 1, 1000, "m"));
    entry.lower = reader.integer_field(*line, 1, 1, 1LL << 62, "lower");
    entry.upper = reader.integer_field(*line, 2, 1, 1LL << 62, "upper");
    if (entry.upper < entry.lower) reader.fail(line->number, "upper is below lower");
    entries.push_back(entry);
  }
  if (entries.empty()) throw InputError(path, 0, "no 'm lower upper' lines");
  return entries;
}

std::vector<TransitionEntry> read_transitions(const std::string& path) {
  TextReader reader(path);
  std::vector<TransitionEntry> entries;
  while (const auto line = reader.next()) {
    if (line->fields.size() != 5)
      reader.fail(line->number, "expected five fields 'm feature r_star largest_r bound', got " +
                                    std::to_string(line->fields.size()));
    TransitionEntry entry;
    entry.m = static_cast<int>(reader.integer_field(*line, 0, 1, 1000, "m"));
    const std::optional<FeatureMap> map = feature_map_named(line->fields[1]);
    if (!map)
      reader.fail(line->number,
                  "expected a feature-map name in field 2, got '" + line->fields[1] + "'");
    entry.feature = *map;
    entry.largest_r = reader.integer_field(*line, 3, 1, 1LL << 40, "largest_r");
    if (line->fields[2] != "-") {
      entry.r_star = reader.integer_field(*line, 2, 1, entry.largest_r, "r_star");
    }
    entry.bound = reader.integer_field(*line, 4, 1, 1LL << 62, "bound");
    for (const TransitionEntry& other : entries) {
      if (other.m == entry.m && other.feature == entry.feature)
        reader.fail(line->number, "a second line for m = " + std::to_string(entry.m) + " and " +
                                      to_string(entry.feature));
      if (other.m == entry.m && other.bound != entry.bound)
        reader.fail(line->number, "m = " + std::to_string(entry.m) + " has two bounds, " +
                                      std::to_string(other.bound) + " and " +
                                      std::to_string(entry.bound));
    }
    entries.push_back(entry);
  }
  if (entries.empty()) throw InputError(path, 0, "no 'm feature r_star largest_r bound' lines");
  return entries;
}

}  // namespace kernelrank::plot
