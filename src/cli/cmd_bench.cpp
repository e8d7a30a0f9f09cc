// `kernelrank bench eval`: exact evaluation against the same loop in double
// precision on a dense random tabular model over all of T(m,n); the figure of
// merit is the ratio of the two times measured in one run.
#include "commands.hpp"
#include "report_output.hpp"

#include "../tabulated_eval.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/model_forms.hpp"

#include <chrono>
#include <memory>
#include <random>

namespace kernelrank::cli {
namespace {

struct BenchArgs {
  int m = 8;
  int n = 3;
  std::uint64_t seed = 1;
  int digits = 4;
};

// Uniform integer in [0, bound) from raw 64-bit draws (portable, unbiased).
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
  const std::uint64_t limit = ~0ULL - (~0ULL % bound);
  std::uint64_t draw;
  do draw = rng(); while (draw >= limit);
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
      readout[i][j] = Rational(static_cast<long long>(uniform_below(rng, scale * static_cast<std::uint64_t>(m) + 1)),
                               static_cast<long long>(scale));
    }
  }
  return TabularModel(m, std::move(tokens), std::move(kernel), std::move(readout));
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run_bench(const BenchArgs& args, const GlobalOptions& global) {
  if (args.m < 1 || args.m > 10) throw UsageError("--m must be in 1..10 for the benchmark");
  if (args.n < 1 || args.n > 4) throw UsageError("--n must be in 1..4 for the benchmark");
  if (args.digits < 1 || args.digits > 9) throw UsageError("--digits must be in 1..9");
  const TabularModel model = random_decimal_model(args.m, args.seed, args.digits);
  const std::vector<Token>& universe = model.tokens();
  auto start = std::chrono::steady_clock::now();
  const detail::TabulatedModel table = detail::tabulate(model, universe, args.n);
  const double tabulate_s = seconds_since(start);

  EvalOptions options;
  start = std::chrono::steady_clock::now();
  const EvalReport exact = detail::evaluate_tabulated(table, model, universe, options, "brute force");
  const double exact_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  const detail::DoubleLoopResult approx = detail::evaluate_tabulated_double(table, options.mode);
  const double double_s = seconds_since(start);

  std::size_t exact_rows = 0;
  for (std::uint8_t fits : table.row_fits) exact_rows += fits;
  const double instances = static_cast<double>(approx.instances);
  const double ratio = exact_s / double_s;
  char line[512];
  std::string human;
  std::snprintf(line, sizeof line,
                "benchmark: dense random tabular model (decimals with %d places) on T(%d,%d), "
                "%.0f instances\n",
                args.digits, args.m, args.n, instances);
  human += line;
  std::snprintf(line, sizeof line, "  tabulation:        %.3f s (%zu of %zu rows on the integer path)\n",
                tabulate_s, exact_rows, table.row_fits.size());
  human += line;
  std::snprintf(line, sizeof line, "  exact (integer):   %.3f s  %.1f M instances/s\n", exact_s,
                instances / exact_s / 1e6);
  human += line;
  std::snprintf(line, sizeof line, "  double precision:  %.3f s  %.1f M instances/s\n", double_s,
                instances / double_s / 1e6);
  human += line;
  std::snprintf(line, sizeof line, "  ratio exact/double: %.2fx\n", ratio);
  human += line;
  human += "  exact result: " + exact.failing.str() + " failing, max error " +
           exact_with_decimal(*exact.max_error) + "; double loop counted " +
           std::to_string(approx.failing) + " failing\n";
  nlohmann::json json = {{"m", args.m}, {"n", args.n}, {"instances", approx.instances},
                         {"tabulate_seconds", tabulate_s}, {"exact_seconds", exact_s},
                         {"double_seconds", double_s}, {"ratio", ratio},
                         {"exact_failing", exact.failing.str()},
                         {"exact_max_error", to_string(*exact.max_error)},
                         {"double_failing", approx.failing}};
  emit(global, json, human);
  return kExitOk;
}

}  // namespace

void add_bench_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  CLI::App* bench = app.add_subcommand("bench", "Benchmarks (timings are reported, never asserted)");
  bench->require_subcommand(1);
  auto args = std::make_shared<BenchArgs>();
  CLI::App* eval = bench->add_subcommand(
      "eval", "Exact vs double evaluation of a dense random tabular model on all of T(m,n)");
  eval->add_option("--m", args->m, "Token width")->capture_default_str();
  eval->add_option("--n", args->n, "Sequence length")->capture_default_str();
  eval->add_option("--seed", args->seed, "Random seed")->capture_default_str();
  eval->add_option("--digits", args->digits, "Decimal places of the entries")->capture_default_str();
  eval->callback([args, &global, &action] { action = [args, &global] { return run_bench(*args, global); }; });
}

}  // namespace kernelrank::cli
