#include "model_options.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/builtin_models.hpp"

namespace kernelrank::cli {
namespace {

void check_base(const ModelSource& source) {
  if (source.base_given && source.builtin != "softmax" && source.builtin != "product")
    throw UsageError("--base applies only to --builtin softmax or product");
}

}  // namespace

void add_model_options(CLI::App* command, ModelSource& source) {
  auto* file = command->add_option("--model", source.file, "Model file (text format or JSON)");
  auto* builtin = command->add_option("--builtin", source.builtin,
                                      "Built-in model: rank1-mean, softmax or product");
  file->excludes(builtin);
  command->add_option("--base", source.base, "Base B for softmax/product (exact number)")
      ->capture_default_str()
      ->each([&source](const std::string&) { source.base_given = true; });
}

std::unique_ptr<Model> take_exact_model(const ModelSource& source, OpenedModel& opened, int m) {
  check_base(source);
  require_model_width(source.file, opened.exact->width(), m);
  return std::move(opened.exact);
}

std::unique_ptr<Model> load_model(const ModelSource& source, int m, int n) {
  check_base(source);
  if (!source.file.empty()) {
    OpenOptions single;
    single.multi_head = false;
    OpenedModel opened = open_model(source.file, single);
    return take_exact_model(source, opened, m);
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
