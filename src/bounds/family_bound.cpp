// Domination steps, max-product chains and row selection in explicit families.
#include "kernelrank/bounds/family_bound.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace kernelrank {
namespace {

using InstanceKey = std::tuple<int, Token, std::vector<Token>>;

InstanceKey key_of(int position, const Token& q, std::vector<Token> keys, bool position_dependent) {
  if (!position_dependent) std::sort(keys.begin(), keys.end());
  return {position, q, std::move(keys)};
}

// The keys of S3_k in every arrangement (position dependent) or one (not).
std::vector<std::vector<Token>> s3_arrangements(const Token& a, const Token& b, int n, int k,
                                                bool position_dependent) {
  std::vector<Token> keys;
  for (int i = 0; i < k; ++i) keys.push_back(a);
  for (int i = k; i < n - 1; ++i) keys.push_back(b);
  std::sort(keys.begin(), keys.end());
  std::vector<std::vector<Token>> all{keys};
  if (position_dependent)
    while (std::next_permutation(keys.begin(), keys.end())) all.push_back(keys);
  return all;
}

struct Index {
  std::set<InstanceKey> present;
  std::map<std::pair<int, Token>, std::set<Token>> uniform;  // (pos, q) -> t with (q, t^(n-1))
  bool position_dependent = false;
  int n = 0;

  bool has(int pos, const Token& q, const std::vector<Token>& keys) const {
    return present.count(key_of(pos, q, keys, position_dependent)) > 0;
  }
  bool has_uniform(int pos, const Token& q, const Token& t) const {
    return has(pos, q, std::vector<Token>(static_cast<std::size_t>(n - 1), t));
  }
  // Every arrangement present (all = true) or at least one (all = false).
  bool has_s3(int pos, const Token& q, const Token& a, const Token& b, int k, bool all) const {
    bool any = false, every = true;
    for (const auto& keys : s3_arrangements(a, b, n, k, position_dependent)) {
      const bool p = has(pos, q, keys);
      any = any || p;
      every = every && p;
    }
    return all ? every : any;
  }
};

Index build_index(const Family& family, bool position_dependent) {
  Index index;
  index.position_dependent = position_dependent;
  index.n = family.n;
  for (const Instance& instance : family.instances) {
    const Token& q = instance.tokens[static_cast<std::size_t>(instance.query)];
    std::vector<Token> keys;
    for (std::size_t j = 0; j < instance.tokens.size(); ++j)
      if (static_cast<int>(j) != instance.query) keys.push_back(instance.tokens[j]);
    bool uniform = !keys.empty();
    for (const Token& t : keys) uniform = uniform && t == keys.front();
    if (uniform) index.uniform[{instance.query, q}].insert(keys.front());
    index.present.insert(key_of(instance.query, q, std::move(keys), position_dependent));
  }
  return index;
}

std::string step_text(const Token& q, const Token& a, const Token& b, int n, int k,
                      const char* which) {
  const std::string tq = q.to_string(), ta = a.to_string(), tb = b.to_string();
  if (std::string(which) == "S1")
    return "S1 = (" + tq + ", " + ta + "^" + std::to_string(n - 1) + ")";
  if (std::string(which) == "S2")
    return "S2 = (" + tq + ", " + tb + "^" + std::to_string(n - 1) + ")";
  return "S3_" + std::to_string(k) + " = (" + tq + ", " + ta + "^" + std::to_string(k) + ", " + tb +
         "^" + std::to_string(n - 1 - k) + ")";
}

// Best max-product chains within one (position, query) group.
struct Group {
  int position = 0;
  Token q;
  std::vector<Token> tokens;  // uniform tokens, sorted by overlap with q
  // best[s][t]: largest product of factors along a chain tokens[s] -> tokens[t],
  // with the step indices (into the analysis steps) of one optimal chain.
  std::vector<std::vector<std::optional<std::pair<Rational, std::vector<std::size_t>>>>> best;
  std::map<Token, std::size_t> position_of;
};

std::vector<Group> build_groups(const Index& index, const FamilyAnalysis& analysis) {
  std::map<std::pair<int, Token>, std::vector<std::size_t>> steps_by_group;
  for (std::size_t s = 0; s < analysis.steps.size(); ++s)
    steps_by_group[{analysis.steps[s].position, analysis.steps[s].q}].push_back(s);
  std::vector<Group> groups;
  for (const auto& [key, step_ids] : steps_by_group) {
    Group g;
    g.position = key.first;
    g.q = key.second;
    for (const Token& t : index.uniform.at(key)) g.tokens.push_back(t);
    std::stable_sort(g.tokens.begin(), g.tokens.end(),
                     [&](const Token& x, const Token& y) { return inner(g.q, x) < inner(g.q, y); });
    for (std::size_t i = 0; i < g.tokens.size(); ++i) g.position_of[g.tokens[i]] = i;
    const std::size_t T = g.tokens.size();
    // Best single step per (a, b) edge.
    std::vector<std::vector<std::optional<std::size_t>>> edge(
        T, std::vector<std::optional<std::size_t>>(T));
    for (std::size_t s : step_ids) {
      const FamilyStep& step = analysis.steps[s];
      auto& e = edge[g.position_of.at(step.a)][g.position_of.at(step.b)];
      if (!e || analysis.steps[*e].factor < step.factor) e = s;
    }
    g.best.assign(T, std::vector<std::optional<std::pair<Rational, std::vector<std::size_t>>>>(T));
    for (std::size_t src = 0; src < T; ++src) {
      g.best[src][src] = std::make_pair(Rational(1), std::vector<std::size_t>{});
      // Tokens are in increasing overlap, and every edge increases the overlap.
      for (std::size_t mid = src; mid < T; ++mid) {
        if (!g.best[src][mid]) continue;
        for (std::size_t dst = mid + 1; dst < T; ++dst) {
          if (!edge[mid][dst]) continue;
          const Rational value = g.best[src][mid]->first * analysis.steps[*edge[mid][dst]].factor;
          auto& slot = g.best[src][dst];
          if (!slot || value > slot->first) {
            std::vector<std::size_t> path = g.best[src][mid]->second;
            path.push_back(*edge[mid][dst]);
            slot = std::make_pair(value, std::move(path));
          }
        }
      }
    }
    groups.push_back(std::move(g));
  }
  return groups;
}

struct Candidate {
  std::size_t group;
  std::size_t token;  // index within the group
};

}  // namespace

