// Rendering plots by running gnuplot as a subprocess.
//
// Why gnuplot: it is a Debian package (gnuplot-nox) that we drive through a pipe, with the
// data inline in the script, so kernelrank has no link-time dependency on a plotting library,
// and one program gives both the pngcairo and the svg terminal. PLplot was the alternative;
// its CMake config is broken on Debian and it prompts on stdin for an unknown device, which a
// batch tool cannot afford.
//
// The script goes to gnuplot's stdin; the image comes back on its stdout and is written with
// write_file_atomically, so a failed or interrupted run leaves no half-written PNG or SVG.
// gnuplot's stderr is captured and quoted when it fails.
#pragma once

#include <string>
#include <vector>

namespace kernelrank::plot {

struct CanvasSize {
  int width = 900;
  int height = 600;
};

// Runs `gnuplot -d` (default settings: no ~/.gnuplot) with `script` on stdin and returns what
// it wrote to stdout. Throws ResourceError if gnuplot is not on PATH or does not finish in
// time, and InternalError (quoting gnuplot's stderr) if it exits nonzero: the scripts are
// generated here, so a gnuplot error is a kernelrank bug or a broken installation.
std::string run_gnuplot(const std::string& script);

// Renders `body` (a gnuplot script without `set terminal` / `set output`) once with the svg
// and once with the pngcairo terminal, then writes PREFIX.svg and PREFIX.png. Both images are
// rendered before either file is written. Returns the paths written.
std::vector<std::string> render_svg_and_png(const std::string& body, const std::string& prefix,
                                            CanvasSize size);

// A gnuplot string literal for arbitrary text: single-quoted (no backslash escapes), inner
// quotes doubled, control characters replaced by spaces. Use with `noenhanced` wherever the
// text comes from the user, so that '_' or '^' are not taken as sub- or superscripts.
std::string quoted(const std::string& text);

}  // namespace kernelrank::plot
