// Shared command-line options for choosing a model: a file or a built-in.
#pragma once

#include "kernelrank/models/head_opener.hpp"
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
// Loads the model; built-ins are instantiated for width m and length n. A file is opened as a
// single head (models/head_opener.hpp) and checked against the width m (0: any).
std::unique_ptr<Model> load_model(const ModelSource& source, int m, int n);
// The exact head of a file the caller has opened already, checked like load_model's.
std::unique_ptr<Model> take_exact_model(const ModelSource& source, OpenedModel& opened, int m);

}  // namespace kernelrank::cli
