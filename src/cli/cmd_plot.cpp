// `kernelrank plot KIND --out PREFIX`: figures for the experiments and the bounds, written
// as PREFIX.svg and PREFIX.png (always both: SVG for papers, PNG for quick viewing).
//
// Kinds: error-vs-r and accuracy-vs-r read training reports (`kernelrank train`);
// bound-vs-m reads docs/bound-table.md and optionally the exact minimal ranks;
// transition-vs-m reads the transition ranks that scripts/experiments/ood-scaling.sh writes. The
// drawing is done by gnuplot, run as a subprocess with the data inline in its script (why gnuplot:
// src/plot/gnuplot.hpp and docs/plots.md). Each kind is a CLI11 subcommand of `plot`, so
// every kind has exactly its own options and a missing or unknown one exits 2.
#include "commands.hpp"

#include "kernelrank/plot/gnuplot.hpp"
#include "kernelrank/plot/plots.hpp"

#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct PlotArgs {
  std::string out;
  std::string title;
  // error-vs-r
  std::string report;
  std::string split = "train";
  long long bound = 0;  // 0: none
  // accuracy-vs-r: one report, label and (optional) bound per scale, paired in order
  std::vector<std::string> reports;
  std::vector<std::string> labels;
  std::vector<std::string> bounds;  // an integer or "none" each
  std::string feature;              // empty: every feature map
  // transition-vs-m
  std::string transitions;
  // bound-vs-m
  std::string table;
  std::string min_rank;
};

// "out/fig" and "out/fig.png" both mean the pair out/fig.svg, out/fig.png.
std::string output_prefix(const std::string& out) {
  std::string prefix = out;
  for (const char* extension : {".svg", ".png"}) {
    const std::string ext = extension;
    if (prefix.size() > ext.size() &&
        prefix.compare(prefix.size() - ext.size(), ext.size(), ext) == 0)
      prefix.resize(prefix.size() - ext.size());
  }
  if (prefix.empty() || prefix.back() == '/')
    throw UsageError(
        "--out must be a file prefix such as build/figure (PREFIX.svg and PREFIX.png "
        "are written), not '" +
        out + "'");
  return prefix;
}

int finish(const std::string& kind, const std::string& script, const PlotArgs& args,
           const GlobalOptions& global) {
  const std::vector<std::string> written =
      plot::render_svg_and_png(script, output_prefix(args.out), plot::CanvasSize{900, 600});
  std::string human = "plot " + kind + ":\n";
  for (const std::string& path : written) human += "  " + path + "\n";
  emit(global, {{"kind", kind}, {"files", written}}, human);
  return kExitOk;
}

int run_error_vs_r(const PlotArgs& args, const GlobalOptions& global) {
  plot::ErrorVsROptions options;
  options.split = args.split;
  if (args.bound > 0) options.bound = args.bound;
  options.title = args.title;
  const plot::TrainReport report = plot::read_train_report(args.report);
  return finish("error-vs-r", plot::error_vs_r_script(report, options), args, global);
}

