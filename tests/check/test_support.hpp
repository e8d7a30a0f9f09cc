// Helpers shared by the checker's tests: running the library entry point on text, and a
// brute-force R_N(G) that enumerates every composition instead of a dynamic programme.
#pragma once

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "check/check.hpp"
#include "check/sha256.hpp"

namespace krcheck_test {

struct Run {
  krcheck::CheckResult result;
  std::string out;
  std::string err;
  krcheck::Status status() const { return result.status; }
};

inline int count_lines_starting(const std::string& text, const std::string& prefix) {
  int count = 0;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind(prefix, 0) == 0) ++count;
  return count;
}

// Runs the checker on in-memory files named "test.cert" / "test.family" and checks the
// output contract that holds for every run: one status line, matching the status.
inline Run run_text(const std::string& cert_text,
                    const std::optional<std::string>& family_text = std::nullopt) {
  std::istringstream cert(cert_text);
  std::istringstream family(family_text.value_or(""));
  std::optional<krcheck::NamedInput> family_input;
  if (family_text) family_input = krcheck::NamedInput{"test.family", &family};
  std::ostringstream out;
  std::ostringstream err;
  Run run;
  run.result =
      krcheck::check_certificate(krcheck::NamedInput{"test.cert", &cert}, family_input, out, err);
  run.out = out.str();
  run.err = err.str();
  CHECK(count_lines_starting(run.out, "s ") == 1);
  const bool verified = run.result.status == krcheck::Status::verified;
  CHECK(count_lines_starting(run.out, verified ? "s VERIFIED" : "s NOT VERIFIED") == 1);
  CHECK(count_lines_starting(run.err, "test.") == (verified ? 0 : 1));
  return run;
}

// R_N(G) as the maximum over an explicit enumeration of all compositions of G into parts
// >= 2 (0 when there is none, i.e. G = 1). Exponential; fine for G <= 30.
inline std::uint64_t brute_force_amplification(int n, int gap) {
  std::uint64_t best = 0;
  std::function<void(int, std::uint64_t)> extend = [&](int left, std::uint64_t product) {
    if (left == 0) {
      if (product > best) best = product;
      return;
    }
    for (int part = 2; part <= left; ++part)
      extend(left - part, product * static_cast<std::uint64_t>((n - 2) * (part - 1)));
  };
  extend(gap, 1);
  return best;
}

inline std::string digest_of(const std::string& text) {
  return krcheck::to_hex(krcheck::sha256(text));
}

// A two-row family certificate over m = 4, n = 3 and its family: every step has gap 2 and
// k = 1, so f = (3-1-1)(2-1)/1 = 1 = rho; trace rule with P = 4: c_j = 1, terms
// floor(16/2) = 8, S = 16, T = 1, bound 2.
inline const std::string kTwoRowFamily =
    "kernelrank-family 1 m=4 n=3\n"
    "1 0011 1100 1100\n1 0011 0011 0011\n1 0011 1100 0011\n"
    "1 1100 0011 0011\n1 1100 1100 1100\n1 1100 0011 1100\n";
inline const std::string kTwoRowPairs = "pairs 2\npair 1 2 : 1\npair 2 1 : 2\n";

inline std::string two_row_family_cert(const std::string& digest_field,
                                       const std::string& positions, const std::string& mode,
                                       const std::string& claim, const std::string& pairs_block) {
  return "kernelrank-certificate 1\n"
         "task family m=4 n=3 mode=" +
         mode + " class=PF positions=" + positions + " sha256=" + digest_field +
         "\n"
         "rule trace precision=4\n"
         "steps 2\n"
         "step 1 pos=1 q=0011 a=1100 b=0011 k=1\n"
         "step 2 pos=1 q=1100 a=0011 b=1100 k=1\n"
         "rows 2\n"
         "row 1100 0011\n"
         "row 0011 1100\n" +
         pairs_block + "sum 16\nclaim r >= " + claim + "\nend\n";
}

}  // namespace krcheck_test
