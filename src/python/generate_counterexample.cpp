// kernelrank.counterexample and kernelrank.generate_family: the requests of
// app/counterexample_job.hpp and app/generate_job.hpp (the pipelines the CLI's
// `counterexample` and `generate` run), with the GIL released, and their results bound.
#include "bindings.hpp"

#include "kernelrank/app/counterexample_job.hpp"
#include "kernelrank/app/generate_job.hpp"
#include "kernelrank/core/errors.hpp"

namespace kernelrank::python {
namespace {

// The app's outcome, with the pools converted once (the lists Python indexes).
struct PyGenerated {
  GenerateOutcome outcome;
  py::list train, test;  // Instance (not evaluated)
};

std::string counterexample_repr(const CounterexampleOutcome& c) {
  const py::object failing =
      c.result.failing ? py::cast(to_instance(*c.result.failing)) : py::object(py::none());
  return "Counterexample(path=" + py::repr(py::str(to_string(c.result.path))).cast<std::string>() +
         ", failing=" + py::repr(failing).cast<std::string>() +
         ", solves=" + (c.solves() ? "True" : "False") + ")";
}

// The arguments arrive as given and are converted by their keywords (bindings.hpp); the
// ranges (m: 1..4096 or None) are the app's, as for the CLI.
CounterexampleOutcome run_counterexample(const py::object& model, const py::object& builtin,
                                         const py::object& base, const py::object& activation,
                                         const py::object& name, const py::object& positions,
                                         const py::object& m_arg, const py::object& n_arg,
                                         const py::object& family_arg, const py::object& out_arg) {
  const ModelArgs margs{model,     builtin,    base,      activation, str_arg(name, "name"),
                        positions, py::none(), py::none()};
  CounterexampleRequest request;
  request.m = optional_int_arg<int>(m_arg, "m");
  request.n = int_arg<int>(n_arg, "n");
  if (!family_arg.is_none()) request.family = path_argument(family_arg, "family");
  if (!out_arg.is_none()) request.out = path_argument(out_arg, "out");
  HeadSource head = open_python_head(margs, false);
  py::gil_scoped_release release;
  return kernelrank::run_counterexample(head, request);
}

PyGenerated run_generate(const py::object& m, const py::object& n, const py::object& mode,
                         const py::object& code_arg, const py::object& golay_arg,
                         const py::object& weight_arg, const py::object& seed,
                         const py::object& train_arg, const py::object& test_arg,
                         const py::object& out_arg, const py::object& format_arg) {
  GenerateRequest request;
  request.format = str_arg(format_arg, "format");
  request.m = int_arg<int>(m, "m");
  request.n = int_arg<int>(n, "n");
  request.mode = parse_query_mode(str_arg(mode, "mode"));
  if (!code_arg.is_none()) request.code = path_argument(code_arg, "code");
  request.golay = optional_str_arg(golay_arg, "golay").value_or("");
  request.weight = optional_int_arg<int>(weight_arg, "weight");
  request.seed = int_arg<std::uint64_t>(seed, "seed");
  request.train = int_arg<std::size_t>(train_arg, "train");
  request.test = int_arg<std::size_t>(test_arg, "test");
  if (!out_arg.is_none()) request.prefix = path_argument(out_arg, "out");
  PyGenerated g;
  {
    py::gil_scoped_release release;
    g.outcome = kernelrank::run_generate(request);
  }
  for (const Instance& instance : g.outcome.sets.train.instances)
    g.train.append(py::cast(to_instance(instance)));
  for (const Instance& instance : g.outcome.sets.test.instances)
    g.test.append(py::cast(to_instance(instance)));
  return g;
}

void register_counterexample(py::module_& module) {
  py::class_<CounterexampleOutcome>(
      module, "Counterexample",
      "What `kernelrank counterexample` finds: a failing instance (or why there is none).")
      .def_property_readonly(
          "path", [](const CounterexampleOutcome& c) { return to_string(c.result.path); },
          "How it was found: 'proof-guided', 'exhaustive' or 'none'")
      .def_property_readonly(
          "failing",
          [](const CounterexampleOutcome& c) {
            return c.result.failing ? py::cast(to_instance(*c.result.failing))
                                    : py::object(py::none());
          },
          "The failing Instance (exact output and error), or None")
      .def_property_readonly(
          "construction",
          [](const CounterexampleOutcome& c) {
            return c.result.failing ? c.result.construction : std::string();
          },
          "Rows the proof-guided path used")
      .def_property_readonly(
          "explanation", [](const CounterexampleOutcome& c) { return c.result.explanation; },
          "The violated ratio, chain link and inequality")
      .def_property_readonly(
          "fallback_reason",
          [](const CounterexampleOutcome& c) { return c.result.fallback_reason; },
          "Why the proof-guided path did not decide ('' if it did)")
      .def_property_readonly(
          "kernel_entries", [](const CounterexampleOutcome& c) { return c.result.kernel_entries; },
          "Kernel values the proof-guided path evaluated")
      .def_property_readonly("solves", &CounterexampleOutcome::solves,
                             "True when an exhaustive search proved that none exists")
      .def_readonly("task", &CounterexampleOutcome::task, "The task searched, e.g. 'T(24,3)'")
      .def_readonly("model", &CounterexampleOutcome::model, "The model's description")
      .def_property_readonly(
          "out",
          [](const CounterexampleOutcome& c) {
            return c.out.empty() ? py::object(py::none()) : py::object(py::str(c.out));
          },
          "The one-line family file written (out=), or None")
      .def("__repr__", &counterexample_repr);

  module.def(
      "counterexample", &run_counterexample, py::arg("model") = py::none(), py::kw_only(),
      py::arg("builtin") = py::none(), py::arg("base") = py::none(),
      py::arg("activation") = py::none(), py::arg("name") = "<dict>",
      py::arg("positions") = py::none(), py::arg("m") = py::none(), py::arg("n") = 3,
      py::arg("family") = py::none(), py::arg("out") = py::none(),
      R"doc(Find a failing instance for a model, guided by the proof; returns a Counterexample.

As `kernelrank counterexample`: the model is a path, builtin=NAME (with m, base), a dict
of arrays or a module with state_dict() (see evaluate). The task is T(m,n) (m in 1..4096, None: the model's width), or
family=PATH. out=PATH writes the failing instance as a one-line family file (atomically).

Example:
  >>> c = kernelrank.counterexample(builtin="softmax", base=2, m=6)
  >>> c.failing.fails
  True
)doc");
}

void register_generate(py::module_& module) {
  py::class_<PyGenerated>(
      module, "GeneratedSets",
      "Disjoint train and test instance sets, as `kernelrank generate` draws them.")
      .def_readonly("train", &PyGenerated::train,
                    "Training instances (list of Instance, with targets)")
      .def_readonly("test", &PyGenerated::test,
                    "Test instances (list of Instance), disjoint from train")
      .def_property_readonly(
          "files", [](const PyGenerated& g) { return g.outcome.files; },
          "The files written (out=), in the CLI's order")
      .def_property_readonly(
          "m", [](const PyGenerated& g) { return g.outcome.m; }, "Token width")
      .def_property_readonly(
          "n", [](const PyGenerated& g) { return g.outcome.n; }, "Sequence length")
      .def_property_readonly(
          "source", [](const PyGenerated& g) { return g.outcome.source; },
          "Where the tokens come from")
      .def("__repr__", [](const PyGenerated& g) {
        return "GeneratedSets(m=" + std::to_string(g.outcome.m) +
               ", n=" + std::to_string(g.outcome.n) +
               ", train=" + std::to_string(py::len(g.train)) +
               ", test=" + std::to_string(py::len(g.test)) + ")";
      });

  module.def(
      "generate_family", &run_generate, py::arg("m") = 24, py::kw_only(), py::arg("n") = 3,
      py::arg("mode") = "first", py::arg("code") = py::none(), py::arg("golay") = py::none(),
      py::arg("weight") = py::none(), py::arg("seed") = 1, py::arg("train") = 1000,
      py::arg("test") = 1000, py::arg("out") = py::none(), py::arg("format") = "all",
      R"doc(Seeded, disjoint train/test instance sets with Min-IP targets; returns GeneratedSets.

As `kernelrank generate`: tokens uniformly random of width m (weight=W: uniformly random
among the weight-W words, 0 <= W <= m), or the words of code=PATH, or
golay="octads" | "dodecads". mode "all" draws a random query position. With out=PREFIX
(the CLI's output prefix) the same files are written, atomically: PREFIX-train.family,
PREFIX-train.csv, PREFIX-train.jsonl and the same for test (format= "family", "csv",
"jsonl" or "all"). The sets depend only on the arguments (seed included: 0..2**64-1);
train and test take at most 10,000,000 instances each.

Example:
  >>> g = kernelrank.generate_family(8, train=5, test=5, seed=7)
  >>> len(g.train), g.train[0].target
)doc");
}

}  // namespace

void register_generate_counterexample(py::module_& module) {
  register_counterexample(module);
  register_generate(module);
}

}  // namespace kernelrank::python
