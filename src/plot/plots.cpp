// Reading the plot inputs (training reports, the bound table, exact minimal ranks) and
// writing the gnuplot scripts for the three plot kinds (see plots.hpp).
//
// Readers are strict, like every kernelrank parser: a report that does not have the
// documented shape is refused with a message naming the file, the model and the field,
// rather than drawn half-right. The scripts fix every range and tick themselves (log2 ticks
// at powers of two, y ranges from the data) so that a plot does not depend on gnuplot's
// autoscaling heuristics, and keep every user-supplied text `noenhanced`.
#include "plots.hpp"

#include "gnuplot.hpp"

#include "kernelrank/errors.hpp"
#include "kernelrank/rational.hpp"
#include "kernelrank/text_input.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

namespace kernelrank::plot {
namespace {

using nlohmann::json;

constexpr const char* kVerdictSolves = "solves (verified exactly)";
constexpr const char* kVerdictFails = "fails";
constexpr const char* kVerdictFloatOnly = "float-only";
// Max errors beyond this are drawn at it: one wild model must not flatten the others.
constexpr double kMaxErrorCap = 2.0;

// Colour-blind-safe colours (Okabe-Ito) and gnuplot point types: filled circle, square,
// triangle, diamond, inverted triangle, then the open versions.
const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                "#E69F00", "#56B4E9", "#000000", "#F0E442"};
const int kPointTypes[] = {7, 5, 9, 13, 11, 6, 4, 8, 12, 10};
const char* const kDashes[] = {"1", "(8,4)", "(2,3)", "(8,3,2,3)"};

const char* colour(std::size_t index) { return kColours[index % std::size(kColours)]; }
int point_type(std::size_t index) { return kPointTypes[index % std::size(kPointTypes)]; }
const char* dash(std::size_t index) { return kDashes[index % std::size(kDashes)]; }

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
  if (result.verdict != kVerdictSolves && result.verdict != kVerdictFails)
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
  if (!feature.is_string() || feature.get<std::string>().empty())
    fail(where + ".feature", "expected a feature-map name, got " + feature.dump());
  record.feature = feature.get<std::string>();
  record.seed = integer(value, "seed", where, 0);
  record.train = split(member(value, "train", where), where + ".train");
  if (const auto test = value.find("test"); test != value.end() && !test->is_null())
    record.test = split(*test, where + ".test");
  const auto r = value.find("r");
  if (r != value.end() && !r->is_null()) {
    record.r = integer(value, "r", where, 1);
  } else if (!record.float_only()) {
    fail(where, "missing \"r\" (the number of features); only float-only records may omit it");
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

// ---- script helpers --------------------------------------------------------------------

std::string number(double value) {
  if (!std::isfinite(value)) return "NaN";
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", value);
  return text;
}

// Settings shared by every plot: light grid, no top/right mirror ticks, UTF-8 text.
const char* const kPreamble =
    "set encoding utf8\n"
    "set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1\n"
    "set border 3 lw 1.2\n"
    "set tics nomirror out scale 0.6\n"
    "set key opaque box lc rgb '#bbbbbb' samplen 2.5 spacing 1.15\n";

// `command` is "set title" or "set multiplot title". A user's title is drawn literally; the
// default one (empty `title`) may use enhanced text such as 2^m.
std::string title_line(const std::string& command, const std::string& title,
                       const std::string& default_title) {
  const std::string text = title.empty() ? quoted(default_title) : quoted(title) + " noenhanced";
  return command + " " + text + " font title_font\n";
}

struct Log2Axis {
  double low = 0, high = 0;
  std::string labelled_tics, bare_tics;  // `set xtics (...)` with and without labels
};

// A log2 axis from the power of two at or below `smallest` to the one at or above `largest`,
// with a tick (labelled as a plain number) at every power of two in between.
Log2Axis log2_axis(double smallest, double largest) {
  int low_exp = static_cast<int>(std::floor(std::log2(smallest)));
  int high_exp = static_cast<int>(std::ceil(std::log2(largest)));
  if (high_exp - low_exp < 2) --low_exp, ++high_exp;  // a single r still gets an axis
  if (low_exp < 0) low_exp = 0;
  Log2Axis axis;
  axis.low = std::exp2(low_exp) / std::exp2(0.3);  // a margin so end points are not on the border
  axis.high = std::exp2(high_exp) * std::exp2(0.3);
  for (int e = low_exp; e <= high_exp; ++e) {
    const std::string value = number(std::exp2(e));
    const std::string sep = e == low_exp ? "" : ", ";
    axis.labelled_tics += sep + "'" + value + "' " + value;
    axis.bare_tics += sep + "'' " + value;
  }
  axis.labelled_tics = "set xtics (" + axis.labelled_tics + ")\n";
  axis.bare_tics = "set xtics (" + axis.bare_tics + ")\n";
  return axis;
}

std::string log2_x_settings(const Log2Axis& axis, bool labelled) {
  return "set logscale x 2\nset xrange [" + number(axis.low) + ":" + number(axis.high) + "]\n" +
         (labelled ? axis.labelled_tics : axis.bare_tics);
}

// A named datablock: `$name << EOD`, the rows, `EOD`.
std::string datablock(const std::string& name, const std::vector<std::vector<double>>& rows) {
  std::string block = "$" + name + " << EOD\n";
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) block += (i ? " " : "") + number(row[i]);
    block += "\n";
  }
  return block + "EOD\n";
}

