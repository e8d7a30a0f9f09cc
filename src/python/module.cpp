// The Python module `kernelrank` (docs/python.md): exact evaluation, certified bounds,
// the independent checker, counterexamples and instance generation, as the CLI computes
// them, with exact values as Python ints and fractions.Fraction.
#include "bindings.hpp"

#include "kernelrank/core/progress.hpp"

#ifndef KERNELRANK_VERSION
#define KERNELRANK_VERSION "0.0.0"
#endif

PYBIND11_MODULE(kernelrank, module) {
  using namespace kernelrank::python;
  module.doc() =
      R"doc(kernelrank: exact verification for normalized nonnegative-kernel attention heads on the
Min-IP task (README.md, docs/python.md).

Every verdict is computed in exact rational arithmetic by the same C++ library as the
`kernelrank` command line; exact values come back as fractions.Fraction, counts as int.

Functions:
  evaluate(model, *, builtin=None, m=None, n=3, mode="first", family=None, tokens=None, ...)
      exact evaluation of a model file, a built-in or a dict of arrays (kernelrank eval)
  bound(m, *, n=3, r=None, certificate=None, ...)
      the certified lower bound on the feature rank, and with r whether r is ruled out,
      suffices or is open (kernelrank bound)
  check_certificate(path, family=None, *, threads=0)
      the independent checker (kernelrank-check)
  counterexample(model, *, ...)
      a concrete failing instance (kernelrank counterexample)
  generate_family(m=24, *, n=3, ..., out=None)
      seeded disjoint train/test sets (kernelrank generate)
  witness(m=24, *, out=None, certificate=None, ...)
      a witness family and its verified certificate (kernelrank witness)
  certify(family, *, certificate=None, ...)
      the best bound a family supports, certified (kernelrank certify)
  construct(family, *, out=None, ...)
      an exact relu head for a family, when it solves it (kernelrank construct)
  search(m, r, *, model_class="NK", family=None, ...)
      find a model with r features or refute r (kernelrank search)
  min_rank(m_max=4, *, model_class="both", ...)
      the table of minimal ranks (kernelrank min-rank)
  transition(m=24, *, certificate=None)
      the phase-transition table n = 1, 2, 3 (kernelrank transition)
  upper(m, *, model_class="PF", out=None, lp_budget=2000)
      the cheapest layered head for T(m,3), verified: r features suffice (kernelrank upper)
  transcript(m=None, *, n=None, family=None, ...)
      the transcript bound (kernelrank transcript)
  train(family=None, *, out, r, feature, ...)
      train heads with the trainer executable and decide each exactly (kernelrank train)
  set_progress(enabled)
      progress lines on stderr for long runs

Type stubs (kernelrank.pyi beside the module) give every argument's type.

Errors are kernelrank.Error subclasses: UsageError and InputError (ValueError),
ResourceError (MemoryError), OutputError (OSError), InternalError (RuntimeError); their
messages are the text the CLI prints after its "kernelrank: error: " prefix, with each
option named by its keyword argument (an InputError's message is the CLI's whole
"FILE:LINE: error: MESSAGE" line). An argument of the wrong type raises TypeError and an
int outside its range UsageError, each naming the argument: "m must be an int, not str",
"effort: must be in 0..1000, not 1001".
)doc";
  module.attr("__version__") = KERNELRANK_VERSION;
  register_errors(module);
  register_types(module);
  register_ball_types(module);
  register_evaluate(module);
  register_bound(module);
  register_check(module);
  register_generate_counterexample(module);
  register_search(module);
  register_min_rank(module);
  register_train_commands(module);
  register_witness(module);
  register_certify(module);
  register_construct(module);
  register_upper(module);
  module.def(
      "set_progress",
      [](const pybind11::object& enabled) {
        kernelrank::Progress::set_enabled(bool_arg(enabled, "enabled"));
      },
      pybind11::arg("enabled"),
      "Turn the progress lines that long runs print on stderr on or off (enabled: a bool; off "
      "is the CLI's quiet option).");
}
