// The helpers shared by every plot kind's gnuplot script (see plot_script.hpp): colour and
// marker cycles, number formatting, titles, log2 axes, datablocks, vertical lines and labels.
#include "plot_script.hpp"

#include "kernelrank/plot/gnuplot.hpp"

#include <cmath>
#include <cstdio>
#include <iterator>

namespace kernelrank::plot::detail {
namespace {

const char* const kColours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                "#E69F00", "#56B4E9", "#000000", "#F0E442"};
const int kPointTypes[] = {7, 5, 9, 13, 11, 6, 4, 8, 12, 10};
const char* const kDashes[] = {"1", "(8,4)", "(2,3)", "(8,3,2,3)"};

}  // namespace

const char* colour(std::size_t index) { return kColours[index % std::size(kColours)]; }
int point_type(std::size_t index) { return kPointTypes[index % std::size(kPointTypes)]; }
const char* dash(std::size_t index) { return kDashes[index % std::size(kDashes)]; }

std::string number(double value) {
  if (!std::isfinite(value)) return "NaN";
  char text[32];
  std::snprintf(text, sizeof text, "%.12g", value);
  return text;
}

std::string title_line(const std::string& command, const std::string& title,
                       const std::string& default_title) {
  const std::string text = title.empty() ? quoted(default_title) : quoted(title) + " noenhanced";
  return command + " " + text + " font title_font\n";
}

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

std::string datablock(const std::string& name, const std::vector<std::vector<double>>& rows) {
  std::string block = "$" + name + " << EOD\n";
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i) block += (i ? " " : "") + number(row[i]);
    block += "\n";
  }
  return block + "EOD\n";
}

std::string vertical_line(double at, const std::string& colour_code, const std::string& dash_code) {
  return "set arrow from " + number(at) + ", graph 0 to " + number(at) +
         ", graph 1 nohead lw 1.6 dt " + dash_code + " lc rgb '" + colour_code + "' back\n";
}

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

}  // namespace kernelrank::plot::detail
