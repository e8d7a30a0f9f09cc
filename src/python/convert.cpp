// Exact values to Python objects: integers and fractions.Fraction (never through a float),
// and the Instance class.
#include "bindings.hpp"

#include "kernelrank/core/errors.hpp"

#include <gmp.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <string_view>

namespace kernelrank::python {

py::object to_python_int(const Integer& value) {
  // mpz_get_str in base 16: Python parses power-of-two bases exactly and without the
  // int_max_str_digits limit that applies to decimal strings.
  const mpz_srcptr z = value.backend().data();
  std::unique_ptr<char[]> digits(new char[mpz_sizeinbase(z, 16) + 2]);
  mpz_get_str(digits.get(), 16, z);
  PyObject* number = PyLong_FromString(digits.get(), nullptr, 16);
  if (number == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(number);
}

py::object to_fraction(const Rational& value) {
  static const py::object fraction_class = py::module_::import("fractions").attr("Fraction");
  const Integer num = boost::multiprecision::numerator(value);
  const Integer den = boost::multiprecision::denominator(value);
  return fraction_class(to_python_int(num), to_python_int(den));
}

py::object to_fraction(const std::optional<Rational>& value) {
  return value ? to_fraction(*value) : py::none();
}

py::object json_to_python(const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::null:
    case Type::discarded:
      return py::none();
    case Type::boolean:
      return py::bool_(value.get<bool>());
    case Type::number_integer:
      return py::int_(value.get<std::int64_t>());
    case Type::number_unsigned:
      return py::int_(value.get<std::uint64_t>());
    case Type::number_float:
      return py::float_(value.get<double>());
    case Type::string:
      return py::str(value.get_ref<const std::string&>());
    case Type::array: {
      py::list list;
      for (const nlohmann::json& item : value) list.append(json_to_python(item));
      return list;
    }
    case Type::object: {
      py::dict dict;
      for (const auto& [key, item] : value.items()) dict[py::str(key)] = json_to_python(item);
      return dict;
    }
    case Type::binary:
      break;
  }
  throw InternalError("json_to_python: binary JSON values do not occur in kernelrank's output");
}

py::object json_field(const nlohmann::json& json, const char* pointer, JsonKind kind) {
  const nlohmann::json::json_pointer at(pointer);
  if (!json.contains(at) || json.at(at).is_null()) return py::none();
  const nlohmann::json& value = json.at(at);
  if (kind == JsonKind::Plain || !value.is_string()) return json_to_python(value);
  const Rational exact = parse_rational(value.get_ref<const std::string&>());
  if (kind == JsonKind::Int) {
    if (boost::multiprecision::denominator(exact) != 1)
      throw InternalError(std::string(pointer) + " is not an integer");
    return to_python_int(boost::multiprecision::numerator(exact));
  }
  return to_fraction(exact);
}

PyInstance to_instance(const Instance& instance) {
  PyInstance result;
  for (const Token& token : instance.tokens) result.tokens.append(token.to_string());
  result.query = instance.query + 1;
  result.target = min_ip_target(instance);
  result.output = py::none();
  result.error = py::none();
  result.fails = py::none();
  return result;
}

PyInstance to_instance(const InstanceOutcome& outcome) {
  PyInstance result = to_instance(outcome.instance);
  result.target = outcome.target;
  result.output = to_fraction(outcome.output);
  result.error = to_fraction(outcome.error);
  result.fails = py::bool_(outcome.fails());
  return result;
}

py::list to_instances(const std::vector<InstanceOutcome>& outcomes) {
  py::list list;
  for (const InstanceOutcome& outcome : outcomes) list.append(py::cast(to_instance(outcome)));
  return list;
}

std::string instance_repr(const PyInstance& instance) {
  // A list's repr: ['0110', '1010'].
  const std::string tokens = py::repr(instance.tokens).cast<std::string>();
  std::string text = "Instance(tokens=" + tokens + ", query=" + std::to_string(instance.query) +
                     ", target=" + std::to_string(instance.target);
  if (!instance.fails.is_none()) {
    text += ", output=" + py::repr(instance.output).cast<std::string>() +
            ", error=" + py::repr(instance.error).cast<std::string>() +
            ", fails=" + py::repr(instance.fails).cast<std::string>();
  }
  return text + ")";
}

namespace {

std::string type_name(const py::handle& value) {
  return py::str(py::type::of(value).attr("__name__")).cast<std::string>();
}

// numpy.bool_ is neither a bool nor an int subclass (and NumPy refuses its __index__).
bool is_numpy_bool(const py::handle& value) {
  const std::string_view name = Py_TYPE(value.ptr())->tp_name;
  return name == "numpy.bool_" || name == "numpy.bool";
}

// An int for a message; past Python's limit on decimal conversions (4300 digits), its size.
std::string int_text(const py::int_& value) {
  try {
    return py::str(py::handle(value)).cast<std::string>();
  } catch (const py::error_already_set&) {
    return "an int of " + py::str(value.attr("bit_length")()).cast<std::string>() + " bits";
  }
}

bool less(const py::handle& a, const py::handle& b) {
  const int result = PyObject_RichCompareBool(a.ptr(), b.ptr(), Py_LT);
  if (result < 0) throw py::error_already_set();
  return result == 1;
}

}  // namespace

py::int_ checked_int(const py::handle& value, const char* name, const py::int_& lo,
                     const py::int_& hi, bool none_allowed) {
  // __index__: ints and numpy's integers, never a float or a str (int() would truncate or parse).
  if (PyBool_Check(value.ptr()) || is_numpy_bool(value) || !PyIndex_Check(value.ptr()))
    throw py::type_error(
        std::string(name) +
        (none_allowed ? " must be an int or None, not " : " must be an int, not ") +
        type_name(value));
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) throw py::error_already_set();
  const auto number = py::reinterpret_steal<py::int_>(index);
  if (less(number, lo) || less(hi, number))
    throw UsageError(std::string(name) + ": must be in " + int_text(lo) + ".." + int_text(hi) +
                     ", not " + int_text(number));
  return number;
}

