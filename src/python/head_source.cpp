// The model a Python call names (a path, a dict of arrays or a built-in) as the request of
// the application layer (app/head_source.hpp), which opens it exactly as it opens the CLI's
// model options. What only Python has is handled here: the dict (or a module's state_dict()),
// turned into the bytes of the safetensors file it describes, and the type of each argument.
#include "bindings.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/models/head_layouts.hpp"

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

// The tensors a model argument holds: a dict as given, or the state_dict() of a module (a
// torch.nn.Module, or anything with that method); None for a path or None.
std::optional<py::dict> model_tensors(const py::object& model) {
  if (py::isinstance<py::dict>(model)) return py::reinterpret_borrow<py::dict>(model);
  if (model.is_none() || py::isinstance<py::str>(model) || is_path_like(model)) return std::nullopt;
  const py::object method = py::getattr(model, "state_dict", py::none());
  if (method.is_none() || !PyCallable_Check(method.ptr())) return std::nullopt;
  const py::object state = method();
  if (!py::isinstance<py::dict>(state))
    throw py::type_error("model.state_dict() must return a dict of arrays, not " +
                         py::str(py::type::of(state).attr("__name__")).cast<std::string>());
  return py::reinterpret_borrow<py::dict>(state);
}

// A dict of arrays: the bytes of the safetensors file it describes, with the file's name.
ModelFile dict_file(const ModelArgs& args, const py::dict& tensors,
                    const std::optional<std::string>& layout,
                    const std::optional<std::string>& feature_map,
                    const std::optional<std::string>& activation) {
  DictHeadOptions dict;
  dict.kernelrank_layout = !layout || parse_head_layout(*layout) == HeadLayout::Kernelrank;
  dict.activation = activation ? *activation : feature_map ? *feature_map : "relu";
  dict.positions = args.positions;
  dict.name = args.name;
  if (activation && !dict.kernelrank_layout)
    throw DomainError(
        "{activation} names a kernelrank-layout head's features; use {feature-map} for layout " +
        ParameterMessage::literal(*layout));
  std::string bytes = safetensors_bytes_from_dict(tensors, dict);
  return model_file_from_bytes(args.name, std::move(bytes));
}

HeadRequest head_request(const ModelArgs& args) {
  HeadRequest request;
  const std::optional<std::string> layout = optional_str(args.layout, "layout");
  const std::optional<std::string> feature_map = optional_str(args.feature_map, "feature_map");
  const std::optional<std::string> activation = optional_str(args.activation, "activation");
  if (layout) request.layout = parse_head_layout(*layout);
  if (feature_map) request.feature_map = parse_feature_map(*feature_map);
  if (!args.base.is_none()) request.base = base_text(args.base);
  if (!args.builtin.is_none()) {
    if (!py::isinstance<py::str>(args.builtin)) throw py::type_error("builtin must be a str");
    request.builtin = args.builtin.cast<std::string>();
  }
  if (const std::optional<py::dict> tensors = model_tensors(args.model)) {
    request.in_memory = dict_file(args, *tensors, layout, feature_map, activation);
  } else {
    if (activation || !args.positions.is_none())
      throw DomainError(
          "{activation} and {positions} describe a dict of arrays, not a file or a built-in");
    if (!args.model.is_none()) request.path = path_argument(args.model, "model");
  }
  request.multi_head = true;  // recognised, to be refused with a message of its own
  return request;
}

}  // namespace

HeadSource open_python_head(const ModelArgs& args, bool ball_heads) {
  HeadRequest request = head_request(args);
  request.ball_heads = ball_heads;
  HeadSource head = [&] {
    py::gil_scoped_release release;
    return open_head(std::move(request));
  }();
  if (head.kind() == HeadKind::MultiHead)
    throw UsageError(head.file()->name +
                     " is a multi-head model (docs/model-format.md §13); the Python module "
                     "evaluates single heads: use the command line's eval");
  return head;
}

std::unique_ptr<Model> load_python_model(const ModelArgs& args, int m, int n) {
  if (!args.layout.is_none() || !args.feature_map.is_none())
    throw DomainError("{layout} and {feature-map} apply to evaluate only");
  return open_python_head(args, false).take_exact(m, n);
}

}  // namespace kernelrank::python
