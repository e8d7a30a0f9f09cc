// Tableau simplex in exact rationals; see exact_lp.hpp. One tableau row per constraint and the
// objective row apart; column `variables + i` is the slack of row i, so at the optimum the
// objective row's slack entries are the dual multipliers. Rows added after a solve are
// expressed in the current basis (their slack becomes basic) and, when that makes a basic
// value negative, the dual simplex pivots until every basic value is >= 0 again.
#include "kernelrank/core/exact_lp.hpp"

#include <gmp.h>

#include <stdexcept>

namespace kernelrank {
namespace {

// Pivots in a row that leave the objective unchanged before Bland's rule takes over.
constexpr std::size_t kDegenerateRunBeforeBland = 50;
constexpr std::size_t kNone = static_cast<std::size_t>(-1);

mpq_ptr raw(Rational& value) { return value.backend().data(); }
mpq_srcptr raw(const Rational& value) { return value.backend().data(); }

// target -= factor * source, over the columns listed in `support` (source's nonzeros).
void subtract_multiple(std::vector<Rational>& target, const Rational& factor,
                       const std::vector<Rational>& source, const std::vector<std::size_t>& support,
                       Rational& scratch) {
  for (const std::size_t j : support) {
    mpq_mul(raw(scratch), raw(factor), raw(source[j]));
    mpq_sub(raw(target[j]), raw(target[j]), raw(scratch));
  }
}

}  // namespace

class IncrementalExactLp::Tableau {
 public:
  Tableau(std::size_t variables, std::vector<Rational> objective) : n_(variables) {
    if (objective.size() != n_) throw std::invalid_argument("exact LP: sizes disagree");
    problem_.variables = n_;
    problem_.objective = objective;
    cost_.resize(n_);
    for (std::size_t j = 0; j < n_; ++j) cost_[j] = -objective[j];
  }

  void add_row(const std::vector<Rational>& coefficients, const Rational& rhs) {
    if (coefficients.size() != n_) throw std::invalid_argument("exact LP: row of the wrong size");
    if (!solved_ && rhs < 0)
      throw std::invalid_argument("exact LP: a negative right-hand side before the first solve");
    problem_.rows.push_back(coefficients);
    problem_.rhs.push_back(rhs);
    // A new slack column everywhere, then the row itself in terms of the current basis.
    for (auto& row : rows_) row.emplace_back(0);
    cost_.emplace_back(0);
    std::vector<Rational> row(coefficients);
    row.resize(width(), Rational(0));
    row.back() = 1;
    Rational value = rhs, scratch;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      if (row[basis_[i]] == 0) continue;
      const Rational factor = row[basis_[i]];
      subtract_multiple(row, factor, rows_[i], support(rows_[i]), scratch);
      value -= factor * value_[i];
    }
    basis_.push_back(n_ + rows_.size());  // the new row's slack
    rows_.push_back(std::move(row));
    value_.push_back(std::move(value));
  }

  ExactLpResult solve() {
    ExactLpResult out;
    if (!restore_feasibility(out.pivots))
      throw std::logic_error("exact LP: the added rows left no feasible point");
    solved_ = true;
    if (!optimise(out.pivots)) {
      out.unbounded = true;
      return out;
    }
    out.value = objective_value_;
    out.x.assign(n_, Rational(0));
    for (std::size_t i = 0; i < rows_.size(); ++i)
      if (basis_[i] < n_) out.x[basis_[i]] = value_[i];
    out.dual.resize(rows_.size());
    for (std::size_t i = 0; i < rows_.size(); ++i) out.dual[i] = cost_[n_ + i];
    return out;
  }

  const ExactLp& problem() const { return problem_; }

 private:
  std::size_t width() const { return n_ + rows_.size() + 1; }  // with a slack for a row to come
  static std::vector<std::size_t> support(const std::vector<Rational>& row) {
    std::vector<std::size_t> nonzero;
    for (std::size_t j = 0; j < row.size(); ++j)
      if (row[j] != 0) nonzero.push_back(j);
    return nonzero;
  }

  // Primal simplex from a feasible basis: Dantzig's rule, then Bland's after a degenerate run.
  bool optimise(std::size_t& pivots) {
    std::size_t degenerate_run = 0;
    for (;;) {
      const bool bland = degenerate_run >= kDegenerateRunBeforeBland;
      std::size_t entering = kNone;
      for (std::size_t j = 0; j < cost_.size(); ++j) {
        if (cost_[j] >= 0) continue;
        if (bland) {
          entering = j;
          break;
        }
        if (entering == kNone || cost_[j] < cost_[entering]) entering = j;
      }
      if (entering == kNone) return true;
      // Smallest ratio; ties to the smallest basic index (Bland's leaving rule).
      std::size_t leaving = kNone;
      Rational best_ratio;
      for (std::size_t i = 0; i < rows_.size(); ++i) {
        const Rational& entry = rows_[i][entering];
        if (entry <= 0) continue;
        Rational ratio = value_[i] / entry;
        if (leaving == kNone || ratio < best_ratio ||
            (ratio == best_ratio && basis_[i] < basis_[leaving])) {
          leaving = i;
          best_ratio = std::move(ratio);
        }
      }
      if (leaving == kNone) return false;
      degenerate_run = value_[leaving] == 0 ? degenerate_run + 1 : 0;
      pivot(leaving, entering);
      ++pivots;
    }
  }

