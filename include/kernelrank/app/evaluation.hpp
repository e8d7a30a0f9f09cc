// The evaluation plan both front ends run (the CLI's eval, kernelrank.evaluate): which task
// (a family, all sequences over a token set, or the cube T(m,n)), which method (brute force,
// overlap profiles, or both with exact agreement required), and the ball-arithmetic path for
// heads with transcendental features. Task files are read once; their digests are taken from
// the bytes parsed. Messages name parameters as {family}, {tokens}, {profiles},
// {cross-check}, {precision}, {max-profile-work}, {m}, {n} (core/errors.hpp).
#pragma once

#include "kernelrank/app/head_source.hpp"
#include "kernelrank/eval/ball_eval.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/declared_class.hpp"

#include <memory>
#include <optional>
#include <string>

namespace kernelrank {

enum class EvalMethod { Auto, BruteForce, Profiles, CrossCheck };

struct EvalPlan {
  std::string family;    // a family file; or
  std::string tokens;    // a code file: every length-n sequence over its words; or the cube
  std::optional<int> m;  // the cube's width, 1..kMaxModelWidth (none: the model's)
  int n = 3;
  EvalMethod method = EvalMethod::Auto;  // the cube only
  EvalOptions options;                   // mode, failures listed, instance limit, threads, shard
  double max_profile_work = 0;           // the caller's limit (kDefaultMaxProfileWork)
  std::optional<long> precision, max_precision;  // ball arithmetic only (default 64, 4096 bits)
};

// An exact evaluation: the model, the summary, and the identity a partial result carries
// (task text, sources and their digests, model and class).
struct ExactEvaluation {
  std::unique_ptr<Model> model;
  EvalSummary summary;
  EvalIdentity id;
  bool cross_checked = false;  // brute force and profiles ran and agree exactly
};

// A head with transcendental features, decided with ball arithmetic.
struct BallEvaluation {
  std::string task;
  BallOptions options;
  BallReport report;
};

// Exactly one of the two is set.
struct Evaluation {
  std::optional<ExactEvaluation> exact;
  std::optional<BallEvaluation> ball;
};

// Checks the plan against the head (UsageError / DomainError), then evaluates. The head must
// not be a multi-head file (its own evaluator decides those).
Evaluation evaluate_plan(HeadSource& head, const EvalPlan& plan);

// The class lines of a ball-arithmetic head (softmax: NK; elu1, exp: PF).
Classification ball_head_class(const RealHead& head);

}  // namespace kernelrank
