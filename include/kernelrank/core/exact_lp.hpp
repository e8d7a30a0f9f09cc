// A small exact linear-program solver over the rationals: maximise c.x subject to A x <= b and
// x >= 0, with b >= 0 (so x = 0 is a feasible start and no phase one is needed).
//
// Dense tableau simplex in GMP rationals: Dantzig's entering rule, switching to Bland's rule
// after a run of degenerate pivots so that it cannot cycle. Every number it returns is exact,
// and the result carries the dual multipliers, so the caller can re-check optimality without
// trusting the pivoting: y >= 0, y A >= c and y.b = c.x together prove that no feasible x does
// better (weak duality), whatever the solver did to find them.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <cstddef>
#include <memory>
#include <vector>

namespace kernelrank {

struct ExactLp {
  std::size_t variables = 0;
  std::vector<std::vector<Rational>> rows;  // each of size `variables`
  std::vector<Rational> rhs;                // one per row, all >= 0
  std::vector<Rational> objective;          // size `variables`
};

struct ExactLpResult {
  bool unbounded = false;
  Rational value;              // c.x at the optimum (when bounded)
  std::vector<Rational> x;     // an optimal vertex
  std::vector<Rational> dual;  // y >= 0, one per row: y A >= c and y.b = value
  std::size_t pivots = 0;
};

// Throws std::invalid_argument when the sizes disagree or some rhs is negative.
ExactLpResult solve_exact_lp(const ExactLp& lp);

// The same LP grown row by row: after solve(), rows may be added (with any right-hand side)
// and solve() continues from the last optimal tableau with the dual simplex, which keeps the
// reduced costs optimal while it repairs the rows the new constraints violate. This is what
// makes adding violated constraints in rounds cheap.
class IncrementalExactLp {
 public:
  IncrementalExactLp(std::size_t variables, std::vector<Rational> objective);
  ~IncrementalExactLp();
  IncrementalExactLp(const IncrementalExactLp&) = delete;
  IncrementalExactLp& operator=(const IncrementalExactLp&) = delete;

  // Before the first solve() every rhs must be >= 0.
  void add_row(const std::vector<Rational>& row, const Rational& rhs);
  ExactLpResult solve();
  const ExactLp& problem() const;  // the rows added so far, as given

 private:
  class Tableau;
  std::unique_ptr<Tableau> tableau_;
};

// Whether `dual` proves that c.x <= bound for every feasible x: dual >= 0, dual A >= c
// componentwise and dual.b <= bound. Independent of solve_exact_lp.
bool dual_bounds_objective(const ExactLp& lp, const std::vector<Rational>& dual,
                           const Rational& bound);

}  // namespace kernelrank
