// See multi_head_eval.hpp.
#include "kernelrank/app/multi_head_eval.hpp"

#include "kernelrank/app/head_source.hpp"
#include "kernelrank/app/report_json.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/multi_head_eval.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank {
namespace {

EvalOptions multi_head_options(const ModelFile& file, const MultiHeadEvalRequest& request) {
  if (!request.single_head_options.empty()) {
    std::string names;
    for (const std::string& name : request.single_head_options)
      names += (names.empty() ? "{" : ", {") + name + "}";
    throw DomainError(ParameterMessage::literal(file.name) + " is a multi-head model; " + names +
                      (request.single_head_options.size() == 1 ? " applies" : " apply") +
                      " only to single heads");
  }
  check_task_width(request.m);
  if (request.n < 1) throw DomainError("{n} must be at least 1");
  if (request.m && !request.family.empty())
    throw DomainError("{m} applies to the cube task, not to {family}");
  EvalOptions options;
  options.mode = request.mode;
  options.max_failures = request.failures;
  options.instance_limit = request.max_instances;
  return options;
}

MultiHeadModel multi_head_model(const ModelFile& file) {
  OpenedModel opened = open_model(file);
  if (!opened.multi_head) throw InternalError(file.name + " is not a multi-head model file");
  return std::move(*opened.multi_head);
}

}  // namespace

MultiHeadEvaluation evaluate_multi_head(const ModelFile& file,
                                        const MultiHeadEvalRequest& request) {
  const EvalOptions options = multi_head_options(file, request);
  const MultiHeadModel model = multi_head_model(file);
  MultiHeadEvaluation out;
  const std::string mode = " (mode " + to_string(request.mode) + ")";
  if (!request.family.empty()) {
    const Family family = read_family(request.family);
    out.report = evaluate_multi_head_family(model, family, options);
    out.task = "family " + request.family + " (" + std::to_string(family.instances.size()) +
               " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) +
               ")";
  } else if (!request.tokens.empty()) {
    const Code code = read_code(request.tokens);
    out.report = evaluate_multi_head_token_set(model, code.words, request.n, options);
    out.task = "all length-" + std::to_string(request.n) + " sequences over the " +
               std::to_string(code.words.size()) + " tokens of " + request.tokens + mode;
  } else {
    const int m = request.m.value_or(model.width());
    out.report = evaluate_multi_head_cube(model, m, request.n, options);
    out.task = "cube task T(" + std::to_string(m) + "," + std::to_string(request.n) + ")" + mode;
  }
  out.description = model.description();
  out.head_count = model.head_count();
  for (std::size_t h = 0; h < model.head_count(); ++h)
    out.head_descriptions.push_back(model.head(h).description());
  out.classes = model.classify();
  try {
    out.features = model.head_features();
  } catch (const ResourceError& e) {
    out.features_refused = e.what();
  }
  return out;
}

nlohmann::json multi_head_evaluation_json(const MultiHeadEvaluation& evaluation) {
  nlohmann::json heads = nlohmann::json::array();
  for (std::size_t h = 0; h < evaluation.head_count; ++h) {
    nlohmann::json head = {{"description", evaluation.head_descriptions[h]},
                           {"class", to_string(evaluation.classes[h].model_class)},
                           {"class_detail", evaluation.classes[h].detail}};
    if (evaluation.features) {
      head["features"] = (*evaluation.features)[h].count;
      head["features_from"] =
          (*evaluation.features)[h].declared ? "declared" : "exact rank of the kernel";
    }
    heads.push_back(head);
  }
  nlohmann::json model = {{"description", evaluation.description}, {"heads", heads}};
  if (evaluation.features) model["features"] = total_features(*evaluation.features);
  return {
      {"task", evaluation.task}, {"model", model}, {"report", report_to_json(evaluation.report)}};
}

}  // namespace kernelrank
