// Comparing the embedded task with the outer one; see inherit_rule.hpp.
#include "check/inherit_rule.hpp"

#include <string>

#include "check/conclusion.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

std::string mode_text(QueryMode mode) {
  return mode == QueryMode::first ? "first" : mode == QueryMode::last ? "last" : "all";
}

std::string positions_text(bool dependent) { return dependent ? "dependent" : "independent"; }

}  // namespace

BigInt conclude_inherit(const Certificate& cert, std::ostream& out) {
  const Certificate& inner = *cert.embedded;
  const std::string outer_task = "the outer task (line " + std::to_string(cert.task_line) + ")";
  const auto fail = [&](const std::string& message) {
    fail_check(cert.file, inner.task_line, "the embedded task " + message);
  };
  if (inner.m >= cert.m)
    fail("has m=" + std::to_string(inner.m) + ", not below the m=" + std::to_string(cert.m) +
         " of " + outer_task);
  if (inner.n != cert.n)
    fail("has n=" + std::to_string(inner.n) + ", " + outer_task + " n=" + std::to_string(cert.n) +
         ": padding keeps the length");
  if (inner.mode != cert.mode)
    fail("has mode=" + mode_text(inner.mode) + ", " + outer_task + " mode=" + mode_text(cert.mode));
  if (inner.dependent_positions != cert.dependent_positions)
    fail("has positions=" + positions_text(inner.dependent_positions) + ", " + outer_task +
         " positions=" + positions_text(cert.dependent_positions));
  if (cert.model_class == ModelClass::NK && inner.model_class == ModelClass::PF)
    fail("has class=PF, whose bound says nothing about the class=NK of " + outer_task);
  out << "c inherit rule: T(" << inner.m << "," << inner.n << ") of lines "
      << cert.begin_embedded_line << "-" << cert.end_embedded_line << " padded with "
      << cert.m - inner.m << " zero coordinates; the bound is its claim r >= " << inner.claim
      << "\n";
  check_claim(
      cert, inner.claim,
      "inherit rule from T(" + std::to_string(inner.m) + "," + std::to_string(inner.n) + ")", out);
  return inner.claim;
}

}  // namespace krcheck
