// Row instances, candidate models and their exact re-verification, and the
// order argument that refutes r <= 2 exactly (see rank_task.hpp for the maths).
#include "kernelrank/rank_task.hpp"

#include "kernelrank/errors.hpp"
#include "kernelrank/exact_rank.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kernelrank {

SearchClass parse_search_class(const std::string& text) {
  if (text == "NK" || text == "nk") return SearchClass::NK;
  if (text == "PF" || text == "pf") return SearchClass::PF;
  throw UsageError("--class must be NK or PF, not '" + text + "'");
}

std::string to_string(SearchClass search_class) {
  return search_class == SearchClass::PF ? "PF" : "NK";
}

std::vector<std::uint32_t> RankTask::rows() const {
  std::vector<std::uint32_t> out;
  for (const RankInstance& inst : instances)
    if (out.empty() || out.back() != inst.query) out.push_back(inst.query);
  return out;
}

std::vector<std::vector<std::uint32_t>> RankTask::used_keys() const {
  std::vector<std::set<std::uint32_t>> sets(tokens.size());
  for (const RankInstance& inst : instances) sets[inst.query].insert(inst.keys.begin(), inst.keys.end());
  std::vector<std::vector<std::uint32_t>> out(tokens.size());
  for (std::size_t q = 0; q < tokens.size(); ++q) out[q].assign(sets[q].begin(), sets[q].end());
  return out;
}

namespace {

int target_of(const std::vector<Token>& tokens, std::uint32_t q, const std::vector<std::uint32_t>& keys) {
  int best = tokens[q].weight();
  for (std::uint32_t z : keys) best = std::min(best, inner(tokens[q], tokens[z]));
  return best;
}

void sort_instances(std::vector<RankInstance>& instances) {
  std::sort(instances.begin(), instances.end(), [](const RankInstance& x, const RankInstance& y) {
    return x.query != y.query ? x.query < y.query : x.keys < y.keys;
  });
  instances.erase(std::unique(instances.begin(), instances.end()), instances.end());
}

}  // namespace

RankTask cube_rank_task(int m, int n) {
  if (m < 1 || m > 8) throw UsageError("--m must be in 1..8 for the rank search (the cube has 2^m tokens)");
  if (n < 1 || n > 4) throw UsageError("--n must be in 1..4 for the rank search");
  RankTask task;
  task.m = m;
  task.n = n;
  task.cube = true;
  task.description = "T(" + std::to_string(m) + "," + std::to_string(n) + ")";
  const std::uint32_t size = 1U << m;
  // Number of multisets of n-1 keys from 2^m tokens, times 2^m queries.
  long double count = size;
  for (int i = 0; i < n - 1; ++i) count = count * (size + i) / (i + 1);
  if (count > static_cast<long double>(1U << 22))
    throw ResourceError("T(" + std::to_string(m) + "," + std::to_string(n) + ") has about " +
                        std::to_string(static_cast<unsigned long long>(count)) +
                        " row instances; the rank search handles at most 2^22");
  for (std::uint32_t i = 0; i < size; ++i) task.tokens.push_back(Token::from_index(m, i));
  std::vector<std::uint32_t> rest(static_cast<std::size_t>(n - 1), 0);
  for (std::uint32_t q = 0; q < size; ++q) {
    // Non-decreasing sequences of n-1 key indices (multisets), odometer style.
    std::fill(rest.begin(), rest.end(), 0U);
    while (true) {
      RankInstance inst;
      inst.query = q;
      inst.keys = rest;
      inst.keys.push_back(q);
      std::sort(inst.keys.begin(), inst.keys.end());
      inst.target = target_of(task.tokens, q, inst.keys);
      task.instances.push_back(std::move(inst));
      int pos = n - 2;
      while (pos >= 0 && rest[static_cast<std::size_t>(pos)] == size - 1) --pos;
      if (pos < 0) break;
      const std::uint32_t next = rest[static_cast<std::size_t>(pos)] + 1;
      for (int j = pos; j < n - 1; ++j) rest[static_cast<std::size_t>(j)] = next;
    }
  }
  sort_instances(task.instances);
  return task;
}

