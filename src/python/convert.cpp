// Exact values to Python objects: integers and fractions.Fraction (never through a float),
// and the Instance class.
#include "bindings.hpp"

#include <gmp.h>

#include <memory>

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
