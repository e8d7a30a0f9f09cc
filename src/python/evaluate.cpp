// kernelrank.evaluate: what `kernelrank eval` computes (src/cli/cmd_eval.cpp, without
// sharding), on a model file, a built-in or a dict of arrays, with the report as Python
// objects (exact values as fractions.Fraction).
#include "bindings.hpp"

#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/eval/eval_partial.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/models/declared_class.hpp"
#include "kernelrank/models/model_io.hpp"  // kMaxModelWidth, the CLI's --m range

#include <limits>

namespace kernelrank::python {
namespace {

struct PyEvalResult {
  bool solves = false;
  py::object instances, failing, undefined;  // int
  py::object negative_solved;                // int: solved with a negative denominator
  py::object negative_example;               // Instance or None
  py::object max_error;                      // Fraction or None
  py::object error_rate;                     // Fraction
  py::object worst;                          // Instance or None
  py::list failures;                         // Instance
  std::string method, task, model, model_class, class_detail;
};

std::string eval_repr(const PyEvalResult& r) {
  return "EvalResult(solves=" + std::string(r.solves ? "True" : "False") +
         ", instances=" + py::str(r.instances).cast<std::string>() +
         ", failing=" + py::str(r.failing).cast<std::string>() +
         ", undefined=" + py::str(r.undefined).cast<std::string>() +
         ", max_error=" + py::repr(r.max_error).cast<std::string>() +
         ", method=" + py::repr(py::str(r.method)).cast<std::string>() +
         ", failures=" + std::to_string(py::len(r.failures)) + " listed)";
}

struct PrecisionArgs {
  py::object precision, max_precision;  // int or None (then 64 and 4096 bits)
};

void refuse_precision(const PrecisionArgs& precision) {
  if (!precision.precision.is_none() || !precision.max_precision.is_none())
    throw UsageError(
        "--precision and --max-precision apply to heads with transcendental features (elu1, exp, "
        "softmax)");
}

int optional_int(const py::object& value, const char* what) {
  if (value.is_none()) return 0;
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
    throw py::type_error(std::string(what) + " must be an int or None");
  return value.cast<int>();
}

// An integer argument in lo..hi, else UsageError (a ValueError) naming it: pybind's own conversion
// reports failures=-1 or n=10**30 as "incompatible function arguments", naming none.
template <class T>
T ranged(const py::object& value, const std::string& name, T lo, T hi) {
  if (!PyLong_Check(value.ptr()) || PyBool_Check(value.ptr()))
    throw py::type_error(name + " must be an int");
  const py::int_ number = py::reinterpret_borrow<py::int_>(value);
  if (PyObject_RichCompareBool(number.ptr(), py::int_(lo).ptr(), Py_LT) == 1 ||
      PyObject_RichCompareBool(number.ptr(), py::int_(hi).ptr(), Py_GT) == 1)
    throw UsageError(name + ": must be in " + std::to_string(lo) + ".." + std::to_string(hi) +
                     ", not " + py::str(value).cast<std::string>());
  return number.cast<T>();
}

// m as the CLI's --m: None is the model's width, anything else must be a width (an m of 0
// or -1 was read as "the model's width").
int width_argument(const py::object& value) {
  if (value.is_none()) return 0;
  optional_int(value, "m");  // the type error as before
  return ranged<int>(value, "--m", 1, kMaxModelWidth);
}

}  // namespace

namespace {

// A head with transcendental features: ball arithmetic on a family or the cube, as the CLI.
py::object run_ball(const RealHead& head, const py::object& family_arg, int m, int n,
                    const EvalOptions& options, bool tokens, bool profiles, bool cross_check,
                    const PrecisionArgs& precision) {
  if (cross_check || profiles || tokens)
    throw UsageError(
        "a " + to_string(head.map) +
        " head is evaluated with ball arithmetic, on a --family or the cube only: drop "
        "--shard/--partial/--mpi/--cross-check/--profiles/--tokens");
  BallArgs args;
  args.family = family_arg;
  args.m = m;
  args.n = n;
  args.options.mode = options.mode;
  args.options.max_listed = options.max_failures;
  args.options.instance_limit = options.instance_limit;
  args.options.threads = options.threads;
  if (!precision.precision.is_none())
    args.options.precision = optional_int(precision.precision, "precision");
  if (!precision.max_precision.is_none())
    args.options.max_precision = optional_int(precision.max_precision, "max_precision");
  return evaluate_ball(head, args);
}

py::object run_evaluate(const ModelArgs& margs, const py::object& m_arg, int n,
                        const std::string& mode, const py::object& family_arg,
                        const py::object& tokens_arg, int threads, std::size_t failures,
                        std::uint64_t max_instances, bool profiles, bool brute_force,
                        bool cross_check, double max_profile_work, const PrecisionArgs& precision) {
  const int m_given = width_argument(m_arg);
  if (!family_arg.is_none() && !tokens_arg.is_none()) raise_usage("--family excludes --tokens");
  if (profiles && brute_force) raise_usage("--profiles excludes --brute-force");
  EvalOptions options;
  options.mode = parse_query_mode(mode);
  options.max_failures = failures;
  options.instance_limit = max_instances;
  options.threads = resolve_threads(threads);
  if (n < 1) raise_usage("--n must be at least 1");

  std::unique_ptr<Model> model;
  EvalReport report;
  std::string task;
  if (!family_arg.is_none()) {
    std::string path;
    const Family family = family_argument(family_arg, path);
    LoadedHead head = load_python_head(margs, family.m, family.n);
    if (head.ball)
      return run_ball(*head.ball, family_arg, 0, family.n, options, false, profiles, cross_check,
                      precision);
    refuse_precision(precision);
    model = std::move(head.exact);
    py::gil_scoped_release release;
    report = summary_to_report(evaluate_family_summary(*model, family, options));
    task = "family " + path + " (" + std::to_string(family.instances.size()) +
           " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) + ")";
  } else if (!tokens_arg.is_none()) {
    const std::string path = path_argument(tokens_arg, "tokens");
    Code code;
    {
      py::gil_scoped_release release;
      code = read_code(path);
    }
    LoadedHead head = load_python_head(margs, code.m, n);
    if (head.ball)
      return run_ball(*head.ball, py::none(), 0, n, options, true, profiles, cross_check,
                      precision);
    refuse_precision(precision);
    model = std::move(head.exact);
    py::gil_scoped_release release;
    report = summary_to_report(evaluate_token_set_summary(*model, code.words, n, options));
    task = "all length-" + std::to_string(n) + " sequences over the " +
           std::to_string(code.words.size()) + " tokens of " + path + " (mode " + mode + ")";
  } else {
    LoadedHead head = load_python_head(margs, m_given, n);
    if (head.ball)
      return run_ball(*head.ball, py::none(), m_given, n, options, false, profiles, cross_check,
                      precision);
    refuse_precision(precision);
    model = std::move(head.exact);
    py::gil_scoped_release release;
    const int m = model->width();
    task = "cube task T(" + std::to_string(m) + "," + std::to_string(n) + ") (mode " + mode + ")";
    const OverlapForm* form = model->overlap_form();
    const bool profiles_possible = form != nullptr && !model->position_dependent();
    const bool brute_possible = m <= 24 && static_cast<long double>(m) * n <= 62 &&
                                static_cast<long double>(std::uint64_t{1} << (m * n)) *
                                        (options.mode == QueryMode::All ? n : 1) <=
                                    static_cast<long double>(max_instances);
    if ((profiles || cross_check) && !profiles_possible)
      raise_usage("--profiles needs a model that depends only on overlaps (a built-in)");
    const bool use_profiles =
        cross_check || profiles || (!brute_force && !brute_possible && profiles_possible);
    if (use_profiles)
      require_profile_work(m, n, max_profile_work,
                           "; lower --m or --n, or raise --max-profile-work to wait for it",
                           "; use a smaller n, or a family file (eval --family) for longer "
                           "sequences");  // the CLI's messages
    if (cross_check) {
      const EvalReport brute = evaluate_cube(*model, m, n, options);
      report = summary_to_report(evaluate_profiles_summary(*form, m, n, options));
      if (!(brute.instances == report.instances && brute.failing == report.failing &&
            brute.undefined == report.undefined && brute.max_error == report.max_error))
        throw InternalError("brute force and overlap profiles disagree on " + task);
    } else if (use_profiles) {
      report = summary_to_report(evaluate_profiles_summary(*form, m, n, options));
    } else {
      report = summary_to_report(evaluate_cube_summary(*model, m, n, options));
    }
  }
  const Classification cls = reported_class(*model);  // the declared class, if any
  PyEvalResult result;
  result.solves = report.solves();
  result.instances = to_python_int(report.instances);
  result.failing = to_python_int(report.failing);
  result.undefined = to_python_int(report.undefined);
  result.negative_solved = to_python_int(report.negative_solved);
  result.negative_example =
      report.negative_example ? py::cast(to_instance(*report.negative_example)) : py::none();
  result.max_error = to_fraction(report.max_error);
  result.error_rate = to_fraction(report.error_rate());
  result.worst = report.worst ? py::cast(to_instance(*report.worst)) : py::none();
  result.failures = to_instances(report.failures);
  result.method = report.method;
  result.task = task;
  result.model = model->description();
  result.model_class = to_string(cls.model_class);
  result.class_detail = cls.detail;
  return py::cast(std::move(result));
}

// The result type, registered before the function that returns it.
void register_eval_result(py::module_& module) {
  py::class_<PyEvalResult>(
      module, "EvalResult",
      "The exact report of kernelrank.evaluate (the CLI's `eval` report). Counts are "
      "Python ints, exact values fractions.Fraction.")
      .def_readonly("solves", &PyEvalResult::solves,
                    "True when no instance fails (every error < 1/2)")
      .def_readonly("instances", &PyEvalResult::instances, "Instances evaluated (int)")
      .def_readonly("failing", &PyEvalResult::failing,
                    "Failing instances, undefined ones included (int)")
      .def_readonly("undefined", &PyEvalResult::undefined,
                    "Instances with a zero denominator (int)")
      .def_readonly("negative_solved", &PyEvalResult::negative_solved,
                    "Solved instances whose denominator is negative (int; signed kernels)")
      .def_readonly("negative_example", &PyEvalResult::negative_example,
                    "The first of them (Instance), or None")
      .def_readonly(
          "max_error", &PyEvalResult::max_error,
          "Exact largest error over the defined outputs (Fraction), None if there is none")
      .def_readonly("error_rate", &PyEvalResult::error_rate, "failing / instances (Fraction)")
      .def_readonly("worst", &PyEvalResult::worst, "An Instance attaining max_error, or None")
      .def_readonly("failures", &PyEvalResult::failures,
                    "The first failing instances (list of Instance)")
      .def_readonly("method", &PyEvalResult::method,
                    "'family', 'brute force', 'token set' or 'profiles'")
      .def_readonly("task", &PyEvalResult::task, "The task, as the CLI's 'task:' line")
      .def_readonly("model", &PyEvalResult::model,
                    "The model's description, as the CLI's 'model:' line")
      .def_readonly("model_class", &PyEvalResult::model_class, "The model class (e.g. 'PF')")
      .def_readonly("class_detail", &PyEvalResult::class_detail, "Why the model is in its class")
      .def(
          "__bool__", [](const PyEvalResult& r) { return r.solves; }, "Same as solves")
      .def("__repr__", &eval_repr);
}

}  // namespace

