// Min-IP targets, query modes and streaming enumeration of sequences.
#include "kernelrank/core/instance.hpp"

#include "kernelrank/core/errors.hpp"

#include <limits>

namespace kernelrank {

QueryMode parse_query_mode(std::string_view text) {
  if (text == "first") return QueryMode::First;
  if (text == "last") return QueryMode::Last;
  if (text == "all") return QueryMode::All;
  throw UsageError("query mode must be first, last or all, not '" + std::string(text) + "'");
}

std::string to_string(QueryMode mode) {
  switch (mode) {
    case QueryMode::First:
      return "first";
    case QueryMode::Last:
      return "last";
    case QueryMode::All:
      return "all";
  }
  return "?";
}

std::vector<int> query_positions(QueryMode mode, int n) {
  switch (mode) {
    case QueryMode::First:
      return {0};
    case QueryMode::Last:
      return {n - 1};
    case QueryMode::All: {
      std::vector<int> all(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) all[static_cast<std::size_t>(i)] = i;
      return all;
    }
  }
  return {0};
}

int min_ip_target(const Instance& instance) {
  const Token& q = instance.tokens.at(static_cast<std::size_t>(instance.query));
  int best = std::numeric_limits<int>::max();
  for (const Token& x : instance.tokens) best = std::min(best, inner(q, x));
  return best;
}

std::string to_string(const Instance& instance) {
  std::string text = "q=";
  text += std::to_string(instance.query + 1);
  for (const Token& x : instance.tokens) text += " " + x.to_string();
  return text;
}

std::uint64_t count_instances(std::uint64_t universe, int n, QueryMode mode, std::uint64_t limit) {
  if (n < 1) throw UsageError("length n must be at least 1");
  __extension__ unsigned __int128 count = mode == QueryMode::All ? static_cast<unsigned>(n) : 1U;
  for (int i = 0; i < n; ++i) {
    count *= universe;
    if (count > limit) {
      throw DomainResourceError("the task has more than " + std::to_string(limit) + " instances (" +
                                std::to_string(universe) + "^" + std::to_string(n) +
                                " sequences); use overlap profiles ({profiles}) for overlap-only "
                                "models, a family file, or raise {max-instances}");
    }
  }
  return static_cast<std::uint64_t>(count);
}

void for_each_sequence(std::uint64_t universe, int n, QueryMode mode,
                       const std::function<bool(const std::vector<std::uint32_t>&, int)>& visit) {
  if (universe == 0 || n < 1) return;
  if (universe > std::numeric_limits<std::uint32_t>::max())
    throw ResourceError("token universe too large to enumerate");
  const std::vector<int> queries = query_positions(mode, n);
  std::vector<std::uint32_t> indices(static_cast<std::size_t>(n), 0);
  const auto last = static_cast<std::uint32_t>(universe - 1);
  while (true) {
    for (int query : queries)
      if (!visit(indices, query)) return;
    int pos = n - 1;
    while (pos >= 0 && indices[static_cast<std::size_t>(pos)] == last) {
      indices[static_cast<std::size_t>(pos)] = 0;
      --pos;
    }
    if (pos < 0) return;
    ++indices[static_cast<std::size_t>(pos)];
  }
}

}  // namespace kernelrank