std::optional<long long> parse_bound(const std::string& text) {
  if (text == "none") return std::nullopt;
  std::size_t used = 0;
  long long value = 0;
  try {
    value = std::stoll(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || value < 1 || text.empty() || text[0] == '+' || text[0] == ' ')
    throw UsageError("--bound must be a positive integer or 'none', not '" + text + "'");
  return value;
}

int run_accuracy_vs_r(const PlotArgs& args, const GlobalOptions& global) {
  if (args.labels.size() != args.reports.size())
    throw UsageError("accuracy-vs-r takes one --label per --report (got " +
                     std::to_string(args.reports.size()) + " reports and " +
                     std::to_string(args.labels.size()) + " labels)");
  if (!args.bounds.empty() && args.bounds.size() != args.reports.size())
    throw UsageError(
        "accuracy-vs-r takes either no --bound or one per --report, paired in order "
        "('none' for a scale without one); got " +
        std::to_string(args.bounds.size()) + " bounds for " + std::to_string(args.reports.size()) +
        " reports");
  std::vector<plot::Scale> scales;
  for (std::size_t i = 0; i < args.reports.size(); ++i) {
    plot::Scale scale;
    scale.report = plot::read_train_report(args.reports[i]);
    if (!args.feature.empty()) scale.report = plot::only_feature(scale.report, args.feature);
    scale.label = args.labels[i];
    if (!args.bounds.empty()) scale.bound = parse_bound(args.bounds[i]);
    scales.push_back(std::move(scale));
  }
  return finish("accuracy-vs-r", plot::accuracy_vs_r_script(scales, args.title), args, global);
}

int run_bound_vs_m(const PlotArgs& args, const GlobalOptions& global) {
  const std::vector<plot::BoundRow> rows = plot::read_bound_table(args.table);
  std::vector<plot::MinRankEntry> min_ranks;
  if (!args.min_rank.empty()) min_ranks = plot::read_min_rank(args.min_rank);
  const std::vector<plot::BoundRow> heads = plot::read_upper_heads(args.table);
  return finish("bound-vs-m", plot::bound_vs_m_script(rows, min_ranks, args.title, heads), args,
                global);
}

int run_transition_vs_m(const PlotArgs& args, const GlobalOptions& global) {
  return finish("transition-vs-m",
                plot::transition_vs_m_script(plot::read_transitions(args.transitions), args.title),
                args, global);
}

CLI::App* add_kind(CLI::App& plot, const char* name, const char* description, PlotArgs& args) {
  CLI::App* kind = plot.add_subcommand(name, description);
  kind->fallthrough();  // --json / --quiet may follow
  kind->add_option("--out", args.out, "Output prefix: writes PREFIX.svg and PREFIX.png")
      ->required();
  kind->add_option("--title", args.title, "Plot title (default: says what is plotted)");
  return kind;
}

}  // namespace

void add_plot_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<PlotArgs>();
  CLI::App* plot = app.add_subcommand("plot",
                                      "Figures (SVG and PNG, through gnuplot): error-vs-r, "
                                      "accuracy-vs-r, bound-vs-m, transition-vs-m");
  plot->require_subcommand(1);
  plot->fallthrough();

  CLI::App* error = add_kind(*plot, "error-vs-r",
                             "Exact error rate and max error against r, one curve per seed", *args);
  error->add_option("--report", args->report, "Training report (kernelrank train)")->required();
  error->add_option("--split", args->split, "Which split to plot")
      ->check(CLI::IsMember({"train", "test"}))
      ->capture_default_str();
  error->add_option("--bound", args->bound, "Certified lower bound R: a line at r = R")
      ->check(CLI::Range(1LL, 1LL << 40));
  run_when_selected(error, global, action, args, run_error_vs_r);

  CLI::App* accuracy =
      add_kind(*plot, "accuracy-vs-r", "Exact test accuracy against r, one curve per scale", *args);
  accuracy->add_option("--report", args->reports, "Training report of one scale (repeatable)")
      ->required()
      ->take_all();
  accuracy->add_option("--label", args->labels, "Name of that scale, e.g. m=16 (one per --report)")
      ->required();
  accuracy->add_option(
      "--bound", args->bounds,
      "Certified bound of that scale, or 'none' (none at all, or one per --report)");
  accuracy->add_option("--feature", args->feature,
                       "Only the models of this feature map (and the softmax baselines)");
  run_when_selected(accuracy, global, action, args, run_accuracy_vs_r);

  CLI::App* bound =
      add_kind(*plot, "bound-vs-m",
               "Certified lower bound and 2^m against m, with exact minimal ranks", *args);
  bound->add_option("--table", args->table, "Bound table (markdown), e.g. docs/bound-table.md")
      ->required();
  bound->add_option("--min-rank", args->min_rank, "Exact minimal ranks: lines 'm lower upper'");
  run_when_selected(bound, global, action, args, run_bound_vs_m);

  CLI::App* transition =
      add_kind(*plot, "transition-vs-m",
               "OOD transition rank r*(m) against m, with the certified bound and 2^m", *args);
  transition
      ->add_option("--transitions", args->transitions,
                   "Lines 'm feature r_star largest_r bound' (ood-scaling.sh writes them)")
      ->required();
  run_when_selected(transition, global, action, args, run_transition_vs_m);
}

}  // namespace kernelrank::cli
