// Exact evaluation of the trace and dominance rank bounds (theory.md L4).
#include "kernelrank/bounds/rank_bound.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"

#include <gmp.h>

namespace kernelrank {
namespace {

// Gap matrix rows: gaps[i][j] = <q_i,c_j> - <q_i,c_i>, with -1 marking i == j.
// Stored per column histogram / per row histogram only, to stay O(N) in memory.
struct GapHistograms {
  int max_gap = 0;
  std::vector<std::vector<std::uint32_t>> by_column;  // [j][G]
  std::vector<std::vector<std::uint32_t>> by_row;     // [i][G]
  std::string bad_pair;                               // first pair with gap < 2
};

GapHistograms histograms(const std::vector<BoundRow>& rows) {
  GapHistograms h;
  const std::size_t N = rows.size();
  const int m = rows.front().own.width();
  h.max_gap = m;
  h.by_column.assign(N, std::vector<std::uint32_t>(static_cast<std::size_t>(m) + 1, 0));
  h.by_row.assign(N, std::vector<std::uint32_t>(static_cast<std::size_t>(m) + 1, 0));
  for (std::size_t i = 0; i < N; ++i) {
    const int base = inner(rows[i].query, rows[i].own);
    for (std::size_t j = 0; j < N; ++j) {
      if (i == j) continue;
      const int gap = inner(rows[i].query, rows[j].own) - base;
      if (gap < 2) {
        if (h.bad_pair.empty())
          h.bad_pair = "rows " + std::to_string(i + 1) + " and " + std::to_string(j + 1) +
                       " have gap " + std::to_string(gap) + " < 2 (no domination chain)";
        continue;
      }
      ++h.by_column[j][static_cast<std::size_t>(gap)];
      ++h.by_row[i][static_cast<std::size_t>(gap)];
    }
  }
  return h;
}

Integer lcm_of(const std::vector<Integer>& values) {
  Integer l = 1;
  for (const Integer& v : values)
    mpz_lcm(l.backend().data(), l.backend().data(), v.backend().data());
  return l;
}

}  // namespace

std::vector<BoundRow> complement_rows(const std::vector<Token>& code) {
  std::vector<BoundRow> rows;
  rows.reserve(code.size());
  for (const Token& c : code) rows.push_back({c, c.complement()});
  return rows;
}

std::string to_string(BoundRule rule) {
  switch (rule) {
    case BoundRule::Trace:
      return "trace";
    case BoundRule::Dominance:
      return "dominance";
    case BoundRule::ShiftedTrace:
      return "shifted-trace";
  }
  return "?";
}

Rational RankBoundResult::trace_value() const {
  Integer den = 1;
  den <<= static_cast<unsigned>(precision);
  return make_rational(trace_sum, den);
}

RankBoundResult certify_rank_bound(const std::vector<BoundRow>& rows, int n, BoundRule rule,
                                   int precision) {
  if (rows.empty()) throw UsageError("a rank bound needs at least one row");
  if (rows.size() > kMaxBoundRows)
    throw ResourceError("more than " + std::to_string(kMaxBoundRows) + " rows");
  if (n < 3) throw UsageError("rank bounds need n >= 3 (at n <= 2 rank 1 suffices)");
  if (precision < 0 || precision > 256) throw UsageError("precision must be in 0..256");
  const int m = rows.front().own.width();
  for (const BoundRow& row : rows)
    if (row.own.width() != m || row.query.width() != m)
      throw UsageError("all row tokens must have the same width");

  RankBoundResult result;
  result.rule = rule;
  result.n = n;
  result.rows = rows.size();
  result.precision = precision;
  const GapHistograms h = histograms(rows);
  for (const auto& column : h.by_column)
    for (std::size_t g = 0; g < column.size(); ++g)
      if (column[g] != 0) result.gap_histogram[static_cast<int>(g)] += column[g];
  if (!h.bad_pair.empty()) {
    result.reason = h.bad_pair;
    return result;
  }
  const AmplificationTable table(n, m);
  if (rule == BoundRule::Trace) {
    // L = lcm of R(G)^2; 1 + c_j = (L + sum_G count * L / R(G)^2) / L.
    std::vector<Integer> squares(static_cast<std::size_t>(m) + 1, Integer(1));
    for (int g = 2; g <= m; ++g)
      squares[static_cast<std::size_t>(g)] = table.at(g)->factor * table.at(g)->factor;
    std::vector<Integer> used;
    for (const auto& [g, count] : result.gap_histogram)
      used.push_back(squares[static_cast<std::size_t>(g)]);
    const Integer L = lcm_of(used);
    std::vector<Integer> share(static_cast<std::size_t>(m) + 1);
    for (int g = 2; g <= m; ++g)
      share[static_cast<std::size_t>(g)] = L / squares[static_cast<std::size_t>(g)];
    Integer scaled_L = L;
    scaled_L <<= static_cast<unsigned>(precision);
    Integer sum = 0, den, term;
    for (const auto& column : h.by_column) {
      den = L;
      for (int g = 2; g <= m; ++g)
        if (column[static_cast<std::size_t>(g)] != 0)
          den += share[static_cast<std::size_t>(g)] * column[static_cast<std::size_t>(g)];
      mpz_fdiv_q(term.backend().data(), scaled_L.backend().data(), den.backend().data());
      sum += term;
    }
    result.trace_sum = sum;
    result.applicable = true;
    Integer whole = sum >> static_cast<unsigned>(precision);
    result.bound = rows.size() >= 2 ? whole + 1 : Integer(1);
    return result;
  }
  // Dominance: every row sum_{j != i} 1/R(G_ij) <= 1.
  std::vector<Integer> factors;
  for (const auto& [g, count] : result.gap_histogram) factors.push_back(table.at(g)->factor);
  const Integer L = lcm_of(factors);
  Integer worst = 0;
  for (const auto& row : h.by_row) {
    Integer total = 0;
    for (int g = 2; g <= m; ++g)
      if (row[static_cast<std::size_t>(g)] != 0)
        total += (L / table.at(g)->factor) * row[static_cast<std::size_t>(g)];
    if (total > worst) worst = total;
  }
  result.max_row_sum = make_rational(worst, L);
  if (result.max_row_sum <= 1) {
    result.applicable = true;
    result.bound = rows.size();
  } else {
    result.reason = "a row has sum of 1/rho = " + to_decimal(result.max_row_sum, 4) + " > 1";
  }
  return result;
}

Rational trace_bound_value(const std::vector<std::vector<Rational>>& rho) {
  const std::size_t N = rho.size();
  Rational total = 0;
  for (std::size_t j = 0; j < N; ++j) {
    Rational column = 1;
    for (std::size_t i = 0; i < N; ++i) {
      if (i == j) continue;
      if (rho[i][j] <= 0)
        throw UsageError("trace bound: every off-diagonal factor must be positive");
      column += 1 / (rho[i][j] * rho[i][j]);
    }
    total += 1 / column;
  }
  return total;
}

RankBoundResult best_rank_bound(const std::vector<BoundRow>& rows, int n, int precision) {
  RankBoundResult trace = certify_rank_bound(rows, n, BoundRule::Trace, precision);
  if (!trace.applicable) return trace;
  RankBoundResult dominance = certify_rank_bound(rows, n, BoundRule::Dominance, precision);
  return dominance.applicable && dominance.bound > trace.bound ? dominance : trace;
}

}  // namespace kernelrank
