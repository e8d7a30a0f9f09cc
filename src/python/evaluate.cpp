// kernelrank.evaluate: the evaluation plan of the application layer (app/evaluation.hpp),
// which the CLI's eval runs too, on a model file, a built-in or a dict of arrays, with the
// report as Python objects (exact values as fractions.Fraction).
#include "bindings.hpp"

#include "kernelrank/app/evaluation.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/resource_limits.hpp"  // kDefaultMaxProfileWork
#include "kernelrank/eval/eval_partial.hpp"

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

// The task arguments, converted by keyword (bindings.hpp) with the ranges of the CLI's eval.
struct TaskArgs {
  py::object m, family, tokens, n, mode, threads, failures, max_instances;
  py::object profiles, brute_force, cross_check, max_profile_work, precision, max_precision;
};

// The plan of app/evaluation.hpp, the same as the CLI's eval makes of its options.
EvalPlan eval_plan(const TaskArgs& task) {
  EvalPlan plan;
  // None is the model's width (an m of 0 or -1 was once read that way: now refused).
  plan.m = optional_int_arg<int>(task.m, "m");  // its range is the plan's
  plan.n = int_arg<int>(task.n, "n", 1);
  if (!task.family.is_none()) plan.family = path_argument(task.family, "family");
  if (!task.tokens.is_none()) plan.tokens = path_argument(task.tokens, "tokens");
  const bool profiles = bool_arg(task.profiles, "profiles");
  const bool brute_force = bool_arg(task.brute_force, "brute_force");
  if (profiles && brute_force) throw DomainError("{profiles} excludes {brute-force}");
  plan.method = bool_arg(task.cross_check, "cross_check") ? EvalMethod::CrossCheck
                : profiles                                ? EvalMethod::Profiles
                : brute_force                             ? EvalMethod::BruteForce
                                                          : EvalMethod::Auto;
  plan.max_profile_work = float_arg(task.max_profile_work, "max_profile_work");
  plan.options.mode = parse_query_mode(str_arg(task.mode, "mode"));
  plan.options.max_failures = int_arg<std::size_t>(task.failures, "failures", 0);
  plan.options.instance_limit = int_arg<std::uint64_t>(task.max_instances, "max_instances", 0);
  plan.options.threads = resolve_threads(int_arg<int>(task.threads, "threads", 0));
  plan.precision = optional_int_arg<long>(task.precision, "precision");
  plan.max_precision = optional_int_arg<long>(task.max_precision, "max_precision");
  return plan;
}

py::object exact_result(const ExactEvaluation& run) {
  const EvalReport report = summary_to_report(run.summary);
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
  result.task = run.id.task;
  result.model = run.id.model_description;
  result.model_class = run.id.model_class;
  result.class_detail = run.id.class_detail;
  return py::cast(std::move(result));
}

py::object run_evaluate(const ModelArgs& margs, const TaskArgs& task) {
  const EvalPlan plan = eval_plan(task);
  HeadSource head = open_python_head(margs, true);
  Evaluation result;
  {
    py::gil_scoped_release release;
    result = evaluate_plan(head, plan);
  }
  if (result.ball) return ball_result(head.ball_head(), *result.ball);
  return exact_result(*result.exact);
}

}  // namespace

namespace {

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
         const py::object& activation, const py::object& name, const py::object& positions,
         const py::object& layout, const py::object& feature_map, const py::object& precision,
         const py::object& max_precision, const py::object& m, const py::object& n,
         const py::object& mode, const py::object& family, const py::object& tokens,
         const py::object& threads, const py::object& failures, const py::object& max_instances,
         const py::object& profiles, const py::object& brute_force, const py::object& cross_check,
         const py::object& max_profile_work) {
        const ModelArgs args{model,     builtin, base,       activation, str_arg(name, "name"),
                             positions, layout,  feature_map};
        const TaskArgs task{m,         family,       tokens,      n,
                            mode,      threads,      failures,    max_instances,
                            profiles,  brute_force,  cross_check, max_profile_work,
                            precision, max_precision};
        return run_evaluate(args, task);
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
  * a path (str or os.PathLike) to any model file the CLI's eval accepts: text, JSON
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
    these arguments;
  * a torch.nn.Module (anything with a state_dict() method): its state_dict(), read as
    the dict above, so evaluate(module) and evaluate(module.state_dict()) agree.

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
