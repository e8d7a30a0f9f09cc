// The counterexample pipeline (counterexample_job.hpp).
#include "kernelrank/app/counterexample_job.hpp"

#include "kernelrank/app/multi_head_eval.hpp"
#include "kernelrank/app/report_json.hpp"
#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/model_io.hpp"  // family_to_text

#include <nlohmann/json.hpp>

namespace kernelrank {
namespace {

// Several heads: no proof-guided path (L2 needs a single NK head), an exhaustive search.
CounterexampleOutcome multi_head_counterexample(const ModelFile& file,
                                                const CounterexampleRequest& request) {
  MultiHeadEvalRequest multi;
  multi.family = request.family;
  multi.m = request.m;
  multi.n = request.n;
  multi.failures = 1;
  const MultiHeadEvaluation run = evaluate_multi_head(file, multi);
  CounterexampleOutcome out;
  out.model = run.description;
  out.task = run.task;
  Counterexample& result = out.result;
  result.path = CounterexamplePath::Exhaustive;
  result.fallback_reason = "the proof-guided search (L2) needs a single NK head; " + file.name +
                           " has " + std::to_string(run.head_count) +
                           " heads, so the task is searched exhaustively";
  result.explanation = "exhaustive evaluation (" + run.report.method + ") of " +
                       run.report.instances.str() + " instances";
  if (!run.report.failures.empty())
    result.failing = run.report.failures.front();
  else
    result.exhaustive_solves = true;
  return out;
}

}  // namespace

CounterexampleOutcome run_counterexample(HeadSource& head, const CounterexampleRequest& request) {
  check_task_width(request.m);
  CounterexampleOutcome out;
  if (head.kind() == HeadKind::MultiHead) {
    out = multi_head_counterexample(*head.file(), request);
  } else if (!request.family.empty()) {
    const Family family = read_family(request.family);
    const std::unique_ptr<Model> model = head.take_exact(family.m, family.n);
    out.result = find_counterexample(*model, family, CounterexampleOptions{family.n});
    out.model = model->description();
    out.task = "family " + request.family;
  } else {
    const std::unique_ptr<Model> model = head.take_exact(request.m.value_or(0), request.n);
    out.result = find_counterexample(*model, CounterexampleOptions{request.n});
    out.model = model->description();
    out.task = "T(" + std::to_string(model->width()) + "," + std::to_string(request.n) + ")";
  }
  if (out.result.failing && !request.out.empty()) {
    const Instance& failing = out.result.failing->instance;
    write_file_atomically(request.out,
                          family_to_text(Family{failing.width(), failing.length(), {failing}}));
    out.out = request.out;
  }
  return out;
}

nlohmann::json counterexample_json(const CounterexampleOutcome& outcome) {
  const Counterexample& result = outcome.result;
  nlohmann::json json = {{"path", to_string(result.path)},
                         {"task", outcome.task},
                         {"model", outcome.model},
                         {"explanation", result.explanation},
                         {"fallback_reason", result.fallback_reason},
                         {"kernel_entries", result.kernel_entries},
                         {"solves", outcome.solves()}};
  if (result.failing) {
    json["failing"] = outcome_to_json(*result.failing);
    json["construction"] = result.construction;
    json["out"] = outcome.out.empty() ? nlohmann::json(nullptr) : nlohmann::json(outcome.out);
  }
  return json;
}

}  // namespace kernelrank