// A vertical line at x = `at` (graph coordinates in y so it spans the panel).
std::string vertical_line(double at, const std::string& colour_code, const std::string& dash_code) {
  return "set arrow from " + number(at) + ", graph 0 to " + number(at) +
         ", graph 1 nohead lw 1.6 dt " + dash_code + " lc rgb '" + colour_code + "' back\n";
}

// A text label next to the vertical line at `at`, on the side with more room.
std::string line_label(const std::string& text, double at, const Log2Axis& axis, double graph_y) {
  const double share =
      (std::log2(at) - std::log2(axis.low)) / (std::log2(axis.high) - std::log2(axis.low));
  const bool on_left = share > 0.6;
  return "set label " + quoted(text) + " at " + number(at) + ", graph " + number(graph_y) +
         (on_left ? " right offset -0.6,0" : " left offset 0.6,0") + " noenhanced front\n";
}

std::string hide_key_entry_title(const std::string& title) {
  return title.empty() ? " notitle" : " title " + quoted(title) + " noenhanced";
}

}  // namespace

bool ModelRecord::float_only() const {
  return feature == "softmax" || train.verdict == kVerdictFloatOnly;
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

// ---- error-vs-r --------------------------------------------------------------------------

namespace {

struct Curve {
  std::string feature;
  long long seed = 0;
  std::size_t feature_index = 0, seed_index = 0;
  // r, error rate, max error drawn (capped), marker if capped, marker if no output defined
  std::vector<std::vector<double>> rows;
};

struct Baseline {
  std::string feature;
  std::vector<double> values;  // one per record
};

const SplitResult& split_of(const ModelRecord& record, const std::string& split,
                            const std::string& path) {
  if (split == "train") return record.train;
  if (!record.test)
    throw InputError(path, 0, "model '" + record.name + "' has no test split (use --split train)");
  return *record.test;
}

template <typename T>
std::size_t index_of(std::vector<T>& list, const T& value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found != list.end()) return static_cast<std::size_t>(found - list.begin());
  list.push_back(value);
  return list.size() - 1;
}

void collect_error_curves(const TrainReport& report, const std::string& split,
                          std::vector<Curve>& curves, std::vector<Baseline>& baselines) {
  std::vector<std::string> features;
  std::vector<long long> seeds;
  for (const ModelRecord& record : report.models) {
    const SplitResult& result = split_of(record, split, report.path);
    if (record.float_only()) {
      auto found = std::find_if(baselines.begin(), baselines.end(),
                                [&](const Baseline& b) { return b.feature == record.feature; });
      if (found == baselines.end()) found = baselines.insert(baselines.end(), {record.feature, {}});
      found->values.push_back(result.float_error_rate);
      continue;
    }
    const std::size_t feature_index = index_of(features, record.feature);
    const std::size_t seed_index = index_of(seeds, record.seed);
    auto curve = std::find_if(curves.begin(), curves.end(), [&](const Curve& c) {
      return c.feature == record.feature && c.seed == record.seed;
    });
    if (curve == curves.end())
      curve =
          curves.insert(curves.end(), {record.feature, record.seed, feature_index, seed_index, {}});
    // No defined output at all is a failure worse than any number: drawn at the cap too.
    const bool undefined = !result.exact_max_error;
    const bool capped = !undefined && *result.exact_max_error > kMaxErrorCap;
    const double drawn = undefined || capped ? kMaxErrorCap : *result.exact_max_error;
    curve->rows.push_back({static_cast<double>(*record.r), *result.exact_error_rate, drawn,
                           capped ? kMaxErrorCap : NAN, undefined ? kMaxErrorCap : NAN});
  }
  // By r only: the other columns may be NaN, which has no order.
  for (Curve& c : curves)
    std::stable_sort(c.rows.begin(), c.rows.end(),
                     [](const auto& a, const auto& b) { return a[0] < b[0]; });
}

std::string curve_style(const Curve& curve) {
  return std::string(" with linespoints lw 1.6 ps 1.3 lc rgb '") + colour(curve.feature_index) +
         "' dt " + dash(curve.feature_index) + " pt " +
         std::to_string(point_type(curve.seed_index));
}

// The upper panel: error rate per seed, float-only baselines, the certified bound.
std::string error_rate_panel(const std::vector<Curve>& curves,
                             const std::vector<Baseline>& baselines, const Log2Axis& axis,
                             const ErrorVsROptions& options) {
  double top = 0;
  for (const Curve& c : curves)
    for (const auto& row : c.rows) top = std::max(top, row[1]);
  for (const Baseline& b : baselines)
    for (double v : b.values) top = std::max(top, v);
  std::string script =
      "set lmargin at screen 0.09\nset rmargin at screen 0.70\n"
      "set tmargin at screen 0.90\nset bmargin at screen 0.45\n" +
      log2_x_settings(axis, false) + "unset xlabel\n" +
      "set ylabel 'exact error rate (share of failing instances)'\n" +
      "set yrange [0:" + number(std::max(top * 1.12, 0.02)) + "]\nset ytics auto\n" +
      "set key outside right top\n";
  if (options.bound) {
    script += vertical_line(static_cast<double>(*options.bound), "#333333", "(10,5)");
    script += line_label("certified r >= " + std::to_string(*options.bound),
                         static_cast<double>(*options.bound), axis, 0.93);
  }
  std::string plots;
  for (std::size_t i = 0; i < curves.size(); ++i)
    plots += std::string(plots.empty() ? "" : ", ") + "$curve" + std::to_string(i) + " using 1:2" +
             curve_style(curves[i]) +
             hide_key_entry_title(curves[i].feature + ", seed " + std::to_string(curves[i].seed));
  for (const Baseline& b : baselines)
    for (std::size_t k = 0; k < b.values.size(); ++k) {
      const std::string title =
          b.feature + " (float only" +
          (b.values.size() > 1 ? ", " + std::to_string(b.values.size()) + " seeds" : "") + ")";
      plots += std::string(plots.empty() ? "" : ", ") + number(b.values[k]) +
               " with lines lw 1.6 dt (6,4) lc rgb '#555555'" +
               hide_key_entry_title(k == 0 ? title : "");
    }
  return script + "plot " + plots + "\nunset label\n";
}

// The lower panel: exact max error per seed (capped), the 1/2 threshold.
std::string max_error_panel(const std::vector<Curve>& curves, const Log2Axis& axis) {
  bool any_capped = false, any_undefined = false;
  for (const Curve& c : curves)
    for (const auto& row : c.rows) {
      any_capped = any_capped || std::isfinite(row[3]);
      any_undefined = any_undefined || std::isfinite(row[4]);
    }
  std::string script = "set tmargin at screen 0.40\nset bmargin at screen 0.10\n" +
                       log2_x_settings(axis, true) +
                       "set xlabel 'r (number of features, log_2 scale)'\n"
                       "set ylabel 'exact max error (capped at 2)'\n"
                       "set yrange [0:2.15]\nset ytics 0, 0.5, 2\n";
  std::string plots;
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const std::string block = "$curve" + std::to_string(i);
    plots += block + " using 1:3" + curve_style(curves[i]) + " notitle, ";
    const std::string marker_colour =
        std::string(" lw 1.6 lc rgb '") + colour(curves[i].feature_index) + "'";
    if (any_capped)
      plots += block + " using 1:4 with points pt 8 ps 2.2" + marker_colour + " notitle, ";
    if (any_undefined)
      plots += block + " using 1:5 with points pt 3 ps 2.2" + marker_colour + " notitle, ";
  }
  plots +=
      "0.5 with lines lw 1.6 dt (3,3) lc rgb '#000000' title 'max error 1/2 (solves iff below)'";
  if (any_capped)
    plots += ", NaN with points pt 8 ps 2.2 lw 1.6 lc rgb '#000000' title 'above 2, drawn at 2'";
  if (any_undefined)
    plots +=
        ", NaN with points pt 3 ps 2.2 lw 1.6 lc rgb '#000000'"
        " title 'no output defined, drawn at 2'";
  return script + "plot " + plots + "\n";
}

}  // namespace

