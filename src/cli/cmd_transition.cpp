// `kernelrank transition`: the seed paper's phase transition in one table:
// rank 1 is exact at n = 1, 2 (L1); at n = 3 the certified lower bound (L4),
// the 2^m positive-feature realisation (L6) and dense softmax (L5).
#include "commands.hpp"
#include "report_output.hpp"

#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/softmax_base.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct TransitionArgs {
  int m = 24;
  std::string cert;
};

// Brute force where it is cheap, overlap profiles otherwise (the models here
// depend only on overlaps).
EvalReport evaluate_task(const Model& model, int m, int n) {
  EvalOptions options;
  options.max_failures = 1;
  if (m <= 8 && static_cast<long long>(m) * n <= 24) return evaluate_cube(model, m, n, options);
  return evaluate_profiles(*model.overlap_form(), m, n, options);
}

int run_transition(const TransitionArgs& args, const GlobalOptions& global) {
  const int m = args.m;
  if (m < 2 || m > 4096) throw UsageError("--m must be in 2..4096");
  // The n = 3 rows evaluate T(m,3) through overlap profiles.
  require_profile_work(m, 3, kDefaultMaxProfileWork, "; lower --m", kProfileLengthHint);
  nlohmann::json rows = nlohmann::json::array();
  std::string human =
      "Min-IP phase transition for m = " + std::to_string(m) + " (exact arithmetic)\n\n";
  bool consistent = true;
  for (int n = 1; n <= 2; ++n) {
    const EvalReport r = evaluate_task(*make_rank1_mean(m, n), m, n);
    const bool exact = r.solves() && r.max_error == Rational(0);
    consistent = consistent && exact;
    human += " n=" + std::to_string(n) + ": r = 1 suffices  (rank1-mean, " + r.method +
             ", max error " + to_string(*r.max_error) + " over " + r.instances.str() +
             " instances)\n";
    rows.push_back({{"n", n},
                    {"min_rank", 1},
                    {"evidence", "rank1-mean max error " + to_string(*r.max_error)},
                    {"method", r.method}});
  }
  BoundSearchOptions options;
  options.m = m;
  options.n = 3;
  BoundSearchResult bound = search_rank_bound(options);
  // With --cert the gate checks the certificate first, and the bound shown is the checker's.
  VerifiedCertificate certificate;
  if (!args.cert.empty()) {
    CertificateTask task;
    task.m = m;
    task.n = 3;
    certificate = verify_certificate(CertificateDraft{
        cube_certificate(task, bound.best.construction, bound.best.rows, bound.bound), std::nullopt,
        bound.bound.bound});
    bound.bound.bound = certificate.bound();
  }
  const EvalReport rank1_at_3 = evaluate_task(*make_rank1_mean(m, 3), m, 3);
  consistent = consistent && !rank1_at_3.solves();
  const SoftmaxBaseResult softmax = smallest_softmax_base(m, 3);
  consistent = consistent && softmax.base.has_value();
  // L6: the product realisation has the softmax kernel with 2^m nonnegative
  // features; it solves T(m,3) exactly when softmax base 3 does.
  const auto product_like = make_softmax(m, Rational(3));
  const EvalReport product = m <= 6
                                 ? evaluate_cube(*make_product(m, Rational(3)), m, 3, EvalOptions{})
                                 : evaluate_task(*product_like, m, 3);
  consistent = consistent && product.solves();
  Integer upper = 1;
  upper <<= static_cast<unsigned>(m);
  human += " n=3: " + bound.bound.bound.str() + " <= r <= 2^" + std::to_string(m) + " = " +
           upper.str() + "\n";
  human += "      lower: certified by " + bound.best.construction + " (" +
           std::to_string(bound.bound.rows) + " rows, " + to_string(bound.bound.rule) + " rule)\n";
  human += "      upper: product PF realisation, " +
           std::string(m <= 6 ? "brute force" : "profiles of its kernel") + ", max error " +
           exact_with_decimal(*product.max_error) + "\n";
  human += "      rank 1 fails: " + outcome_to_text(rank1_at_3.failures.front()) + "\n";
  human += "      dense softmax: m-dimensional scores, smallest integer base " +
           (softmax.base ? std::to_string(*softmax.base) : std::string("none")) + ", max error " +
           (softmax.base ? exact_with_decimal(*softmax.report.max_error) : std::string("-")) + "\n";
  rows.push_back(
      {{"n", 3},
       {"lower_bound", bound.bound.bound.str()},
       {"lower_construction", bound.best.construction},
       {"upper_bound", upper.str()},
       {"product_max_error", to_string(*product.max_error)},
       {"softmax_base", softmax.base ? nlohmann::json(*softmax.base) : nlohmann::json(nullptr)}});
  if (!certificate.empty())
    human += "\nthe n=3 lower bound: " + write_verified_certificate(args.cert, certificate);
  if (!consistent) human += "\nWARNING: a step did not come out as theory.md predicts\n";
  emit(global, {{"m", m}, {"rows", rows}, {"consistent", consistent}}, human);
  return consistent ? kExitOk : kExitNegative;
}

}  // namespace

void add_transition_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<TransitionArgs>();
  CLI::App* cmd = app.add_subcommand(
      "transition",
      "The phase transition: r = 1 at n = 1, 2; certified bounds and 2^m at n = 3; softmax");
  cmd->add_option("--m", args->m, "Token width")->capture_default_str();
  cmd->add_option("--cert", args->cert, "Write the certificate of the n = 3 lower bound here");
  run_when_selected(cmd, global, action, args, run_transition);
}

}  // namespace kernelrank::cli