FamilyAnalysis analyse_family(const Family& family, bool position_dependent) {
  if (family.n < 3)
    throw UsageError("domination steps need n >= 3 (the family has n=" + std::to_string(family.n) +
                     ")");
  const Index index = build_index(family, position_dependent);
  const int n = family.n;
  FamilyAnalysis analysis;
  std::set<std::tuple<int, Token, Token, Token, int>> reported;
  auto report = [&](int pos, const Token& q, const Token& a, const Token& b, int k) {
    if (!reported.insert({pos, q, a, b, k}).second) return;
    IncompletePattern p{pos, q, a, b, k, {}};
    if (!index.has_uniform(pos, q, a)) p.missing.push_back(step_text(q, a, b, n, k, "S1"));
    if (!index.has_uniform(pos, q, b)) p.missing.push_back(step_text(q, a, b, n, k, "S2"));
    if (!index.has_s3(pos, q, a, b, k, true))
      p.missing.push_back(step_text(q, a, b, n, k, "S3") +
                          (position_dependent ? " (some arrangement)" : ""));
    analysis.incomplete.push_back(std::move(p));
  };
  for (const auto& [key, tokens] : index.uniform) {
    const auto& [pos, q] = key;
    for (const Token& a : tokens) {
      for (const Token& b : tokens) {
        const int gap = inner(q, b) - inner(q, a);
        if (gap < 2) continue;
        bool any_step = false;
        for (int k = 1; k <= n - 2; ++k) {
          const Rational factor(static_cast<long>(n - 1 - k) * (gap - 1), k);
          if (factor < 1) continue;
          if (index.has_s3(pos, q, a, b, k, true)) {
            analysis.steps.push_back({pos, q, a, b, k, gap, factor});
            any_step = true;
          } else if (index.has_s3(pos, q, a, b, k, false)) {
            report(pos, q, a, b, k);  // some arrangements only
          }
        }
        (void)any_step;  // S1 and S2 without S3 is normal (pairs never meant as steps)
      }
    }
  }
  // S3-shaped instances whose S1 or S2 is missing.
  for (const Instance& instance : family.instances) {
    const Token& q = instance.tokens[static_cast<std::size_t>(instance.query)];
    std::map<Token, int> counts;
    for (std::size_t j = 0; j < instance.tokens.size(); ++j)
      if (static_cast<int>(j) != instance.query) ++counts[instance.tokens[j]];
    if (counts.size() != 2) continue;
    auto first = counts.begin(), second = std::next(counts.begin());
    const bool first_is_a = inner(q, first->first) < inner(q, second->first);
    const auto& a = first_is_a ? *first : *second;
    const auto& b = first_is_a ? *second : *first;
    const int gap = inner(q, b.first) - inner(q, a.first);
    if (gap < 2 || Rational(static_cast<long>(n - 1 - a.second) * (gap - 1), a.second) < 1)
      continue;
    if (!index.has_uniform(instance.query, q, a.first) ||
        !index.has_uniform(instance.query, q, b.first))
      report(instance.query, q, a.first, b.first, a.second);
  }
  return analysis;
}