std::string error_vs_r_script(const TrainReport& report, const ErrorVsROptions& options) {
  std::vector<Curve> curves;
  std::vector<Baseline> baselines;
  collect_error_curves(report, options.split, curves, baselines);
  if (curves.empty())
    throw InputError(report.path, 0,
                     "no model with an exact evaluation to plot against r "
                     "(float-only records alone have no r axis)");
  double smallest = 1e300, largest = 0;
  for (const Curve& c : curves)
    for (const auto& row : c.rows)
      smallest = std::min(smallest, row[0]), largest = std::max(largest, row[0]);
  if (options.bound) {
    smallest = std::min(smallest, static_cast<double>(*options.bound));
    largest = std::max(largest, static_cast<double>(*options.bound));
  }
  const Log2Axis axis = log2_axis(smallest, largest);
  std::string script;
  for (std::size_t i = 0; i < curves.size(); ++i)
    script += datablock("curve" + std::to_string(i), curves[i].rows);
  script += kPreamble + title_line("set multiplot title", options.title,
                                   "Exact error against the number of features r (" +
                                       options.split + " split)");
  script += error_rate_panel(curves, baselines, axis, options);
  script += max_error_panel(curves, axis);
  return script + "unset multiplot\n";
}

// ---- accuracy-vs-r -----------------------------------------------------------------------

