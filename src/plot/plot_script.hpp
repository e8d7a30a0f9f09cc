// Helpers shared by the gnuplot scripts of every plot kind (error_vs_r.cpp, accuracy_vs_r.cpp,
// bound_vs_m.cpp): the colour, dash and marker cycles, number formatting, the common preamble
// and title line, log2 x axes with a tick at every power of two, inline datablocks, vertical
// marker lines with their labels, and key titles.
//
// The scripts fix every range and tick themselves (log2 ticks at powers of two, y ranges from
// the data) so that a plot does not depend on gnuplot's autoscaling heuristics, and keep
// every user-supplied text `noenhanced`. Internal to src/plot: not part of plots.hpp.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace kernelrank::plot::detail {

// Colour-blind-safe colours (Okabe-Ito), gnuplot point types (filled circle, square,
// triangle, diamond, inverted triangle, then the open versions) and dash patterns, each
// cycling when the index runs past the end.
const char* colour(std::size_t index);
int point_type(std::size_t index);
const char* dash(std::size_t index);

// `value` as gnuplot reads it (%.12g), or "NaN" if it is not finite.
std::string number(double value);

// Settings shared by every plot: light grid, no top/right mirror ticks, UTF-8 text.
inline constexpr const char* kPreamble =
    "set encoding utf8\n"
    "set grid xtics ytics lt 1 lc rgb '#e3e3e3' lw 1\n"
    "set border 3 lw 1.2\n"
    "set tics nomirror out scale 0.6\n"
    "set key opaque box lc rgb '#bbbbbb' samplen 2.5 spacing 1.15\n";

// `command` is "set title" or "set multiplot title". A user's title is drawn literally; the
// default one (empty `title`) may use enhanced text such as 2^m.
std::string title_line(const std::string& command, const std::string& title,
                       const std::string& default_title);

struct Log2Axis {
  double low = 0, high = 0;
  std::string labelled_tics, bare_tics;  // `set xtics (...)` with and without labels
};

// A log2 axis from the power of two at or below `smallest` to the one at or above `largest`,
// with a tick (labelled as a plain number) at every power of two in between.
Log2Axis log2_axis(double smallest, double largest);

// `set logscale x 2`, the axis' x range and its ticks (labelled or bare).
std::string log2_x_settings(const Log2Axis& axis, bool labelled);

// `set ytics (...)`: ticks at every power of two 2^0..2^top_exponent, labelled 2^k every few
// powers (at most about eight labels).
std::string log2_y_tics(int top_exponent);

// A named datablock: `$name << EOD`, the rows, `EOD`.
std::string datablock(const std::string& name, const std::vector<std::vector<double>>& rows);

// A vertical line at x = `at` (graph coordinates in y so it spans the panel).
std::string vertical_line(double at, const std::string& colour_code, const std::string& dash_code);

// A text label next to the vertical line at `at`, on the side with more room.
std::string line_label(const std::string& text, double at, const Log2Axis& axis, double graph_y);

// " title '...' noenhanced", or " notitle" for an empty title.
std::string hide_key_entry_title(const std::string& title);

// The position of `value` in `list`, appending it first if it is not there yet.
template <typename T>
std::size_t index_of(std::vector<T>& list, const T& value) {
  const auto found = std::find(list.begin(), list.end(), value);
  if (found != list.end()) return static_cast<std::size_t>(found - list.begin());
  list.push_back(value);
  return list.size() - 1;
}

}  // namespace kernelrank::plot::detail