  // Dual simplex: while some basic value is negative, pivot it out on the column that keeps
  // every reduced cost >= 0 (smallest ratio cost_j / -entry, ties to the smallest column).
  // After a run of pivots that leave the objective unchanged, the leaving row is the one
  // whose basic variable has the smallest index (the dual form of Bland's rule), which
  // cannot cycle.
  bool restore_feasibility(std::size_t& pivots) {
    std::size_t degenerate_run = 0;
    for (;;) {
      const bool bland = degenerate_run >= kDegenerateRunBeforeBland;
      std::size_t leaving = kNone;
      for (std::size_t i = 0; i < rows_.size(); ++i) {
        if (value_[i] >= 0) continue;
        if (leaving == kNone || (bland ? basis_[i] < basis_[leaving] : value_[i] < value_[leaving]))
          leaving = i;
      }
      if (leaving == kNone) return true;
      std::size_t entering = kNone;
      Rational best_ratio;
      for (std::size_t j = 0; j < cost_.size(); ++j) {
        const Rational& entry = rows_[leaving][j];
        if (entry >= 0) continue;
        Rational ratio = cost_[j] / -entry;
        if (entering == kNone || ratio < best_ratio) {
          entering = j;
          best_ratio = std::move(ratio);
        }
      }
      if (entering == kNone) return false;
      degenerate_run = best_ratio == 0 ? degenerate_run + 1 : 0;
      pivot(leaving, entering);
      ++pivots;
    }
  }

  void pivot(std::size_t p, std::size_t q) {
    const Rational inverse = 1 / rows_[p][q];
    const std::vector<std::size_t> nonzero = support(rows_[p]);
    for (const std::size_t j : nonzero) rows_[p][j] *= inverse;
    value_[p] *= inverse;
    Rational scratch;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      if (i == p || rows_[i][q] == 0) continue;
      const Rational factor = rows_[i][q];
      subtract_multiple(rows_[i], factor, rows_[p], nonzero, scratch);
      value_[i] -= factor * value_[p];
    }
    if (cost_[q] != 0) {
      const Rational factor = cost_[q];
      subtract_multiple(cost_, factor, rows_[p], nonzero, scratch);
      objective_value_ -= factor * value_[p];
    }
    basis_[p] = q;
  }

  std::size_t n_;
  ExactLp problem_;
  std::vector<std::vector<Rational>> rows_;  // each of width() - 1 columns
  std::vector<Rational> value_;              // basic values (the right-hand column)
  std::vector<std::size_t> basis_;
  std::vector<Rational> cost_;  // reduced costs (the objective row, negated objective)
  Rational objective_value_ = 0;
  bool solved_ = false;
};

IncrementalExactLp::IncrementalExactLp(std::size_t variables, std::vector<Rational> objective)
    : tableau_(std::make_unique<Tableau>(variables, std::move(objective))) {}
IncrementalExactLp::~IncrementalExactLp() = default;
void IncrementalExactLp::add_row(const std::vector<Rational>& row, const Rational& rhs) {
  tableau_->add_row(row, rhs);
}
ExactLpResult IncrementalExactLp::solve() { return tableau_->solve(); }
const ExactLp& IncrementalExactLp::problem() const { return tableau_->problem(); }

ExactLpResult solve_exact_lp(const ExactLp& lp) {
  if (lp.objective.size() != lp.variables || lp.rhs.size() != lp.rows.size())
    throw std::invalid_argument("exact LP: sizes disagree");
  IncrementalExactLp solver(lp.variables, lp.objective);
  for (std::size_t i = 0; i < lp.rows.size(); ++i) solver.add_row(lp.rows[i], lp.rhs[i]);
  return solver.solve();
}

bool dual_bounds_objective(const ExactLp& lp, const std::vector<Rational>& dual,
                           const Rational& bound) {
  if (dual.size() != lp.rows.size()) return false;
  Rational total = 0;
  std::vector<Rational> combined(lp.variables, Rational(0));
  for (std::size_t i = 0; i < dual.size(); ++i) {
    if (dual[i] < 0) return false;
    if (dual[i] == 0) continue;
    total += dual[i] * lp.rhs[i];
    for (std::size_t j = 0; j < lp.variables; ++j) combined[j] += dual[i] * lp.rows[i][j];
  }
  for (std::size_t j = 0; j < lp.variables; ++j)
    if (combined[j] < lp.objective[j]) return false;
  return total <= bound;
}

}  // namespace kernelrank
