// The enumeration and failure bookkeeping of the tabulated walk; see tabulated_walk.hpp.
#include "eval/tabulated_walk.hpp"

#include "kernelrank/core/errors.hpp"

#include <limits>

namespace kernelrank::detail {

Layout make_layout(const TabulatedModel& table, QueryMode mode, const EngineOptions& engine) {
  Layout layout;
  layout.U = table.universe;
  layout.n = table.n;
  layout.k = table.n - 1;
  layout.queries = query_positions(mode, table.n);
  for (int qp : layout.queries) {
    std::vector<int> keys;
    for (int j = 0; j < table.n; ++j)
      if (j != qp) keys.push_back(j);
    layout.others.push_back(std::move(keys));
  }
  layout.fold = engine.multiset && !table.position_dependent;
  layout.passes = layout.fold ? 1 : layout.queries.size();
  layout.pass_factor = layout.fold ? layout.queries.size() : 1;
  layout.power.assign(static_cast<std::size_t>(table.n) + 1, 1);
  for (int i = 1; i <= table.n; ++i) {
    const u128 next = static_cast<u128>(layout.power[static_cast<std::size_t>(i) - 1]) * layout.U;
    if (next > std::numeric_limits<std::uint64_t>::max())
      throw ResourceError("the task has more than 2^64 - 1 instances");
    layout.power[static_cast<std::size_t>(i)] = static_cast<std::uint64_t>(next);
  }
  const u128 blocks = static_cast<u128>(layout.passes) * layout.U * (layout.k >= 2 ? layout.U : 1);
  const u128 total = static_cast<u128>(layout.queries.size()) * layout.power.back();
  if (total > std::numeric_limits<std::uint64_t>::max())
    throw ResourceError("the task has more than 2^64 - 1 instances");
  layout.blocks = static_cast<std::uint64_t>(blocks);
  if (layout.U > 0 && (layout.U & (layout.U - 1)) == 0)
    for (layout.log2_u = 0; (std::size_t{1} << layout.log2_u) != layout.U; ++layout.log2_u) {
    }
  return layout;
}

// The instance with a given enumeration index.
Instance instance_at(const Layout& layout, const std::vector<Token>& universe,
                     std::uint64_t index) {
  const std::uint64_t pass = index / layout.power.back();
  std::uint64_t rest = index % layout.power.back();
  Instance instance;
  instance.query = layout.queries.at(static_cast<std::size_t>(pass));
  instance.tokens.assign(static_cast<std::size_t>(layout.n), Token());
  const std::uint64_t u = rest / layout.power[static_cast<std::size_t>(layout.k)];
  rest %= layout.power[static_cast<std::size_t>(layout.k)];
  instance.tokens[static_cast<std::size_t>(instance.query)] = universe[u];
  const std::vector<int>& keys = layout.others[static_cast<std::size_t>(pass)];
  for (int j = 0; j < layout.k; ++j) {
    const std::uint64_t p = layout.power[static_cast<std::size_t>(layout.k - 1 - j)];
    instance.tokens[static_cast<std::size_t>(keys[static_cast<std::size_t>(j)])] =
        universe[rest / p];
    rest %= p;
  }
  return instance;
}

void offer_failure(const Layout& layout, FirstIndices& failures, std::uint64_t index,
                   const std::vector<std::uint32_t>& keys) {
  // The visited (sorted) tuple has the smallest index of all the instances it stands for.
  if (!failures.might_accept(index)) return;
  if (!layout.fold || (layout.k < 2 && layout.pass_factor == 1)) {
    failures.offer(index);
    return;
  }
  const std::uint64_t per_pass = layout.power.back();
  const std::uint64_t head =
      index % per_pass / layout.power[static_cast<std::size_t>(layout.k)];  // u
  std::vector<std::uint32_t> perm(keys.begin(), keys.begin() + layout.k);
  for (std::uint64_t pass = 0; pass < layout.pass_factor; ++pass) {
    std::sort(perm.begin(), perm.end());
    do {
      std::uint64_t at = pass * per_pass + head * layout.power[static_cast<std::size_t>(layout.k)];
      for (int j = 0; j < layout.k; ++j)
        at += perm[static_cast<std::size_t>(j)] *
              layout.power[static_cast<std::size_t>(layout.k - 1 - j)];
      // Later orderings and later passes only have larger indices.
      if (!failures.offer(at)) return;
    } while (std::next_permutation(perm.begin(), perm.end()));
  }
}

}  // namespace kernelrank::detail
