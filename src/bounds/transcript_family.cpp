// The transcript bound of theory.md L7 on a family (see transcript.cpp for the cube):
// contexts and queries are read off the instances; a grid gives D exactly, any other
// family a clique of pairwise-conflicting contexts, checked before it is reported.
#include "kernelrank/bounds/transcript.hpp"
#include "kernelrank/core/binomial.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kernelrank {
namespace {

// ---- families ----------------------------------------------------------------------

using Cells = std::vector<std::pair<int, int>>;  // (query id, answer), sorted by query id

std::optional<int> answer_of(const Cells& cells, int query) {
  const auto it = std::lower_bound(cells.begin(), cells.end(), std::pair<int, int>{query, -1});
  if (it == cells.end() || it->first != query) return std::nullopt;
  return it->second;
}

// Some query present with both contexts answers differently.
bool conflict(const Cells& a, const Cells& b) {
  auto i = a.begin();
  auto j = b.begin();
  while (i != a.end() && j != b.end()) {
    if (i->first < j->first) {
      ++i;
    } else if (j->first < i->first) {
      ++j;
    } else {
      if (i->second != j->second) return true;
      ++i, ++j;
    }
  }
  return false;
}

struct ContextHash {
  std::size_t operator()(const std::vector<Token>& tokens) const {
    std::size_t h = tokens.size();
    for (const Token& t : tokens) h = h * 1000003u ^ TokenHash {}(t);
    return h;
  }
};

struct FamilyTable {
  std::vector<Token> queries;                                      // by id, first appearance
  std::vector<std::vector<Token>> contexts;                        // by id, first appearance
  std::vector<Cells> rows;                                         // by context id
  std::vector<std::vector<std::pair<std::size_t, int>>> by_query;  // (context, answer)
};

FamilyTable tabulate(const Family& family) {
  FamilyTable table;
  std::unordered_map<Token, int, TokenHash> query_id;
  std::unordered_map<std::vector<Token>, std::size_t, ContextHash> context_id;
  for (const Instance& instance : family.instances) {
    const Token& query = instance.tokens[instance.query];
    std::vector<Token> context;
    context.reserve(instance.tokens.size() - 1);
    for (int j = 0; j < instance.length(); ++j)
      if (j != instance.query) context.push_back(instance.tokens[j]);
    std::sort(context.begin(), context.end());
    const auto [q, new_query] = query_id.try_emplace(query, static_cast<int>(table.queries.size()));
    if (new_query) table.queries.push_back(query);
    const auto [c, new_context] = context_id.try_emplace(context, table.contexts.size());
    if (new_context) {
      table.contexts.push_back(std::move(context));
      table.rows.emplace_back();
    }
    table.rows[c->second].push_back({q->second, min_ip_target(instance)});
  }
  table.by_query.resize(table.queries.size());
  for (std::size_t c = 0; c < table.rows.size(); ++c) {
    Cells& cells = table.rows[c];
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    for (std::size_t i = 1; i < cells.size(); ++i)
      if (cells[i].first == cells[i - 1].first)  // the answer is a function of (q, K)
        throw InternalError("transcript: one (query, context) pair with two answers");
    for (const auto& [q, answer] : cells) table.by_query[q].push_back({c, answer});
  }
  return table;
}

// Greedy search for q queries whose answers take `values` values each in every
// combination, over contexts present with all of them. Queries are tried once each, most
// frequent first: a query that fails against the chosen set fails against any larger one
// (it would need every old combination with each of its values), so one pass suffices.
IndependentAnswers greedy_independent(const FamilyTable& table, int values,
                                      const std::vector<int>& query_order) {
  IndependentAnswers result;
  result.values = values;
  const std::size_t contexts = table.rows.size();
  std::vector<char> alive(contexts, 1);          // present with every chosen query, in range
  std::vector<std::uint64_t> code(contexts, 0);  // the combination, mixed radix `values`
  std::uint64_t alive_count = contexts;
  std::uint64_t combinations = 1;  // values^(chosen queries)
  std::vector<int> chosen;
  for (int q : query_order) {
    const auto& column = table.by_query[q];
    if (combinations > alive_count / static_cast<std::uint64_t>(values)) break;  // cannot grow
    // For each answer u of q: the combinations realised together with u.
    std::map<int, std::unordered_set<std::uint64_t>> realised;
    for (const auto& [c, answer] : column)
      if (alive[c]) realised[answer].insert(code[c]);
    std::vector<int> full;
    for (const auto& [answer, codes] : realised)
      if (codes.size() == combinations) full.push_back(answer);
    if (static_cast<int>(full.size()) < values) continue;
    full.resize(values);  // the smallest `values` of them
    std::vector<char> next_alive(contexts, 0);
    alive_count = 0;
    for (const auto& [c, answer] : column) {
      if (!alive[c]) continue;
      const auto it = std::find(full.begin(), full.end(), answer);
      if (it == full.end()) continue;
      next_alive[c] = 1;
      code[c] = code[c] * values + static_cast<std::uint64_t>(it - full.begin());
      ++alive_count;
    }
    alive.swap(next_alive);
    combinations *= values;
    chosen.push_back(q);
    result.value_sets.push_back(full);
  }
  result.queries = static_cast<int>(chosen.size());
  result.product = integer_power(static_cast<std::uint64_t>(values), chosen.size());
  for (int q : chosen) result.query_tokens.push_back(table.queries[q]);
  result.witness_contexts.assign(combinations, contexts);
  for (std::size_t c = 0; c < contexts; ++c)
    if (alive[c] && result.witness_contexts[code[c]] == contexts)
      result.witness_contexts[code[c]] = c;
  // Re-read every combination's answers from its witness context.
  for (std::uint64_t combo = 0; combo < combinations; ++combo) {
    const std::size_t c = result.witness_contexts[combo];
    if (c == contexts) throw InternalError("transcript: a combination has no witness context");
    std::uint64_t rest = combo;
    for (int i = result.queries - 1; i >= 0; --i) {
      const int expected = result.value_sets[i][rest % values];
      rest /= values;
      if (answer_of(table.rows[c], chosen[i]) != expected)
        throw InternalError("transcript: a witness context does not give its combination");
    }
  }
  result.verified = "enumerated";
  return result;
}

IndependentAnswers family_independent_answers(const FamilyTable& table) {
  std::vector<int> order(table.queries.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return table.by_query[a].size() > table.by_query[b].size();
  });
  int most_values = 1;
  for (const auto& column : table.by_query) {
    std::set<int> answers;
    for (const auto& cell : column) answers.insert(cell.second);
    most_values = std::max(most_values, static_cast<int>(answers.size()));
  }
  IndependentAnswers best;  // q = 0: product 1
  best.verified = "enumerated";
  if (!table.rows.empty()) best.witness_contexts = {0};
  for (int values = 2; values <= most_values; ++values) {
    IndependentAnswers found = greedy_independent(table, values, order);
    if (found.product > best.product) best = std::move(found);
  }
  return best;
}

