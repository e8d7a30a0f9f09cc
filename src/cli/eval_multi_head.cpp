// See eval_multi_head.hpp.
#include "eval_multi_head.hpp"

#include "report_output.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/multi_head_eval.hpp"

#include <optional>

namespace kernelrank::cli {
namespace {

struct MultiHeadRun {
  std::string task;
  EvalReport report;
};

MultiHeadRun evaluate_request(const MultiHeadEvalRequest& request, const MultiHeadModel& model,
                              const EvalOptions& options) {
  MultiHeadRun run;
  if (!request.family.empty()) {
    const Family family = read_family(request.family);
    run.report = evaluate_multi_head_family(model, family, options);
    run.task = "family " + request.family + " (" + std::to_string(family.instances.size()) +
               " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) +
               ")";
  } else if (!request.tokens.empty()) {
    const Code code = read_code(request.tokens);
    run.report = evaluate_multi_head_token_set(model, code.words, request.n, options);
    run.task = "all length-" + std::to_string(request.n) + " sequences over the " +
               std::to_string(code.words.size()) + " tokens of " + request.tokens + " (mode " +
               request.mode + ")";
  } else {
    const int m = request.m > 0 ? request.m : model.width();
    run.report = evaluate_multi_head_cube(model, m, request.n, options);
    run.task = "cube task T(" + std::to_string(m) + "," + std::to_string(request.n) + ") (mode " +
               request.mode + ")";
  }
  return run;
}

MultiHeadModel multi_head_of(const ModelFile& file) {
  OpenedModel opened = open_model(file);
  if (!opened.multi_head) throw InternalError(file.name + " is not a multi-head model file");
  return std::move(*opened.multi_head);
}

EvalOptions options_of(const MultiHeadEvalRequest& request) {
  if (!request.single_head_options.empty()) {
    std::string names;
    for (const std::string& name : request.single_head_options)
      names += (names.empty() ? "" : ", ") + name;
    throw UsageError(request.model_file + " is a multi-head model; " + names +
                     (request.single_head_options.size() == 1 ? " applies" : " apply") +
                     " only to single heads");
  }
  if (request.n < 1) throw UsageError("--n must be at least 1");
  if (request.m > 0 && !request.family.empty())
    throw UsageError("--m applies to the cube task, not to --family");
  EvalOptions options;
  options.mode = parse_query_mode(request.mode);
  options.max_failures = request.failures;
  options.instance_limit = request.max_instances;
  return options;
}

// "PF (all feature entries are >= 0)" per head, and the feature counts.
nlohmann::json heads_json(const MultiHeadModel& model, std::string& human) {
  nlohmann::json heads = nlohmann::json::array();
  const std::vector<Classification> classes = model.classify();
  std::optional<std::vector<HeadFeatures>> features;
  std::string why_not;
  try {
    features = model.head_features();
  } catch (const ResourceError& e) {
    why_not = e.what();
  }
  for (std::size_t h = 0; h < model.head_count(); ++h) {
    nlohmann::json head = {{"description", model.head(h).description()},
                           {"class", to_string(classes[h].model_class)},
                           {"class_detail", classes[h].detail}};
    human += "head " + std::to_string(h + 1) + ":      " + model.head(h).description() + "\n" +
             "  class:     " + to_string(classes[h].model_class) + " (" + classes[h].detail + ")\n";
    if (features) {
      head["features"] = (*features)[h].count;
      head["features_from"] = (*features)[h].declared ? "declared" : "exact rank of the kernel";
    }
    heads.push_back(head);
  }
  human += "heads:       " + std::to_string(model.head_count()) + ", features: " +
           (features ? features_text(*features) : "not computed (" + why_not + ")") + "\n";
  return heads;
}

}  // namespace

int run_multi_head_eval(const MultiHeadEvalRequest& request, const ModelFile& file,
                        const GlobalOptions& global) {
  const EvalOptions options = options_of(request);
  const MultiHeadModel model = multi_head_of(file);
  const MultiHeadRun run = evaluate_request(request, model, options);
  std::string human = "task:        " + run.task + "\nmodel:       " + model.description() + "\n";
  nlohmann::json heads = heads_json(model, human);
  nlohmann::json json = {{"task", run.task},
                         {"model", {{"description", model.description()}, {"heads", heads}}},
                         {"report", report_to_json(run.report)}};
  std::size_t total = 0;
  bool all_counted = true;
  for (const auto& head : heads) {
    all_counted = all_counted && head.contains("features");
    if (head.contains("features")) total += head["features"].get<std::size_t>();
  }
  if (all_counted) json["model"]["features"] = total;
  const std::string report_text = report_to_text(run.report);
  human += report_text;
  if (run.report.negative_solved != 0 && report_text.find("negative") == std::string::npos)
    human += "negative:    " + run.report.negative_solved.str() +
             " solved instances have a negative denominator in some head, e.g. " +
             outcome_to_text(*run.report.negative_example) + "\n";
  if (!json["report"].contains("negative_solved"))
    json["report"]["negative_solved"] = run.report.negative_solved.str();
  emit(global, json, human);
  return run.report.solves() ? kExitOk : kExitNegative;
}

int run_multi_head_counterexample(const MultiHeadEvalRequest& request, const ModelFile& file,
                                  const std::string& out, const GlobalOptions& global) {
  EvalOptions options = options_of(request);
  options.max_failures = 1;
  const MultiHeadModel model = multi_head_of(file);
  const MultiHeadRun run = evaluate_request(request, model, options);
  const std::string reason = "the proof-guided search (L2) needs a single NK head; " +
                             request.model_file + " has " + std::to_string(model.head_count()) +
                             " heads, so the task is searched exhaustively";
  std::string human = "model: " + model.description() + "\ntask: " + run.task +
                      "\nproof-guided path: " + reason + "\n";
  nlohmann::json json = {{"path", "exhaustive"}, {"task", run.task}, {"fallback_reason", reason}};
  if (!run.report.failures.empty()) {
    const InstanceOutcome& failing = run.report.failures.front();
    human +=
        "found by the exhaustive path\nfailing instance:\n  " + outcome_to_text(failing) + "\n";
    json["failing"] = outcome_to_json(failing);
    if (!out.empty()) {
      Family one{failing.instance.width(), failing.instance.length(), {failing.instance}};
      write_file_atomically(out, family_to_text(one));
      human += "written to " + out + "\n";
    }
  } else {
    human += "no failing instance exists: exhaustive search over " + run.report.instances.str() +
             " instances found none (the model solves the task)\n";
    json["solves"] = true;
  }
  emit(global, json, human);
  return run.report.failures.empty() ? kExitNegative : kExitOk;
}

}  // namespace kernelrank::cli
