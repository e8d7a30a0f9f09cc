// The phase-transition table (app/transition.hpp).
#include "kernelrank/app/transition.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank {
namespace {

// Brute force where it is cheap, overlap profiles otherwise (the models here
// depend only on overlaps).
EvalReport evaluate_task(const Model& model, int m, int n) {
  EvalOptions options;
  options.max_failures = 1;
  if (m <= 8 && static_cast<long long>(m) * n <= 24) return evaluate_cube(model, m, n, options);
  return evaluate_profiles(*model.overlap_form(), m, n, options);
}

}  // namespace

TransitionResult run_transition(const TransitionRequest& request) {
  const int m = request.m;
  if (m < 2 || m > 4096) throw DomainError("{m} must be in 2..4096");
  // The n = 3 rows evaluate T(m,3) through overlap profiles.
  require_profile_work(m, 3, kDefaultMaxProfileWork, "; lower {m}",
                       "; use a smaller n, or a family file (eval {family}) for longer sequences");
  TransitionResult result;
  result.m = m;
  bool consistent = true;
  for (int n = 1; n <= 2; ++n) {
    result.rank1.push_back(evaluate_task(*make_rank1_mean(m, n), m, n));
    const EvalReport& r = result.rank1.back();
    consistent = consistent && r.solves() && r.max_error == Rational(0);
  }
  // The lower side is `bound --m`'s: the same task (class NK, query first) and the same
  // default search options, every source, the winner checked by the gate.
  CertificateTask task;
  task.m = m;
  task.n = 3;
  result.lower = best_certified_bound(task, default_bound_search_options(m, 3));
  result.rank1_at_3 = evaluate_task(*make_rank1_mean(m, 3), m, 3);
  consistent = consistent && !result.rank1_at_3.solves();
  result.softmax = smallest_softmax_base(m, 3);
  consistent = consistent && result.softmax.base.has_value();
  // L6: the product realisation has the softmax kernel with 2^m nonnegative
  // features; it solves T(m,3) exactly when softmax base 3 does.
  result.product_brute_force = m <= 6;
  result.product = result.product_brute_force
                       ? evaluate_cube(*make_product(m, Rational(3)), m, 3, EvalOptions{})
                       : evaluate_task(*make_softmax(m, Rational(3)), m, 3);
  consistent = consistent && result.product.solves();
  result.upper = 1;
  result.upper <<= static_cast<unsigned>(m);
  // The upper side: the best verified layered head (the lower bound is for class NK).
  result.layered = best_known_head(m, ModelClass::NonnegativeKernel);
  if (result.layered && result.layered->checked.r < result.upper)
    result.upper = result.layered->checked.r;
  if (!request.certificate.empty())
    result.certificate_message =
        write_verified_certificate(request.certificate, result.lower.best.certificate);
  result.consistent = consistent;
  return result;
}

nlohmann::json transition_json(const TransitionResult& t) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < t.rank1.size(); ++i)
    rows.push_back({{"n", static_cast<int>(i) + 1},
                    {"min_rank", 1},
                    {"evidence", "rank1-mean max error " + to_string(*t.rank1[i].max_error)},
                    {"method", t.rank1[i].method}});
  const SoftmaxBaseResult& softmax = t.softmax;
  rows.push_back(
      {{"n", 3},
       {"lower_bound", t.lower.best.certificate.bound().str()},
       {"lower_source", to_string(t.lower.best.source)},
       {"lower_detail", t.lower.best.description},
       {"lower_checker_status", t.lower.best.certificate.checker_status()},
       {"upper_bound", t.upper.str()},
       {"upper_head", t.layered ? nlohmann::json(t.layered->file) : nlohmann::json(nullptr)},
       {"product_max_error", to_string(*t.product.max_error)},
       {"softmax_base", softmax.base ? nlohmann::json(*softmax.base) : nlohmann::json(nullptr)}});
  return {{"m", t.m}, {"rows", rows}, {"consistent", t.consistent}};
}

}  // namespace kernelrank
