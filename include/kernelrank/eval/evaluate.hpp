// Exact evaluation of a model on a family, on all sequences over a token set,
// on the cube task T(m,n) (brute force), or on overlap profiles (theory.md §5).
//
// Every path reports the same things: the exact maximum error max |y - t| (a
// rational), how many instances fail (|y - t| >= 1/2 or zero denominator), and
// the first failing instances with exact outputs and targets.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/model.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct InstanceOutcome {
  Instance instance;
  int target = 0;
  std::optional<Rational> output;  // nullopt: zero denominator, output undefined
  std::optional<Rational> error;   // |output - target|; nullopt when undefined
  // A denominator sum_j alpha(q, x_j) < 0 (signed kernels; for several heads, some head's).
  bool negative_denominator = false;
  // sum_j alpha(q, x_j) of a single head where the path computed it (evaluate_instance
  // does), for the report's negative-denominator example; nullopt otherwise.
  std::optional<Rational> denominator;

  bool fails() const;  // undefined, or error >= 1/2
};

// Exact output of one instance (throws ModelDomainError if the model does not
// define one of the tokens).
InstanceOutcome evaluate_instance(const Model& model, const Instance& instance);

struct EvalOptions {
  QueryMode mode = QueryMode::First;
  std::size_t max_failures = 10;              // failing instances to keep
  std::uint64_t instance_limit = 1ULL << 34;  // brute-force refusal threshold
  // Worker threads (resolve_threads: 0 = all hardware threads). Brute force, token sets
  // and profiles use them; families are evaluated on one thread (model files cache).
  // The report is the same for every value.
  int threads = 1;
  // Only the blocks b with b % K == k - 1 (eval_partial.hpp); whole() = everything.
  Shard shard;
};

struct EvalReport {
  std::string method;     // "family", "brute force", "token set", "profiles"
  Integer instances = 0;  // number of instances evaluated (weighted for profiles)
  Integer failing = 0;
  Integer undefined = 0;  // zero-denominator instances (counted in failing)
  // Largest error over the instances with a defined output; nullopt if none.
  std::optional<Rational> max_error;
  std::optional<InstanceOutcome> worst;   // an instance attaining max_error
  std::vector<InstanceOutcome> failures;  // the first max_failures failing instances
  // Signed kernels (theory.md §6): solved instances whose denominator is negative, and the
  // first of them. Always 0 in NK, where every denominator is >= 0.
  Integer negative_solved = 0;
  std::optional<InstanceOutcome> negative_example;

  bool solves() const { return failing == 0; }
  Rational error_rate() const;  // failing / instances (0 for an empty task)
};

EvalReport evaluate_family(const Model& model, const Family& family, const EvalOptions& options);

// The same, showing each instance's outcome (index into family.instances, in order) to
// `observe` as it is computed, so that a caller needing every outcome evaluates each once.
using OutcomeObserver = std::function<void(std::size_t, const InstanceOutcome&)>;
EvalReport evaluate_family(const Model& model, const Family& family, const EvalOptions& options,
                           const OutcomeObserver& observe);

// All length-n sequences over `universe` (n >= 1), every query of the mode.
EvalReport evaluate_token_set(const Model& model, const std::vector<Token>& universe, int n,
                              const EvalOptions& options);

// The cube task T(m,n) by brute force: all 2^(mn) sequences.
EvalReport evaluate_cube(const Model& model, int m, int n, const EvalOptions& options);
// The checks a brute-force walk of T(m,n) makes first (for a model of width model_width):
// m >= 1 and equal to the width, m <= 24 (else ResourceError suggesting `otherwise`), and
// the instance count within options.instance_limit.
// The checks every walk of a token set makes first: n >= 1, a nonempty set, every token of
// the model's width.
void check_token_set(int model_width, const std::vector<Token>& universe, int n);
void check_cube_walk(int model_width, int m, int n, const EvalOptions& options,
                     const std::string& otherwise);

// The cube task T(m,n) through overlap profiles (theory.md §5); needs a model
// whose kernel and readout depend only on (|q|, <q,z>) and no position.
// Failing instances are realised as concrete tokens. Counts are exact even when
// 2^(mn) is astronomically large.
EvalReport evaluate_profiles(const OverlapForm& form, int m, int n, const EvalOptions& options);

// Max error over profiles with query weight exactly w, for w = 0..max_weight
// (entry w); lets one run certify every m <= max_weight at once, because the
// profiles of T(m,n) are exactly those with w <= m. Entries are nullopt when a
// profile of that weight has a zero denominator.
std::vector<std::optional<Rational>> max_error_by_query_weight(const OverlapForm& form,
                                                               int max_weight, int n);

// Number of ordered instances of T(m,n) (query first) whose query has weight w
// and whose other n-1 overlaps form the given non-decreasing multiset.
Integer profile_instance_count(int m, int n, int w, const std::vector<int>& overlaps);
// A concrete instance with that profile: q = 1^w 0^(m-w), z_j = 1^(s_j) 0^(m-s_j).
Instance realise_profile(int m, int w, const std::vector<int>& overlaps, int query_position);
// Exact evaluation of an instance through an overlap form (tokens -> overlaps).
InstanceOutcome evaluate_with_form(const OverlapForm& form, const Instance& instance);

struct EvalSummary;  // eval_partial.hpp

// The same evaluations as mergeable summaries of the blocks options.shard owns
// (eval_partial.hpp); summary_to_report of a whole-task summary is the EvalReport above.
// `blocks` receives the number of blocks of the whole task.
EvalSummary evaluate_family_summary(const Model& model, const Family& family,
                                    const EvalOptions& options, std::uint64_t* blocks = nullptr);
EvalSummary evaluate_token_set_summary(const Model& model, const std::vector<Token>& universe,
                                       int n, const EvalOptions& options,
                                       std::uint64_t* blocks = nullptr);
EvalSummary evaluate_cube_summary(const Model& model, int m, int n, const EvalOptions& options,
                                  std::uint64_t* blocks = nullptr);
EvalSummary evaluate_profiles_summary(const OverlapForm& form, int m, int n,
                                      const EvalOptions& options, std::uint64_t* blocks = nullptr);

}  // namespace kernelrank
