// Proposal search and exact re-verification for signed and multi-head models (see
// multi_head_search.hpp). Double precision is used only to propose: every proposal is
// rounded to rationals and verified exactly before anything is reported.
#include "kernelrank/search/multi_head_search.hpp"

#include "kernelrank/core/exact_rank.hpp"
#include "kernelrank/eval/multi_head_eval.hpp"
#include "kernelrank/models/multi_head.hpp"
#include "kernelrank/search/heuristic_rank_search.hpp"
#include "search/proposal_descent.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <random>

namespace kernelrank {
namespace {

// One head: its shape and its factored tables.
struct HeadState {
  HeadShape shape;
  proposal::FactoredHead tables;
  HeadState(const HeadShape& s, std::size_t tokens)
      : shape(s), tables(tokens, static_cast<std::size_t>(s.r)) {}
};

using proposal::Pairs;

class HeadsRestart {
 public:
  HeadsRestart(const RankTask& task, const std::vector<HeadShape>& shapes, const Pairs& pairs,
               std::uint64_t seed)
      : task_(task), pairs_(pairs), size_(task.tokens.size()) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    for (const HeadShape& shape : shapes) {
      HeadState head(shape, size_);
      // Signed heads start positive too: they may leave the orthant, not start outside it.
      for (double& x : head.tables.U) x = std::exp(2 * uniform(rng) - 1);
      for (double& x : head.tables.V) x = std::exp(4 * uniform(rng) - 2);
      heads_.push_back(std::move(head));
    }
    // The first head starts from the overlap readout F_q(z) = <q,z>; the others from 0.
    for (std::size_t q = 0; q < size_; ++q)
      for (std::size_t z = 0; z < size_; ++z)
        heads_[0].tables.F[q * size_ + z] = inner(task.tokens[q], task.tokens[z]);
  }

  // Forward pass and the hinge loss's gradients in each F and A; returns the max error.
  double forward(double margin) {
    for (HeadState& h : heads_) h.tables.compute_kernel(pairs_);
    double max_error = 0;
    std::vector<double> den(heads_.size()), part(heads_.size());
    for (const RankInstance& inst : task_.instances) {
      const std::size_t row = inst.query * size_;
      double y = 0;
      for (std::size_t h = 0; h < heads_.size(); ++h) {
        const proposal::FactoredHead& t = heads_[h].tables;
        double d = 0, num = 0;
        for (std::uint32_t z : inst.keys) {
          d += t.A[row + z];
          num += t.A[row + z] * t.F[row + z];
        }
        den[h] = d;
        part[h] = num / d;
        y += part[h];
      }
      const double e = y - inst.target;
      max_error = std::max(max_error, std::isfinite(e) ? std::fabs(e) : 1e300);
      const double excess = std::fabs(e) - (0.5 - margin);
      if (!(excess > 0) || !std::isfinite(e)) continue;
      const double dy = 2 * excess * (e > 0 ? 1.0 : -1.0);
      for (std::size_t h = 0; h < heads_.size(); ++h) {
        proposal::FactoredHead& t = heads_[h].tables;
        for (std::uint32_t z : inst.keys) {
          t.gF[row + z] += dy * t.A[row + z] / den[h];
          t.gA[row + z] += dy * (t.F[row + z] - part[h]) / den[h];
        }
      }
    }
    return max_error;
  }

  void descend(const std::vector<std::uint32_t>& rows, double rate, int step) {
    for (HeadState& h : heads_) {
      h.tables.step(pairs_, rate, step, !h.shape.signed_features);
      // Signed heads: alpha(q, q) may be negative; keep |alpha(q, q)| near 1.
      h.tables.normalise_rows(rows, true, 1e-6);
    }
  }

