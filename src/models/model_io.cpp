// Single-head model files: every format of docs/model-format.md through the one opener
// (head_opener.cpp), with heads that need ball arithmetic refused.
#include "kernelrank/models/model_io.hpp"

#include "kernelrank/models/head_opener.hpp"

namespace kernelrank {
namespace {

OpenOptions single_head() {
  OpenOptions options;
  options.multi_head = false;
  return options;
}

}  // namespace

std::unique_ptr<Model> read_model(const std::string& path) {
  return std::move(open_model(path, single_head()).exact);
}

std::unique_ptr<Model> parse_model(const std::string& name, const std::string& contents) {
  return std::move(open_model(model_file_from_bytes(name, contents), single_head()).exact);
}

}  // namespace kernelrank