RankTask family_rank_task(const Family& family, const std::string& name) {
  if (family.instances.empty()) throw UsageError("family " + name + " has no instances");
  RankTask task;
  task.m = family.m;
  task.n = family.n;
  task.cube = false;
  std::set<Token> token_set;
  for (const Instance& inst : family.instances) token_set.insert(inst.tokens.begin(), inst.tokens.end());
  task.tokens.assign(token_set.begin(), token_set.end());
  std::unordered_map<Token, std::uint32_t, TokenHash> index;
  for (std::size_t i = 0; i < task.tokens.size(); ++i) index[task.tokens[i]] = static_cast<std::uint32_t>(i);
  for (const Instance& inst : family.instances) {
    RankInstance row;
    row.query = index.at(inst.tokens[static_cast<std::size_t>(inst.query)]);
    for (const Token& x : inst.tokens) row.keys.push_back(index.at(x));
    std::sort(row.keys.begin(), row.keys.end());
    row.target = min_ip_target(inst);
    task.instances.push_back(std::move(row));
  }
  sort_instances(task.instances);
  task.family = family;
  task.description = "family " + name + " (" + std::to_string(family.instances.size()) + " instances, " +
                     std::to_string(task.instances.size()) + " distinct query/multiset pairs)";
  return task;
}

Family subset_family(const RankTask& task, const std::vector<std::size_t>& instance_ids) {
  Family family;
  family.m = task.m;
  family.n = task.n;
  for (std::size_t id : instance_ids) {
    const RankInstance& row = task.instances.at(id);
    Instance inst;
    inst.query = 0;
    inst.tokens.push_back(task.tokens[row.query]);
    bool skipped_query = false;
    for (std::uint32_t z : row.keys) {
      if (z == row.query && !skipped_query) {
        skipped_query = true;
        continue;
      }
      inst.tokens.push_back(task.tokens[z]);
    }
    family.instances.push_back(std::move(inst));
  }
  return family;
}

RationalMatrix kernel_table(const RankModel& model) {
  const std::size_t size = model.query_features.size();
  RationalMatrix kernel(size, RationalVector(size));
  for (std::size_t q = 0; q < size; ++q)
    for (std::size_t z = 0; z < size; ++z) {
      Rational sum = 0;
      for (int k = 0; k < model.r; ++k)
        sum += model.query_features[q][static_cast<std::size_t>(k)] * model.key_features[z][static_cast<std::size_t>(k)];
      kernel[q][z] = sum;
    }
  return kernel;
}

TabularModel to_tabular_model(const RankTask& task, const RankModel& model) {
  return TabularModel(task.m, task.tokens, kernel_table(model), model.readout);
}

