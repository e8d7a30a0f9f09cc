// Upper bounds through layered heads (app/upper_job.hpp).
#include "kernelrank/app/upper_job.hpp"

#include "kernelrank/bounds/layered_search.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model_io.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>

namespace kernelrank {
namespace {

void check_request(int m, ModelClass model_class) {
  if (m < 1 || m > kMaxLayeredSearchWidth)
    throw DomainError("{m} must be in 1.." + std::to_string(kMaxLayeredSearchWidth) +
                      " for the layer-set search");
  if (model_class == ModelClass::Signed)
    throw DomainError("a layered head is of class PF or NK, not signed");
}

std::string layer_list(const std::vector<int>& layers) {
  std::string text;
  for (const int j : layers) text += (text.empty() ? "" : ", ") + std::to_string(j);
  return "{" + text + "}";
}

}  // namespace

CheckedHead check_layered_head(const LayeredHead& head, const std::vector<std::string>& comment) {
  const std::unique_ptr<Model> model = make_layered_model(head);
  EvalOptions options;
  options.max_failures = 1;
  const EvalReport report = evaluate_profiles(*model->overlap_form(), head.m, 3, options);
  if (!report.solves() || !report.max_error)
    throw InternalError("the layered head the producer made does not solve T(" +
                        std::to_string(head.m) + ",3) (a bug; nothing was written)");
  CheckedHead checked;
  checked.r = head.feature_count();
  checked.max_error = *report.max_error;
  checked.verified = verify_layered_head(layered_head_text(head, comment), checked.r);
  return checked;
}

std::string shipped_layered_head_path(int m, ModelClass model_class, const std::string& directory) {
  const std::string folder =
      directory.empty() ? std::string(KERNELRANK_INSTANCES_DIR) + "/upper" : directory;
  return folder + "/layered-m" + std::to_string(m) + "-" + to_string(model_class) + ".model";
}

std::optional<LayeredHead> shipped_layered_head(int m, ModelClass model_class,
                                                const std::string& directory) {
  const std::string path = shipped_layered_head_path(m, model_class, directory);
  if (!std::filesystem::is_regular_file(path)) return std::nullopt;
  const std::unique_ptr<Model> model = read_model(path);
  const LayeredHead* head = layered_head_of(*model);
  if (head == nullptr || head->m != m || head->model_class != model_class)
    throw InputError(path, 0,
                     "expected a layered head of width " + std::to_string(m) + " and class " +
                         to_string(model_class));
  return *head;
}

std::optional<KnownHead> best_known_head(int m, ModelClass model_class) {
  if (model_class == ModelClass::Signed) return std::nullopt;
  std::optional<KnownHead> best;
  std::vector<ModelClass> classes{ModelClass::PositiveFeatures};
  if (model_class == ModelClass::NonnegativeKernel) classes.push_back(model_class);
  for (const ModelClass head_class : classes) {
    std::optional<LayeredHead> head = shipped_layered_head(m, head_class);
    if (!head) continue;
    const Integer r = head->feature_count();
    if (best && best->head.feature_count() <= r) continue;
    CheckedHead checked = check_layered_head(*head, {});
    best =
        KnownHead{std::move(*head), std::move(checked), shipped_layered_head_path(m, head_class)};
  }
  if (best || m < 1 || m > kSearchWhenMissing) return best;
  LayeredSearchOptions options;
  options.m = m;
  options.model_class = model_class;
  const LayeredSearchResult found = search_layer_sets(options);
  if (!found.best || !found.best->head) return std::nullopt;
  CheckedHead checked = check_layered_head(*found.best->head, {});
  return KnownHead{*found.best->head, std::move(checked), ""};
}

UpperResult run_upper(const UpperRequest& request) {
  check_request(request.m, request.model_class);
  const auto start = std::chrono::steady_clock::now();
  LayeredSearchOptions options;
  options.m = request.m;
  options.model_class = request.model_class;
  options.lp_budget = request.lp_budget;
  options.progress = request.progress;
  LayeredSearchResult found = search_layer_sets(options);
  UpperResult result;
  result.m = request.m;
  result.model_class = request.model_class;
  result.optimal = found.optimal;
  result.lps = found.lps;
  result.refuted = found.refuted;
  if (found.best) {
    result.margin = found.best->margin;
    const LayeredHead& head = *found.best->head;
    const std::vector<std::string> comment = {
        "kernelrank upper: a layered head for T(" + std::to_string(head.m) + ",3), class " +
            to_string(head.model_class) + ", layers " + layer_list(head.layers),
        "found by the exact layer-set LP (docs/upper-bounds.md); " +
            std::string(found.optimal ? "every cheaper layer set was refuted"
                                      : "best found within the LP budget"),
        "LP margin t = " + to_string(found.best->margin) +
            (head.model_class == ModelClass::PositiveFeatures ? " (K(m) = 1)" : " (K(0) = 1)")};
    CheckedHead checked = check_layered_head(head, comment);
    result.r = checked.r;
    result.max_error = checked.max_error;
    result.head = head;
    if (!request.out.empty()) {
      result.message = write_verified_head(request.out, checked.verified);
      result.file = request.out;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

nlohmann::json upper_json(const UpperResult& u) {
  nlohmann::json json = {{"m", u.m},
                         {"class", to_string(u.model_class)},
                         {"lps", u.lps},
                         {"refuted", u.refuted},
                         {"seconds", u.seconds}};
  if (!u.head) {
    json["r"] = nullptr;
    json["file"] = nullptr;
    return json;
  }
  nlohmann::json layers = nlohmann::json::array(), coefficients = nlohmann::json::array();
  for (std::size_t i = 0; i < u.head->layers.size(); ++i) {
    layers.push_back(u.head->layers[i]);
    coefficients.push_back(to_string(u.head->coefficients[i]));
  }
  json["r"] = u.r.str();  // a string: r exceeds 2^53 from m = 56 on
  json["layers"] = layers;
  json["coefficients"] = coefficients;
  json["max_error"] = to_string(u.max_error);
  json["margin"] = to_string(u.margin);
  json["optimal"] = u.optimal;
  json["verified"] = true;  // check_layered_head ran the exact evaluator and the checker
  json["file"] = u.file.empty() ? nlohmann::json(nullptr) : nlohmann::json(u.file);
  return json;
}

}  // namespace kernelrank
