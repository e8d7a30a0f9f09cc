// Orchestration; see check.hpp. The order of the checks: the certificate is parsed
// completely first (so malformed input always wins), then the arguments are matched to
// the task, then the family file is parsed and its digest compared, then steps, chains,
// the rule's sum and the claim. An inherit certificate's embedded certificate is verified
// completely before its task is compared with the outer one.
#include "check.hpp"

#include <fstream>
#include <new>

#include "certificate.hpp"
#include "conclusion.hpp"
#include "cube_rule.hpp"
#include "dependence_rule.hpp"
#include "family.hpp"
#include "family_chains.hpp"
#include "inherit_rule.hpp"
#include "order_rule.hpp"
#include "reader.hpp"

namespace krcheck {
namespace {

std::istream& opened(const NamedInput& input) {
  if (input.stream == nullptr) fail_malformed(input.name, 0, "cannot open the file");
  return *input.stream;
}

std::string rule_text(const Certificate& cert) {
  switch (cert.rule) {
    case RuleKind::trace:
      return "trace precision=" + std::to_string(cert.precision);
    case RuleKind::dominance:
      return "dominance";
    case RuleKind::order:
      return "order rank=" + std::to_string(cert.order_rank);
    case RuleKind::dependence:
      return "dependence rank=" + std::to_string(cert.dependence_rank);
    case RuleKind::inherit:
      return "inherit";
  }
  return "?";
}

void print_summary(const Certificate& cert, std::ostream& out) {
  out << "c certificate: " << cert.file << "\n";
  if (cert.version != 1) out << "c format: " << cert.version << "\n";
  out << "c " << cert.task_statement << "\n";
  if (cert.rule == RuleKind::trace || cert.rule == RuleKind::dominance)
    out << "c rows: " << cert.row_count() << "\n";
  if (cert.rule == RuleKind::order)
    out << "c declared: " << cert.steps.size() << " steps, " << cert.keypairs.size()
        << " keypairs\n";
  if (cert.rule == RuleKind::dependence)
    out << "c declared: " << cert.dependence_queries.size() << " queries, " << cert.steps.size()
        << " steps, " << cert.covers.size() << " covers\n";
  out << "c rule: " << rule_text(cert) << "\n";
  out << "c claim as stated: r >= " << cert.claim << "\n";
}

BigInt check_cube(const Certificate& cert, std::ostream& out) {
  switch (cert.rule) {
    case RuleKind::trace:
      return conclude_trace(cert, cube_trace_sum(cert), out);
    case RuleKind::dominance:
      return conclude_dominance(cert, cube_dominance_max_row_sum(cert), out);
    case RuleKind::order:
      return check_order_rule(cert, nullptr, out);
    case RuleKind::dependence:
      return check_dependence_rule(cert, nullptr, out);
    case RuleKind::inherit:
      break;
  }
  // The parser admits neither a family task nor another inherit rule inside.
  const Certificate& inner = *cert.embedded;
  out << "c embedded certificate, lines " << cert.begin_embedded_line << "-"
      << cert.end_embedded_line << ":\n";
  print_summary(inner, out);
  check_cube(inner, out);
  out << "c embedded certificate verified\n";
  return conclude_inherit(cert, out);
}

BigInt check_family(const Certificate& cert, const NamedInput& input, std::ostream& out) {
  const bool order = cert.rule == RuleKind::order;
  const Family family = read_family(opened(input), input.name, cert.dependent_positions,
                                    order && cert.model_class == ModelClass::NK);
  if (family.digest != cert.family_digest)
    fail_check(family.file, 0,
               "SHA-256 of the family file is " + to_hex(family.digest) +
                   ", the certificate (line " + std::to_string(cert.task_line) + ") names " +
                   to_hex(cert.family_digest));
  out << "c family: " << family.file << " (" << family.instance_count
      << " instances, SHA-256 matches)\n";
  if (order) return check_order_rule(cert, &family, out);
  if (cert.rule == RuleKind::dependence) return check_dependence_rule(cert, &family, out);
  const std::vector<Rational> factors = check_steps(cert, family);
  out << "c steps: " << factors.size() << " checked against the family\n";
  const std::vector<Rational> rho = check_chains(cert, factors);
  out << "c pairs: " << rho.size() << " chains checked\n";
  if (cert.rule == RuleKind::trace) return conclude_trace(cert, family_trace_sum(cert, rho), out);
  return conclude_dominance(cert, family_dominance_max_row_sum(cert, rho), out);
}

}  // namespace

int exit_code(Status status) {
  switch (status) {
    case Status::verified:
      return 0;
    case Status::not_verified:
      return 1;
    case Status::malformed:
      return 2;
  }
  return 2;
}

CheckResult check_certificate(const NamedInput& cert_input, const std::optional<NamedInput>& family,
                              std::ostream& out, std::ostream& err) {
  CheckResult result;  // status malformed until the very end of the try block
  out << "c kernelrank-check, certificate formats 1 and 2\n";
  try {
    const Certificate cert = parse_certificate(opened(cert_input), cert_input.name);
    result.claim = cert.claim.str();
    if (cert.is_family && !family)
      fail_malformed(cert.file, 0, "a family certificate needs the FAMILY file argument");
    if (!cert.is_family && family)
      fail_malformed(cert.file, 0,
                     "a cube certificate takes no FAMILY argument (given '" + family->name + "')");
    print_summary(cert, out);
    const BigInt bound = cert.is_family ? check_family(cert, *family, out) : check_cube(cert, out);
    result.bound = bound.str();
    result.status = Status::verified;
  } catch (const CheckError& error) {
    err << error.file << ":" << error.line << ": error: " << printable(error.what()) << "\n";
    result.status = error.status;
  } catch (const std::bad_alloc&) {
    err << cert_input.name << ":0: error: out of memory\n";
    result.status = Status::malformed;
  } catch (const std::exception& error) {
    err << cert_input.name << ":0: error: internal error: " << error.what() << "\n";
    result.status = Status::malformed;
  } catch (...) {
    err << cert_input.name << ":0: error: internal error\n";
    result.status = Status::malformed;
  }
  out << (result.status == Status::verified ? "s VERIFIED\n" : "s NOT VERIFIED\n");
  return result;
}

CheckResult check_certificate(const std::string& cert_path,
                              const std::optional<std::string>& family_path, std::ostream& out,
                              std::ostream& err) {
  std::ifstream cert_file(cert_path, std::ios::binary);
  NamedInput cert{cert_path, cert_file.is_open() ? &cert_file : nullptr};
  std::ifstream family_file;
  std::optional<NamedInput> family;
  if (family_path) {
    family_file.open(*family_path, std::ios::binary);
    family = NamedInput{*family_path, family_file.is_open() ? &family_file : nullptr};
  }
  return check_certificate(cert, family, out, err);
}

}  // namespace krcheck
