// kernelrank.check_certificate: the independent checker's library (src/check, the code of
// kernelrank-check) on a certificate file, with its status line and messages.
#include "bindings.hpp"

#include "check/check.hpp"  // krcheck::check_certificate

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace kernelrank::python {
namespace {

constexpr int kMaxThreads = 1024;  // as kernelrank-check's threads option

struct PyCheckResult {
  bool verified = false;
  std::string status;   // the status line: "s VERIFIED" or "s NOT VERIFIED"
  std::string message;  // the checker's error lines (stderr), "" when verified
  std::string output;   // everything the checker prints on stdout (comments and status)
  py::object bound;     // the rule's bound (int) when computed, else None
  py::object claim;     // the certificate's claimed K (int) when parsed, else None
  int exit_code = 2;    // kernelrank-check's exit code for this outcome
  std::string path;
};

std::string check_repr(const PyCheckResult& r) {
  return "CheckResult(verified=" + std::string(r.verified ? "True" : "False") +
         ", status=" + py::repr(py::str(r.status)).cast<std::string>() +
         ", bound=" + py::repr(r.bound).cast<std::string>() +
         ", path=" + py::repr(py::str(r.path)).cast<std::string>() + ")";
}

py::object optional_number(const std::string& digits) {
  if (digits.empty()) return py::none();
  return py::int_(py::str(digits));
}

std::string trimmed(std::string text) {
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

bool readable(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return static_cast<bool>(in);
}

PyCheckResult run_check(const py::object& path_arg, const py::object& family_arg,
                        const py::object& threads_arg) {
  const std::string path = path_argument(path_arg, "path");
  std::optional<std::string> family;
  if (!family_arg.is_none()) family = path_argument(family_arg, "family");
  const int threads = int_arg(threads_arg, "threads", 0, kMaxThreads);
  std::ostringstream out, err;
  krcheck::CheckResult checked;
  {
    py::gil_scoped_release release;
    krcheck::CheckOptions options;
    options.threads = threads;
    checked = krcheck::check_certificate(path, family, out, err, options);
  }
  // An unreadable file is not a wrong certificate: raise with the checker's own line.
  for (const std::string& input :
       family ? std::vector<std::string>{path, *family} : std::vector<std::string>{path}) {
    // Opening a FIFO would block; a directory stays a malformed result, as before.
    std::error_code ignored;
    const auto why = irregular_file(input);
    if (why && !std::filesystem::is_directory(input, ignored)) throw InputError(input, 0, *why);
    if (!readable(input)) throw InputError(input, 0, "cannot open the file");
  }
  PyCheckResult result;
  result.verified = checked.status == krcheck::Status::verified;
  result.output = out.str();
  const std::string text = trimmed(result.output);
  const std::size_t last = text.rfind('\n');
  result.status = last == std::string::npos ? text : text.substr(last + 1);
  result.message = trimmed(err.str());
  result.bound = optional_number(checked.bound);
  result.claim = optional_number(checked.claim);
  result.exit_code = krcheck::exit_code(checked.status);
  result.path = path;
  return result;
}

}  // namespace

void register_check(py::module_& module) {
  py::class_<PyCheckResult>(
      module, "CheckResult",
      "The independent checker's verdict on a certificate (what kernelrank-check prints).")
      .def_readonly("verified", &PyCheckResult::verified,
                    "True exactly when the checker prints 's VERIFIED'")
      .def_readonly("status", &PyCheckResult::status,
                    "The checker's status line, 's VERIFIED' or 's NOT VERIFIED'")
      .def_readonly("message", &PyCheckResult::message,
                    "The checker's error lines ('FILE:LINE: error: MESSAGE'), '' when verified")
      .def_readonly("output", &PyCheckResult::output,
                    "Everything kernelrank-check prints on stdout")
      .def_readonly("bound", &PyCheckResult::bound,
                    "The bound r >= bound the rule gives (int), or None")
      .def_readonly("claim", &PyCheckResult::claim,
                    "The certificate's claimed bound (int), or None")
      .def_readonly("exit_code", &PyCheckResult::exit_code,
                    "kernelrank-check's exit code: 0, 1, 2 or 4 (internal error)")
      .def_readonly("path", &PyCheckResult::path, "The certificate file")
      .def(
          "__bool__", [](const PyCheckResult& r) { return r.verified; }, "Same as verified")
      .def("__repr__", &check_repr);

  module.def(
      "check_certificate", &run_check, py::arg("path"), py::arg("family") = py::none(),
      py::kw_only(), py::arg("threads") = 0,
      R"doc(Check a certificate with the independent checker's library; returns a CheckResult.

The same check as `kernelrank-check CERT [FAMILY]` (the checker shares no code with the
producer). A certificate that is wrong or malformed is not an exception: verified is False,
status is 's NOT VERIFIED' and message holds the checker's error lines. A path that cannot
be read raises kernelrank.InputError ('PATH:0: error: cannot open the file'). family= is
the family file of a family certificate. threads: worker threads, 0..1024 as the checker
takes them, 0 for all hardware threads.

Example:
  >>> kernelrank.check_certificate("build/bound-m24.cert").verified
  True
)doc");
}

}  // namespace kernelrank::python
