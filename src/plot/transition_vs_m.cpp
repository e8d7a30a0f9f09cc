// The transition-vs-m plot: the transition rank r*(m) of the OOD experiment (the smallest r
// whose median exact test accuracy reaches 0.95) against the token width m, one curve per
// feature map, beside the certified lower bound for the same pools and the 2^m features of
// the exact realisation (L6), on a log2 y axis. A width whose grid never reached the
// threshold is drawn as an open triangle pointing up at the grid's largest r ("r* > R").
#include "kernelrank/plot/plots.hpp"

#include "plot_script.hpp"

#include <algorithm>
#include <cmath>

namespace kernelrank::plot {

using namespace detail;

std::string transition_vs_m_script(const std::vector<TransitionEntry>& entries,
                                   const std::string& title) {
  int low_m = entries.front().m, high_m = entries.front().m;
  double top = 1;
  std::vector<FeatureMap> features;
  std::vector<std::vector<std::vector<double>>> reached, beyond;
  std::vector<std::vector<double>> bounds;
  for (const TransitionEntry& e : entries) {
    low_m = std::min(low_m, e.m), high_m = std::max(high_m, e.m);
    const std::size_t f = index_of(features, e.feature);
    if (f == reached.size()) reached.emplace_back(), beyond.emplace_back();
    // Features side by side around m, so that equal values do not hide each other.
    const double m = e.m + 0.12 * (static_cast<double>(f) - 0.5);
    if (e.r_star)
      reached[f].push_back({m, static_cast<double>(*e.r_star)});
    else
      beyond[f].push_back({m, static_cast<double>(e.largest_r)});
    top = std::max(top, static_cast<double>(e.largest_r));
    const double width = e.m;
    if (std::none_of(bounds.begin(), bounds.end(),
                     [&](const auto& row) { return row[0] == width; }))
      bounds.push_back({width, static_cast<double>(e.bound)});
  }
  std::sort(bounds.begin(), bounds.end());
  std::vector<std::vector<double>> upper;
  for (int m = low_m; m <= high_m; ++m) upper.push_back({static_cast<double>(m), std::exp2(m)});
  top = std::max(top, std::exp2(high_m));
  std::string script = datablock("bounds", bounds) + datablock("upper", upper);
  std::string plots =
      "$upper using 1:2 with lines lw 2 dt (8,4) lc rgb '#D55E00' "
      "title '2^m features suffice (exact realisation, L6)', "
      "$bounds using 1:2 with linespoints lw 1.6 ps 1.0 pt 7 lc rgb '#0072B2' "
      "title 'certified lower bound for the pools (checked certificate)'";
  for (std::size_t f = 0; f < features.size(); ++f) {
    std::sort(reached[f].begin(), reached[f].end());
    const std::string colour_code = colour(f + 2);  // the first two colours are taken above
    const std::string name = std::to_string(f);
    if (!reached[f].empty()) {
      script += datablock("reached" + name, reached[f]);
      plots += ", $reached" + name + " using 1:2 with linespoints lw 2 ps 1.5 pt " +
               std::to_string(point_type(f)) + " lc rgb '" + colour_code + "'" +
               hide_key_entry_title(to_string(features[f]) + ": r* (median test accuracy >= 0.95)");
    }
    if (!beyond[f].empty()) {
      script += datablock("beyond" + name, beyond[f]);
      plots += ", $beyond" + name + " using 1:2 with points ps 1.8 pt 8 lc rgb '" + colour_code +
               "'" +
               hide_key_entry_title(to_string(features[f]) +
                                    ": r* > the grid's largest r (drawn there)");
    }
  }
  const int top_exponent = static_cast<int>(std::ceil(std::log2(top))) + 1;
  script += kPreamble + title_line("set title", title,
                                   "OOD transition rank r*(m) against m, with the certified "
                                   "lower bound and 2^m");
  script += "set xrange [" + std::to_string(low_m - 1) + ":" + std::to_string(high_m + 1) + "]\n";
  script += "set xtics " + std::to_string(low_m) + ", " +
            std::string(high_m - low_m > 16 ? "4" : "2") + "\n";
  script +=
      "set xlabel 'm (token width; tokens of weight m/2)'\n"
      "set ylabel 'number of features r (log_2 scale)'\n";
  script += "set logscale y 2\nset yrange [0.7:" + number(std::exp2(top_exponent)) + "]\n";
  script += log2_y_tics(top_exponent) + "set key inside left top\n";
  return script + "plot " + plots + "\n";
}

}  // namespace kernelrank::plot
