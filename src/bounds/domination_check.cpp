// Exhaustive and family-restricted checks of the L2 inequalities on a model.
#include "kernelrank/bounds/domination_check.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/eval/tabulated_eval.hpp"

namespace kernelrank {
namespace {

// k D1 > (n-1-k)(g-1) D2 for the exact kernel values.
bool inequality_holds(const Rational& w, const Rational& a, const Rational& b, int n, int gap,
                      int k) {
  const Rational d1 = w + (n - 1) * a;
  const Rational d2 = w + (n - 1) * b;
  return k * d1 > Rational((n - 1 - k) * (gap - 1)) * d2;
}

}  // namespace

DominationViolation describe_violation(const Model& model, ModelClass model_class, const Token& q,
                                       const Token& a, const Token& b, int n, int k) {
  DominationViolation v;
  v.q = q;
  v.a = a;
  v.b = b;
  v.k = k;
  v.gap = inner(q, b) - inner(q, a);
  v.factor = gap_domination_factor(n, v.gap, k);
  const Rational w = model.kernel(q, q, 0, 0);
  v.lhs = w + (n - 1) * model.kernel(q, a, 0, 1);
  v.rhs = v.factor * (w + (n - 1) * model.kernel(q, b, 0, 1));
  const DominationStep step = domination_step(q, a, b, n, k);
  v.s1 = evaluate_instance(model, step.s1);
  v.s2 = evaluate_instance(model, step.s2);
  v.s3 = evaluate_instance(model, step.s3);
  v.all_solved = v.lhs <= v.rhs && !v.s1.fails() && !v.s2.fails() && !v.s3.fails();
  if (v.all_solved && model_class != ModelClass::Signed)
    throw InternalError("L2 contradicted: inequality violated for q=" + q.to_string() +
                        " a=" + a.to_string() + " b=" + b.to_string() +
                        " but S1, S2, S3 all have error < 1/2");
  return v;
}

DominationReport check_domination_cube(const Model& model, int m, int n, std::size_t max_reported,
                                       std::uint64_t limit) {
  if (n < 3) throw UsageError("gap domination needs n >= 3");
  if (model.position_dependent())
    throw UsageError("the exhaustive domination check supports position-independent models only");
  if (m < 1 || m > 20 || (std::uint64_t{1} << (3 * m)) > limit)
    throw DomainResourceError("checking every triple of {0,1}^" + std::to_string(m) + " needs 2^" +
                              std::to_string(3 * m) +
                              " tests; use a family ({family}) or m <= " + std::to_string([&] {
                                int k = 1;
                                while ((std::uint64_t{1} << (3 * (k + 1))) <= limit) ++k;
                                return k;
                              }()));
  const std::vector<Token> universe = detail::cube_tokens(m);
  const std::size_t U = universe.size();
  // Kernel rows scaled to integers when they fit (the comparison is invariant
  // under a positive scale per query); exact rationals otherwise.
  const detail::TabulatedModel table = detail::tabulate(model, universe, n);
  DominationReport report;
  report.classification = model.classify();
  Progress progress("domination check", U);
  for (std::size_t q = 0; q < U; ++q) {
    const std::uint16_t* ov = &table.overlap[q * U];
    const bool fits = table.row_fits[q] != 0;
    const std::int64_t* row = fits ? &table.kernel_int[table.block_offset(0, 0, q)] : nullptr;
    const std::vector<Rational>* exact = fits ? nullptr : &table.kernel_exact[q];
    for (std::size_t a = 0; a < U; ++a) {
      for (std::size_t b = 0; b < U; ++b) {
        const int gap = ov[b] - ov[a];
        if (gap < 2) continue;
        for (int k = 1; k <= n - 2; ++k) {
          ++report.checked;
          bool holds;
          if (fits) {
            __extension__ typedef __int128 i128;
            const i128 d1 = static_cast<i128>(row[q]) + static_cast<i128>(n - 1) * row[a];
            const i128 d2 = static_cast<i128>(row[q]) + static_cast<i128>(n - 1) * row[b];
            holds = static_cast<i128>(k) * d1 > static_cast<i128>((n - 1 - k) * (gap - 1)) * d2;
          } else {
            holds = inequality_holds((*exact)[q], (*exact)[a], (*exact)[b], n, gap, k);
          }
          if (holds) continue;
          ++report.violated;
          if (report.violations.size() < max_reported)
            report.violations.push_back(describe_violation(model, report.classification.model_class,
                                                           universe[q], universe[a], universe[b], n,
                                                           k));
        }
      }
    }
    progress.update(q + 1);
  }
  return report;
}

DominationReport check_domination_family(const Model& model, const Family& family,
                                         std::size_t max_reported) {
  if (family.n < 3) throw UsageError("gap domination needs n >= 3");
  if (model.position_dependent())
    throw UsageError("the domination check supports position-independent models only");
  // The steps the family supports, at any query position; for a position-independent
  // model the inequality does not depend on where the query sits.
  DominationReport report;
  report.classification = model.classify();
  for (const FamilyStep& step : analyse_family(family, false).steps) {
    ++report.checked;
    const Rational w = model.kernel(step.q, step.q, 0, 0);
    if (inequality_holds(w, model.kernel(step.q, step.a, 0, 1), model.kernel(step.q, step.b, 0, 1),
                         family.n, step.gap, step.k))
      continue;
    ++report.violated;
    if (report.violations.size() < max_reported)
      report.violations.push_back(describe_violation(model, report.classification.model_class,
                                                     step.q, step.a, step.b, family.n, step.k));
  }
  return report;
}

}  // namespace kernelrank