// Greedy clique of the conflict graph: contexts in order of conflict degree (largest
// first, ties by first appearance), each kept when it conflicts with all kept so far,
// starting from `seed` (pairwise-conflicting already).
std::vector<std::size_t> greedy_clique(const FamilyTable& table,
                                       const std::vector<std::size_t>& order,
                                       std::vector<std::size_t> seed) {
  std::vector<char> in_clique(table.rows.size(), 0);
  for (std::size_t c : seed) in_clique[c] = 1;
  for (std::size_t c : order) {
    if (in_clique[c]) continue;
    bool all = true;
    for (std::size_t kept : seed)
      if (!conflict(table.rows[c], table.rows[kept])) {
        all = false;
        break;
      }
    if (all) {
      seed.push_back(c);
      in_clique[c] = 1;
    }
  }
  return seed;
}

// Greedy colouring in the same order: each context joins the first class it conflicts with
// no member of. Contexts of one class can share a transcript (the query side reads the
// answer common to the class), so the class count bounds the least number from above.
std::uint64_t greedy_colouring(const FamilyTable& table, const std::vector<std::size_t>& order) {
  std::vector<std::vector<std::size_t>> classes;
  for (std::size_t c : order) {
    bool placed = false;
    for (auto& members : classes) {
      bool compatible = true;
      for (std::size_t other : members)
        if (conflict(table.rows[c], table.rows[other])) {
          compatible = false;
          break;
        }
      if (compatible) {
        members.push_back(c);
        placed = true;
        break;
      }
    }
    if (!placed) classes.push_back({c});
  }
  return classes.size();
}

}  // namespace

