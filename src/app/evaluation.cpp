// See evaluation.hpp.
#include "kernelrank/app/evaluation.hpp"

#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/core/text_input.hpp"

#include "check/sha256.hpp"  // the checker's SHA-256 names the task files in partial results

#include <utility>

namespace kernelrank {
namespace {

std::string digest(const std::string& bytes) { return krcheck::to_hex(krcheck::sha256(bytes)); }

std::uint64_t per_sequence(const EvalOptions& options, int n) {
  return options.mode == QueryMode::All ? static_cast<std::uint64_t>(n) : 1;
}

bool same_result(const EvalReport& a, const EvalReport& b) {
  return a.instances == b.instances && a.failing == b.failing && a.undefined == b.undefined &&
         a.max_error == b.max_error;
}

std::string cube_task(int m, int n, const EvalOptions& options) {
  return "cube task T(" + std::to_string(m) + "," + std::to_string(n) + ") (mode " +
         to_string(options.mode) + ")";
}

std::string family_task(const std::string& path, const Family& family) {
  return "family " + path + " (" + std::to_string(family.instances.size()) +
         " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) + ")";
}

// The cube T(m,n): brute force, overlap profiles, or both with exact agreement required.
void evaluate_cube_task(const EvalPlan& plan, ExactEvaluation& run) {
  const Model& model = *run.model;
  EvalIdentity& id = run.id;
  const int m = model.width();
  const int n = plan.n;
  const EvalOptions& options = plan.options;
  id.task = cube_task(m, n, options);
  const OverlapForm* form = model.overlap_form();
  const bool profiles_possible = form != nullptr && !model.position_dependent();
  const bool brute_possible = m <= 24 && static_cast<long double>(m) * n <= 62 &&
                              static_cast<long double>(std::uint64_t{1} << (m * n)) *
                                      static_cast<long double>(per_sequence(options, n)) <=
                                  static_cast<long double>(options.instance_limit);
  const bool cross_check = plan.method == EvalMethod::CrossCheck;
  if ((plan.method == EvalMethod::Profiles || cross_check) && !profiles_possible)
    throw DomainError("{profiles} needs a model that depends only on overlaps (a built-in)");
  const bool use_profiles =
      cross_check || plan.method == EvalMethod::Profiles ||
      (plan.method == EvalMethod::Auto && !brute_possible && profiles_possible);
  if (use_profiles)
    require_profile_work(m, n, plan.max_profile_work,
                         "; lower {m} or {n}, or raise {max-profile-work} to wait for it",
                         "; use a smaller {n}, or a family file ({family}) for longer sequences");
  if (cross_check) {
    const EvalReport brute = evaluate_cube(model, m, n, options);
    run.summary = evaluate_profiles_summary(*form, m, n, options, &id.blocks);
    if (!same_result(brute, summary_to_report(run.summary)))
      throw InternalError("brute force and overlap profiles disagree on " + id.task);
    run.cross_checked = true;
  } else if (use_profiles) {
    run.summary = evaluate_profiles_summary(*form, m, n, options, &id.blocks);
  } else {
    run.summary = evaluate_cube_summary(model, m, n, options, &id.blocks);
  }
  id.source = use_profiles ? "profiles" : "cube";
  id.m = m;
  id.n = n;
  id.mode = to_string(options.mode);
  Integer total = 1;
  total <<= static_cast<unsigned>(m) * static_cast<unsigned>(n);
  id.total_instances = (total * per_sequence(options, n)).str();
}

ExactEvaluation evaluate_exact(HeadSource& head, const EvalPlan& plan) {
  ExactEvaluation run;
  EvalIdentity& id = run.id;
  const EvalOptions& options = plan.options;
  if (!plan.family.empty()) {
    const std::string bytes = read_file_checked(plan.family);
    const Family family = parse_family(plan.family, bytes);
    run.model = head.take_exact(family.m, family.n);
    run.summary = evaluate_family_summary(*run.model, family, options, &id.blocks);
    id.task = family_task(plan.family, family);
    id.source = "family";
    id.source_sha256 = digest(bytes);
    id.m = family.m;
    id.n = family.n;
    id.mode = "family";
    id.total_instances = std::to_string(family.instances.size());
  } else if (!plan.tokens.empty()) {
    const std::string bytes = read_file_checked(plan.tokens);
    const Code code = parse_code(plan.tokens, bytes);
    run.model = head.take_exact(code.m, plan.n);
    run.summary = evaluate_token_set_summary(*run.model, code.words, plan.n, options, &id.blocks);
    id.task = "all length-" + std::to_string(plan.n) + " sequences over the " +
              std::to_string(code.words.size()) + " tokens of " + plan.tokens + " (mode " +
              to_string(options.mode) + ")";
    id.source = "tokens";
    id.source_sha256 = digest(bytes);
    id.m = code.m;
    id.n = plan.n;
    id.mode = to_string(options.mode);
    Integer total = 1;
    for (int i = 0; i < plan.n; ++i) total *= code.words.size();
    id.total_instances = (total * per_sequence(options, plan.n)).str();
  } else {
    run.model = head.take_exact(plan.m.value_or(0), plan.n);
    evaluate_cube_task(plan, run);
  }
  const Classification cls = reported_class(*run.model);  // the declared class, if any
  id.model_description = run.model->description();
  id.model_class = to_string(cls.model_class);
  id.class_detail = cls.detail;
  id.model_source = head.identity(id.m, id.n);
  id.model_sha256 = head.identity_sha256(id.m, id.n);
  return run;
}

BallEvaluation evaluate_ball(const RealHead& head, const EvalPlan& plan) {
  if (plan.m && *plan.m != head.m)
    throw DomainError("the head has width m=" + std::to_string(head.m) + " but {m} is " +
                      std::to_string(*plan.m));
  BallEvaluation run;
  BallOptions& ball = run.options;
  ball.precision = plan.precision.value_or(ball.precision);
  ball.max_precision = plan.max_precision.value_or(ball.max_precision);
  ball.mode = plan.options.mode;
  ball.max_listed = plan.options.max_failures;
  ball.instance_limit = plan.options.instance_limit;
  ball.threads = plan.options.threads;
  if (!plan.family.empty()) {
    const Family family = read_family(plan.family);
    run.task = family_task(plan.family, family);
    run.report = evaluate_ball_family(head, family, ball);
  } else {
    run.task = cube_task(head.m, plan.n, plan.options);
    run.report = evaluate_ball_cube(head, plan.n, ball);
  }
  return run;
}

// What a ball-arithmetic head cannot be asked for: each option the plan gives, by name.
void refuse_for_ball(const RealHead& head, const EvalPlan& plan) {
  std::string given;
  const auto add = [&given](bool set, const char* name) {
    if (set) given += std::string(given.empty() ? "" : ", ") + name;
  };
  add(!plan.tokens.empty(), "{tokens}");
  add(plan.method == EvalMethod::Profiles, "{profiles}");
  add(plan.method == EvalMethod::CrossCheck, "{cross-check}");
  add(!plan.options.shard.whole(), "{shard}");
  if (!given.empty())
    throw DomainError("a " + to_string(head.map) +
                      " head is evaluated with ball arithmetic, on a {family} or the cube only: "
                      "drop " +
                      given);
}

}  // namespace

Evaluation evaluate_plan(HeadSource& head, const EvalPlan& plan) {
  check_task_width(plan.m);
  if (plan.n < 1) throw DomainError("{n} must be at least 1");
  if (!plan.family.empty() && !plan.tokens.empty()) throw DomainError("{family} excludes {tokens}");
  if (head.kind() == HeadKind::MultiHead)
    throw InternalError("evaluate_plan on a multi-head model (a bug)");
  Evaluation result;
  if (head.kind() == HeadKind::Ball) {
    refuse_for_ball(head.ball_head(), plan);
    result.ball = evaluate_ball(head.ball_head(), plan);
    return result;
  }
  if (plan.precision || plan.max_precision)
    throw DomainError(
        "{precision} and {max-precision} apply to heads with transcendental features (elu1, "
        "exp, softmax)");
  result.exact = evaluate_exact(head, plan);
  return result;
}

Classification ball_head_class(const RealHead& head) {
  if (head.map == FeatureMap::Softmax) return {ModelClass::NonnegativeKernel, "exp(...) > 0"};
  return {ModelClass::PositiveFeatures, "the features are > 0"};
}

}  // namespace kernelrank
