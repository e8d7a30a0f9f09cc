// Internal to the tabulated evaluation: how the instances of a tabulated task are
// enumerated, cut into blocks and walked. The exact engine (tabulated_eval.cpp) and its
// double-precision twin (tabulated_double.cpp) both run this one skeleton, with their own
// arithmetic as a policy, so the two loops cannot drift apart.
#pragma once

#include "kernelrank/eval/tabulated_eval.hpp"

#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/progress.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank::detail {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

// Instances are enumerated pass by pass (one pass per query position of the mode), then by
// the query's token u, then by the other positions' tokens in position order, each
// slowest-first: index = pass * U^n + u * U^(n-1) + sum_j key_j * U^(n-2-j).
struct Layout {
  std::size_t U = 0;
  int n = 0;
  int k = 0;                             // keys: positions other than the query
  std::vector<int> queries;              // query positions of the mode
  std::vector<std::vector<int>> others;  // per query position: the key positions, increasing
  bool fold = false;                 // position independent: multiset keys, one pass stands for all
  std::uint64_t passes = 1;          // passes walked
  std::uint64_t pass_factor = 1;     // instances each walked one stands for (times the orderings)
  std::vector<std::uint64_t> power;  // U^0 .. U^n
  std::uint64_t blocks = 0;          // (pass, u) when k <= 1, (pass, u, first key) otherwise
  int log2_u = -1;                   // U = 2^log2_u (the cube), else -1
};

Layout make_layout(const TabulatedModel& table, QueryMode mode, const EngineOptions& engine);
// The instance with a given enumeration index.
Instance instance_at(const Layout& layout, const std::vector<Token>& universe, std::uint64_t index);

// The smallest `cap` indices offered (a max-heap of the kept ones).
class FirstIndices {
 public:
  explicit FirstIndices(std::size_t cap) : cap_(cap) {}
  bool might_accept(std::uint64_t index) const {
    return cap_ > 0 && (heap_.size() < cap_ || index < heap_.front());
  }
  bool offer(std::uint64_t index) {
    if (!might_accept(index)) return false;
    heap_.push_back(index);
    std::push_heap(heap_.begin(), heap_.end());
    if (heap_.size() > cap_) {
      std::pop_heap(heap_.begin(), heap_.end());
      heap_.pop_back();
    }
    return true;
  }
  const std::vector<std::uint64_t>& items() const { return heap_; }

 private:
  std::size_t cap_;
  std::vector<std::uint64_t> heap_;
};

// Decoded block: pass, query token u, first key (k >= 2).
struct BlockPos {
  std::uint64_t pass = 0;
  std::size_t u = 0;
  std::size_t first = 0;
};

inline BlockPos decode_block(const Layout& layout, std::uint64_t block) {
  BlockPos pos;
  if (layout.log2_u >= 0) {  // the cube: shifts instead of divisions
    const std::uint64_t mask = layout.U - 1;
    if (layout.k >= 2) {
      pos.first = static_cast<std::size_t>(block & mask);
      block >>= layout.log2_u;
    }
    pos.u = static_cast<std::size_t>(block & mask);
    pos.pass = block >> layout.log2_u;
    return pos;
  }
  if (layout.k >= 2) {
    pos.first = static_cast<std::size_t>(block % layout.U);
    block /= layout.U;
  }
  pos.u = static_cast<std::size_t>(block % layout.U);
  pos.pass = block / layout.U;
  return pos;
}

// Walks the key tuples of one block. Policy provides
//   Sum; begin_row(pass, qp, u) -> Sum (the query's own term); add(Sum, d, z) -> Sum;
//   single(Sum, t, weight, index, keys) for n = 1;
//   segment(Sum, t, d, lo, hi, weight, first_weight, base, keys): the last key keys[d] = z
//   runs over [lo, hi), instance index base + z, weight `weight` except first_weight at lo.
// keys[0..d-1] are set when segment is called.
template <class Policy>
void walk_block(const Layout& layout, const std::uint16_t* overlap, const BlockPos& pos,
                Policy& policy, std::vector<std::uint32_t>& keys) {
  const std::size_t U = layout.U;
  const int k = layout.k;
  const int qp = layout.queries[static_cast<std::size_t>(pos.pass)];
  const std::uint16_t* ov = overlap + pos.u * U;
  const typename Policy::Sum self = policy.begin_row(pos.pass, qp, pos.u);
  const int t0 = ov[pos.u];
  // "Prefix numbers": (pass, u, keys so far) read as a number with base-U digits after the
  // pass; once all k keys are in, it is the instance's enumeration index.
  const std::uint64_t head = pos.pass * U + pos.u;
  if (keys.size() < static_cast<std::size_t>(std::max(k, 1)))
    keys.assign(static_cast<std::size_t>(std::max(k, 1)), 0);
  if (k == 0) {
    policy.single(self, t0, layout.pass_factor, head, keys);
    return;
  }
  if (k == 1) {
    policy.segment(self, t0, 0, 0, U, layout.pass_factor, layout.pass_factor, head * U, keys);
    return;
  }
  const bool fold = layout.fold;
  // rec(d, ...): keys[0..d-1] set; weight = pass_factor * orderings of keys[0..d-1]; run =
  // multiplicity of keys[d-1] among them.
  auto rec = [&](auto&& self_ref, int d, const typename Policy::Sum& sum, int t,
                 std::uint64_t weight, int run, std::uint64_t prefix) -> void {
    if (d == k - 1) {
      if (fold) {
        // Non-decreasing keys: z >= keys[d-1]; z = keys[d-1] repeats it (one ordering fewer).
        const std::size_t lo = keys[static_cast<std::size_t>(d) - 1];
        const u128 grown = static_cast<u128>(weight) * static_cast<u128>(k);
        policy.segment(sum, t, d, lo, U, static_cast<std::uint64_t>(grown),
                       static_cast<std::uint64_t>(grown / static_cast<u128>(run + 1)), prefix * U,
                       keys);
      } else {
        policy.segment(sum, t, d, 0, U, weight, weight, prefix * U, keys);
      }
      return;
    }
    const std::size_t start = fold ? keys[static_cast<std::size_t>(d) - 1] : 0;
    for (std::size_t z = start; z < U; ++z) {
      keys[static_cast<std::size_t>(d)] = static_cast<std::uint32_t>(z);
      std::uint64_t w = weight;
      int r = 1;
      if (fold) {
        r = z == keys[static_cast<std::size_t>(d) - 1] ? run + 1 : 1;
        w = static_cast<std::uint64_t>(static_cast<u128>(weight) * static_cast<u128>(d + 1) /
                                       static_cast<u128>(r));
      }
      self_ref(self_ref, d + 1, policy.add(sum, d, z), std::min<int>(t, ov[z]), w, r,
               prefix * U + z);
    }
  };
  keys[0] = static_cast<std::uint32_t>(pos.first);
  rec(rec, 1, policy.add(self, 0, pos.first), std::min<int>(t0, ov[pos.first]), layout.pass_factor,
      1, head * U + pos.first);
}

