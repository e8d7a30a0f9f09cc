// Turning a model below the certified bound into a concrete failing instance.
//
// Proof-guided path: evaluate the kernel on the rows of a bound construction
// (O(N^2) entries), find a pair with M[i][i] <= rho_ij M[i][j] (one must exist
// when the model is in NK and its rank is below the bound), walk that pair's
// chain to a link with alpha(q,z) <= f alpha(q,z'), and evaluate the link's
// S1, S2, S3 exactly: by L2 one of them fails. Fallback: exhaustive evaluation
// (the cube when small, overlap profiles, or the family), with progress.
#pragma once

#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model.hpp"

#include <optional>
#include <string>

namespace kernelrank {

enum class CounterexamplePath { ProofGuided, Exhaustive, None };
std::string to_string(CounterexamplePath path);

struct Counterexample {
  CounterexamplePath path = CounterexamplePath::None;
  std::optional<InstanceOutcome> failing;  // exact output and target
  std::string construction;                // rows used by the proof-guided path
  std::string explanation;                 // the violated ratio, chain link and inequality
  std::string fallback_reason;             // why the proof-guided path did not decide
  std::size_t kernel_entries = 0;          // kernel values the proof-guided path evaluated
  bool exhaustive_solves = false;          // exhaustive path: no failing instance exists
};

struct CounterexampleOptions {
  int n = 3;
  std::uint64_t exhaustive_limit = 1ULL << 28;  // instances for the exhaustive fallback
};

// On the cube task T(m,n) (m = model width).
Counterexample find_counterexample(const Model& model, const CounterexampleOptions& options);
// On an explicit family (proof-guided through the family's own steps first).
Counterexample find_counterexample(const Model& model, const Family& family,
                                   const CounterexampleOptions& options);

}  // namespace kernelrank