bool bool_arg(const py::handle& value, const char* name) {
  if (value.ptr() == Py_True) return true;
  if (value.ptr() == Py_False) return false;
  if (is_numpy_bool(value)) return value.cast<bool>();
  throw py::type_error(std::string(name) + " must be a bool, not " + type_name(value));
}

std::string str_arg(const py::handle& value, const char* name) {
  if (!py::isinstance<py::str>(value))
    throw py::type_error(std::string(name) + " must be a str, not " + type_name(value));
  return value.cast<std::string>();
}

std::optional<std::string> optional_str_arg(const py::handle& value, const char* name) {
  if (value.is_none()) return std::nullopt;
  if (!py::isinstance<py::str>(value))
    throw py::type_error(std::string(name) + " must be a str or None, not " + type_name(value));
  return value.cast<std::string>();
}

double float_arg(const py::handle& value, const char* name) {
  const bool number =
      PyFloat_Check(value.ptr()) || PyIndex_Check(value.ptr()) ||
      (Py_TYPE(value.ptr())->tp_as_number != nullptr &&
       Py_TYPE(value.ptr())->tp_as_number->nb_float != nullptr);  // numpy.float32, Fraction
  if (!number || PyBool_Check(value.ptr()) || is_numpy_bool(value))
    throw py::type_error(std::string(name) + " must be a number, not " + type_name(value));
  const double result = PyFloat_AsDouble(value.ptr());
  if (result == -1.0 && PyErr_Occurred() != nullptr) {
    if (PyErr_ExceptionMatches(PyExc_OverflowError) == 0) throw py::error_already_set();
    PyErr_Clear();  // an int or Fraction past the largest double
    throw UsageError(std::string(name) + ": must be at most about 1.8e308 (a double)");
  }
  return result;
}

bool is_path_like(const py::handle& value) {
  return py::isinstance<py::str>(value) || py::hasattr(value, "__fspath__");
}

std::string path_argument(const py::handle& value, const char* what) {
  if (!is_path_like(value))
    throw py::type_error(std::string(what) + " must be a path (str or os.PathLike), not " +
                         py::str(py::type::of(value).attr("__name__")).cast<std::string>());
  const py::object path = py::module_::import("os").attr("fspath")(value);
  if (!py::isinstance<py::str>(path))
    throw py::type_error(std::string(what) + " must be a str path");
  return path.cast<std::string>();
}

Family family_argument(const py::handle& value, std::string& path) {
  path = path_argument(value, "family");
  py::gil_scoped_release release;
  return read_family(path);
}

void register_types(py::module_& module) {
  py::class_<PyInstance>(
      module, "Instance",
      "One Min-IP instance: the tokens x_1..x_n, the queried position and the "
      "target min_j <x_query, x_j>.\n\n"
      "For an evaluated instance, output and error are the exact model output y "
      "and |y - target| as fractions.Fraction (None when the output is undefined: "
      "zero denominator), and fails says whether error >= 1/2 or undefined. For an "
      "instance that was only generated, output, error and fails are None.")
      .def_readonly("tokens", &PyInstance::tokens,
                    "The tokens as 0/1 strings, coordinate 1 first (list of str)")
      .def_readonly("query", &PyInstance::query,
                    "The queried position, 1-based as the CLI prints it (int)")
      .def_readonly("target", &PyInstance::target, "The Min-IP target min_j <x_query, x_j> (int)")
      .def_readonly("output", &PyInstance::output, "Exact model output (Fraction), or None")
      .def_readonly("error", &PyInstance::error, "Exact |output - target| (Fraction), or None")
      .def_readonly("fails", &PyInstance::fails,
                    "True when error >= 1/2 or the output is undefined; None when not evaluated")
      .def("__repr__", &instance_repr);
}

}  // namespace kernelrank::python