// Offers the failing instance(s) that a visited tuple stands for: with folding, every
// ordering of the keys and every query position of the mode, smallest indices first.
void offer_failure(const Layout& layout, FirstIndices& failures, std::uint64_t index,
                   const std::vector<std::uint32_t>& keys);

// Key-position tables of the current row, shared by the integer and double policies.
template <class Value>
struct RowTables {
  std::uint64_t pass = ~0ULL;
  std::size_t u = ~std::size_t{0};
  std::vector<const Value*> a, p;  // per key index d
  bool same(std::uint64_t next_pass, std::size_t next_u) const {
    return pass == next_pass && u == next_u;
  }
  // Points a[d] and p[d] at the kernel and product rows of query token `next_u` for each key
  // position of the pass, in tables laid out as TabulatedModel::block_offset says. Returns
  // false when they already point there.
  bool load(const TabulatedModel& table, const Layout& layout, std::uint64_t next_pass,
            std::size_t next_u, const Value* kernel, const Value* product) {
    if (same(next_pass, next_u)) return false;
    pass = next_pass;
    u = next_u;
    const int qb = table.position_dependent ? layout.queries[static_cast<std::size_t>(pass)] : 0;
    const std::vector<int>& keys = layout.others[static_cast<std::size_t>(pass)];
    a.resize(static_cast<std::size_t>(std::max(layout.k, 1)));
    p.resize(static_cast<std::size_t>(std::max(layout.k, 1)));
    for (int d = 0; d < layout.k; ++d) {
      const int kb = table.position_dependent ? keys[static_cast<std::size_t>(d)] : 0;
      const std::size_t off = table.block_offset(qb, kb, u);
      a[static_cast<std::size_t>(d)] = kernel + off;
      p[static_cast<std::size_t>(d)] = product + off;
    }
    return true;
  }
  // Where the query's own term (token u at the query position qp) sits in those tables.
  static std::size_t self_offset(const TabulatedModel& table, int qp, std::size_t u) {
    const int qb = table.position_dependent ? qp : 0;
    return table.block_offset(qb, qb, u) + u;
  }
};

// Runs body(worker, block) over the blocks the shard owns, on `threads` threads; each worker
// sees its blocks in increasing order (parallel_for hands tasks out in increasing order).
template <class Worker, class Make, class Body>
std::vector<Worker> run_blocks(std::uint64_t blocks, const Shard& shard, int threads,
                               const Make& make, const Body& body, const std::string& label) {
  const std::uint64_t first = shard.index - 1;
  const std::uint64_t owned = blocks > first ? (blocks - first + shard.count - 1) / shard.count : 0;
  threads = std::max(threads, 1);
  const std::uint64_t chunk =
      threads == 1 ? std::max<std::uint64_t>(owned, 1)
                   : std::max<std::uint64_t>(1, owned / (static_cast<std::uint64_t>(threads) * 64));
  const std::uint64_t tasks = (owned + chunk - 1) / chunk;
  std::vector<Worker> workers;
  const int used = static_cast<int>(std::min<std::uint64_t>(static_cast<std::uint64_t>(threads),
                                                            std::max<std::uint64_t>(tasks, 1)));
  workers.reserve(static_cast<std::size_t>(used));
  for (int w = 0; w < used; ++w) workers.push_back(make());
  Progress progress(label, owned);
  std::atomic<std::uint64_t> done{0};
  parallel_for(static_cast<std::size_t>(tasks), used, [&](std::size_t task, int w) {
    const std::uint64_t begin = static_cast<std::uint64_t>(task) * chunk;
    const std::uint64_t end = std::min(owned, begin + chunk);
    Worker& worker = workers[static_cast<std::size_t>(w)];
    // The shared counter is touched once per 256 blocks (an atomic add per block costs as
    // much as a short block).
    for (std::uint64_t j = begin; j < end; j += 256) {
      const std::uint64_t stop = std::min(end, j + 256);
      for (std::uint64_t i = j; i < stop; ++i) body(worker, first + i * shard.count);
      const std::uint64_t now = done.fetch_add(stop - j, std::memory_order_relaxed) + (stop - j);
      if (w == 0) progress.update(now);
    }
  });
  progress.complete();
  return workers;
}

}  // namespace kernelrank::detail