void register_evaluate(py::module_& module) {
  register_eval_result(module);
  module.def(
      "evaluate",
      [](const py::object& model, const py::object& builtin, const py::object& base,
         const py::object& activation, const std::string& name, const py::object& positions,
         const py::object& layout, const py::object& feature_map, const py::object& precision,
         const py::object& max_precision, const py::object& m, const py::object& n,
         const std::string& mode, const py::object& family, const py::object& tokens,
         const py::object& threads, const py::object& failures, const py::object& max_instances,
         bool profiles, bool brute_force, bool cross_check, double max_profile_work) {
        const ModelArgs args{model, builtin,   base,   activation,
                             name,  positions, layout, feature_map};
        constexpr int kIntMax = std::numeric_limits<int>::max();
        constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
        return run_evaluate(args, m, ranged<int>(n, "n", 1, kIntMax), mode, family, tokens,
                            ranged<int>(threads, "threads", 0, kIntMax),
                            ranged<std::uint64_t>(failures, "failures", 0, kU64Max),
                            ranged<std::uint64_t>(max_instances, "max_instances", 0, kU64Max),
                            profiles, brute_force, cross_check, max_profile_work,
                            PrecisionArgs{precision, max_precision});
      },
      py::arg("model") = py::none(), py::kw_only(), py::arg("builtin") = py::none(),
      py::arg("base") = py::none(), py::arg("activation") = py::none(), py::arg("name") = "<dict>",
      py::arg("positions") = py::none(), py::arg("layout") = py::none(),
      py::arg("feature_map") = py::none(), py::arg("precision") = py::none(),
      py::arg("max_precision") = py::none(), py::arg("m") = py::none(), py::arg("n") = 3,
      py::arg("mode") = "first", py::arg("family") = py::none(), py::arg("tokens") = py::none(),
      py::arg("threads") = 0, py::arg("failures") = 10,
      py::arg("max_instances") = std::uint64_t{1} << 34, py::arg("profiles") = false,
      py::arg("brute_force") = false, py::arg("cross_check") = false,
      py::arg("max_profile_work") = kDefaultMaxProfileWork,
      R"doc(Evaluate a model as `kernelrank eval` does; returns an EvalResult, or a BallResult for a
head with transcendental features (elu1, exp, softmax).

The model is one of:
  * a path (str or os.PathLike) to any model file `eval --model` accepts: text, JSON
    tabular or a safetensors head;
  * builtin="rank1-mean" | "softmax" | "product" (with base=, an exact number given as
    str, int or Fraction, for softmax and product; default 3), for width m;
  * a dict {tensor name: array}: numpy arrays, torch tensors (a state_dict) or nested
    lists of float/int. Every float is taken as the exact dyadic rational it denotes; the
    dict is read by the same reader as the .safetensors file with those tensors, so the
    model and every error message are the file's (name= is the file name messages use).
    Without layout=, the tensors are in kernelrank's layout (query.weight, query.bias, ...,
    readout_e.bias; docs/model-format.md §11) with activation="relu" (default), "square"
    or "identity" (signed features; positions=n and pos<p>. names for a position-dependent
    head), or any feature map of feature_map=. A "__metadata__" entry (dict of str) replaces
    these arguments.

layout="kernelrank" | "fast-transformers" | "performer" | "torch" reads a safetensors head
(file or dict) in that library's tensor names (docs/model-format.md §12); feature_map=
"relu" | "square" | "identity" | "taylor2" | "elu1" | "exp" | "softmax" overrides the
layout's default. Rational maps are evaluated exactly (an EvalResult); elu1, exp and
softmax with ball arithmetic (a BallResult): each output is enclosed in [lo, hi], exact
dyadic bounds, starting at precision= bits (default 64) and doubling for the undecided
instances up to max_precision= (default 4096); what stays open is reported as undecided,
never as a verdict.

The task: family=PATH (a family file), tokens=PATH (all length-n sequences over the words
of a code file; exact models only), or else the cube task T(m,n) (m defaults to the
model's width). mode is "first", "last" or "all". Brute force, overlap profiles
(profiles=True, or automatically when brute force is too large) and cross_check=True work
as in the CLI; threads=0 uses every hardware thread (the result does not depend on it).

Example:
  >>> r = kernelrank.evaluate(builtin="softmax", base=3, m=4, n=3)
  >>> r.solves, r.max_error
  (True, Fraction(2, 5))
)doc");
}

}  // namespace kernelrank::python
