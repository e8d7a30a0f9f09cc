// The library's exceptions as Python exceptions. Every message is the text the CLI prints
// for the same failure, without the CLI's "kernelrank: error: " (or "kernelrank: resource
// limit: ", "kernelrank: INTERNAL ERROR (please report): ") prefix, except that a parameter
// is named by its keyword argument (m, max_instances) where the CLI names its flag; an
// InputError's message is the whole "FILE:LINE: error: MESSAGE" line, which the CLI prints
// without a prefix.
#include "bindings.hpp"

#include "check/reader.hpp"  // krcheck::printable: the CLI's rendering of messages
#include "kernelrank/core/errors.hpp"

#include <map>
#include <new>

namespace kernelrank::python {
namespace {

PyObject* error_base = nullptr;
PyObject* usage_error = nullptr;
PyObject* input_error = nullptr;
PyObject* resource_error = nullptr;
PyObject* output_error = nullptr;
PyObject* internal_error = nullptr;

PyObject* new_class(py::module_& module, const char* name, const char* doc,
                    PyObject* builtin_base) {
  const std::string qualified = std::string("kernelrank.") + name;
  py::tuple bases = builtin_base == nullptr
                        ? py::make_tuple(py::reinterpret_borrow<py::object>(PyExc_Exception))
                        : py::make_tuple(py::reinterpret_borrow<py::object>(error_base),
                                         py::reinterpret_borrow<py::object>(builtin_base));
  PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases.ptr(), nullptr);
  if (type == nullptr) throw py::error_already_set();
  module.add_object(name,
                    py::reinterpret_borrow<py::object>(type));  // the module keeps a reference
  Py_DECREF(type);
  return type;
}

void set_error(PyObject* type, const std::string& message) {
  PyErr_SetString(type, krcheck::printable(message).c_str());
}

// A library parameter {name} is written as the keyword argument that sets it.
std::string python_message(const std::exception& e) {
  const auto* named = dynamic_cast<const ParameterMessage*>(&e);
  if (named == nullptr) return e.what();
  return named->render(keyword_name);
}

void set_input_error(const InputError& e) {
  // The exception carries the file, line and column too (line 0: the whole file).
  py::object exc = py::reinterpret_borrow<py::object>(input_error)(krcheck::printable(e.what()));
  exc.attr("file") = e.file();
  exc.attr("line") = e.line();
  exc.attr("column") = e.column();  // 0: not known
  PyErr_SetObject(input_error, exc.ptr());
}

}  // namespace

[[noreturn]] void raise_usage(const std::string& message) { throw UsageError(message); }

std::string keyword_name(const std::string& parameter) {
  // The flags whose keyword argument is named otherwise (bound.cpp, generate_counterexample.cpp).
  static const std::map<std::string, std::string> renamed = {
      {"class", "model_class"}, {"cert", "certificate"}, {"out-prefix", "out"}};
  if (const auto found = renamed.find(parameter); found != renamed.end()) return found->second;
  std::string keyword = parameter;
  for (char& c : keyword)
    if (c == '-') c = '_';
  return keyword;
}

void register_errors(py::module_& module) {
  error_base = new_class(
      module, "Error",
      "Base class of every error kernelrank raises; the message is the text the CLI prints.",
      nullptr);
  usage_error = new_class(module, "UsageError",
                          "An impossible or inconsistent parameter (the CLI's exit code 2).",
                          PyExc_ValueError);
  input_error =
      new_class(module, "InputError",
                "Malformed input: the message is 'FILE:LINE: error: MESSAGE' (line 0: the whole "
                "file), as the CLI prints it; attributes file and line (exit code 2).",
                PyExc_ValueError);
  resource_error =
      new_class(module, "ResourceError",
                "A run refused up front because it would exceed a size, time or memory limit; "
                "the message says what it would need (exit code 3).",
                PyExc_MemoryError);
  output_error = new_class(module, "OutputError",
                           "An output file that cannot be written (exit code 2).", PyExc_OSError);
  internal_error =
      new_class(module, "InternalError",
                "A failed internal consistency check: a bug, please report it (exit code 4).",
                PyExc_RuntimeError);

  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      set_input_error(e);
    } catch (const UsageError& e) {
      set_error(usage_error, python_message(e));
    } catch (const ModelDomainError& e) {  // the CLI reports it as "kernelrank: error: ..."
      set_error(usage_error, e.what());
    } catch (const ResourceError& e) {
      set_error(resource_error, python_message(e));
    } catch (const OutputError& e) {
      set_error(output_error, e.what());
    } catch (const InternalError& e) {
      set_error(internal_error, e.what());
    } catch (const std::bad_alloc&) {
      set_error(resource_error, "out of memory");
    }
  });
}

}  // namespace kernelrank::python