std::vector<IncompletePattern> unsupported_steps(const Family& family,
                                                 const std::vector<FamilyStep>& steps,
                                                 bool position_dependent) {
  const Index index = build_index(family, position_dependent);
  const int n = family.n;
  std::vector<IncompletePattern> lost;
  for (const FamilyStep& step : steps) {
    IncompletePattern p{step.position, step.q, step.a, step.b, step.k, {}};
    if (!index.has_uniform(step.position, step.q, step.a))
      p.missing.push_back(step_text(step.q, step.a, step.b, n, step.k, "S1"));
    if (!index.has_uniform(step.position, step.q, step.b))
      p.missing.push_back(step_text(step.q, step.a, step.b, n, step.k, "S2"));
    if (!index.has_s3(step.position, step.q, step.a, step.b, step.k, true))
      p.missing.push_back(step_text(step.q, step.a, step.b, n, step.k, "S3"));
    if (!p.missing.empty()) lost.push_back(std::move(p));
  }
  return lost;
}

namespace {

// The shifted trace sum S(t) = sum_j floor(2^P (1-t)^2 / ((1-t)^2 + C_j)), C_j = sum_{i != j}
// max(t, 1/rho_ij - t)^2, from each column's distinct rho values and their counts.
Integer shifted_sum(const std::vector<std::map<Rational, std::uint64_t>>& columns,
                    const Rational& t, int precision) {
  Integer scale = 1;
  scale <<= static_cast<unsigned>(precision);
  const Rational diagonal = (1 - t) * (1 - t);
  Integer sum = 0;
  for (const auto& column : columns) {
    Rational c = 0;
    for (const auto& [rho, count] : column) {
      const Rational above = 1 / rho - t;
      const Rational e = above > t ? above : t;
      c += Rational(static_cast<long long>(count)) * e * e;
    }
    sum += floor_of(Rational(scale) * diagonal / (diagonal + c));
  }
  return sum;
}

// The best shift t = k/200 (k = 1..100; ties: the larger sum, then the smaller t) and its
// bound ceil(S / 2^P) - 1. The grid is a search, not part of the proof: the checker
// recomputes S for the t the certificate states.
RankBoundResult best_shifted_trace(const std::vector<std::vector<Rational>>& rho,
                                   RankBoundResult result) {
  const std::size_t N = rho.size();
  std::vector<std::map<Rational, std::uint64_t>> columns(N);
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = 0; j < N; ++j)
      if (i != j) ++columns[j][rho[i][j]];
  Integer scale = 1;
  scale <<= static_cast<unsigned>(result.precision);
  bool found = false;
  for (int k = 1; k <= 100; ++k) {
    const Rational t(k, 200);
    const Integer sum = shifted_sum(columns, t, result.precision);
    const Integer bound = (sum + scale - 1) / scale - 1;
    if (found && (bound < result.bound || (bound == result.bound && sum <= result.trace_sum)))
      continue;
    found = true;
    result.shift = t;
    result.trace_sum = sum;
    result.bound = bound;
  }
  result.applicable = result.bound >= 1;
  if (!result.applicable) result.reason = "the shifted trace value is below 2 for every shift";
  return result;
}

}  // namespace

