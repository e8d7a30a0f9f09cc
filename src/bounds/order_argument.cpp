// The L2 facts of a task and the order argument that refutes r <= 2 exactly (see
// order_argument.hpp for the maths).
#include "kernelrank/bounds/order_argument.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kernelrank {

// ---- domination facts ------------------------------------------------------------

std::vector<DominationFact> domination_facts(const RankTask& task) {
  // Index the instances of each row by key multiset for presence tests.
  struct VecHash {
    std::size_t operator()(const std::vector<std::uint32_t>& v) const {
      std::size_t h = 0xcbf29ce484222325ULL;
      for (std::uint32_t x : v) h = (h ^ x) * 0x100000001b3ULL;
      return h;
    }
  };
  std::vector<std::unordered_set<std::vector<std::uint32_t>, VecHash>> present(task.tokens.size());
  for (const RankInstance& inst : task.instances) present[inst.query].insert(inst.keys);
  const auto used = task.used_keys();
  const int n = task.n;
  std::vector<DominationFact> facts;
  if (n < 3) return facts;
  auto multiset = [n](std::uint32_t q, std::uint32_t a, int count_a, std::uint32_t b) {
    std::vector<std::uint32_t> keys{q};
    for (int i = 0; i < count_a; ++i) keys.push_back(a);
    for (int i = count_a; i < n - 1; ++i) keys.push_back(b);
    std::sort(keys.begin(), keys.end());
    return keys;
  };
  for (std::uint32_t q : task.rows()) {
    const auto& rowset = present[q];
    for (std::uint32_t a : used[q])
      for (std::uint32_t b : used[q]) {
        const int gap =
            inner(task.tokens[q], task.tokens[b]) - inner(task.tokens[q], task.tokens[a]);
        if (gap < 2) continue;
        // S1 = (q, a^(n-1)) and S2 = (q, b^(n-1)).
        if (!rowset.count(multiset(q, a, n - 1, b)) || !rowset.count(multiset(q, a, 0, b)))
          continue;
        for (int k = 1; k <= n - 2; ++k) {
          // factor (n-1-k)(g-1)/k >= 1 is needed for alpha(q,a) > alpha(q,b).
          if ((n - 1 - k) * (gap - 1) < k) break;
          if (rowset.count(multiset(q, a, k, b))) {
            facts.push_back({q, a, b, gap, k});
            break;
          }
        }
      }
  }
  return facts;
}

// ---- the order argument ------------------------------------------------------------

namespace {

// Strict-order graph over queries [0, queries) and one threshold node per pair.
class OrderGraph {
 public:
  explicit OrderGraph(std::size_t nodes) : out_(nodes) {}
  // Would edges from every x in `before` to t and from t to every y in `after`
  // close a cycle? That happens iff some y in `after` already reaches some x in `before`.
  bool closes_cycle(const std::vector<std::uint32_t>& before,
                    const std::vector<std::uint32_t>& after) {
    std::vector<char> target(out_.size(), 0);
    for (std::uint32_t x : before) target[x] = 1;
    std::vector<char> seen(out_.size(), 0);
    std::vector<std::size_t> stack(after.begin(), after.end());
    for (std::size_t y : stack) seen[y] = 1;
    while (!stack.empty()) {
      const std::size_t v = stack.back();
      stack.pop_back();
      if (target[v]) return true;
      for (std::size_t w : out_[v])
        if (!seen[w]) {
          seen[w] = 1;
          stack.push_back(w);
        }
    }
    return false;
  }
  void add(std::size_t threshold, const std::vector<std::uint32_t>& before,
           const std::vector<std::uint32_t>& after) {
    for (std::uint32_t x : before) out_[x].push_back(threshold);
    for (std::uint32_t y : after) out_[threshold].push_back(y);
  }
  void remove(std::size_t threshold, const std::vector<std::uint32_t>& before) {
    for (std::uint32_t x : before) out_[x].pop_back();
    out_[threshold].clear();
  }

 private:
  std::vector<std::vector<std::size_t>> out_;
};

struct OrderSearch {
  const std::vector<PairSeparation>& pairs;
  std::size_t queries;
  OrderGraph graph;
  std::uint64_t nodes = 0;
  std::uint64_t limit;
  bool exhausted = false;

  OrderSearch(const std::vector<PairSeparation>& p, std::size_t q, std::uint64_t l)
      : pairs(p), queries(q), graph(q + p.size()), limit(l) {}

  // Edges are added in LIFO order per node, so removal pops them again.
  bool extend(std::size_t i) {
    if (i == pairs.size()) return true;
    if (++nodes > limit) {
      exhausted = true;
      return false;
    }
    const PairSeparation& p = pairs[i];
    const std::size_t t = queries + i;
    for (int orientation = 0; orientation < 2; ++orientation) {
      const auto& before = orientation == 0 ? p.prefer_a : p.prefer_b;
      const auto& after = orientation == 0 ? p.prefer_b : p.prefer_a;
      if (graph.closes_cycle(before, after)) continue;
      graph.add(t, before, after);
      if (extend(i + 1)) return true;
      graph.remove(t, before);
      if (exhausted) return false;
    }
    return false;
  }
};

}  // namespace

