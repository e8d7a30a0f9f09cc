#include "model_options.hpp"

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

HeadRequest head_request(const ModelSource& source) {
  HeadRequest request;
  request.path = source.file;
  request.builtin = source.builtin;
  if (source.base_given) request.base = source.base;
  request.ball_heads = false;
  request.multi_head = false;
  return request;
}

std::unique_ptr<Model> load_model(const ModelSource& source, int m, int n) {
  return open_head(head_request(source)).take_exact(m, n);
}

}  // namespace kernelrank::cli