std::string features_model_text(const RankTask& task, const RankModel& model, const std::string& comment) {
  const std::size_t size = task.tokens.size();
  std::string out;
  for (std::size_t start = 0; start < comment.size();) {
    const std::size_t end = comment.find('\n', start);
    out += "# " + comment.substr(start, end == std::string::npos ? std::string::npos : end - start) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  out += "# Feature form of the same model: alpha(q,z) = <phiQ(q), phiK(z)>, v(z) = one-hot of z,\n";
  out += "# c(q) = the readout row F_q, e = 0, so F_q(z) = <c(q), v(z)>.\n";
  out += "kernelrank-model 1 kind=features m=" + std::to_string(task.m) + " r=" + std::to_string(model.r) +
         " d=" + std::to_string(size) + "\n";
  for (std::size_t i = 0; i < size; ++i) {
    out += "token " + task.tokens[i].to_string() + " phiQ";
    for (const Rational& x : model.query_features[i]) out += " " + to_string(x);
    out += " phiK";
    for (const Rational& x : model.key_features[i]) out += " " + to_string(x);
    out += " v";
    for (std::size_t j = 0; j < size; ++j) out += j == i ? " 1" : " 0";
    out += " c";
    for (const Rational& x : model.readout[i]) out += " " + to_string(x);
    out += " e 0\n";
  }
  return out;
}

namespace {

void check_shape(const RankTask& task, const RankModel& model) {
  const std::size_t size = task.tokens.size();
  const auto r = static_cast<std::size_t>(model.r);
  bool ok = model.r >= 1 && model.query_features.size() == size && model.key_features.size() == size &&
            model.readout.size() == size;
  for (std::size_t i = 0; ok && i < size; ++i)
    ok = model.query_features[i].size() == r && model.key_features[i].size() == r && model.readout[i].size() == size;
  if (!ok) throw InternalError("rank model has the wrong shape for the task");
}

void check_class(const RankTask& task, const RankModel& model, const RationalMatrix& kernel,
                 SearchClass search_class, ModelCheck& check) {
  if (search_class == SearchClass::PF) {
    for (std::size_t i = 0; i < task.tokens.size(); ++i)
      for (int k = 0; k < model.r; ++k)
        for (const RationalMatrix* table : {&model.query_features, &model.key_features}) {
          const Rational& x = (*table)[i][static_cast<std::size_t>(k)];
          if (x < 0) {
            check.class_ok = false;
            check.class_detail = std::string(table == &model.query_features ? "phiQ(" : "phiK(") +
                                 task.tokens[i].to_string() + ")[" + std::to_string(k + 1) + "] = " + to_string(x) + " < 0";
            return;
          }
        }
    check.class_ok = true;
    check.class_detail = "PF: all " + std::to_string(2 * task.tokens.size() * static_cast<std::size_t>(model.r)) +
                         " feature entries are >= 0";
    return;
  }
  const auto used = task.used_keys();
  std::size_t pairs = 0;
  for (std::size_t q = 0; q < used.size(); ++q)
    for (std::uint32_t z : used[q]) {
      ++pairs;
      if (kernel[q][z] < 0) {
        check.class_ok = false;
        check.class_detail = "alpha(" + task.tokens[q].to_string() + ", " + task.tokens[z].to_string() +
                             ") = " + to_string(kernel[q][z]) + " < 0 on a used pair";
        return;
      }
    }
  check.class_ok = true;
  check.class_detail = "NK: kernel >= 0 on all " + std::to_string(pairs) + " used (query, key) pairs";
}

}  // namespace

ModelCheck verify_rank_model(const RankTask& task, const RankModel& model, SearchClass search_class) {
  check_shape(task, model);
  ModelCheck check;
  const RationalMatrix kernel = kernel_table(model);
  const TabularModel tabular(task.m, task.tokens, kernel, model.readout);
  EvalOptions options;
  options.mode = task.mode;
  check.report = task.cube ? evaluate_cube(tabular, task.m, task.n, options)
                           : evaluate_family(tabular, *task.family, options);
  check.solves = check.report.solves();
  check.kernel_rank = exact_rank(kernel);
  check.rank_ok = check.kernel_rank <= static_cast<std::size_t>(model.r);
  check_class(task, model, kernel, search_class, check);
  return check;
}

ModelCheck verify_rank_model_on(const RankTask& task, const std::vector<std::size_t>& instance_ids,
                                const RankModel& model, SearchClass search_class) {
  check_shape(task, model);
  ModelCheck check;
  const RationalMatrix kernel = kernel_table(model);
  const TabularModel tabular(task.m, task.tokens, kernel, model.readout);
  check.report = evaluate_family(tabular, subset_family(task, instance_ids), EvalOptions{});
  check.solves = check.report.solves();
  check.kernel_rank = exact_rank(kernel);
  check.rank_ok = check.kernel_rank <= static_cast<std::size_t>(model.r);
  // The class is checked on the pairs the subset uses.
  RankTask sub = task;
  sub.instances.clear();
  for (std::size_t id : instance_ids) sub.instances.push_back(task.instances.at(id));
  check_class(sub, model, kernel, search_class, check);
  return check;
}

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
        const int gap = inner(task.tokens[q], task.tokens[b]) - inner(task.tokens[q], task.tokens[a]);
        if (gap < 2) continue;
        // S1 = (q, a^(n-1)) and S2 = (q, b^(n-1)).
        if (!rowset.count(multiset(q, a, n - 1, b)) || !rowset.count(multiset(q, a, 0, b))) continue;
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
  bool closes_cycle(const std::vector<std::uint32_t>& before, const std::vector<std::uint32_t>& after) {
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
  void add(std::size_t threshold, const std::vector<std::uint32_t>& before, const std::vector<std::uint32_t>& after) {
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

bool separations_consistent(const std::vector<PairSeparation>& pairs, std::size_t queries, std::uint64_t& nodes,
                            std::uint64_t node_limit) {
  OrderSearch search(pairs, queries, node_limit);
  const bool found = search.extend(0);
  nodes += search.nodes;
  if (search.exhausted) throw ResourceError("order argument: more than " + std::to_string(node_limit) + " search nodes");
  return found;
}

OrderArgument order_argument(const RankTask& task, int r, SearchClass search_class, std::uint64_t node_limit) {
  OrderArgument result;
  if (r < 1 || r > 2) {
    result.reason = "the order argument concerns r = 1 and r = 2 only";
    return result;
  }
  const std::vector<DominationFact> facts = domination_facts(task);
  std::map<std::pair<std::uint32_t, std::uint32_t>, PairSeparation> by_pair;
  for (const DominationFact& f : facts) {
    const std::uint32_t a = std::min(f.larger, f.smaller), b = std::max(f.larger, f.smaller);
    PairSeparation& p = by_pair[{a, b}];
    p.a = a;
    p.b = b;
    (f.larger == a ? p.prefer_a : p.prefer_b).push_back(f.query);
  }
  std::vector<PairSeparation> pairs;
  for (auto& [key, p] : by_pair)
    if (!p.prefer_a.empty() && !p.prefer_b.empty()) pairs.push_back(std::move(p));
  // NK: the argument needs alpha >= 0 on the whole block (involved queries) x
  // (involved keys), so that the block has a nonnegative rank-2 factorisation.
  if (search_class == SearchClass::NK) {
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
        if (!std::binary_search(used[q].begin(), used[q].end(), z)) {
          result.reason = "class NK and the pair (" + task.tokens[q].to_string() + ", " + task.tokens[z].to_string() +
                          ") is not used by the task, so the kernel block need not be nonnegative";
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
    result.summary = "rank 1: every query row is a multiple of one vector, but " + task.tokens[pairs.front().a].to_string() +
                     " must outweigh " + task.tokens[pairs.front().b].to_string() + " for query " +
                     task.tokens[pairs.front().prefer_a.front()].to_string() + " and the reverse holds for query " +
                     task.tokens[pairs.front().prefer_b.front()].to_string();
    return result;
  }
  // Most constraining pairs first.
  std::stable_sort(pairs.begin(), pairs.end(), [](const PairSeparation& x, const PairSeparation& y) {
    return x.prefer_a.size() + x.prefer_b.size() > y.prefer_a.size() + y.prefer_b.size();
  });
  if (separations_consistent(pairs, queries, result.nodes, node_limit)) {
    result.summary = "the separations of " + std::to_string(pairs.size()) + " key pairs admit a consistent angle order";
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
  result.summary = "rank 2: no order of the query angles separates the queries of " + std::to_string(result.core.size()) +
                   " key pairs (out of " + std::to_string(pairs.size()) + " with opposite preferences)";
  return result;
}

}  // namespace kernelrank