FamilyTranscriptResult family_transcript_bound(const Family& family) {
  FamilyTranscriptResult result;
  result.m = family.m;
  result.n = family.n;
  result.instances = family.instances.size();
  FamilyTable table = tabulate(family);
  result.contexts = table.contexts.size();
  result.queries = table.queries.size();
  for (const Cells& cells : table.rows) result.pairs += cells.size();
  result.independent = family_independent_answers(table);
  result.independent_bits = log2_interval(result.independent.product);

  result.grid = true;  // vacuously so for an empty family (D = 0: nothing to send)
  for (const Cells& cells : table.rows)
    if (cells.size() != table.rows.front().size() ||
        !std::equal(cells.begin(), cells.end(), table.rows.front().begin(),
                    [](const auto& a, const auto& b) { return a.first == b.first; }))
      result.grid = false;
  if (result.grid) {
    // Every query meets every context: distinct rows need distinct transcripts and equal
    // rows can share one, so the count is exact.
    std::set<std::vector<int>> distinct;
    for (const Cells& cells : table.rows) {
      std::vector<int> answers;
      for (const auto& cell : cells) answers.push_back(cell.second);
      distinct.insert(std::move(answers));
    }
    result.answer_vectors = distinct.size();
    result.transcripts_upper = distinct.size();
    result.exact = true;
  } else {
    // Degrees, the clique and the colouring each compare at most every pair of contexts.
    const double work =
        3 * static_cast<double>(result.contexts - 1) * static_cast<double>(result.pairs);
    if (work > kMaxConflictWork)
      throw DomainResourceError(
          "the family has " + std::to_string(result.contexts) + " contexts in " +
          std::to_string(result.pairs) +
          " (query, context) pairs and is not a grid; comparing every pair of "
          "contexts would take about " +
          std::to_string(static_cast<long long>(work)) + " steps, above " +
          std::to_string(static_cast<long long>(kMaxConflictWork)) + "; use a smaller {family}");
    std::vector<std::uint64_t> degree(result.contexts, 0);
    for (std::size_t a = 0; a < result.contexts; ++a)
      for (std::size_t b = a + 1; b < result.contexts; ++b)
        if (conflict(table.rows[a], table.rows[b])) ++degree[a], ++degree[b];
    std::vector<std::size_t> order(result.contexts);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return degree[a] > degree[b]; });
    std::vector<std::size_t> plain = greedy_clique(table, order, {});
    std::vector<std::size_t> seeded =
        greedy_clique(table, order, result.independent.witness_contexts);
    if (seeded.size() > plain.size()) {
      result.clique = std::move(seeded);
      result.clique_source = "independent answers, extended greedily";
    } else {
      result.clique = std::move(plain);
      result.clique_source = "greedy";
    }
    for (std::size_t i = 0; i < result.clique.size(); ++i)
      for (std::size_t j = i + 1; j < result.clique.size(); ++j)
        if (!conflict(table.rows[result.clique[i]], table.rows[result.clique[j]]))
          throw InternalError("transcript: two contexts of the clique do not conflict");
    result.answer_vectors = result.clique.size();
    result.transcripts_upper = greedy_colouring(table, order);
    if (result.transcripts_upper < result.clique.size())
      throw InternalError("transcript: a colouring with fewer classes than a clique");
    result.exact = result.transcripts_upper == result.clique.size();
  }
  if (result.contexts > 0 && result.independent.product > result.answer_vectors)
    throw InternalError("transcript: more independent combinations than the transcript bound");
  result.bits = result.answer_vectors >= 1 ? log2_interval(result.answer_vectors) : Log2Interval{};
  result.context_tokens = std::move(table.contexts);
  return result;
}

}  // namespace kernelrank
