// The phase-transition table of the seed paper (`kernelrank transition`,
// kernelrank.transition): rank 1 is exact at n = 1, 2 (L1); at n = 3 the certified lower
// bound, the one `bound` gives (bounds/bound_sources.hpp with the same default options: the
// best of every source, its certificate verified by the checker's library in memory), the
// best verified head and the 2^m positive-feature realisation (L6) above it, rank 1 failing
// and dense softmax (L5). Messages name parameters as {m} (core/errors.hpp).
#pragma once

#include "kernelrank/app/upper_job.hpp"
#include "kernelrank/bounds/bound_sources.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/softmax_base.hpp"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace kernelrank {

struct TransitionRequest {
  int m = 24;               // 2..4096
  std::string certificate;  // where to write the n = 3 lower bound's certificate ("": none)
};

struct TransitionResult {
  int m = 0;
  std::vector<EvalReport> rank1;  // rank1-mean at n = 1 and n = 2
  // The n = 3 lower bound: lower.best.certificate.bound() is the checker's number, and
  // lower.best.certificate.checker_status() the checker's status line on it.
  SourcedBound lower;
  std::string certificate_message;   // the sentence about the written certificate
  Integer upper;                     // the best verified head's r (layered), else 2^m
  std::optional<KnownHead> layered;  // the best verified layered head (NK class), if known
  EvalReport product;                // the product realisation (L6) on T(m,3)
  bool product_brute_force = false;
  EvalReport rank1_at_3;  // rank 1 on T(m,3): fails
  SoftmaxBaseResult softmax;
  bool consistent = false;  // every step came out as theory.md predicts
};

// DomainError for m outside 2..4096, DomainResourceError when T(m,3)'s overlap profiles
// are too much work. The lower bound's certificate is verified by the gate before anything
// else is evaluated, and written last when asked for.
TransitionResult run_transition(const TransitionRequest& request);

// The one JSON form of the result (the CLI prints it): m, the rows (n = 1, 2, then n = 3 with
// the checked lower bound, its checker status and the upper side), consistent.
nlohmann::json transition_json(const TransitionResult& result);

}  // namespace kernelrank
