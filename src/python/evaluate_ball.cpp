// kernelrank.evaluate on a head with transcendental features (elu1, exp, softmax): the
// ball-arithmetic report of the application layer (app/evaluation.hpp) as Python objects.
// The enclosures are exact dyadic rationals, returned as fractions.Fraction.
#include "bindings.hpp"

#include "kernelrank/core/errors.hpp"

namespace kernelrank::python {
namespace {

struct PyBallInstance {
  py::list tokens;
  int query = 1, target = 0;
  py::object output_lo, output_hi;  // Fraction, or None when the ball was not finite
  py::object error_lo, error_hi;    // |y - t| lies in [error_lo, error_hi], or None
  std::string output;               // Arb's decimal form of the ball
  std::string verdict;              // "passes", "fails", "undecided"
  long precision = 0;
};

struct PyBallResult {
  bool solves = false, decided = false;
  std::string verdict;  // as the CLI's verdict line
  py::object instances, passing, failing, undecided;
  long start_precision = 0, max_precision = 0, final_precision = 0;
  py::dict decided_at;                     // bits -> instances decided at that precision
  py::object max_error_lo, max_error_hi;   // Fraction or None
  py::object worst;                        // BallInstance or None
  py::list failures, undecided_instances;  // BallInstance
  std::string method, task, model, feature_map;
};

PyBallInstance to_ball_instance(const BallOutcome& o) {
  PyBallInstance b;
  for (const Token& token : o.instance.tokens) b.tokens.append(token.to_string());
  b.query = o.instance.query + 1;
  b.target = o.target;
  b.output = o.output;
  b.verdict = to_string(o.verdict);
  b.precision = o.precision;
  b.output_lo = o.enclosed ? to_fraction(o.lo) : py::none();
  b.output_hi = o.enclosed ? to_fraction(o.hi) : py::none();
  b.error_lo = o.enclosed ? to_fraction(o.error_lo()) : py::none();
  b.error_hi = o.enclosed ? to_fraction(o.error_hi()) : py::none();
  return b;
}

py::list to_ball_instances(const std::vector<BallOutcome>& outcomes) {
  py::list list;
  for (const BallOutcome& o : outcomes) list.append(py::cast(to_ball_instance(o)));
  return list;
}

std::string ball_instance_repr(const PyBallInstance& b) {
  // A list's repr: ['0110', '1010'].
  const std::string tokens = py::repr(b.tokens).cast<std::string>();
  return "BallInstance(tokens=" + tokens + ", query=" + std::to_string(b.query) +
         ", target=" + std::to_string(b.target) +
         ", output=" + py::repr(py::str(b.output)).cast<std::string>() +
         ", verdict=" + py::repr(py::str(b.verdict)).cast<std::string>() +
         ", precision=" + std::to_string(b.precision) + ")";
}

std::string ball_result_repr(const PyBallResult& r) {
  return "BallResult(verdict=" + py::repr(py::str(r.verdict)).cast<std::string>() +
         ", instances=" + py::str(r.instances).cast<std::string>() +
         ", failing=" + py::str(r.failing).cast<std::string>() +
         ", undecided=" + py::str(r.undecided).cast<std::string>() +
         ", final_precision=" + std::to_string(r.final_precision) + ")";
}

}  // namespace

py::object ball_result(const RealHead& head, const BallEvaluation& run) {
  const BallReport& report = run.report;
  PyBallResult r;
  r.solves = report.solves();
  r.decided = report.undecided == 0;
  r.verdict = verdict_text(report);
  r.instances = py::int_(report.instances);
  r.passing = py::int_(report.passing);
  r.failing = py::int_(report.failing);
  r.undecided = py::int_(report.undecided);
  r.start_precision = run.options.precision;
  r.max_precision = run.options.max_precision;
  r.final_precision = report.final_precision;
  for (const auto& [bits, count] : report.decided_at)
    r.decided_at[py::int_(bits)] = py::int_(count);
  r.max_error_lo = to_fraction(report.max_error_lo);
  r.max_error_hi = to_fraction(report.max_error_hi);
  r.worst = report.worst ? py::cast(to_ball_instance(*report.worst)) : py::none();
  r.failures = to_ball_instances(report.failures);
  r.undecided_instances = to_ball_instances(report.undecided_list);
  r.method = report.method + ", ball arithmetic";
  r.task = run.task;
  r.model = head.description;
  r.feature_map = to_string(head.map);
  return py::cast(std::move(r));
}

void register_ball_types(py::module_& module) {
  py::class_<PyBallInstance>(
      module, "BallInstance",
      "One instance evaluated with ball arithmetic: the output y lies in "
      "[output_lo, output_hi] (exact dyadic fractions.Fraction), and verdict says "
      "whether that enclosure lies inside the band |y - target| < 1/2 ('passes'), "
      "at or beyond its edge ('fails'), or across it ('undecided').")
      .def_readonly("tokens", &PyBallInstance::tokens,
                    "The tokens as 0/1 strings, coordinate 1 first")
      .def_readonly("query", &PyBallInstance::query, "The queried position, 1-based")
      .def_readonly("target", &PyBallInstance::target, "The Min-IP target (int)")
      .def_readonly("output_lo", &PyBallInstance::output_lo,
                    "Lower end of the output's enclosure (Fraction) or None")
      .def_readonly("output_hi", &PyBallInstance::output_hi,
                    "Upper end of the output's enclosure (Fraction) or None")
      .def_readonly("error_lo", &PyBallInstance::error_lo,
                    "|y - target| >= error_lo (Fraction) or None")
      .def_readonly("error_hi", &PyBallInstance::error_hi,
                    "|y - target| <= error_hi (Fraction) or None")
      .def_readonly("output", &PyBallInstance::output, "The ball in decimal, for display (str)")
      .def_readonly("verdict", &PyBallInstance::verdict, "'passes', 'fails' or 'undecided'")
      .def_readonly("precision", &PyBallInstance::precision,
                    "Bits of the pass that produced this enclosure")
      .def("__repr__", &ball_instance_repr);

  py::class_<PyBallResult>(
      module, "BallResult",
      "The rigorous report of kernelrank.evaluate on a head with transcendental "
      "features (elu1, exp, softmax), as `kernelrank eval` prints it. solves is True "
      "only when every instance was decided and passes; undecided instances are "
      "never counted as passing or failing.")
      .def_readonly("solves", &PyBallResult::solves, "Every instance decided, none fails")
      .def_readonly("decided", &PyBallResult::decided, "No instance stayed undecided")
      .def_readonly(
          "verdict", &PyBallResult::verdict,
          "'solves (decided rigorously)', 'FAILS (decided rigorously)' or 'undecided at P bits'")
      .def_readonly("instances", &PyBallResult::instances, "Instances evaluated (int)")
      .def_readonly("passing", &PyBallResult::passing, "Instances decided to pass (int)")
      .def_readonly("failing", &PyBallResult::failing, "Instances decided to fail (int)")
      .def_readonly("undecided", &PyBallResult::undecided,
                    "Instances undecided at the final precision (int)")
      .def_readonly("start_precision", &PyBallResult::start_precision, "Bits of the first pass")
      .def_readonly("max_precision", &PyBallResult::max_precision,
                    "The cap on the doubling precision")
      .def_readonly("final_precision", &PyBallResult::final_precision,
                    "The highest precision a pass used")
      .def_readonly("decided_at", &PyBallResult::decided_at,
                    "{bits: instances decided at that precision}")
      .def_readonly("max_error_lo", &PyBallResult::max_error_lo,
                    "max |y - t| >= this (Fraction) or None")
      .def_readonly("max_error_hi", &PyBallResult::max_error_hi,
                    "max |y - t| <= this (Fraction) or None")
      .def_readonly("worst", &PyBallResult::worst,
                    "The BallInstance with the largest error_hi, or None")
      .def_readonly("failures", &PyBallResult::failures,
                    "The first failing instances (list of BallInstance)")
      .def_readonly("undecided_instances", &PyBallResult::undecided_instances,
                    "The first undecided instances (list of BallInstance)")
      .def_readonly("method", &PyBallResult::method,
                    "'family, ball arithmetic' or 'brute force, ball arithmetic'")
      .def_readonly("task", &PyBallResult::task, "The task, as the CLI's 'task:' line")
      .def_readonly("model", &PyBallResult::model, "The head's description")
      .def_readonly("feature_map", &PyBallResult::feature_map, "'elu1', 'exp' or 'softmax'")
      .def(
          "__bool__", [](const PyBallResult& r) { return r.solves; }, "Same as solves")
      .def("__repr__", &ball_result_repr);
}

}  // namespace kernelrank::python
