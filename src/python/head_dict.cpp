// A dict of arrays (numpy arrays, torch tensors or nested lists) in the kernelrank-head
// layout (docs/model-format.md §11) as the exact model. The dict is written as the F64
// safetensors bytes a file would hold and parsed by the library's own reader, so the
// model, its rationals (each float is a dyadic rational) and every error message are
// exactly those of the same head read from a .safetensors file. Nothing is validated
// here that the reader validates (NaN, shapes, names, metadata): only what a file cannot
// express (a value that is no number, a ragged list) is refused before.
#include "bindings.hpp"

#include "kernelrank/models/safetensors.hpp"

#include <nlohmann/json.hpp>

#include <bit>
#include <cstdint>
#include <cstring>
#include <map>

namespace kernelrank::python {
namespace {

static_assert(std::endian::native == std::endian::little,
              "safetensors bytes are written little endian");

struct FlatTensor {
  std::vector<std::uint64_t> shape;
  std::vector<double> values;
};

double number_value(const py::handle& value, const std::string& tensor) {
  if (PyBool_Check(value.ptr()))
    throw py::type_error("tensor '" + tensor + "': bool values are not weights");
  if (PyFloat_Check(value.ptr())) return PyFloat_AsDouble(value.ptr());
  if (PyLong_Check(value.ptr())) {
    // Integers must be exact doubles: the file would hold the double.
    const double d = PyLong_AsDouble(value.ptr());
    if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    if (!py::reinterpret_borrow<py::object>(value).equal(py::int_(py::float_(d))))
      raise_usage("tensor '" + tensor + "': the integer " + py::str(value).cast<std::string>() +
                  " is not exactly representable as a float64");
    return d;
  }
  // numpy scalars (inside nested lists): their float value (exact for float dtypes).
  if (py::hasattr(value, "__float__") && py::hasattr(value, "dtype")) {
    const double d = PyFloat_AsDouble(value.ptr());
    if (d == -1.0 && PyErr_Occurred()) throw py::error_already_set();
    return d;
  }
  throw py::type_error("tensor '" + tensor + "': values must be float or int, not " +
                       py::str(py::type::of(value).attr("__name__")).cast<std::string>());
}

// Row-major flattening of nested lists/tuples, with their common shape.
void flatten(const py::handle& value, std::size_t depth, FlatTensor& out,
             const std::string& tensor) {
  const bool sequence = py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value);
  if (!sequence) {
    if (depth != out.shape.size())
      raise_usage("tensor '" + tensor + "': ragged nested list (a number where a list of length " +
                  std::to_string(depth < out.shape.size() ? out.shape[depth] : 0) +
                  " was expected)");
    out.values.push_back(number_value(value, tensor));
    return;
  }
  const py::sequence items = py::reinterpret_borrow<py::sequence>(value);
  const std::uint64_t length = py::len(items);
  if (depth == out.shape.size() && out.values.empty()) {
    out.shape.push_back(length);  // first descent fixes the shape
  } else if (depth >= out.shape.size() || out.shape[depth] != length) {
    raise_usage(
        "tensor '" + tensor + "': ragged nested list (lengths " +
        (depth < out.shape.size() ? std::to_string(out.shape[depth]) : std::string("none")) +
        " and " + std::to_string(length) + " at depth " + std::to_string(depth) + ")");
  }
  for (const py::handle item : items) flatten(item, depth + 1, out, tensor);
  // An empty list: its shape ends here, with no entries below.
}

FlatTensor flat_tensor(const py::handle& value, const std::string& tensor) {
  FlatTensor out;
  if (py::hasattr(value, "tolist") && py::hasattr(value, "shape")) {
    // numpy arrays and torch tensors: shape from the array, values as Python floats
    // (float32/float16/bfloat16 values convert to float64 exactly).
    py::object array = py::reinterpret_borrow<py::object>(value);
    if (py::hasattr(array, "detach")) array = array.attr("detach")();
    for (const py::handle dim : array.attr("shape"))
      out.shape.push_back(py::cast<std::uint64_t>(dim));
    const py::object list = array.attr("tolist")();
    FlatTensor nested;
    if (out.shape.empty()) {
      out.values.push_back(number_value(list, tensor));
    } else {
      flatten(list, 0, nested, tensor);
      out.values = std::move(nested.values);
    }
    return out;
  }
  flatten(value, 0, out, tensor);
  return out;
}

std::string metadata_value(const py::handle& value) {
  if (!py::isinstance<py::str>(value)) throw py::type_error("__metadata__ values must be str");
  return value.cast<std::string>();
}

}  // namespace

std::string safetensors_bytes_from_dict(const py::dict& tensors, const DictHeadOptions& options) {
  std::map<std::string, FlatTensor> flat;  // sorted by name, as the writer sorts them
  std::map<std::string, std::string> metadata;
  bool metadata_given = false;
  for (const auto& [key, value] : tensors) {
    if (!py::isinstance<py::str>(key)) throw py::type_error("tensor names must be str");
    const std::string tensor = key.cast<std::string>();
    if (tensor == "__metadata__") {
      if (!py::isinstance<py::dict>(value))
        throw py::type_error("__metadata__ must be a dict of str to str");
      for (const auto& [k, v] : py::reinterpret_borrow<py::dict>(value))
        metadata[metadata_value(k)] = metadata_value(v);
      metadata_given = true;
      continue;
    }
    flat[tensor] = flat_tensor(value, tensor);
  }
  // Without __metadata__, a dict in kernelrank's layout says what its file would say; the
  // other layouts need no metadata (the layout and feature map come as options).
  if (!metadata_given && options.kernelrank_layout) {
    metadata = {
        {"format", "kernelrank-head"}, {"version", "1"}, {"activation", options.activation}};
    if (!options.positions.is_none())
      metadata["positions"] = py::str(options.positions).cast<std::string>();
  }

  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  std::string data;
  for (const auto& [tensor, t] : flat) {
    const std::uint64_t begin = data.size();
    data.resize(begin + 8 * t.values.size());
    if (!t.values.empty()) std::memcpy(data.data() + begin, t.values.data(), 8 * t.values.size());
    header[tensor] = {{"dtype", "F64"}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
  }
  header["__metadata__"] = metadata;
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string bytes(8, '\0');
  std::uint64_t length = text.size();
  std::memcpy(bytes.data(), &length, 8);
  bytes += text;
  bytes += data;
  return bytes;
}

}  // namespace kernelrank::python