  CandidateHeads rounded(std::int64_t max_den) const {
    CandidateHeads out;
    for (const HeadState& head : heads_) {
      const proposal::FactoredHead& h = head.tables;
      RankModel model;
      model.r = static_cast<int>(h.r);
      model.query_features.assign(size_, RationalVector(h.r));
      model.key_features.assign(size_, RationalVector(h.r));
      model.readout.assign(size_, RationalVector(size_));
      for (std::size_t i = 0; i < size_; ++i) {
        for (std::size_t k = 0; k < h.r; ++k) {
          model.query_features[i][k] = rational_near(h.U[i * h.r + k], max_den);
          model.key_features[i][k] = rational_near(h.V[i * h.r + k], max_den);
        }
        for (std::size_t j = 0; j < size_; ++j)
          model.readout[i][j] = rational_near(h.F[i * size_ + j], max_den);
      }
      out.push_back(std::move(model));
    }
    return out;
  }

 private:
  const RankTask& task_;
  const Pairs& pairs_;
  std::size_t size_;
  std::vector<HeadState> heads_;
};

bool entries_nonnegative(const RationalMatrix& table) {
  for (const RationalVector& row : table)
    for (const Rational& x : row)
      if (x < 0) return false;
  return true;
}

}  // namespace

std::string shape_text(const std::vector<HeadShape>& shapes) {
  std::string text;
  bool any_signed = false;
  for (const HeadShape& shape : shapes) {
    if (!text.empty()) text += "+";
    text += std::to_string(shape.r);
    any_signed = any_signed || shape.signed_features;
  }
  return any_signed ? "signed " + text : text;
}

MultiHeadCheck verify_multi_head(const RankTask& task, const CandidateHeads& heads,
                                 const std::vector<HeadShape>& shapes) {
  MultiHeadCheck check;
  check.rank_ok = true;
  check.class_ok = true;
  std::vector<std::shared_ptr<const Model>> models;
  for (std::size_t h = 0; h < heads.size(); ++h) {
    const RationalMatrix kernel = kernel_table(heads[h]);
    check.kernel_rank.push_back(exact_rank(kernel));
    check.rank_ok =
        check.rank_ok && check.kernel_rank.back() <= static_cast<std::size_t>(shapes[h].r);
    if (!shapes[h].signed_features) check.class_ok = check.class_ok && entries_nonnegative(kernel);
    models.push_back(std::make_shared<TabularModel>(to_tabular_model(task, heads[h])));
  }
  EvalOptions options;
  options.mode = task.mode;
  if (models.size() == 1) {
    // One head: the established single-head engines.
    check.report = task.family ? evaluate_family(*models[0], *task.family, options)
                               : evaluate_cube(*models[0], task.m, task.n, options);
  } else {
    const MultiHeadModel model(models);
    check.report = task.family ? evaluate_multi_head_family(model, *task.family, options)
                               : evaluate_multi_head_cube(model, task.m, task.n, options);
  }
  check.solves = check.report.solves();
  return check;
}

MultiHeadSearchResult search_multi_head(const RankTask& task, const std::vector<HeadShape>& shapes,
                                        const MultiHeadProposalOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  MultiHeadSearchResult result;
  const std::vector<std::uint32_t> rows = task.rows();
  const Pairs pairs = proposal::used_pairs(task, rows);
  for (int restart = 0; restart < options.restarts && !result.model; ++restart) {
    if (options.should_stop && options.should_stop()) break;
    HeadsRestart run(task, shapes, pairs, options.seed + static_cast<std::uint64_t>(restart));
    const proposal::DescentOutcome outcome = proposal::descend_until_solved(run, rows, options);
    const double best = outcome.best;
    ++result.restarts_run;
    if (best < 1e300 && (!result.best_float_error || best < *result.best_float_error))
      result.best_float_error = best;
    if (!outcome.success) continue;
    CandidateHeads candidate = run.rounded(options.max_denominator);
    MultiHeadCheck check = verify_multi_head(task, candidate, shapes);
    if (check.passes()) {
      result.model = std::move(candidate);
      result.check = std::move(check);
    } else {
      ++result.proposals_rejected;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace kernelrank
