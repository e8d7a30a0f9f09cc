// Rigorous evaluation of a RealHead (real_head.hpp) with ball arithmetic.
//
// Each output y is enclosed in [lo, hi], two dyadic rationals, computed with Arb at
// `precision` bits from the exact weights. An instance passes when the whole enclosure lies
// strictly inside the band, t - 1/2 < lo and hi < t + 1/2, and fails when it lies at or
// beyond an edge, lo >= t + 1/2 or hi <= t - 1/2 (|y - t| >= 1/2 fails, as in the exact
// path). Anything else is undecided at that precision: the undecided instances are
// evaluated again at twice the precision, up to max_precision. No floating-point value
// decides anything; the endpoints are compared exactly. Arb stays inside ball_eval.cpp.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/models/real_head.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

enum class BallVerdict { Passes, Fails, Undecided };
std::string to_string(BallVerdict verdict);

struct BallOutcome {
  Instance instance;
  int target = 0;
  Rational lo = 0, hi = 0;  // y in [lo, hi]; meaningless when `enclosed` is false
  bool enclosed = false;    // false: the ball was not finite (e.g. a denominator ball held 0)
  std::string output;       // Arb's decimal form of the ball, "[0.25 +/- 3.1e-20]"
  BallVerdict verdict = BallVerdict::Undecided;
  long precision = 0;  // bits of the evaluation that produced this outcome
  // |y - t| lies in [error_lo, error_hi] (when enclosed).
  Rational error_lo() const;
  Rational error_hi() const;
};

struct BallOptions {
  long precision = 64;        // bits of the first pass
  long max_precision = 4096;  // no pass above this many bits
  QueryMode mode = QueryMode::First;
  std::size_t max_listed = 10;  // failing and undecided instances to keep
  std::uint64_t instance_limit = 1ULL << 26;
  int threads = 1;  // the report does not depend on it
};

struct BallReport {
  std::string method;  // "family", "brute force"
  std::uint64_t instances = 0, passing = 0, failing = 0, undecided = 0;
  long final_precision = 0;                  // the highest precision a pass used
  std::map<long, std::uint64_t> decided_at;  // bits -> instances decided at that precision
  // Enclosure of max |y - t| over all enclosed instances: [max_error_lo, max_error_hi].
  std::optional<Rational> max_error_lo, max_error_hi;
  std::optional<BallOutcome> worst;                   // the instance with the largest error_hi
  std::vector<BallOutcome> failures, undecided_list;  // the first max_listed of each
  bool solves() const { return failing == 0 && undecided == 0; }
};

// "solves (decided rigorously)", "FAILS (decided rigorously)" or "undecided at P bits".
std::string verdict_text(const BallReport& report);

// A decimal rendering of an exact value (for display only), `digits` significant digits.
std::string decimal_text(const Rational& value, int digits = 12);

// One instance at one precision (the building block; tests use it directly).
BallOutcome evaluate_ball_instance(const RealHead& head, const Instance& instance, long precision);

// Sees each instance's final outcome once (decided, or undecided at max_precision) with its
// index in the task: from the worker threads, so concurrently when options.threads > 1, and
// not in index order (instances undecided at first come later).
using BallOutcomeSink = std::function<void(std::size_t index, const BallOutcome& outcome)>;

BallReport evaluate_ball_family(const RealHead& head, const Family& family,
                                const BallOptions& options, const BallOutcomeSink& sink = {});
// The cube task T(head.m, n) by brute force (m * n <= 62 and within instance_limit).
BallReport evaluate_ball_cube(const RealHead& head, int n, const BallOptions& options);

}  // namespace kernelrank
