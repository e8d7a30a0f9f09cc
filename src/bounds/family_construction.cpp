// The graded complement-detector head (family_construction.hpp).
//
// Choosing a and B: the grid is B = 2, 4, ..., 2^16 and, when some row's keys include a
// proper superset of the row's own complement (the intermediates of witness chains),
// a = (1 - 2^-k) / s for k = 1..8, s the least overlap <q, z> of such a superset with its
// query, so that the superset nearest to c_i keeps the share 2^-k of alpha(q_i, c_i);
// otherwise a = 1 (plain detectors). Candidates are tried by increasing B, then k; the
// first whose exact max error is below 1/4 (a clear margin to the band) is taken, else
// the best one seen (fewest failures, then least max error). Every step is exact.
#include "kernelrank/bounds/family_construction.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/exact_rank.hpp"

#include <algorithm>
#include <set>

namespace kernelrank {
namespace {

std::vector<Token> distinct_queries(const Family& family) {
  std::vector<Token> queries;
  std::set<Token> seen;
  for (const Instance& instance : family.instances) {
    const Token& q = instance.tokens.at(static_cast<std::size_t>(instance.query));
    if (seen.insert(q).second) queries.push_back(q);
  }
  return queries;
}

RationalVector token_vector(const Token& token) {
  RationalVector v(static_cast<std::size_t>(token.width()));
  for (int x = 0; x < token.width(); ++x) v[static_cast<std::size_t>(x)] = token.get(x) ? 1 : 0;
  return v;
}

// Names the first query that is a linear combination of the ones before it.
[[noreturn]] void throw_dependent(const std::vector<Token>& queries) {
  RationalMatrix rows;
  for (const Token& q : queries) {
    rows.push_back(token_vector(q));
    if (exact_rank(rows) < rows.size())
      throw UsageError("the construction needs linearly independent query tokens, but query " +
                       q.to_string() + " (distinct query " + std::to_string(rows.size()) + " of " +
                       std::to_string(queries.size()) +
                       ") is a linear combination of the ones before it");
  }
  throw InternalError("complement head: a singular Gram matrix of independent queries");
}

// W_Q with W_Q q_i = U_i: W_Q = Y Q^T where G Y^T = U.
RationalMatrix query_weights(const std::vector<Token>& queries, const RationalMatrix& wanted) {
  const std::size_t k = queries.size();
  RationalMatrix gram(k, RationalVector(k));
  for (std::size_t i = 0; i < k; ++i)
    for (std::size_t j = 0; j < k; ++j) gram[i][j] = inner(queries[i], queries[j]);
  const auto y_transposed = exact_solve(gram, wanted);
  if (!y_transposed) throw_dependent(queries);
  const int m = queries.front().width();
  RationalMatrix weights(k, RationalVector(static_cast<std::size_t>(m)));
  for (std::size_t f = 0; f < k; ++f)
    for (std::size_t j = 0; j < k; ++j) {
      const Rational& y = (*y_transposed)[j][f];
      if (y == 0) continue;
      for (int x = 0; x < m; ++x)
        if (queries[j].get(x)) weights[f][static_cast<std::size_t>(x)] += y;
    }
  return weights;
}

AffineMap identity_map(int m) {
  AffineMap map;
  map.weight.assign(static_cast<std::size_t>(m), RationalVector(static_cast<std::size_t>(m)));
  for (int x = 0; x < m; ++x)
    map.weight[static_cast<std::size_t>(x)][static_cast<std::size_t>(x)] = 1;
  map.bias.assign(static_cast<std::size_t>(m), 0);
  return map;
}

// The least <q, z> over keys z that are proper supersets of the complement of their query.
std::optional<int> least_superset_overlap(const Family& family) {
  std::optional<int> least;
  for (const Instance& instance : family.instances) {
    const Token& q = instance.tokens.at(static_cast<std::size_t>(instance.query));
    const Token own = q.complement();
    for (const Token& z : instance.tokens) {
      if (z == own || inner(own, z) != own.weight()) continue;
      const int s = inner(q, z);
      if (s > 0 && (!least || s < *least)) least = s;
    }
  }
  return least;
}

bool better(const EvalReport& a, const EvalReport& b) {
  if (a.failing != b.failing) return a.failing < b.failing;
  if (!a.max_error) return false;
  return !b.max_error || *a.max_error < *b.max_error;
}

}  // namespace

ComplementHead complement_head(const Family& family, const Rational& slope,
                               const Rational& diagonal) {
  if (family.instances.empty()) throw UsageError("the family has no instances");
  if (slope < 0) throw UsageError("the slope a must be >= 0, found " + to_string(slope));
  if (diagonal <= 0) throw UsageError("the diagonal B must be > 0, found " + to_string(diagonal));
  ComplementHead head;
  head.queries = distinct_queries(family);
  head.slope = slope;
  head.diagonal = diagonal;
  const std::size_t k = head.queries.size();
  const int m = family.m;
  if (static_cast<int>(k) > m)
    throw UsageError(
        "the construction needs linearly independent query tokens, but the family has " +
        std::to_string(k) + " distinct queries in dimension m=" + std::to_string(m));
  RationalMatrix wanted(k, RationalVector(k, Rational(1)));
  for (std::size_t i = 0; i < k; ++i) wanted[i][i] = diagonal;
  ParametricMaps maps;
  maps.query.weight = query_weights(head.queries, wanted);
  maps.query.bias.assign(k, 0);
  for (const Token& q : head.queries) {
    const Token own = q.complement();
    RationalVector row(static_cast<std::size_t>(m));
    for (int x = 0; x < m; ++x)
      row[static_cast<std::size_t>(x)] = own.get(x) ? Rational(1) : -slope;
    maps.key.weight.push_back(std::move(row));
    maps.key.bias.push_back(1 - own.weight());
  }
  maps.value = identity_map(m);
  maps.readout_c = identity_map(m);
  maps.readout_e.weight.assign(1, RationalVector(static_cast<std::size_t>(m)));
  maps.readout_e.bias.assign(1, 0);
  auto model = std::make_shared<ParametricModel>(
      m, FeatureMap::Relu, std::vector<ParametricMaps>{std::move(maps)}, false);
  model->set_declared_class(ModelClass::PositiveFeatures);
  head.model = std::move(model);
  return head;
}

ComplementHead construct_complement_head(const Family& family,
                                         const ComplementHeadOptions& options) {
  std::vector<Rational> slopes;
  if (options.slope) {
    slopes.push_back(*options.slope);
  } else if (const auto s = least_superset_overlap(family)) {
    for (int k = 1; k <= 8; ++k) slopes.push_back((1 - Rational(1, 1 << k)) / *s);
  } else {
    slopes.push_back(1);
  }
  std::vector<Rational> diagonals;
  if (options.diagonal)
    diagonals.push_back(*options.diagonal);
  else
    for (int k = 1; k <= 16; ++k) diagonals.push_back(Rational(1 << k));

  EvalOptions eval_options;
  std::optional<ComplementHead> best;
  std::size_t tried = 0;
  for (const Rational& diagonal : diagonals) {
    for (const Rational& slope : slopes) {
      ComplementHead head = complement_head(family, slope, diagonal);
      head.report = evaluate_family(*head.model, family, eval_options);
      ++tried;
      const bool clear =
          head.report.solves() && head.report.max_error && *head.report.max_error < Rational(1, 4);
      if (!best || better(head.report, best->report)) best = std::move(head);
      if (clear) {
        best->candidates = tried;
        return std::move(*best);
      }
    }
  }
  best->candidates = tried;
  return std::move(*best);
}

}  // namespace kernelrank
