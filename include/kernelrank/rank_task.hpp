// The question "does a rank-r model of class NK / PF solve this task?" in the
// form the rank search works with (docs/search.md).
//
// Without position dependence an instance is fully described by its query token
// and the multiset of its n tokens (theory.md §2), so a task is deduplicated to
// "row instances": a query index, the sorted key multiset (which contains the
// query itself) and the target. T(m,3) has 2^(3m) ordered instances but only
// 2^m * (2^m + 1) * 2^m / 2 row instances (16,896 at m = 5), and the query
// mode does not matter for the cube: every (query, multiset containing it)
// arises in every mode.
//
// This file also holds the exact side of the search: assembling a candidate
// (U, V, F) into a tabular model, re-verifying it with the exact evaluator, and
// the exact "order argument" that refutes r <= 2 without any solver.
#pragma once

#include "kernelrank/evaluate.hpp"
#include "kernelrank/instance.hpp"
#include "kernelrank/model_forms.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

enum class SearchClass { NK, PF };
SearchClass parse_search_class(const std::string& text);  // "NK" | "PF"
std::string to_string(SearchClass search_class);

struct RankInstance {
  std::uint32_t query = 0;            // index into RankTask::tokens
  std::vector<std::uint32_t> keys;    // sorted multiset of all n tokens (query included)
  int target = 0;
  friend bool operator==(const RankInstance&, const RankInstance&) = default;
};

struct RankTask {
  int m = 0;
  int n = 3;
  QueryMode mode = QueryMode::First;
  bool cube = false;                  // the whole cube task T(m,n)
  std::vector<Token> tokens;          // cube: index i is Token::from_index(m, i)
  std::vector<RankInstance> instances;  // deduplicated, sorted by (query, keys)
  std::optional<Family> family;       // the original family (for exact re-verification)
  std::string description;            // "T(5,3)" or "family f.txt (120 instances)"
  // The family's file, when the task came from one: certificates name it by its digest.
  std::string family_file;
  std::string family_file_bytes;

  // Rows with at least one instance, in increasing order.
  std::vector<std::uint32_t> rows() const;
  // Keys used by row q (the union of its instances' keys), sorted.
  std::vector<std::vector<std::uint32_t>> used_keys() const;
};

// T(m,n) over the whole cube (1 <= m <= 8, 1 <= n <= 4, at most 2^22 row instances).
RankTask cube_rank_task(int m, int n = 3);
// A family: every token of every instance becomes a task token (sorted), and
// instances with the same query token and key multiset are merged.
RankTask family_rank_task(const Family& family, const std::string& name);
// The row instances of a subset, as an ordinary family (query first), for exact
// evaluation of partial models.
Family subset_family(const RankTask& task, const std::vector<std::size_t>& instance_ids);

// A candidate rank-r model: alpha(t_i, t_j) = <U[i], V[j]> and F[i][j], over the
// task tokens. Rows of U/F that no instance uses may be left zero.
struct RankModel {
  int r = 0;
  RationalMatrix query_features;  // U, |T| x r
  RationalMatrix key_features;    // V, |T| x r
  RationalMatrix readout;         // F, |T| x |T|
};

RationalMatrix kernel_table(const RankModel& model);
TabularModel to_tabular_model(const RankTask& task, const RankModel& model);
// The same model as kind=features (phiQ = U, phiK = V, v = one-hot, c = F row,
// e = 0), so that `kernelrank eval` sees the r features and classifies PF/NK.
std::string features_model_text(const RankTask& task, const RankModel& model,
                                const std::string& comment);

struct ModelCheck {
  bool solves = false;
  EvalReport report;            // exact evaluation on the original task
  std::size_t kernel_rank = 0;  // exact rank of the |T| x |T| kernel table
  bool rank_ok = false;         // kernel_rank <= r
  bool class_ok = false;        // PF: U, V >= 0 entrywise; NK: kernel >= 0 on every used pair
  std::string class_detail;
  bool passes() const { return solves && rank_ok && class_ok; }
};

// Exact re-verification: the cube by brute force over all 2^(nm) ordered
// instances (evaluate_cube, independent of the deduplication), a family with
// evaluate_family on the original family.
ModelCheck verify_rank_model(const RankTask& task, const RankModel& model, SearchClass search_class);
// Exact check on a subset of the row instances only (for partial models).
ModelCheck verify_rank_model_on(const RankTask& task, const std::vector<std::size_t>& instance_ids,
                                const RankModel& model, SearchClass search_class);

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
  int k = 1;                  // which S3_k certifies it
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
  std::uint32_t a = 0, b = 0;              // a < b
  std::vector<std::uint32_t> prefer_a;     // queries with a fact alpha(q,a) > alpha(q,b)
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
