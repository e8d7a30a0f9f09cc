// Exact refutations of r <= 2 that need no solver: the L2 facts a task forces on every NK
// model that solves it, and the order argument over the query angles of a rank-2 kernel.
#pragma once

#include "kernelrank/bounds/rank_task.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {

// ---- The L2 consequence used by the order argument --------------------------
// In a task containing S1 = (q, a^(n-1)), S2 = (q, b^(n-1)) and S3_k =
// (q, a^k, b^(n-1-k)) with gap g = <q,b> - <q,a> >= 2 and
// (n-1-k)(g-1) >= k, every NK model solving it has alpha(q,a) > alpha(q,b)
// (docs/bounds.md, L2). Each fact records one such strict inequality.
struct DominationFact {
  std::uint32_t query = 0;
  std::uint32_t larger = 0;   // a
  std::uint32_t smaller = 0;  // b
  int gap = 0;
  int k = 1;  // which S3_k certifies it
};
std::vector<DominationFact> domination_facts(const RankTask& task);

// ---- The order argument (exact refutation of r <= 2, no solver) -------------
// For a nonnegative kernel of rank <= 2 (which has a nonnegative factorisation
// of size 2, Cohen-Rothblum), every query row is alpha(q, .) = <u_q, v_.> with
// u_q, v_z in the closed positive quadrant. For two keys a, b the sign of
// alpha(q,a) - alpha(q,b) = |u_q| (cos phi_q, sin phi_q).(v_a - v_b) changes at
// most once as the angle phi_q runs over [0, pi/2]. So the queries forcing
// alpha(q,a) > alpha(q,b) and those forcing the reverse are separated by a
// threshold angle: all of one set come strictly before all of the other.
// If no assignment of angles to queries meets every pair's separation, no
// rank-2 model solves the task. For rank 1 all angles coincide, so any pair
// with both sets nonempty refutes it.
struct PairSeparation {
  std::uint32_t a = 0, b = 0;           // a < b
  std::vector<std::uint32_t> prefer_a;  // queries with a fact alpha(q,a) > alpha(q,b)
  std::vector<std::uint32_t> prefer_b;
};
struct OrderArgument {
  bool applicable = false;  // NK with some used pair missing in the involved block: not applicable
  std::string reason;
  bool refuted = false;
  std::vector<PairSeparation> core;  // pairs whose separations alone are contradictory
  std::uint64_t nodes = 0;           // backtracking nodes explored
  std::string summary;
};
// Exact and self-contained (backtracking with cycle detection over the
// orientation of each pair); the core is minimised greedily and re-checked.
OrderArgument order_argument(const RankTask& task, int r, SearchClass search_class,
                             std::uint64_t node_limit = 50'000'000);
// Whether the separations of `pairs` admit a consistent order (exhaustive).
bool separations_consistent(const std::vector<PairSeparation>& pairs, std::size_t queries,
                            std::uint64_t& nodes, std::uint64_t node_limit);

}  // namespace kernelrank
