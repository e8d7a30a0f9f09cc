// The train job (app/train_job.hpp) run in the trainer executable, kernelrank-train, the only
// one that links libtorch, for a front end that must not link torch (the Python module).
//
// The protocol, both sides of which are here: the parent starts `kernelrank-train
// <kTrainerRequestMode>` and writes the request's JSON (train_request_to_json) to its stdin;
// the child runs the job and writes one JSON response to its stdout,
//   {"format": "kernelrank-train-response", "version": 1, "exit_code": 0, "report": REPORT}
// or, when the job threw,
//   {"format": ..., "version": 1, "exit_code": 2, "error": {"kind": ..., "message": ...}},
// and exits with that exit code. "kind" is usage (message: a pattern naming parameters as
// {name}), input (also file, line, column, whole_file; message: the reader's text), resource
// (a pattern), output or internal; the parent throws the same exception. The child's stderr
// is the parent's: the progress line when asked for, nothing else.
#pragma once

#include "kernelrank/app/train_job.hpp"

#include <exception>
#include <string>

namespace kernelrank {

// The child's one argument.
inline constexpr const char* kTrainerRequestMode = "json-request";

// Checks the request, runs `trainer` (the kernelrank-train executable) on it and waits for
// it; returns its report or throws the exception its response names. A trainer that cannot be
// started is a UsageError saying how to build it (trainer_missing_message); one that ends
// without a response (a crash) an InternalError.
TrainReport run_trainer(const std::string& trainer, const TrainRequest& request);

// The child's side: reads the request from stdin, runs the job with `trainer`, writes the
// response to stdout (the job's own output, if any, goes to stderr) and returns the exit code.
int serve_train_request(const HeadTrainer& trainer);

// The response for an exception (the error object and its exit code), and the exception a
// response's error object names, thrown.
nlohmann::json trainer_error_to_json(const std::exception_ptr& error);
[[noreturn]] void throw_trainer_error(const nlohmann::json& error);

// What to do when the trainer `program` cannot be run (`reason`, e.g. strerror's text): how
// to build it, and that training needs libtorch.
std::string trainer_missing_message(const std::string& program, const std::string& reason);

}  // namespace kernelrank
