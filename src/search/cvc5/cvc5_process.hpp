// Internal: cvc5 as a second SMT backend, driven through SMT-LIB2 in a child process.
//
// The cvc5 executable is optional at build and run time (Debian package cvc5): it is
// looked up on PATH when a search asks for it. The query is the SMT2 text Z3 prints for
// the same encoding, so both solvers decide the same formula. Model values are read
// exactly (decimals, (/ p q), (- x)); anything else (an irrational algebraic value)
// makes the answer "unknown", never an approximation.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace kernelrank::detail {

// The path of `cvc5` on PATH, or "" when it is not installed.
std::string find_cvc5();
// Throws UsageError naming the missing executable and its Debian package.
std::string require_cvc5();
// "cvc5 1.0.3" (the first line of `cvc5 --version`), or "" when absent.
std::string cvc5_version();

struct SmtAnswer {
  std::string answer;  // "sat" / "unsat" / "unknown"
  std::string reason;
  std::vector<Rational> values;  // for sat: the requested terms' values, in order
  double seconds = 0;
};

// Parses cvc5's output for one (check-sat) followed by (get-value (terms)).
SmtAnswer parse_cvc5_output(const std::string& output, std::size_t terms);

// One cvc5 run on `smt2` (declarations and assertions, no check-sat); `terms` are the
// SMT2 names whose values a sat answer reports. The process starts in the constructor;
// the destructor kills it if it still runs.
class Cvc5Process {
 public:
  Cvc5Process(const std::string& smt2, const std::vector<std::string>& terms, unsigned timeout_ms);
  ~Cvc5Process();
  Cvc5Process(const Cvc5Process&) = delete;
  Cvc5Process& operator=(const Cvc5Process&) = delete;

  bool finished();     // non-blocking
  SmtAnswer wait();    // blocks until cvc5 ends (it has its own time limit)
  void stop();         // kills it; the answer is then "unknown"
  SmtAnswer answer();  // after finished() or wait()

 private:
  void reap(int status);

  std::string dir_;
  std::size_t terms_ = 0;
  pid_t pid_ = -1;
  bool done_ = false;
  bool killed_ = false;
  int status_ = 0;
  std::chrono::steady_clock::time_point start_;
  double seconds_ = 0;
};

}  // namespace kernelrank::detail