namespace {

struct AccuracySeries {
  std::size_t scale_index = 0, feature_index = 0;
  std::string title;
  std::vector<std::vector<double>> rows;  // r, mean, min, max over seeds
};

const SplitResult& test_split(const ModelRecord& record, const std::string& path) {
  if (!record.test)
    throw InputError(path, 0,
                     "model '" + record.name +
                         "' has no test split; accuracy-vs-r plots "
                         "test accuracy (use error-vs-r --split train for this report)");
  return *record.test;
}

// Mean, min and max of the accuracies seen for each r.
std::vector<std::vector<double>> summarise(const std::map<long long, std::vector<double>>& by_r) {
  std::vector<std::vector<double>> rows;
  for (const auto& [r, values] : by_r) {
    double sum = 0;
    for (double v : values) sum += v;
    rows.push_back({static_cast<double>(r), sum / static_cast<double>(values.size()),
                    *std::min_element(values.begin(), values.end()),
                    *std::max_element(values.begin(), values.end())});
  }
  return rows;
}

// One series per (scale, feature map); the softmax baselines' mean accuracy per scale.
void collect_accuracy(const std::vector<Scale>& scales, std::vector<AccuracySeries>& series,
                      std::vector<std::optional<double>>& baselines) {
  for (std::size_t s = 0; s < scales.size(); ++s) {
    std::vector<std::string> features;
    std::vector<std::map<long long, std::vector<double>>> by_feature;
    double baseline_sum = 0;
    std::size_t baseline_count = 0;
    for (const ModelRecord& record : scales[s].report.models) {
      const SplitResult& test = test_split(record, scales[s].report.path);
      if (record.float_only()) {
        baseline_sum += 1 - test.float_error_rate;
        ++baseline_count;
        continue;
      }
      const std::size_t f = index_of(features, record.feature);
      if (f == by_feature.size()) by_feature.emplace_back();
      by_feature[f][*record.r].push_back(1 - *test.exact_error_rate);
    }
    if (features.empty())
      throw InputError(scales[s].report.path, 0,
                       "no model with an exact evaluation to plot against r");
    for (std::size_t f = 0; f < features.size(); ++f) {
      const std::string title =
          features.size() == 1 ? scales[s].label : scales[s].label + " (" + features[f] + ")";
      series.push_back({s, f, title, summarise(by_feature[f])});
    }
    baselines.push_back(
        baseline_count ? std::optional<double>(baseline_sum / static_cast<double>(baseline_count))
                       : std::nullopt);
  }
}

// The plot clauses of one scale, in key order: its curves, its bound, its softmax baseline.
std::vector<std::string> scale_clauses(const std::vector<AccuracySeries>& series, std::size_t s,
                                       const Scale& scale, const std::optional<double>& baseline) {
  const std::string colour_code = colour(s);
  std::vector<std::string> clauses;
  for (std::size_t i = 0; i < series.size(); ++i)
    if (series[i].scale_index == s)
      clauses.push_back("$accuracy" + std::to_string(i) +
                        " using 1:2:3:4 with yerrorlines lw 1.6 ps 1.3 lc rgb '" + colour_code +
                        "' pt " + std::to_string(point_type(series[i].feature_index)) +
                        hide_key_entry_title(series[i].title));
  if (scale.bound)  // the line itself is an arrow; this is its key entry
    clauses.push_back(
        "NaN with lines lw 1.6 dt (10,5) lc rgb '" + colour_code + "'" +
        hide_key_entry_title(scale.label + ": certified r >= " + std::to_string(*scale.bound)));
  if (baseline)
    clauses.push_back(number(*baseline) + " with lines lw 1.6 dt (2,3) lc rgb '" + colour_code +
                      "'" + hide_key_entry_title(scale.label + ": softmax (float only)"));
  return clauses;
}

}  // namespace

