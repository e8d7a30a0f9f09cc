// Comparing sums and claims; see conclusion.hpp.
#include "check/conclusion.hpp"

#include "check/status.hpp"

namespace krcheck {

void check_claim(const Certificate& cert, const BigInt& bound, const std::string& rule,
                 std::ostream& out) {
  out << "c bound: r >= " << bound << " (" << rule << ")\n";
  if (cert.dependent_positions)
    out << "c with positions=dependent the bound is on the rank of the summed key kernel\n";
  if (cert.claim > bound)
    fail_check(cert.file, cert.claim_line,
               "claim r >= " + cert.claim.str() + " is stronger than the bound r >= " +
                   bound.str() + " that the " + rule + " gives");
  out << "c claim: r >= " << cert.claim << " follows\n";
}

BigInt trace_term(const Rational& one_plus_c, int precision) {
  const BigInt scale = BigInt(1) << static_cast<unsigned>(precision);
  // Integer division of non-negative numbers truncates, i.e. it is the floor.
  return scale * denominator(one_plus_c) / numerator(one_plus_c);
}

BigInt conclude_trace(const Certificate& cert, const BigInt& computed_sum, std::ostream& out) {
  const BigInt scale = BigInt(1) << static_cast<unsigned>(cert.precision);
  out << "c computed sum: " << computed_sum << " = 2^" << cert.precision
      << " * T, T = " << truncated_decimal(computed_sum, scale, 6) << " (truncated)\n";
  if (Rational(computed_sum) != cert.stated_sum)
    fail_check(cert.file, cert.sum_line,
               "sum " + to_text(cert.stated_sum) + " differs from the recomputed sum " +
                   computed_sum.str());
  const BigInt bound = cert.row_count() >= 2 ? computed_sum / scale + 1 : BigInt(1);
  check_claim(cert, bound,
              cert.row_count() >= 2 ? "trace rule: floor(T) + 1" : "trace rule, single row", out);
  return bound;
}

BigInt conclude_dominance(const Certificate& cert, const Rational& max_row_sum, std::ostream& out) {
  out << "c computed largest row sum: " << to_text(max_row_sum) << " <= 1\n";
  if (max_row_sum != cert.stated_sum)
    fail_check(cert.file, cert.sum_line,
               "sum " + to_text(cert.stated_sum) + " differs from the recomputed largest row sum " +
                   to_text(max_row_sum));
  const BigInt bound = static_cast<unsigned long>(cert.row_count());
  check_claim(cert, bound, "dominance rule: number of rows", out);
  return bound;
}

}  // namespace krcheck
