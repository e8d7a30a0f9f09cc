// Exact evaluation of multi-head models (multi_head_eval.hpp). Families are evaluated
// instance by instance from the heads; token sets and the cube tabulate every head once
// (kernel and kernel * readout, each query row scaled to integers by its common
// denominator, so that an instance costs integer additions and the heads' fractions are
// combined without a gcd), then walk every instance in enumeration order. The kept
// instances (failures, the worst, the first negative one) are re-derived from the heads by
// evaluate_multi_head_instance and must agree with the walk. The walk runs in the
// single-head enumeration order (docs/cli.md), so that ties and failures list the same.
#include "kernelrank/eval/multi_head_eval.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <limits>

namespace kernelrank {
namespace {

// Numbers the tables of one token-set evaluation may hold.
constexpr std::uint64_t kMaxTableEntries = std::uint64_t{1} << 25;

// One head over the universe: entry ((qs * P + kp) * U + u) * U + z, with P = n for a
// position-dependent head (qs the query position, kp the key position) and P = 1 otherwise.
struct HeadTable {
  std::size_t positions = 1;
  std::vector<Integer> kernel, product;
};

struct Tables {
  std::size_t U = 0;
  int n = 0;
  std::vector<HeadTable> heads;
  std::vector<int> overlap;  // <u, z> at u * U + z
};

std::uint64_t table_entries(const MultiHeadModel& model, std::uint64_t U, int n) {
  const long double u2 = static_cast<long double>(U) * static_cast<long double>(U);
  long double total = u2;  // the overlap table
  for (const auto& head : model.heads()) {
    const long double p = head->position_dependent() ? n : 1;
    total += 2 * u2 * p * p;
  }
  return total > static_cast<long double>(kMaxTableEntries) ? kMaxTableEntries + 1
                                                            : static_cast<std::uint64_t>(total);
}

// One query row (qs, u) of a head over every key position and token, brought to integers.
void tabulate_row(const Model& head, const std::vector<Token>& universe, HeadTable& table,
                  std::size_t qs, std::size_t u) {
  const std::size_t U = universe.size(), P = table.positions;
  std::vector<Rational> a(P * U), p(P * U);
  Integer scale = 1;
  for (std::size_t kp = 0; kp < P; ++kp)
    for (std::size_t z = 0; z < U; ++z) {
      const int qpos = static_cast<int>(qs), kpos = static_cast<int>(kp);
      Rational& alpha = a[kp * U + z];
      alpha = head.kernel(universe[u], universe[z], qpos, kpos);
      if (alpha != 0) p[kp * U + z] = alpha * head.readout(universe[u], universe[z], qpos, kpos);
      scale = lcm(scale, denominator(alpha));
      scale = lcm(scale, denominator(p[kp * U + z]));
    }
  for (std::size_t kp = 0; kp < P; ++kp)
    for (std::size_t z = 0; z < U; ++z) {
      const std::size_t at = ((qs * P + kp) * U + u) * U + z;
      table.kernel[at] = numerator(a[kp * U + z]) * (scale / denominator(a[kp * U + z]));
      table.product[at] = numerator(p[kp * U + z]) * (scale / denominator(p[kp * U + z]));
    }
}

Tables tabulate_heads(const MultiHeadModel& model, const std::vector<Token>& universe, int n,
                      QueryMode mode) {
  Tables tables;
  tables.U = universe.size();
  tables.n = n;
  const std::size_t U = tables.U;
  if (table_entries(model, U, n) > kMaxTableEntries)
    throw ResourceError("tabulating " + std::to_string(model.head_count()) + " heads over " +
                        std::to_string(U) + " tokens needs more than " +
                        std::to_string(kMaxTableEntries) + " numbers");
  tables.overlap.resize(U * U);
  for (std::size_t u = 0; u < U; ++u)
    for (std::size_t z = 0; z < U; ++z) tables.overlap[u * U + z] = inner(universe[u], universe[z]);
  const std::vector<int> queries = query_positions(mode, n);
  for (const auto& head : model.heads()) {
    HeadTable table;
    table.positions = head->position_dependent() ? static_cast<std::size_t>(n) : 1;
    const std::size_t P = table.positions;
    table.kernel.resize(P * P * U * U);
    table.product.resize(P * P * U * U);
    for (int query : queries) {
      const std::size_t qs = P == 1 ? 0 : static_cast<std::size_t>(query);
      if (P == 1 && query != queries.front()) break;  // one row set serves every query
      for (std::size_t u = 0; u < U; ++u) tabulate_row(*head, universe, table, qs, u);
    }
    tables.heads.push_back(std::move(table));
  }
  return tables;
}

// An instance of the walk, kept to be re-derived at the end.
struct Kept {
  std::vector<std::uint32_t> indices;
  int query = 0;
};

// The walk's bookkeeping, in enumeration order.
struct Walk {
  std::uint64_t instances = 0, failing = 0, undefined = 0, negative_solved = 0;
  bool any_defined = false;
  Integer best_num = 0, best_den = 1;  // the maximum error, best_num / best_den
  std::optional<Kept> worst, negative;
  std::vector<Kept> failures;
};

// y = num / den from the heads' sums (den = 0 when some head's denominator is 0).
void visit_instance(const Tables& tables, const std::vector<std::uint32_t>& idx, int query,
                    std::size_t max_failures, Walk& walk) {
  const std::size_t U = tables.U;
  const std::size_t u = idx[static_cast<std::size_t>(query)];
  int target = std::numeric_limits<int>::max();
  for (std::uint32_t z : idx) target = std::min(target, tables.overlap[u * U + z]);
  Integer num = 0, den = 1, d, p;
  bool defined = true, negative = false;
  for (const HeadTable& head : tables.heads) {
    const std::size_t P = head.positions;
    const std::size_t qs = P == 1 ? 0 : static_cast<std::size_t>(query);
    d = 0;
    p = 0;
    for (std::size_t j = 0; j < idx.size(); ++j) {
      const std::size_t kp = P == 1 ? 0 : j;
      const std::size_t at = ((qs * P + kp) * U + u) * U + idx[j];
      d += head.kernel[at];
      p += head.product[at];
    }
    if (d == 0) defined = false;
    if (d < 0) negative = true;
    num = num * d + p * den;
    den *= d;
  }
  ++walk.instances;
  const Kept here{idx, query};
  if (!defined) {
    ++walk.failing;
    ++walk.undefined;
    if (walk.failures.size() < max_failures) walk.failures.push_back(here);
    return;
  }
  const Integer error_num = abs(num - den * target), error_den = abs(den);
  const bool fails = error_num * 2 >= error_den;
  if (fails) {
    ++walk.failing;
    if (walk.failures.size() < max_failures) walk.failures.push_back(here);
  } else if (negative && ++walk.negative_solved == 1) {
    walk.negative = here;
  }
  if (!walk.any_defined || error_num * walk.best_den > walk.best_num * error_den) {
    walk.any_defined = true;
    walk.best_num = error_num;
    walk.best_den = error_den;
    walk.worst = here;
  }
}

Instance instance_of(const std::vector<Token>& universe, const Kept& kept) {
  Instance instance;
  for (std::uint32_t i : kept.indices) instance.tokens.push_back(universe[i]);
  instance.query = kept.query;
  return instance;
}

// The report from the walk; every kept instance is evaluated again from the heads.
EvalReport finish_walk(const MultiHeadModel& model, const std::vector<Token>& universe,
                       const Walk& walk, std::string method) {
  EvalReport report;
  report.method = std::move(method);
  report.instances = walk.instances;
  report.failing = walk.failing;
  report.undefined = walk.undefined;
  report.negative_solved = walk.negative_solved;
  const auto again = [&](const Kept& kept) {
    return evaluate_multi_head_instance(model, instance_of(universe, kept));
  };
  for (const Kept& kept : walk.failures) {
    report.failures.push_back(again(kept));
    if (!report.failures.back().fails())
      throw InternalError("the multi-head walk flagged " +
                          to_string(report.failures.back().instance) +
                          " as failing but exact re-evaluation disagrees");
  }
  if (walk.worst) {
    report.worst = again(*walk.worst);
    report.max_error = make_rational(walk.best_num, walk.best_den);
    if (!report.worst->error || *report.worst->error != *report.max_error)
      throw InternalError("the multi-head walk and exact re-evaluation disagree on the error of " +
                          to_string(report.worst->instance));
  }
  if (walk.negative) {
    report.negative_example = again(*walk.negative);
    if (report.negative_example->fails() || !report.negative_example->negative_denominator)
      throw InternalError("the multi-head walk and exact re-evaluation disagree on " +
                          to_string(report.negative_example->instance));
  }
  return report;
}

// The single-head evaluators' order (tabulated_walk.hpp, docs/cli.md): the query positions
// of the mode in order, then the query's token, then the other positions' tokens in
// position order, the earlier position slower.
template <class Visit>
void for_each_in_query_order(std::size_t U, int n, QueryMode mode, const Visit& visit) {
  std::vector<std::uint32_t> idx(static_cast<std::size_t>(n));
  std::vector<std::size_t> order;  // positions, slowest first
  for (const int query : query_positions(mode, n)) {
    order.assign(1, static_cast<std::size_t>(query));
    for (int j = 0; j < n; ++j)
      if (j != query) order.push_back(static_cast<std::size_t>(j));
    std::fill(idx.begin(), idx.end(), 0);
    for (;;) {
      visit(idx, query);
      std::size_t i = order.size();
      for (; i > 0; --i) {
        std::uint32_t& digit = idx[order[i - 1]];
        if (++digit < U) break;
        digit = 0;
      }
      if (i == 0) break;
    }
  }
}

EvalReport walk_universe(const MultiHeadModel& model, const std::vector<Token>& universe, int n,
                         const EvalOptions& options, std::string method) {
  const std::uint64_t total =
      count_instances(universe.size(), n, options.mode, options.instance_limit);
  const Tables tables = tabulate_heads(model, universe, n, options.mode);
  Walk walk;
  for_each_in_query_order(universe.size(), n, options.mode,
                          [&](const std::vector<std::uint32_t>& idx, int query) {
                            visit_instance(tables, idx, query, options.max_failures, walk);
                          });
  if (walk.instances != total)
    throw InternalError("instance count mismatch in the multi-head walk (" +
                        std::to_string(walk.instances) + " of " + std::to_string(total) + ")");
  return finish_walk(model, universe, walk, std::move(method));
}

}  // namespace

InstanceOutcome evaluate_multi_head_instance(const MultiHeadModel& model,
                                             const Instance& instance) {
  if (instance.tokens.empty()) throw UsageError("an instance needs at least one token");
  const Token& q = instance.tokens.at(static_cast<std::size_t>(instance.query));
  InstanceOutcome outcome;
  outcome.instance = instance;
  outcome.target = min_ip_target(instance);
  Rational output = 0;
  bool defined = true;
  for (const auto& head : model.heads()) {
    Rational denominator = 0, numerator = 0;
    for (std::size_t j = 0; j < instance.tokens.size(); ++j) {
      const Token& z = instance.tokens[j];
      const int kpos = static_cast<int>(j);
      const Rational alpha = head->kernel(q, z, instance.query, kpos);
      denominator += alpha;
      if (alpha != 0) numerator += alpha * head->readout(q, z, instance.query, kpos);
    }
    if (denominator < 0) outcome.negative_denominator = true;
    if (denominator == 0)
      defined = false;
    else
      output += numerator / denominator;
  }
  if (defined) {
    outcome.output = output;
    outcome.error = abs_of(output - outcome.target);
  }
  return outcome;
}

EvalReport evaluate_multi_head_family(const MultiHeadModel& model, const Family& family,
                                      const EvalOptions& options) {
  if (family.m != model.width())
    throw UsageError("the family has width m=" + std::to_string(family.m) +
                     " but the model expects m=" + std::to_string(model.width()));
  EvalReport report;
  report.method = "family";
  for (const Instance& instance : family.instances) {
    InstanceOutcome outcome = evaluate_multi_head_instance(model, instance);
    report.instances += 1;
    if (outcome.fails()) {
      report.failing += 1;
      if (!outcome.error) report.undefined += 1;
      if (report.failures.size() < options.max_failures) report.failures.push_back(outcome);
    } else if (outcome.negative_denominator) {
      report.negative_solved += 1;
      if (!report.negative_example) report.negative_example = outcome;
    }
    // Strictly greater: the first instance attaining the maximum is kept.
    if (outcome.error && (!report.max_error || *outcome.error > *report.max_error)) {
      report.max_error = *outcome.error;
      report.worst = std::move(outcome);
    }
  }
  return report;
}

EvalReport evaluate_multi_head_token_set(const MultiHeadModel& model,
                                         const std::vector<Token>& universe, int n,
                                         const EvalOptions& options) {
  check_token_set(model.width(), universe, n);
  return walk_universe(model, universe, n, options, "token set");
}

EvalReport evaluate_multi_head_cube(const MultiHeadModel& model, int m, int n,
                                    const EvalOptions& options) {
  if (n < 1) throw UsageError("length n must be at least 1");
  check_cube_walk(model.width(), m, n, options, "evaluate a family instead");
  for (std::size_t h = 0; h < model.head_count(); ++h)
    if (const auto* tokens = model.head(h).token_universe();
        tokens && tokens->size() != (std::size_t{1} << m))
      throw UsageError("head " + std::to_string(h + 1) + " defines " +
                       std::to_string(tokens->size()) + " tokens, but the cube {0,1}^" +
                       std::to_string(m) + " has " + std::to_string(std::uint64_t{1} << m) +
                       "; evaluate it on a family instead");
  std::vector<Token> universe;
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
    universe.push_back(Token::from_index(m, i));
  return walk_universe(model, universe, n, options, "brute force");
}

}  // namespace kernelrank