RankBoundResult rank_bound_from_factors(const std::vector<std::vector<Rational>>& rho,
                                        BoundRule rule, int n, int precision) {
  const std::size_t N = rho.size();
  RankBoundResult result;
  result.rule = rule;
  result.n = n;
  result.rows = N;
  result.precision = precision;
  if (N == 0) {
    result.reason = "no rows";
    return result;
  }
  if (rule == BoundRule::ShiftedTrace) return best_shifted_trace(rho, std::move(result));
  if (rule == BoundRule::Trace) {
    Integer scale = 1;
    scale <<= static_cast<unsigned>(precision);
    Integer sum = 0;
    for (std::size_t j = 0; j < N; ++j) {
      Rational denominator_sum = 1;
      for (std::size_t i = 0; i < N; ++i)
        if (i != j) denominator_sum += 1 / (rho[i][j] * rho[i][j]);
      sum += floor_of(Rational(scale) / denominator_sum);
    }
    result.trace_sum = sum;
    result.applicable = true;
    result.bound = N >= 2 ? Integer(sum >> static_cast<unsigned>(precision)) + 1 : Integer(1);
    return result;
  }
  Rational worst = 0;
  for (std::size_t i = 0; i < N; ++i) {
    Rational row = 0;
    for (std::size_t j = 0; j < N; ++j)
      if (i != j) row += 1 / rho[i][j];
    worst = std::max(worst, row);
  }
  result.max_row_sum = worst;
  result.applicable = worst <= 1;
  if (result.applicable)
    result.bound = N;
  else
    result.reason = "a row has sum of 1/rho above 1";
  return result;
}

namespace {

// Greedy cliques of pairwise-linked rows from the 12 best-connected seeds, scored by the
// trace value in double precision: the score only proposes, the bound is exact.
std::vector<std::size_t> greedy_rows(
    const std::vector<std::vector<std::size_t>>& compatible,
    const std::function<double(std::size_t, std::size_t)>& weight) {
  const std::size_t C = compatible.size();
  auto score = [&](const std::vector<std::size_t>& rows) {
    double total = 0;
    for (std::size_t j : rows) {
      double c = 1;
      for (std::size_t i : rows)
        if (i != j) c += weight(i, j);
      total += 1 / c;
    }
    return total;
  };
  std::vector<std::size_t> order(C);
  for (std::size_t i = 0; i < C; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
    return compatible[x].size() > compatible[y].size();
  });
  std::vector<std::size_t> best_rows;
  double best_score = 0;
  for (std::size_t s = 0; s < std::min<std::size_t>(order.size(), 12); ++s) {
    std::vector<std::size_t> rows{order[s]};
    std::vector<std::size_t> pool = compatible[order[s]];
    double current = score(rows);
    while (!pool.empty()) {
      double best_gain = 1e-12;
      std::size_t pick = pool.size();
      for (std::size_t p = 0; p < pool.size(); ++p) {
        rows.push_back(pool[p]);
        const double value = score(rows);
        rows.pop_back();
        if (value - current > best_gain) best_gain = value - current, pick = p;
      }
      if (pick == pool.size()) break;
      const std::size_t chosen = pool[pick];
      rows.push_back(chosen);
      current += best_gain;
      std::vector<std::size_t> next;
      for (std::size_t p : pool)
        if (p != chosen && std::find(compatible[chosen].begin(), compatible[chosen].end(), p) !=
                               compatible[chosen].end())
          next.push_back(p);
      pool = std::move(next);
    }
    if (current > best_score) best_score = current, best_rows = rows;
  }
  return best_rows;
}

}  // namespace

namespace {

// Candidate rows (a group's query with one of its own tokens) and the chains between them.
struct CandidateGraph {
  const std::vector<Group>& groups;
  std::vector<Candidate> candidates;