bool separations_consistent(const std::vector<PairSeparation>& pairs, std::size_t queries,
                            std::uint64_t& nodes, std::uint64_t node_limit) {
  OrderSearch search(pairs, queries, node_limit);
  const bool found = search.extend(0);
  nodes += search.nodes;
  if (search.exhausted)
    throw ResourceError("order argument: more than " + std::to_string(node_limit) +
                        " search nodes");
  return found;
}

namespace {

// Key pairs whose order some queries force one way and others the reverse way.
std::vector<PairSeparation> opposite_preferences(const RankTask& task) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, PairSeparation> by_pair;
  for (const DominationFact& f : domination_facts(task)) {
    const std::uint32_t a = std::min(f.larger, f.smaller), b = std::max(f.larger, f.smaller);
    PairSeparation& p = by_pair[{a, b}];
    p.a = a;
    p.b = b;
    (f.larger == a ? p.prefer_a : p.prefer_b).push_back(f.query);
  }
  std::vector<PairSeparation> pairs;
  for (auto& [key, p] : by_pair)
    if (!p.prefer_a.empty() && !p.prefer_b.empty()) pairs.push_back(std::move(p));
  return pairs;
}

// Under NK the argument needs alpha >= 0 on the whole block (involved queries) x (involved
// keys), so that the block has a nonnegative rank-2 factorisation: the reason it has not.
std::optional<std::string> nk_block_gap(const RankTask& task,
                                        const std::vector<PairSeparation>& pairs) {
  const auto used = task.used_keys();
  std::set<std::uint32_t> queries, keys;
  for (const PairSeparation& p : pairs) {
    keys.insert(p.a);
    keys.insert(p.b);
    queries.insert(p.prefer_a.begin(), p.prefer_a.end());
    queries.insert(p.prefer_b.begin(), p.prefer_b.end());
  }
  for (std::uint32_t q : queries)
    for (std::uint32_t z : keys)
      if (!std::binary_search(used[q].begin(), used[q].end(), z))
        return "class NK and the pair (" + task.tokens[q].to_string() + ", " +
               task.tokens[z].to_string() +
               ") is not used by the task, so the kernel block need not be nonnegative";
  return std::nullopt;
}

}  // namespace

OrderArgument order_argument(const RankTask& task, int r, SearchClass search_class,
                             std::uint64_t node_limit) {
  OrderArgument result;
  if (r < 1 || r > 2) {
    result.reason = "the order argument concerns r = 1 and r = 2 only";
    return result;
  }
  std::vector<PairSeparation> pairs = opposite_preferences(task);
  if (search_class == SearchClass::NK) {
    if (std::optional<std::string> gap = nk_block_gap(task, pairs)) {
      result.reason = std::move(*gap);
      return result;
    }
  }
  result.applicable = true;
  if (pairs.empty()) {
    result.summary = "no pair of keys has queries forcing opposite orders";
    return result;
  }
  const std::size_t queries = task.tokens.size();
  if (r == 1) {
    // All rows proportional: one pair with both sides nonempty is contradictory.
    result.refuted = true;
    result.core.push_back(pairs.front());
    result.summary = "rank 1: every query row is a multiple of one vector, but " +
                     task.tokens[pairs.front().a].to_string() + " must outweigh " +
                     task.tokens[pairs.front().b].to_string() + " for query " +
                     task.tokens[pairs.front().prefer_a.front()].to_string() +
                     " and the reverse holds for query " +
                     task.tokens[pairs.front().prefer_b.front()].to_string();
    return result;
  }
  // Most constraining pairs first.
  std::stable_sort(
      pairs.begin(), pairs.end(), [](const PairSeparation& x, const PairSeparation& y) {
        return x.prefer_a.size() + x.prefer_b.size() > y.prefer_a.size() + y.prefer_b.size();
      });
  if (separations_consistent(pairs, queries, result.nodes, node_limit)) {
    result.summary = "the separations of " + std::to_string(pairs.size()) +
                     " key pairs admit a consistent angle order";
    return result;
  }
  // Greedy minimisation: drop each pair whose removal keeps the set contradictory.
  std::vector<PairSeparation> core = pairs;
  for (std::size_t i = core.size(); i-- > 0;) {
    std::vector<PairSeparation> trial = core;
    trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(i));
    if (!separations_consistent(trial, queries, result.nodes, node_limit)) core = std::move(trial);
  }
  // Re-check the final core from scratch (fail closed).
  std::uint64_t recheck = 0;
  if (separations_consistent(core, queries, recheck, node_limit))
    throw InternalError("order argument: the minimised core is consistent");
  result.nodes += recheck;
  result.refuted = true;
  result.core = std::move(core);
  result.summary = "rank 2: no order of the query angles separates the queries of " +
                   std::to_string(result.core.size()) + " key pairs (out of " +
                   std::to_string(pairs.size()) + " with opposite preferences)";
  return result;
}

}  // namespace kernelrank