std::string accuracy_vs_r_script(const std::vector<Scale>& scales, const std::string& title) {
  std::vector<AccuracySeries> series;
  std::vector<std::optional<double>> baselines;
  collect_accuracy(scales, series, baselines);
  double smallest_r = 1e300, largest_r = 0, lowest = 1;
  for (const AccuracySeries& one : series)
    for (const auto& row : one.rows) {
      smallest_r = std::min(smallest_r, row[0]);
      largest_r = std::max(largest_r, row[0]);
      lowest = std::min(lowest, row[2]);
    }
  std::string script;
  for (std::size_t i = 0; i < series.size(); ++i)
    script += datablock("accuracy" + std::to_string(i), series[i].rows);
  std::vector<std::vector<std::string>> clauses;
  std::size_t key_rows = 1;
  for (std::size_t s = 0; s < scales.size(); ++s) {
    if (scales[s].bound) {
      const double bound = static_cast<double>(*scales[s].bound);
      smallest_r = std::min(smallest_r, bound), largest_r = std::max(largest_r, bound);
      script += vertical_line(bound, colour(s), "(10,5)");
    }
    if (baselines[s]) lowest = std::min(lowest, *baselines[s]);
    clauses.push_back(scale_clauses(series, s, scales[s], baselines[s]));
    key_rows = std::max(key_rows, clauses.back().size());
  }
  const Log2Axis axis = log2_axis(smallest_r, largest_r);
  const double bottom = std::max(0.0, std::floor((lowest - 0.05) * 10) / 10);
  script += kPreamble +
            title_line("set title", title, "Exact test accuracy against the number of features r");
  script += log2_x_settings(axis, true) + "set xlabel 'r (number of features, log_2 scale)'\n" +
            "set ylabel 'exact test accuracy (mean over seeds; bars: min to max)'\n" +
            "set yrange [" + number(bottom) + ":" + number(1 + (1 - bottom) * 0.04) + "]\n" +
            // One key column per scale, below the graph so that it never covers data.
            "set key below center vertical maxrows " + std::to_string(key_rows) + "\n";
  std::string plots;
  for (std::vector<std::string>& column : clauses) {
    while (column.size() < key_rows)
      column.push_back("NaN lt nodraw title ' '");  // keeps columns aligned
    for (const std::string& clause : column) plots += (plots.empty() ? "" : ", ") + clause;
  }
  return script + "plot " + plots + "\n";
}

// ---- bound-vs-m ----------------------------------------------------------------------------

