// The error-vs-r plot: a training report's exact error rate (upper panel) and exact maximum
// error (lower panel) against the number of features r on a log2 axis, one line per
// (feature map, seed), with softmax records as horizontal baselines and the
// certified lower bound on r as a vertical line through both panels. Max errors above 2, and
// models with no defined output at all, are drawn at 2 with their own marker.
#include "kernelrank/plot/plots.hpp"

#include "plot_script.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <cmath>

namespace kernelrank::plot {

using namespace detail;

namespace {

// Max errors beyond this are drawn at it: one wild model must not flatten the others.
constexpr double kMaxErrorCap = 2.0;

struct Curve {
  FeatureMap feature = FeatureMap::Relu;
  long long seed = 0;
  std::size_t feature_index = 0, seed_index = 0;
  // r, error rate, max error drawn (capped), marker if capped, marker if no output defined
  std::vector<std::vector<double>> rows;
};

struct Baseline {
  FeatureMap feature = FeatureMap::Softmax;
  std::vector<double> values;  // one per record
  bool decided = true;         // every value is a decided (ball-arithmetic) error rate
};

const SplitResult& split_of(const ModelRecord& record, const std::string& split,
                            const std::string& path) {
  if (split == "train") return record.train;
  if (!record.test)
    throw InputError(path, 0, "model '" + record.name + "' has no test split (use --split train)");
  return *record.test;
}

void collect_error_curves(const TrainReport& report, const std::string& split,
                          std::vector<Curve>& curves, std::vector<Baseline>& baselines) {
  std::vector<FeatureMap> features;
  std::vector<long long> seeds;
  for (const ModelRecord& record : report.models) {
    const SplitResult& result = split_of(record, split, report.path);
    if (record.baseline()) {
      auto found = std::find_if(baselines.begin(), baselines.end(),
                                [&](const Baseline& b) { return b.feature == record.feature; });
      if (found == baselines.end()) found = baselines.insert(baselines.end(), {record.feature, {}});
      found->values.push_back(result.exact_error_rate.value_or(result.float_error_rate));
      found->decided = found->decided && result.exact_error_rate.has_value();
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

// The upper panel: error rate per seed, softmax baselines, the certified bound.
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
             hide_key_entry_title(to_string(curves[i].feature) + ", seed " +
                                  std::to_string(curves[i].seed));
  for (const Baseline& b : baselines)
    for (std::size_t k = 0; k < b.values.size(); ++k) {
      const std::string title =
          to_string(b.feature) + (b.decided ? " (ball arithmetic" : " (float only") +
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
                     "(softmax records alone have no r axis)");
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

}  // namespace kernelrank::plot
