// `kernelrank bench eval`: exact evaluation against the same enumeration in double
// precision on a dense random tabular model over all of T(m,n); the figure of merit is
// the ratio of the two times, measured in one run, as the median of several repetitions,
// on one thread and on all threads.
//
// The `bench` command itself is created here (add_bench_command); other benchmarks add
// their subcommands to it with app.get_subcommand("bench") after it exists.
#include "commands.hpp"
#include "report_output.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/eval/eval_kernels.hpp"
#include "kernelrank/eval/tabulated_eval.hpp"
#include "kernelrank/models/model_forms.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

namespace kernelrank::cli {
namespace {

struct BenchArgs {
  int m = 8;
  int n = 3;
  std::uint64_t seed = 1;
  int digits = 4;
  int threads = 0;
  int repetitions = 5;
  std::string enumeration = "multiset";
  std::string kernels = "best";
};

// Uniform integer in [0, bound) from raw 64-bit draws (portable, unbiased).
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t limit = ~0ULL - (~0ULL % bound);
  std::uint64_t draw;
  do draw = rng();
  while (draw >= limit);
  return draw % bound;
}

// A dense model whose entries are decimals with `digits` places, like a trained
// model's weights written out: kernel in (0, 1], readout in [0, m].
TabularModel random_decimal_model(int m, std::uint64_t seed, int digits) {
  std::mt19937_64 rng(seed);
  std::uint64_t scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  const std::size_t size = std::size_t{1} << m;
  std::vector<Token> tokens;
  for (std::size_t i = 0; i < size; ++i) tokens.push_back(Token::from_index(m, i));
  RationalMatrix kernel(size, RationalVector(size)), readout(size, RationalVector(size));
  for (std::size_t i = 0; i < size; ++i) {
    for (std::size_t j = 0; j < size; ++j) {
      kernel[i][j] = Rational(static_cast<long long>(uniform_below(rng, scale) + 1),
                              static_cast<long long>(scale));
      readout[i][j] = Rational(
          static_cast<long long>(uniform_below(rng, scale * static_cast<std::uint64_t>(m) + 1)),
          static_cast<long long>(scale));
    }
  }
  return TabularModel(m, std::move(tokens), std::move(kernel), std::move(readout));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t mid = values.size() / 2;
  return values.size() % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
}

// The repetitions at one thread count. Each repetition times the exact loop and both double
// forms back to back; its double time is the faster double form's.
struct Series {
  int threads = 1;
  int inner = 1;  // runs of each loop per repetition
  std::vector<double> exact, division, cross, best_double, ratio;
};

// The parts of an exact result that must not depend on threads or repetitions.
std::string fingerprint(const EvalSummary& s) {
  std::string text = s.instances.str() + "/" + s.failing.str() + "/" + s.undefined.str() + "/" +
                     (s.max_error ? to_string(*s.max_error) : std::string("none"));
  if (s.worst) text += "@" + std::to_string(s.worst->index);
  for (const IndexedOutcome& f : s.failures) text += "," + std::to_string(f.index);
  return text;
}

// One repetition runs each loop `inner` times, alternating exact, double (division),
// double (cross), so that every repetition takes at least kRepetitionSeconds; a loop's time
// in the repetition is its fastest run (another process's time slice only ever adds time).
constexpr double kRepetitionSeconds = 0.1;

Series run_series(const detail::TabulatedModel& table, const detail::DoubleTable& values,
                  const TabularModel& model, int threads, int repetitions,
                  const detail::EngineOptions& engine, EvalSummary& exact_result,
                  detail::DoubleLoopResult& double_result, std::string& expected, int& inner) {
  Series series;
  series.threads = threads;
  EvalOptions options;
  options.threads = threads;
  options.instance_limit = ~0ULL;
  auto exact_run = [&] {
    EvalSummary exact = detail::evaluate_tabulated_summary(table, model, model.tokens(), options,
                                                           "brute force", engine);
    const std::string print = fingerprint(exact);
    if (expected.empty()) expected = print;
    if (print != expected)
      throw InternalError("bench eval: the exact result on " + std::to_string(threads) +
                          " threads differs from the first run");
    exact_result = std::move(exact);
  };
  // Warm-up (not timed into the series); it also fixes how many runs a repetition needs.
  auto start = std::chrono::steady_clock::now();
  exact_run();
  const double once = seconds_since(start);
  inner = static_cast<int>(
      std::min(1000.0, std::max(1.0, std::ceil(kRepetitionSeconds / std::max(once, 1e-6)))));
  for (int rep = 0; rep < repetitions; ++rep) {
    double exact_s = 1e300, division_s = 1e300, cross_s = 1e300;
    for (int i = 0; i < inner; ++i) {
      start = std::chrono::steady_clock::now();
      exact_run();
      exact_s = std::min(exact_s, seconds_since(start));
      start = std::chrono::steady_clock::now();
      const detail::DoubleLoopResult division =
          detail::evaluate_tabulated_double(table, values, options.mode, threads, true, engine);
      division_s = std::min(division_s, seconds_since(start));
      start = std::chrono::steady_clock::now();
      const detail::DoubleLoopResult cross =
          detail::evaluate_tabulated_double(table, values, options.mode, threads, false, engine);
      cross_s = std::min(cross_s, seconds_since(start));
      if (division.instances != exact_result.instances ||
          cross.instances != exact_result.instances || division.failing != cross.failing)
        throw InternalError("bench eval: the double loops visited a different number of instances");
      double_result = division;
    }
    series.exact.push_back(exact_s);
    series.division.push_back(division_s);
    series.cross.push_back(cross_s);
    series.best_double.push_back(std::min(series.division.back(), series.cross.back()));
    series.ratio.push_back(series.exact.back() / series.best_double.back());
  }
  return series;
}

std::string times_text(const std::vector<double>& times) {
  std::string text;
  char cell[32];
  for (double t : times) {
    std::snprintf(cell, sizeof cell, " %.4f", t);
    text += cell;
  }
  return text;
}

std::string series_text(const Series& s, double instances) {
  std::string text;
  char line[512];
  std::snprintf(line, sizeof line,
                "  %d thread%s, %zu repetitions of %d runs each (seconds, fastest run):\n",
                s.threads, s.threads == 1 ? "" : "s", s.exact.size(), s.inner);
  text += line;
  auto row = [&](const char* name, const std::vector<double>& times) {
    const double med = median(times);
    std::snprintf(line, sizeof line, "    %-20s%s   median %.4f s, %.1f M instances/s\n", name,
                  times_text(times).c_str(), med, instances / med / 1e6);
    text += line;
  };
  row("exact:", s.exact);
  row("double |SP/SA - t|:", s.division);
  row("double cross-mult.:", s.cross);
  std::snprintf(line, sizeof line, "    %-20s%s\n", "ratios:", times_text(s.ratio).c_str());
  text += line;
  std::snprintf(line, sizeof line,
                "  ratio exact/double: %.2fx (%d thread%s, median of %zu; double = the faster "
                "double form of each run)\n",
                median(s.ratio), s.threads, s.threads == 1 ? "" : "s", s.ratio.size());
  text += line;
  return text;
}

nlohmann::json series_json(const Series& s) {
  return {{"threads", s.threads},
          {"runs_per_repetition", s.inner},
          {"exact_seconds", s.exact},
          {"double_division_seconds", s.division},
          {"double_cross_seconds", s.cross},
          {"double_seconds", s.best_double},
          {"ratios", s.ratio},
          {"exact_median_seconds", median(s.exact)},
          {"double_median_seconds", median(s.best_double)},
          {"ratio", median(s.ratio)}};
}

// The inner-loop instruction set --kernels asks for, refused when this CPU lacks it.
detail::KernelIsa requested_isa(const std::string& kernels) {
  detail::KernelIsa isa = detail::best_kernel_isa();
  if (kernels == "portable")
    isa = detail::KernelIsa::Portable;
  else if (kernels == "avx2")
    isa = detail::KernelIsa::Avx2;
  else if (kernels == "avx512")
    isa = detail::KernelIsa::Avx512;
  else if (kernels != "best")
    throw UsageError("--kernels must be best, avx512, avx2 or portable, not '" + kernels + "'");
  if (static_cast<int>(isa) > static_cast<int>(detail::best_kernel_isa()))
    throw UsageError("--kernels " + kernels + ": this CPU supports at most " +
                     detail::to_string(detail::best_kernel_isa()));
  return isa;
}

void validate_bench_args(const BenchArgs& args) {
  if (args.m < 1 || args.m > 10) throw UsageError("--m must be in 1..10 for the benchmark");
  if (args.n < 1 || args.n > 4) throw UsageError("--n must be in 1..4 for the benchmark");
  if (args.digits < 1 || args.digits > 9) throw UsageError("--digits must be in 1..9");
  if (args.repetitions < 1 || args.repetitions > 101)
    throw UsageError("--repetitions must be in 1..101");
  if (args.enumeration != "multiset" && args.enumeration != "ordered")
    throw UsageError("--enumeration must be multiset or ordered, not '" + args.enumeration + "'");
}

// What one benchmark measured: the tabulation, the two series and the exact result.
struct BenchRun {
  detail::KernelIsa isa;
  bool multiset;
  int threads;
  double tabulate_s;
  std::uint64_t blocks;
  std::size_t narrow, wide, gmp, rows;
  Series single, all;
  EvalSummary exact;
  detail::DoubleLoopResult approx;
};

std::string bench_text(const BenchArgs& args, const BenchRun& run) {
  const double instances = run.exact.instances.convert_to<double>();
  char line[512];
  std::string human;
  std::snprintf(
      line, sizeof line,
      "benchmark: dense random tabular model (decimals with %d places) on T(%d,%d), %s instances\n",
      args.digits, args.m, args.n, run.exact.instances.str().c_str());
  human += line;
  std::snprintf(line, sizeof line, "  enumeration:       %s, %llu blocks\n",
                run.multiset
                    ? "keys as a multiset (each sorted key tuple weighted by its orderings)"
                    : "ordered (every key tuple)",
                static_cast<unsigned long long>(run.blocks));
  human += line;
  std::snprintf(line, sizeof line, "  inner loops:       %s (both loops)\n",
                detail::to_string(run.isa).c_str());
  human += line;
  std::snprintf(line, sizeof line,
                "  tabulation:        %.3f s (rows: %zu narrow, %zu wide, %zu GMP, of %zu)\n",
                run.tabulate_s, run.narrow, run.wide, run.gmp, run.rows);
  human += line;
  human += series_text(run.single, instances);
  human += series_text(run.all, instances);
  human += "  exact result: " + run.exact.failing.str() + " failing, max error " +
           exact_with_decimal(*run.exact.max_error) +
           " (identical in every run); double loop counted " + std::to_string(run.approx.failing) +
           " failing\n";
  return human;
}

nlohmann::json bench_json(const BenchArgs& args, const BenchRun& run) {
  return {{"m", args.m},
          {"n", args.n},
          {"instances", run.exact.instances.str()},
          {"enumeration", args.enumeration},
          {"kernels", detail::to_string(run.isa)},
          {"blocks", run.blocks},
          {"repetitions", args.repetitions},
          {"tabulate_seconds", run.tabulate_s},
          {"rows", {{"narrow", run.narrow}, {"wide", run.wide}, {"gmp", run.gmp}}},
          {"single_thread", series_json(run.single)},
          {"all_threads", series_json(run.all)},
          {"exact_seconds", median(run.single.exact)},
          {"double_seconds", median(run.single.best_double)},
          {"ratio", median(run.single.ratio)},
          {"ratio_all_threads", median(run.all.ratio)},
          {"threads", run.threads},
          {"exact_failing", run.exact.failing.str()},
          {"exact_max_error", to_string(*run.exact.max_error)},
          {"double_failing", run.approx.failing}};
}

int run_bench(const BenchArgs& args, const GlobalOptions& global) {
  validate_bench_args(args);
  BenchRun run;
  run.threads = resolve_threads(args.threads);
  run.isa = requested_isa(args.kernels);
  detail::set_kernel_isa(run.isa);
  detail::EngineOptions engine;
  engine.multiset = run.multiset = args.enumeration == "multiset";

  const TabularModel model = random_decimal_model(args.m, args.seed, args.digits);
  auto start = std::chrono::steady_clock::now();
  const detail::TabulatedModel table = detail::tabulate(model, model.tokens(), args.n);
  run.tabulate_s = seconds_since(start);
  run.narrow = table.rows_in_tier(detail::RowTier::Narrow);
  run.wide = table.rows_in_tier(detail::RowTier::Wide);
  run.gmp = table.rows_in_tier(detail::RowTier::Exact);
  run.rows = table.row_tier.size();
  const detail::DoubleTable values = detail::double_table(table);
  run.blocks = detail::tabulated_block_count(table, QueryMode::First, engine);

  std::string expected;
  int inner = 1;
  run.single = run_series(table, values, model, 1, args.repetitions, engine, run.exact, run.approx,
                          expected, inner);
  run.single.inner = inner;
  run.all = run_series(table, values, model, run.threads, args.repetitions, engine, run.exact,
                       run.approx, expected, inner);
  run.all.inner = inner;
  emit(global, bench_json(args, run), bench_text(args, run));
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  // Other benchmarks attach to this command: app.get_subcommand("bench")->add_subcommand(...).
  CLI::App* bench =
      app.add_subcommand("bench", "Benchmarks (timings are reported, never asserted)");
  bench->require_subcommand(1);
  auto args = std::make_shared<BenchArgs>();
  CLI::App* eval = bench->add_subcommand(
      "eval", "Exact vs double evaluation of a dense random tabular model on all of T(m,n)");
  eval->add_option("--m", args->m, "Token width")->capture_default_str();
  eval->add_option("--n", args->n, "Sequence length")->capture_default_str();
  eval->add_option("--seed", args->seed, "Random seed")->capture_default_str();
  eval->add_option("--digits", args->digits, "Decimal places of the entries")
      ->capture_default_str();
  eval->add_option("--threads", args->threads,
                   "Threads of the second series (0: all hardware threads)")
      ->capture_default_str();
  eval->add_option("--repetitions", args->repetitions,
                   "Runs per series; the median ratio is reported")
      ->capture_default_str();
  eval->add_option("--enumeration", args->enumeration,
                   "multiset or ordered (the same for both loops)")
      ->capture_default_str();
  eval->add_option("--kernels", args->kernels,
                   "Inner loops of both: best, avx512, avx2 or portable")
      ->capture_default_str();
  run_when_selected(eval, global, action, args, run_bench);
}

}  // namespace kernelrank::cli
