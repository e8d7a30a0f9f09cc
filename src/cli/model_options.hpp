// Shared command-line options for choosing a model: a file or a built-in.
#pragma once

#include "kernelrank/app/head_source.hpp"
#include "kernelrank/models/model.hpp"

#include <CLI/CLI.hpp>

#include <memory>
#include <string>

namespace kernelrank::cli {

struct ModelSource {
  std::string file;     // --model FILE (text or JSON)
  std::string builtin;  // --builtin rank1-mean|softmax|product
  std::string base = "3";
  bool base_given = false;  // --base on the command line (only meaningful for softmax/product)
};

void add_model_options(CLI::App* command, ModelSource& source);
// The request the options make (app/head_source.hpp): a file is parsed as a single head and
// a head that only ball arithmetic decides is refused; callers that take either set the flags.
HeadRequest head_request(const ModelSource& source);
// Opens the model and returns it exactly; built-ins are instantiated for width m and length
// n, a file's head is checked against the width m (0: any).
std::unique_ptr<Model> load_model(const ModelSource& source, int m, int n);

}  // namespace kernelrank::cli