namespace {

// Labelled ticks 2^k every `step` powers (at most about eight labels), unlabelled minor
// ticks at every power of two.
std::string log2_y_tics(int top_exponent) {
  int step = 1;
  while (top_exponent / step > 8) step *= 2;
  std::string tics = "set ytics (";
  for (int e = 0; e <= top_exponent; ++e) {
    const bool major = e % step == 0;
    tics += std::string(e ? ", " : "") + "'" + (major ? "2^{" + std::to_string(e) + "}" : "") +
            "' " + number(std::exp2(e)) + (major ? "" : " 1");
  }
  return tics + ")\n";
}

std::string min_rank_plots(const std::vector<MinRankEntry>& entries, std::string& blocks) {
  std::vector<std::vector<double>> exact, open;
  for (const MinRankEntry& e : entries) {
    if (e.lower == e.upper) {
      exact.push_back({static_cast<double>(e.m), static_cast<double>(e.lower)});
    } else {
      open.push_back({static_cast<double>(e.m), std::sqrt(static_cast<double>(e.lower) * e.upper),
                      static_cast<double>(e.lower), static_cast<double>(e.upper)});
    }
  }
  std::string plots;
  if (!exact.empty()) {
    blocks += datablock("exact", exact);
    plots +=
        ", $exact using 1:2 with points pt 7 ps 1.3 lc rgb '#000000'"
        " title 'exact minimal r (search)'";
  }
  if (!open.empty()) {
    blocks += datablock("open", open);
    const MinRankEntry* only = nullptr;
    for (const MinRankEntry& e : entries)
      if (e.lower != e.upper) only = only ? nullptr : &e;
    const std::string title = open.size() == 1 && only
                                  ? std::to_string(only->lower) +
                                        " <= r <= " + std::to_string(only->upper) +
                                        " at m = " + std::to_string(only->m) + " (open)"
                                  : "open cells: lower <= r <= upper";
    plots += ", $open using 1:2:3:4 with yerrorbars lw 1.6 pt 6 ps 1.3 lc rgb '#000000'" +
             hide_key_entry_title(title);
  }
  return plots;
}

}  // namespace

std::string bound_vs_m_script(const std::vector<BoundRow>& rows,
                              const std::vector<MinRankEntry>& min_ranks,
                              const std::string& title) {
  int low_m = rows.front().m, high_m = rows.front().m;
  std::vector<std::vector<double>> bounds;
  for (const BoundRow& row : rows) {
    low_m = std::min(low_m, row.m), high_m = std::max(high_m, row.m);
    bounds.push_back({static_cast<double>(row.m), static_cast<double>(row.lower)});
  }
  for (const MinRankEntry& e : min_ranks)
    low_m = std::min(low_m, e.m), high_m = std::max(high_m, e.m);
  std::vector<std::vector<double>> upper;
  for (int m = low_m; m <= high_m; ++m) upper.push_back({static_cast<double>(m), std::exp2(m)});
  std::string blocks = datablock("bounds", bounds) + datablock("upper", upper);
  const std::string extra = min_rank_plots(min_ranks, blocks);
  const BoundRow& last = *std::max_element(
      rows.begin(), rows.end(), [](const BoundRow& a, const BoundRow& b) { return a.m < b.m; });
  const int span = high_m - low_m;
  const std::string x_step = span > 24 ? "8" : span > 8 ? "2" : "1";
  std::string script = blocks + kPreamble +
                       title_line("set title", title,
                                  "Feature rank needed for T(m,3): certified lower bounds and the "
                                  "2^m upper end");
  script += "set xrange [" + std::to_string(low_m - 1) + ":" + std::to_string(high_m + 1) + "]\n";
  script += "set xtics 0, " + x_step + "\nset mxtics " + x_step + "\n";
  script += "set xlabel 'm (token width)'\nset ylabel 'number of features r (log_2 scale)'\n";
  script += "set logscale y 2\nset yrange [0.7:" + number(std::exp2(high_m + 1)) + "]\n";
  script += log2_y_tics(high_m + 1) + "set key inside left top\n";
  // The largest certified bound, spelled out above-left of its point (below it runs the curve).
  script += "set label " +
            quoted("r >= " + std::to_string(last.lower) + " at m = " + std::to_string(last.m)) +
            " at " + number(last.m) + ", " + number(static_cast<double>(last.lower)) +
            " right offset -1,1.2 noenhanced front\n";
  return script +
         "plot $upper using 1:2 with lines lw 2 dt (8,4) lc rgb '#D55E00' "
         "title '2^m features suffice (exact realisation, L6)', "
         "$bounds using 1:2 with linespoints lw 1.6 ps 1.0 pt 7 lc rgb '#0072B2' "
         "title 'certified lower bound (checked certificates)'" +
         extra + "\n";
}

}  // namespace kernelrank::plot
