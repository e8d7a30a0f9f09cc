// The model a Python call names (a path, a dict of arrays or a built-in), resolved the way
// the CLI's --model/--builtin/--layout/--feature-map options resolve it, with its messages:
// a file or a dict goes through the library's one opener (models/head_opener.hpp).
#include "bindings.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/builtin_models.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/head_opener.hpp"

namespace kernelrank::python {
namespace {

std::string base_text(const py::object& base) {
  if (py::isinstance<py::str>(base)) return base.cast<std::string>();
  if (PyLong_Check(base.ptr()) && !PyBool_Check(base.ptr()))
    return py::str(base).cast<std::string>();
  if (py::hasattr(base, "numerator") && py::hasattr(base, "denominator") &&
      !PyFloat_Check(base.ptr()))
    return py::str(base.attr("numerator")).cast<std::string>() + "/" +
           py::str(base.attr("denominator")).cast<std::string>();
  throw py::type_error(
      "base must be a str, an int or a fractions.Fraction (an exact number), not a float");
}

std::optional<std::string> optional_str(const py::object& value, const char* what) {
  if (value.is_none()) return std::nullopt;
  if (!py::isinstance<py::str>(value))
    throw py::type_error(std::string(what) + " must be a str or None");
  return value.cast<std::string>();
}

void check_base(const std::string& builtin, bool base_given) {
  if (base_given && builtin != "softmax" && builtin != "product")
    raise_usage("--base applies only to --builtin softmax or product");
}

// The CLI's built-in choice (cli/model_options.cpp), with its messages.
std::unique_ptr<Model> builtin_model(const std::string& builtin, const std::string& base, int m,
                                     int n) {
  if (builtin.empty()) throw UsageError("choose a model with --model FILE or --builtin NAME");
  if (m < 1) throw UsageError("a built-in model needs the width --m");
  std::map<std::string, std::string> params;
  if (builtin == "rank1-mean")
    params["n"] = std::to_string(n);
  else
    params["base"] = base;
  return make_builtin_model(builtin, m, params);
}

// A single head from the opener, checked against the task's width m like the CLI's eval; a
// head for ball arithmetic is checked by the ball path, with its own message.
LoadedHead loaded_head(OpenedModel opened, const std::string& name, int m) {
  if (opened.multi_head)
    throw UsageError(name +
                     " is a multi-head model (docs/model-format.md §13); the Python module "
                     "evaluates single heads: use `kernelrank eval`");
  LoadedHead loaded;
  if (opened.ball) {
    loaded.ball = std::move(opened.ball);
    return loaded;
  }
  require_model_width(name, opened.exact->width(), m);
  loaded.exact = std::move(opened.exact);
  return loaded;
}

// Both loaders: with ball_heads false, a head that only ball arithmetic decides is refused
// by the opener, with the message every CLI command but eval gives.
LoadedHead load_head(const ModelArgs& args, int m, int n, bool ball_heads) {
  const bool has_model = !args.model.is_none();
  const bool has_builtin = !args.builtin.is_none();
  if (has_model && has_builtin)
    raise_usage("give either a model (path or dict) or builtin=NAME, not both");
  OpenOptions open;
  open.ball_heads = ball_heads;
  const std::optional<std::string> layout = optional_str(args.layout, "layout");
  const std::optional<std::string> feature_map = optional_str(args.feature_map, "feature_map");
  const std::optional<std::string> activation = optional_str(args.activation, "activation");
  if (layout) open.read.layout = parse_head_layout(*layout);
  if (feature_map) open.read.feature_map = parse_feature_map(*feature_map);

  if (has_model && py::isinstance<py::dict>(args.model)) {
    if (!args.base.is_none()) raise_usage("--base applies only to --builtin softmax or product");
    DictHeadOptions dict;
    dict.kernelrank_layout = !open.read.layout || *open.read.layout == HeadLayout::Kernelrank;
    dict.activation = activation ? *activation : feature_map ? *feature_map : "relu";
    dict.positions = args.positions;
    dict.name = args.name;
    if (activation && !dict.kernelrank_layout)
      raise_usage(
          "activation= names a kernelrank-layout head's features; use feature_map= for layout " +
          *layout);
    std::string bytes =
        safetensors_bytes_from_dict(py::reinterpret_borrow<py::dict>(args.model), dict);
    py::gil_scoped_release release;
    return loaded_head(open_model(model_file_from_bytes(args.name, std::move(bytes)), open),
                       args.name, m);
  }
  if (activation || !args.positions.is_none())
    raise_usage("activation= and positions= describe a dict of arrays, not a file or a built-in");
  std::string path, builtin, base = "3";
  if (has_model) path = path_argument(args.model, "model");
  if (has_builtin) {
    if (!py::isinstance<py::str>(args.builtin)) throw py::type_error("builtin must be a str");
    builtin = args.builtin.cast<std::string>();
  }
  if (!args.base.is_none()) base = base_text(args.base);
  py::gil_scoped_release release;
  std::optional<ModelFile> file;
  if (!path.empty()) file = read_model_file(path);
  if ((layout || feature_map) && (!file || file->kind != ModelFileKind::Safetensors))
    throw UsageError(
        "--layout and --feature-map apply to safetensors heads (--model FILE.safetensors)");
  check_base(builtin, !args.base.is_none());
  if (file) return loaded_head(open_model(*file, open), path, m);
  LoadedHead loaded;
  loaded.exact = builtin_model(builtin, base, m, n);
  return loaded;
}

}  // namespace

LoadedHead load_python_head(const ModelArgs& args, int m, int n) {
  return load_head(args, m, n, true);
}

std::unique_ptr<Model> load_python_model(const ModelArgs& args, int m, int n) {
  if (!args.layout.is_none() || !args.feature_map.is_none())
    raise_usage("layout= and feature_map= apply to evaluate only");
  return std::move(load_head(args, m, n, false).exact);
}

}  // namespace kernelrank::python
