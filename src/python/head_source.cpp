// The model a Python call names (a path, a dict of arrays or a built-in), resolved the way
// the CLI's --model/--builtin/--layout/--feature-map options resolve it, with its messages.
#include "bindings.hpp"

#include "cli/model_options.hpp"  // the CLI's --model/--builtin resolution, same messages

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/head_layouts.hpp"
#include "kernelrank/models/model_io.hpp"
#include "kernelrank/models/model_safetensors.hpp"

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

void check_width(int model_width, int m, const std::string& name) {
  if (m > 0 && model_width != m)
    throw UsageError("model " + name + " has width m=" + std::to_string(model_width) +
                     " but the task has m=" + std::to_string(m));
}

// A safetensors head (a file, or a dict as the file it describes) as the CLI's eval reads it.
LoadedHead head_from_safetensors(const SafetensorsFile& file, const HeadReadOptions& read, int m) {
  LoadedHead loaded;
  if (!needs_real_head_reader(file, read) && !read.feature_map) {
    loaded.exact = parametric_model_from_safetensors(file);
    check_width(loaded.exact->width(), m, file.name);
    return loaded;
  }
  RealHead head = read_real_head(file, read);
  if (is_rational(head.map)) {
    check_width(head.m, m, file.name);
    loaded.exact = exact_model(head);
  } else {
    loaded.ball = std::move(head);  // the ball path checks the width with its own message
  }
  return loaded;
}

}  // namespace

LoadedHead load_python_head(const ModelArgs& args, int m, int n) {
  const bool has_model = !args.model.is_none();
  const bool has_builtin = !args.builtin.is_none();
  if (has_model && has_builtin)
    raise_usage("give either a model (path or dict) or builtin=NAME, not both");
  HeadReadOptions read;
  const std::optional<std::string> layout = optional_str(args.layout, "layout");
  const std::optional<std::string> feature_map = optional_str(args.feature_map, "feature_map");
  const std::optional<std::string> activation = optional_str(args.activation, "activation");
  if (layout) read.layout = parse_head_layout(*layout);
  if (feature_map) read.feature_map = parse_feature_map(*feature_map);

  if (has_model && py::isinstance<py::dict>(args.model)) {
    if (!args.base.is_none()) raise_usage("--base applies only to --builtin softmax or product");
    DictHeadOptions dict;
    dict.kernelrank_layout = !read.layout || *read.layout == HeadLayout::Kernelrank;
    dict.activation = activation ? *activation : feature_map ? *feature_map : "relu";
    dict.positions = args.positions;
    dict.name = args.name;
    if (activation && !dict.kernelrank_layout)
      raise_usage(
          "activation= names a kernelrank-layout head's features; use feature_map= for layout " +
          *layout);
    const SafetensorsFile file =
        safetensors_from_dict(py::reinterpret_borrow<py::dict>(args.model), dict);
    py::gil_scoped_release release;
    return head_from_safetensors(file, read, m);
  }
  if (activation || !args.positions.is_none())
    raise_usage("activation= and positions= describe a dict of arrays, not a file or a built-in");
  cli::ModelSource source;
  if (has_model) source.file = path_argument(args.model, "model");
  if (has_builtin) {
    if (!py::isinstance<py::str>(args.builtin)) throw py::type_error("builtin must be a str");
    source.builtin = args.builtin.cast<std::string>();
  }
  if (!args.base.is_none()) {
    source.base = base_text(args.base);
    source.base_given = true;
  }
  py::gil_scoped_release release;
  if (layout || feature_map) {
    if (source.file.empty() || !file_looks_like_safetensors(source.file))
      throw UsageError(
          "--layout and --feature-map apply to safetensors heads (--model FILE.safetensors)");
    return head_from_safetensors(read_safetensors(source.file), read, m);
  }
  if (!source.file.empty() && file_looks_like_safetensors(source.file))
    return head_from_safetensors(read_safetensors(source.file), read, m);
  LoadedHead loaded;
  loaded.exact = cli::load_model(source, m, n);
  return loaded;
}

std::unique_ptr<Model> load_python_model(const ModelArgs& args, int m, int n) {
  if (!args.layout.is_none() || !args.feature_map.is_none())
    raise_usage("layout= and feature_map= apply to evaluate only");
  if (!args.model.is_none() && py::isinstance<py::dict>(args.model)) {
    if (!args.builtin.is_none())
      raise_usage("give either a model (path or dict) or builtin=NAME, not both");
    if (!args.base.is_none()) raise_usage("--base applies only to --builtin softmax or product");
    DictHeadOptions dict;
    const std::optional<std::string> activation = optional_str(args.activation, "activation");
    dict.activation = activation ? *activation : "relu";
    dict.positions = args.positions;
    dict.name = args.name;
    const SafetensorsFile file =
        safetensors_from_dict(py::reinterpret_borrow<py::dict>(args.model), dict);
    py::gil_scoped_release release;
    std::unique_ptr<Model> model = model_from_safetensors(file);  // refuses ball-only heads
    check_width(model->width(), m, file.name);
    return model;
  }
  LoadedHead loaded = load_python_head(args, m, n);
  if (loaded.ball)  // reached only for a safetensors file: the CLI's reader gives the message
    return cli::load_model(cli::ModelSource{path_argument(args.model, "model"), "", "3", false}, m,
                           n);
  return std::move(loaded.exact);
}

}  // namespace kernelrank::python