  const Token& own(std::size_t c) const {
    return groups[candidates[c].group].tokens[candidates[c].token];
  }
  // factor(i -> j): chain from own(i) to own(j) under i's query, if any.
  const std::optional<std::pair<Rational, std::vector<std::size_t>>>* link(std::size_t i,
                                                                           std::size_t j) const {
    const Group& g = groups[candidates[i].group];
    const auto it = g.position_of.find(own(j));
    if (it == g.position_of.end() || own(i) == own(j)) return nullptr;
    const auto& slot = g.best[candidates[i].token][it->second];
    return slot ? &slot : nullptr;
  }
};

// The chosen rows, their chains and the steps the chains use, into `out`; returns rho.
std::vector<std::vector<Rational>> record_rows(const CandidateGraph& graph,
                                               const std::vector<std::size_t>& best_rows,
                                               FamilyBound& out) {
  const std::size_t N = best_rows.size();
  std::vector<std::vector<Rational>> rho(N, std::vector<Rational>(N, Rational(0)));
  std::map<std::size_t, std::size_t> step_index;  // analysis step -> output step
  for (std::size_t a = 0; a < N; ++a) {
    const Candidate& c = graph.candidates[best_rows[a]];
    out.rows.push_back(
        {graph.groups[c.group].position, graph.own(best_rows[a]), graph.groups[c.group].q});
  }
  for (std::size_t a = 0; a < N; ++a) {
    for (std::size_t b = 0; b < N; ++b) {
      if (a == b) continue;
      const auto& chain = **graph.link(best_rows[a], best_rows[b]);
      rho[a][b] = chain.first;
      FamilyChain fc{a, b, {}, chain.first};
      for (std::size_t s : chain.second) {
        auto it = step_index.find(s);
        if (it == step_index.end()) {
          it = step_index.emplace(s, out.steps.size()).first;
          out.steps.push_back(out.analysis.steps[s]);
        }
        fc.steps.push_back(it->second);
      }
      out.chains.push_back(std::move(fc));
    }
  }
  return rho;
}

}  // namespace

FamilyBound certify_family(const Family& family, bool position_dependent, int precision) {
  FamilyBound out;
  out.analysis = analyse_family(family, position_dependent);
  const int n = family.n;
  if (out.analysis.steps.empty()) {
    out.why_not.push_back(
        "the family supports no domination step: no query has S1 = (q, a^(n-1)), "
        "S2 = (q, b^(n-1)) and S3_k = (q, a^k, b^(n-1-k)) with gap <q,b> - <q,a> >= 2");
    if (!out.analysis.incomplete.empty())
      out.why_not.push_back(
          std::to_string(out.analysis.incomplete.size()) +
          " incomplete pattern(s): some of S1, S2 and S3_k present, at least one missing");
    return out;
  }
  const Index index = build_index(family, position_dependent);
  const std::vector<Group> groups = build_groups(index, out.analysis);
  CandidateGraph graph{groups, {}};
  for (std::size_t g = 0; g < groups.size(); ++g)
    for (std::size_t t = 0; t < groups[g].tokens.size(); ++t) graph.candidates.push_back({g, t});
  const std::size_t C = graph.candidates.size();
  if (C > 20'000) throw ResourceError("the family has more than 20,000 candidate rows; split it");
  std::vector<std::vector<std::size_t>> compatible(C);
  for (std::size_t i = 0; i < C; ++i)
    for (std::size_t j = 0; j < C; ++j)
      if (i != j && graph.link(i, j) && graph.link(j, i)) compatible[i].push_back(j);

  auto weight = [&](std::size_t i, std::size_t j) {
    const double f = (*graph.link(i, j))->first.convert_to<double>();
    return 1.0 / (f * f);
  };
  const std::vector<std::size_t> best_rows = greedy_rows(compatible, weight);
  if (best_rows.size() < 2) {
    out.why_not.push_back(
        "steps exist, but no two rows (q_i, c_i) are linked both ways: every pair of own "
        "tokens needs a chain from c_i to c_j under q_i and from c_j to c_i under q_j");
    return out;
  }
  // Exact bound on the chosen rows, with the steps the chains use.
  const std::vector<std::vector<Rational>> rho = record_rows(graph, best_rows, out);
  const RankBoundResult trace = rank_bound_from_factors(rho, BoundRule::Trace, n, precision);
  const RankBoundResult dominance =
      rank_bound_from_factors(rho, BoundRule::Dominance, n, precision);
  out.bound = dominance.applicable && dominance.bound > trace.bound ? dominance : trace;
  // The shifted rule needs entries >= 0 (the chains' pairs are used, so NK holds there) and
  // is proved for position-independent maps only; it is used only where it is stronger.
  if (!position_dependent) {
    const RankBoundResult shifted =
        rank_bound_from_factors(rho, BoundRule::ShiftedTrace, n, precision);
    if (shifted.applicable && shifted.bound > out.bound.bound) out.bound = shifted;
  }
  out.found = true;
  return out;
}

}  // namespace kernelrank
