// The certify pipeline (certify_job.hpp). The baseline certificate is read by the checker's
// own parser, so a garbled, truncated or empty file is refused naming its line, never read
// as "no steps".
#include "kernelrank/app/certify_job.hpp"

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/core/token.hpp"

#include "check/certificate.hpp"
#include "check/status.hpp"

#include <fstream>

namespace kernelrank {
namespace {

krcheck::Certificate parse_baseline(const std::string& path) {
  if (const auto why = irregular_file(path)) throw InputError(path, 0, *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open file");
  try {
    return krcheck::parse_certificate(in, path);
  } catch (const krcheck::CheckError& e) {
    throw InputError(e.file, static_cast<std::size_t>(e.line), e.what());
  }
}

// Steps of another task cannot be looked up in this family.
void require_same_task(const krcheck::Certificate& cert, const std::string& path,
                       const Family& family) {
  for (const krcheck::Step& step : cert.steps) {
    if (cert.m != family.m)
      throw InputError(path, static_cast<std::size_t>(step.line),
                       "the step's tokens have width " + std::to_string(cert.m) +
                           ", the family's m=" + std::to_string(family.m));
    if (step.position > family.n || step.k + 2 > static_cast<std::uint64_t>(family.n))
      throw InputError(path, static_cast<std::size_t>(step.line),
                       "the step's pos=" + std::to_string(step.position) +
                           " and k=" + std::to_string(step.k) +
                           " do not fit the family's n=" + std::to_string(family.n));
  }
}

std::vector<FamilyStep> baseline_steps(const std::string& path, const Family& family) {
  const krcheck::Certificate cert = parse_baseline(path);
  require_same_task(cert, path, family);
  const auto token = [&](const krcheck::Token& bits) {
    std::string text(static_cast<std::size_t>(family.m), '0');
    for (int k = 0; k < family.m; ++k)
      if ((bits[static_cast<std::size_t>(k / 64)] >> (k % 64)) & 1U)
        text[static_cast<std::size_t>(k)] = '1';
    return parse_token(text, family.m);
  };
  std::vector<FamilyStep> steps;
  steps.reserve(cert.steps.size());
  for (const krcheck::Step& parsed : cert.steps) {
    FamilyStep step;
    step.position = parsed.position - 1;
    step.q = token(parsed.query);
    step.a = token(parsed.a);
    step.b = token(parsed.b);
    step.k = static_cast<int>(parsed.k);
    step.gap = inner(step.q, step.b) - inner(step.q, step.a);
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace

CertifyOutcome run_certify(const CertifyRequest& request) {
  const std::string bytes = read_file_checked(request.family);
  const Family family = parse_family(request.family, bytes);
  CertifyOutcome out;
  out.m = family.m;
  out.n = family.n;
  out.instances = family.instances.size();
  out.bound = certify_family(family, request.position_dependent);
  // Every bound goes through the gate, so that "certified" is the checker's word and the
  // bound reported is the checker's number.
  if (out.bound.found) {
    CertificateTask task;
    task.m = family.m;
    task.n = family.n;
    task.position_dependent = request.position_dependent;
    out.certificate = verify_certificate(CertificateDraft{
        family_certificate(task, family_digest_hex(bytes), "certify " + request.family, out.bound),
        FamilyInput{request.family, bytes}, out.bound.bound.bound});
    out.bound.bound.bound = out.certificate.bound();
  }
  if (!request.baseline.empty())
    out.lost_steps = unsupported_steps(family, baseline_steps(request.baseline, family),
                                       request.position_dependent);
  if (!out.certificate.empty() && !request.certificate.empty())
    out.certificate_message = write_verified_certificate(request.certificate, out.certificate);
  return out;
}

std::string incomplete_pattern_text(const IncompletePattern& p, bool with_position) {
  std::string text = "query " + p.q.to_string();
  if (with_position) text += " at position " + std::to_string(p.position + 1);
  text += ", a = " + p.a.to_string() + ", b = " + p.b.to_string() + ": missing";
  for (const std::string& m : p.missing) text += " " + m;
  return text;
}

}  // namespace kernelrank
