// `kernelrank bench bound` and `bench check`: pairs per second per thread of the producer's
// and the checker's pair passes, on one thread and on all of them, measured in one run.
// Timings are reported, never asserted; the counts of the runs must agree (else exit 4).
#include "commands.hpp"

#include "kernelrank/bounds/generated_bound.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/text_input.hpp"

#include "check/check.hpp"

#include <chrono>
#include <memory>
#include <sstream>

namespace kernelrank::cli {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct BenchBoundArgs {
  int m = 128;
  int n = 3;
  std::uint64_t words = 20000;
  int weight = 0;
  std::uint64_t seed = 1;
  int threads = 0;
};

struct Timed {
  int threads = 1;
  double seconds = 0;
};

std::string rate_line(const Timed& run, double pairs) {
  char line[256];
  std::snprintf(line, sizeof line, "  %2d thread%s: %8.3f s  %8.1f M pairs/s/thread\n", run.threads,
                run.threads == 1 ? " " : "s", run.seconds, pairs / run.seconds / run.threads / 1e6);
  return line;
}

nlohmann::json rate_json(const Timed& run, double pairs) {
  return {{"threads", run.threads},
          {"seconds", run.seconds},
          {"pairs_per_second_per_thread", pairs / run.seconds / run.threads}};
}

int run_bench_bound(const BenchBoundArgs& args, const GlobalOptions& global) {
  GeneratedRows rows{args.m, args.n, args.seed, args.words,
                     args.weight == 0 ? args.m / 2 : args.weight};
  validate(rows);
  const int threads = resolve_threads(args.threads);
  auto start = std::chrono::steady_clock::now();
  const std::vector<std::uint64_t> words = generate_words(rows);
  const double generate_s = seconds_since(start);
  start = std::chrono::steady_clock::now();
  const std::vector<std::uint64_t> drops = conflict_drops(rows, words);
  const double drops_s = seconds_since(start);
  std::vector<Timed> runs;
  std::vector<PairCounts> counts;
  for (int t : threads == 1 ? std::vector<int>{1} : std::vector<int>{1, threads}) {
    start = std::chrono::steady_clock::now();
    counts.push_back(count_pairs(rows, words, drops, t, Shard{}, ""));
    runs.push_back({t, seconds_since(start)});
  }
  if (counts.size() == 2 && counts[0].by_intersection != counts[1].by_intersection)
    throw InternalError("bench bound: the pair counts on 1 and " + std::to_string(threads) +
                        " threads differ");
  const double pairs = static_cast<double>(counts[0].pairs());
  char head[256];
  std::snprintf(
      head, sizeof head,
      "benchmark: producer pair pass, %llu words of weight %d at m = %d (%.3g unordered pairs)\n"
      "  generate %.3f s, gap-below-2 pre-pass %.3f s (%zu dropped)\n",
      static_cast<unsigned long long>(rows.count), rows.weight, rows.m, pairs, generate_s, drops_s,
      drops.size());
  std::string human = head;
  nlohmann::json json = {{"m", rows.m},
                         {"words", rows.count},
                         {"weight", rows.weight},
                         {"unordered_pairs", counts[0].pairs()},
                         {"generate_seconds", generate_s},
                         {"drop_seconds", drops_s},
                         {"runs", nlohmann::json::array()}};
  for (const Timed& run : runs) {
    human += rate_line(run, pairs);
    json["runs"].push_back(rate_json(run, pairs));
  }
  if (runs.size() == 2) {
    char line[128];
    std::snprintf(line, sizeof line, "  speed-up on %d threads: %.2fx\n", threads,
                  runs[0].seconds / runs[1].seconds);
    human += line;
  }
  emit(global, json, human);
  return kExitOk;
}

struct BenchCheckArgs {
  std::string cert;
  int threads = 0;
};

// Pairs the checker examines: ordered pairs of the explicit rows, or the unordered pairs of
// the kept generated rows (read from the certificate's statements, not computed).
double certificate_pairs(const std::string& text) {
  std::istringstream in(text);
  std::string line;
  double rows = 0, drops = 0;
  bool generated = false;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    std::string keyword, value;
    fields >> keyword;
    if (keyword == "rows") fields >> rows;
    if (keyword == "drops") fields >> drops;
    if (keyword == "generated")
      while (fields >> value)
        if (value.rfind("count=", 0) == 0) {
          rows = std::stod(value.substr(6));
          generated = true;
        }
  }
  const double kept = rows - drops;
  return generated ? kept * (kept - 1) / 2 : rows * (rows - 1);
}

int run_bench_check(const BenchCheckArgs& args, const GlobalOptions& global) {
  const std::string text = read_file_checked(args.cert);
  const int threads = resolve_threads(args.threads);
  const double pairs = certificate_pairs(text);
  std::vector<Timed> runs;
  std::vector<std::string> outputs;
  for (int t : threads == 1 ? std::vector<int>{1} : std::vector<int>{1, threads}) {
    std::istringstream in(text);
    std::ostringstream out, err;
    krcheck::CheckOptions options;
    options.threads = t;
    const auto start = std::chrono::steady_clock::now();
    const krcheck::CheckResult result =
        krcheck::check_certificate({args.cert, &in}, std::nullopt, out, err, options);
    runs.push_back({t, seconds_since(start)});
    if (result.status != krcheck::Status::verified)
      throw UsageError(args.cert + ": the checker does not verify it:\n" + err.str());
    outputs.push_back(out.str());
  }
  if (outputs.size() == 2 && outputs[0] != outputs[1])
    throw InternalError("bench check: the checker's output on 1 and " + std::to_string(threads) +
                        " threads differs");
  char head[256];
  std::snprintf(head, sizeof head, "benchmark: checker on %s (%.3g pairs)\n", args.cert.c_str(),
                pairs);
  std::string human = head;
  nlohmann::json json = {
      {"certificate", args.cert}, {"pairs", pairs}, {"runs", nlohmann::json::array()}};
  for (const Timed& run : runs) {
    human += rate_line(run, pairs);
    json["runs"].push_back(rate_json(run, pairs));
  }
  emit(global, json, human);
  return kExitOk;
}

}  // namespace

void add_bench_scale_commands(CLI::App& app, const GlobalOptions& global, Action& action) {
  CLI::App* bench = app.get_subcommand("bench");
  auto bound_args = std::make_shared<BenchBoundArgs>();
  CLI::App* bound = bench->add_subcommand(
      "bound", "Producer pair pass of `bound --words`: pairs/s/thread on 1 and on all threads");
  bound->add_option("--m", bound_args->m, "Token width")->capture_default_str();
  bound->add_option("--n", bound_args->n, "Sequence length")->capture_default_str();
  bound->add_option("--words", bound_args->words, "Generated words")->capture_default_str();
  bound->add_option("--weight", bound_args->weight, "Weight (default m/2)");
  bound->add_option("--seed", bound_args->seed, "Generator seed")->capture_default_str();
  bound->add_option("--threads", bound_args->threads, "Threads of the second run (0 = all)")
      ->capture_default_str();
  run_when_selected(bound, global, action, bound_args, run_bench_bound);
  auto check_args = std::make_shared<BenchCheckArgs>();
  CLI::App* check = bench->add_subcommand(
      "check", "The checker on a certificate: pairs/s/thread on 1 and on all threads");
  check->add_option("CERT", check_args->cert, "Certificate (cube, explicit or generated rows)")
      ->required();
  check->add_option("--threads", check_args->threads, "Threads of the second run (0 = all)")
      ->capture_default_str();
  run_when_selected(check, global, action, check_args, run_bench_check);
}

}  // namespace kernelrank::cli
