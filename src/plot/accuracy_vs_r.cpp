// The accuracy-vs-r plot: exact test accuracy (1 - exact error rate on the test split)
// against the number of features r on a log2 axis, one curve per scale (and per feature map
// if a report has several): the mean over seeds with bars from the worst to the best seed.
// Each scale has its own colour, shared by its certified bound (a vertical dashed line) and
// its softmax baseline (a dotted horizontal line); the key sits below, a column per scale (two
// columns from four scales on).
#include "kernelrank/plot/plots.hpp"

#include "plot_script.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace kernelrank::plot {

using namespace detail;

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
                      std::vector<std::optional<double>>& baselines,
                      std::vector<bool>& baselines_decided) {
  for (std::size_t s = 0; s < scales.size(); ++s) {
    std::vector<FeatureMap> features;
    std::vector<std::map<long long, std::vector<double>>> by_feature;
    double baseline_sum = 0;
    std::size_t baseline_count = 0;
    bool baseline_decided = true;
    for (const ModelRecord& record : scales[s].report.models) {
      const SplitResult& test = test_split(record, scales[s].report.path);
      if (record.baseline()) {
        baseline_sum += 1 - test.exact_error_rate.value_or(test.float_error_rate);
        baseline_decided = baseline_decided && test.exact_error_rate.has_value();
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
      const std::string title = features.size() == 1
                                    ? scales[s].label
                                    : scales[s].label + " (" + to_string(features[f]) + ")";
      series.push_back({s, f, title, summarise(by_feature[f])});
    }
    baselines.push_back(
        baseline_count ? std::optional<double>(baseline_sum / static_cast<double>(baseline_count))
                       : std::nullopt);
    baselines_decided.push_back(baseline_decided);
  }
}

// The plot clauses of one scale, in key order: its curves, its bound, its softmax baseline.
std::vector<std::string> scale_clauses(const std::vector<AccuracySeries>& series, std::size_t s,
                                       const Scale& scale, const std::optional<double>& baseline,
                                       bool decided) {
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
                      "'" +
                      hide_key_entry_title(scale.label + (decided ? ": softmax (ball arithmetic)"
                                                                  : ": softmax (float only)")));
  return clauses;
}

}  // namespace

std::string accuracy_vs_r_script(const std::vector<Scale>& scales, const std::string& title) {
  std::vector<AccuracySeries> series;
  std::vector<std::optional<double>> baselines;
  std::vector<bool> baselines_decided;
  collect_accuracy(scales, series, baselines, baselines_decided);
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
    clauses.push_back(scale_clauses(series, s, scales[s], baselines[s], baselines_decided[s]));
    key_rows = std::max(key_rows, clauses.back().size());
  }
  const Log2Axis axis = log2_axis(smallest_r, largest_r);
  const double bottom = std::max(0.0, std::floor((lowest - 0.05) * 10) / 10);
  script += kPreamble +
            title_line("set title", title, "Exact test accuracy against the number of features r");
  script += log2_x_settings(axis, true) + "set xlabel 'r (number of features, log_2 scale)'\n" +
            "set ylabel 'exact test accuracy (mean over seeds; bars: min to max)'\n" +
            "set yrange [" + number(bottom) + ":" + number(1 + (1 - bottom) * 0.04) + "]\n" +
            // Below the graph so that it never covers data: one key column per scale, or two
            // columns when more than three would not fit the width.
            "set key below center vertical maxrows " +
            std::to_string(key_rows * (scales.size() > 3 ? (scales.size() + 1) / 2 : 1)) + "\n";
  std::string plots;
  for (std::vector<std::string>& column : clauses) {
    while (column.size() < key_rows)
      column.push_back("NaN lt nodraw title ' '");  // keeps columns aligned
    for (const std::string& clause : column) plots += (plots.empty() ? "" : ", ") + clause;
  }
  return script + "plot " + plots + "\n";
}

}  // namespace kernelrank::plot
