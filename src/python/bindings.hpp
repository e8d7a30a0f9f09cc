// Shared declarations of the Python module `kernelrank` (docs/python.md): the result
// classes, the conversions between exact C++ values and Python objects, and one
// registration function per concern (one .cpp file each).
#pragma once

#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/app/head_source.hpp"
#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"
#include "kernelrank/eval/ball_eval.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/model.hpp"
#include "kernelrank/models/real_head.hpp"
#include "kernelrank/models/safetensors.hpp"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <nlohmann/json_fwd.hpp>

#include <concepts>
#include <limits>
#include <memory>
#include <optional>
#include <string>

namespace kernelrank::python {

namespace py = pybind11;

// ---- conversions (convert.cpp) ----------------------------------------------------------
// An exact Python int (built from hexadecimal digits: exact, and free of Python's limit on
// decimal conversions).
py::object to_python_int(const Integer& value);
// fractions.Fraction(numerator, denominator), built from the exact integers.
py::object to_fraction(const Rational& value);
py::object to_fraction(const std::optional<Rational>& value);  // None for nullopt
// The JSON the CLI prints, as Python values: the two front ends then share one rendering.
py::object json_to_python(const nlohmann::json& value);

// ---- results read from the application layer's JSON form (convert.cpp) -------------------
// A result class whose attributes are fields of the JSON the CLI prints (app/result_json.hpp)
// holds that JSON as `json`; each attribute reads one field (a JSON pointer, "/bound" or
// "/evaluation/failing"): as is, as an exact int (a decimal string or a number) or as a
// Fraction ("p/q"). A field the JSON lacks, or null, is None.
enum class JsonKind { Plain, Int, Fraction };
py::object json_field(const nlohmann::json& json, const char* pointer, JsonKind kind);

template <class Result>
void def_json_field(py::class_<Result>& cls, const char* name, const char* pointer, JsonKind kind,
                    const char* doc) {
  cls.def_property_readonly(
      name, [pointer, kind](const Result& r) { return json_field(r.json, pointer, kind); }, doc);
}

// The fields of a family bound (family_bound_json), as witness and certify results have them.
template <class Result>
void def_family_bound(py::class_<Result>& cls) {
  def_json_field(cls, "found", "/found", JsonKind::Plain,
                 "Whether the family supports a bound (bool)");
  def_json_field(cls, "bound", "/bound", JsonKind::Int,
                 "The certified bound r >= bound (int, the checker's number), or None");
  def_json_field(cls, "rule", "/rule", JsonKind::Plain,
                 "'trace', 'shifted-trace' or 'dominance', or None");
  def_json_field(cls, "rows", "/rows", JsonKind::Plain, "Rows of the bound (int), or None");
  def_json_field(cls, "steps_supported", "/steps_supported", JsonKind::Plain,
                 "Domination steps the family supports (int)");
  def_json_field(cls, "steps_used", "/steps_used", JsonKind::Plain,
                 "Steps the rows' chains use (int), or None");
  def_json_field(cls, "trace_value", "/trace_value", JsonKind::Fraction,
                 "T (or T_W) of the trace rules (Fraction), or None");
  def_json_field(cls, "shift", "/shift", JsonKind::Fraction,
                 "t of W = t J (shifted trace, Fraction), or None");
  def_json_field(cls, "why_not", "/why_not", JsonKind::Plain,
                 "Why there is no bound (list of str)");
  def_json_field(cls, "incomplete_count", "/incomplete_count", JsonKind::Plain,
                 "Incomplete patterns in the family (int)");
  def_json_field(cls, "incomplete", "/incomplete", JsonKind::Plain,
                 "The first incomplete patterns, as the CLI words them (list of str)");
  def_json_field(cls, "checked", "/checked", JsonKind::Plain,
                 "Whether the checker verified the bound's certificate (bool), or None "
                 "without a bound");
  def_json_field(cls, "checker_status", "/checker_status", JsonKind::Plain,
                 "The checker's status line on the certificate ('s VERIFIED'), or None");
}

// One instance as Python sees it (class kernelrank.Instance). Evaluated instances carry
// output, error and fails; instances that were only drawn (generate_family) have
// output = error = fails = None.
struct PyInstance {
  py::list tokens;    // str, "0110" (coordinate 1 first)
  int query = 1;      // 1-based, as the CLI prints it
  int target = 0;     // min_j <x_query, x_j>
  py::object output;  // Fraction or None (zero denominator / not evaluated)
  py::object error;   // Fraction or None
  py::object fails;   // bool, or None when not evaluated
};
PyInstance to_instance(const InstanceOutcome& outcome);
PyInstance to_instance(const Instance& instance);  // not evaluated
py::list to_instances(const std::vector<InstanceOutcome>& outcomes);
std::string instance_repr(const PyInstance& instance);
// A path argument: str or os.PathLike.
std::string path_argument(const py::handle& value, const char* what);
bool is_path_like(const py::handle& value);
// The family file a `family=` argument names (its path in `path`), read with the GIL released.
Family family_argument(const py::handle& value, std::string& path);

// ---- arguments (convert.cpp) ------------------------------------------------------------
// Every argument is taken as a py::object and converted here by its keyword, so that no call
// meets pybind11's "incompatible function arguments" TypeError, which names none. A wrong
// type raises TypeError ("m must be an int, not str"); an int outside lo..hi raises
// kernelrank.UsageError (a ValueError) in the CLI's words with the keyword for the flag:
// "effort: must be in 0..1000, not 1001". A bool is no int and an int no bool. numpy's
// integers and bools are accepted as ints and bools.

// The check int_arg and optional_int_arg make; the value as a Python int.
py::int_ checked_int(const py::handle& value, const char* name, const py::int_& lo,
                     const py::int_& hi, bool none_allowed);
// lo..hi defaults to T's own range: what the CLI's conversion to T accepts where the option
// has no range of its own and the library checks the value (bound's m, generate's n).
template <std::integral T>
T int_arg(const py::handle& value, const char* name, T lo = std::numeric_limits<T>::min(),
          T hi = std::numeric_limits<T>::max()) {
  static_assert(!std::same_as<T, bool>, "a bool argument is bool_arg's");
  return checked_int(value, name, py::int_(lo), py::int_(hi), false).template cast<T>();
}
// None gives nullopt ("m must be an int or None, not str").
template <std::integral T>
std::optional<T> optional_int_arg(const py::handle& value, const char* name,
                                  T lo = std::numeric_limits<T>::min(),
                                  T hi = std::numeric_limits<T>::max()) {
  static_assert(!std::same_as<T, bool>, "a bool argument is bool_arg's");
  if (value.is_none()) return std::nullopt;
  return checked_int(value, name, py::int_(lo), py::int_(hi), true).template cast<T>();
}
bool bool_arg(const py::handle& value, const char* name);
std::string str_arg(const py::handle& value, const char* name);
std::optional<std::string> optional_str_arg(const py::handle& value, const char* name);
// An int or a float (an int exactly as the nearest double); "must be a number, not str".
double float_arg(const py::handle& value, const char* name);

// ---- errors (errors.cpp) -----------------------------------------------------------------
// kernelrank.Error and its subclasses, and the translator from the library's exceptions.
void register_errors(py::module_& module);
// Raises kernelrank.UsageError / InputError with this message (from C++ code of the module).
[[noreturn]] void raise_usage(const std::string& message);
// The keyword argument a library parameter {name} (core/errors.hpp) stands for in messages:
// '-' becomes '_' (max-instances: max_instances), and the few flags whose keyword has another
// name are mapped (class: model_class, cert: certificate, out-prefix: out).
std::string keyword_name(const std::string& parameter);

// ---- models (head_dict.cpp, head_source.cpp) --------------------------------------------
// A dict of arrays as the bytes of the F64 safetensors file it describes, opened by the
// library's own opener, so that every later message is the file's. Without a "__metadata__" entry,
// a dict in kernelrank's layout gets the metadata its file would hold (format, version, activation,
// positions); the other layouts need none.
struct DictHeadOptions {
  bool kernelrank_layout = true;
  std::string activation = "relu";
  py::object positions;  // None or int
  std::string name = "<dict>";
};
std::string safetensors_bytes_from_dict(const py::dict& tensors, const DictHeadOptions& options);

// The model a Python call names: a path, a dict of arrays or a built-in (builtin=...).
struct ModelArgs {
  py::object model;       // path, dict or None
  py::object builtin;     // str or None
  py::object base;        // str/int/Fraction or None (then "3")
  py::object activation;  // str or None (a dict in kernelrank's layout: "relu", or feature_map)
  std::string name = "<dict>";
  py::object positions;    // None or int
  py::object layout;       // str or None (safetensors heads: docs/model-format.md §12)
  py::object feature_map;  // str or None
};
// Opens the head the arguments name through the application layer (app/head_source.hpp),
// with the GIL released while the file is read; a multi-head file is refused. With
// ball_heads false, a head that only ball arithmetic decides is refused by the opener, with
// the message every CLI command but eval gives. Must be called with the GIL held.
HeadSource open_python_head(const ModelArgs& args, bool ball_heads);
// The exact model of every call except evaluate, checked against the task's width m (0: any).
std::unique_ptr<Model> load_python_model(const ModelArgs& args, int m, int n);

// ---- ball arithmetic (evaluate_ball.cpp) --------------------------------------------------
// What `kernelrank eval` reports for a head with transcendental features, as a BallResult.
py::object ball_result(const RealHead& head, const BallEvaluation& run);
void register_ball_types(py::module_& module);

// ---- registration, one per concern -------------------------------------------------------
void register_types(py::module_& module);                    // convert.cpp: Instance
void register_evaluate(py::module_& module);                 // evaluate.cpp
void register_bound(py::module_& module);                    // bound.cpp
void register_check(py::module_& module);                    // check.cpp
void register_generate_counterexample(py::module_& module);  // generate_counterexample.cpp
void register_search(py::module_& module);                   // search.cpp
void register_min_rank(py::module_& module);                 // min_rank.cpp
// transition.cpp: transition; transcript.cpp: transcript; train.cpp: train
void register_train_commands(py::module_& module);
void register_witness(py::module_& module);    // witness.cpp
void register_certify(py::module_& module);    // certify.cpp
void register_construct(py::module_& module);  // construct.cpp
void register_upper(py::module_& module);      // upper.cpp: upper

}  // namespace kernelrank::python
