#include "model_options.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/model_io.hpp"

namespace kernelrank::cli {

void add_model_options(CLI::App* command, ModelSource& source) {
  auto* file = command->add_option("--model", source.file, "Model file (text format or JSON)");
  auto* builtin = command->add_option("--builtin", source.builtin,
                                      "Built-in model: rank1-mean, softmax or product");
  file->excludes(builtin);
  command->add_option("--base", source.base, "Base B for softmax/product (exact number)")
      ->capture_default_str()
      ->each([&source](const std::string&) { source.base_given = true; });
}

std::unique_ptr<Model> load_model(const ModelSource& source, int m, int n) {
  if (source.base_given && source.builtin != "softmax" && source.builtin != "product")
    throw UsageError("--base applies only to --builtin softmax or product");
  if (!source.file.empty()) {
    auto model = read_model(source.file);
    if (m > 0 && model->width() != m)
      throw UsageError("model " + source.file + " has width m=" + std::to_string(model->width()) +
                       " but the task has m=" + std::to_string(m));
    return model;
  }
  if (source.builtin.empty())
    throw UsageError("choose a model with --model FILE or --builtin NAME");
  if (m < 1) throw UsageError("a built-in model needs the width --m");
  std::map<std::string, std::string> params;
  if (source.builtin == "rank1-mean") {
    params["n"] = std::to_string(n);
  } else {
    params["base"] = source.base;
  }
  return make_builtin_model(source.builtin, m, params);
}

}  // namespace kernelrank::cli
