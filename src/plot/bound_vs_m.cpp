// The bound-vs-m plot: the certified lower bounds on the feature rank r from the bound
// table against m, the exact realisation by 2^m features as the upper end, and optionally
// the exact minimal ranks found by search (settled cells as dots, open ones as interval
// bars), on a log2 y axis with the largest certified bound spelled out next to its point.
#include "kernelrank/plot/plots.hpp"

#include "kernelrank/plot/gnuplot.hpp"
#include "plot_script.hpp"

#include <algorithm>
#include <cmath>

namespace kernelrank::plot {

using namespace detail;

namespace {

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
                              const std::vector<MinRankEntry>& min_ranks, const std::string& title,
                              const std::vector<BoundRow>& heads) {
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
  std::string extra = min_rank_plots(min_ranks, blocks);
  if (!heads.empty()) {
    std::vector<std::vector<double>> points;
    for (const BoundRow& head : heads)
      points.push_back({static_cast<double>(head.m), static_cast<double>(head.lower)});
    blocks += datablock("heads", points);
    extra +=
        ", $heads using 1:2 with linespoints lw 1.6 ps 0.8 pt 5 lc rgb '#009E73'"
        " title 'verified layered head (PF, exact LP, checked): r suffices'";
  }
  const BoundRow& last = *std::max_element(
      rows.begin(), rows.end(), [](const BoundRow& a, const BoundRow& b) { return a.m < b.m; });
  const int span = high_m - low_m;
  const std::string x_step = span > 24 ? "8" : span > 8 ? "2" : "1";
  std::string script =
      blocks + kPreamble +
      title_line("set title", title,
                 heads.empty() ? "Feature rank needed for T(m,3): certified lower bounds "
                                 "and the 2^m upper end"
                               : "Feature rank needed for T(m,3): certified lower bounds, "
                                 "verified heads, 2^m");
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
