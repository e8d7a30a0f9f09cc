// Row instances: the cube task and a family deduplicated to (query, key multiset, target),
// and the subset of a task as an ordinary family (see rank_task.hpp).
#include "kernelrank/bounds/rank_task.hpp"

#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace kernelrank {

SearchClass parse_search_class(const std::string& text) {
  if (text == "NK" || text == "nk") return SearchClass::NK;
  if (text == "PF" || text == "pf") return SearchClass::PF;
  throw DomainError("{class} must be NK or PF, not '" + ParameterMessage::literal(text) + "'");
}

std::string to_string(SearchClass search_class) {
  switch (search_class) {
    case SearchClass::PF:
      return "PF";
    case SearchClass::Signed:
      return "signed";
    case SearchClass::NK:
      break;
  }
  return "NK";
}

std::vector<std::uint32_t> RankTask::rows() const {
  std::vector<std::uint32_t> out;
  for (const RankInstance& inst : instances)
    if (out.empty() || out.back() != inst.query) out.push_back(inst.query);
  return out;
}

std::vector<std::vector<std::uint32_t>> RankTask::used_keys() const {
  std::vector<std::set<std::uint32_t>> sets(tokens.size());
  for (const RankInstance& inst : instances)
    sets[inst.query].insert(inst.keys.begin(), inst.keys.end());
  std::vector<std::vector<std::uint32_t>> out(tokens.size());
  for (std::size_t q = 0; q < tokens.size(); ++q) out[q].assign(sets[q].begin(), sets[q].end());
  return out;
}

namespace {

int target_of(const std::vector<Token>& tokens, std::uint32_t q,
              const std::vector<std::uint32_t>& keys) {
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
  if (m < 1 || m > 8)
    throw DomainError("{m} must be in 1..8 for the rank search (the cube has 2^m tokens)");
  if (n < 1 || n > 4) throw DomainError("{n} must be in 1..4 for the rank search");
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
  for (const Instance& inst : family.instances)
    token_set.insert(inst.tokens.begin(), inst.tokens.end());
  task.tokens.assign(token_set.begin(), token_set.end());
  std::unordered_map<Token, std::uint32_t, TokenHash> index;
  for (std::size_t i = 0; i < task.tokens.size(); ++i)
    index[task.tokens[i]] = static_cast<std::uint32_t>(i);
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
  task.description = "family " + name + " (" + std::to_string(family.instances.size()) +
                     " instances, " + std::to_string(task.instances.size()) +
                     " distinct query/multiset pairs)";
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

}  // namespace kernelrank
