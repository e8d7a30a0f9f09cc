// Rule shifted-trace; see shifted_rule.hpp for what it proves and why.
#include "check/shifted_rule.hpp"

#include "check/conclusion.hpp"
#include "check/status.hpp"

namespace krcheck {

Rational shifted_error_squared(const Rational& rho, const Rational& shift) {
  const Rational above = 1 / rho - shift;
  const Rational e = above > shift ? above : shift;
  return e * e;
}

BigInt family_shifted_sum(const Certificate& cert, const std::vector<Rational>& rho) {
  std::vector<Rational> column(cert.row_count(), Rational(0));
  for (std::size_t p = 0; p < cert.pairs.size(); ++p)
    column[cert.pairs[p].column] += shifted_error_squared(rho[p], cert.shift);
  const Rational diagonal = (1 - cert.shift) * (1 - cert.shift);
  const BigInt scale = BigInt(1) << static_cast<unsigned>(cert.precision);
  BigInt total = 0;
  for (const Rational& c : column) {
    const Rational term = diagonal / (diagonal + c);
    // Integer division of non-negative numbers truncates, i.e. it is the floor.
    total += scale * numerator(term) / denominator(term);
  }
  return total;
}

BigInt conclude_shifted_trace(const Certificate& cert, const BigInt& computed_sum,
                              std::ostream& out) {
  const BigInt scale = BigInt(1) << static_cast<unsigned>(cert.precision);
  out << "c computed sum: " << computed_sum << " = 2^" << cert.precision
      << " * T_W, T_W = " << truncated_decimal(computed_sum, scale, 6) << " (truncated)\n";
  if (Rational(computed_sum) != cert.stated_sum)
    fail_check(cert.file, cert.sum_line,
               "sum " + to_text(cert.stated_sum) + " differs from the recomputed sum " +
                   computed_sum.str());
  const BigInt bound = (computed_sum + scale - 1) / scale - 1;
  check_claim(cert, bound, "shifted trace rule: ceil(T_W) - 1", out);
  return bound;
}

}  // namespace krcheck
