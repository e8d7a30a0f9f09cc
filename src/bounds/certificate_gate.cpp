// See certificate_gate.hpp. The checker prints its comment and status lines on `out`;
// only its error lines matter here.
#include "kernelrank/bounds/certificate_gate.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/errors.hpp"

#include "check/check.hpp"  // the checker's library (src/check)
#include "check/sha256.hpp"

#include <atomic>
#include <sstream>

namespace kernelrank {

namespace {

const char* const kInMemory = "<certificate in memory>";
const char* const kNothingWritten = " (a bug; nothing was written)";

std::atomic<std::uint64_t> runs{0};

// The last status line ("s ...") the checker printed on `out`.
std::string status_line(const std::string& out) {
  std::string last;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.rfind("s ", 0) == 0) last = line;
  return last;
}

CheckerVerdict verdict_of(const krcheck::CheckResult& result, const std::ostringstream& out,
                          const std::ostringstream& err) {
  CheckerVerdict verdict;
  verdict.verified = result.status == krcheck::Status::verified;
  verdict.bound = result.bound;
  verdict.claim = result.claim;
  verdict.upper = result.upper;
  verdict.diagnostics = err.str();
  verdict.status = status_line(out.str());
  return verdict;
}

// Why the gate refuses `verdict` on a draft claiming `claim`; empty when it accepts. The
// checker already refuses a stated claim above its bound; a claim below it, or a producer
// claiming another number than the text states, would show the user a number the
// certificate does not carry.
std::string refusal(const CheckerVerdict& verdict, const Integer& claim) {
  if (!verdict.verified)
    return "kernelrank-check refuses the certificate the producer made" +
           std::string(kNothingWritten) + ": " + verdict.diagnostics;
  if (verdict.bound != claim.str() || verdict.claim != claim.str())
    return "the producer claims r >= " + claim.str() +
           ", but kernelrank-check verifies r >= " + verdict.bound +
           " (the certificate states r >= " + verdict.claim + ")" + kNothingWritten;
  return std::string();
}

}  // namespace

CheckerVerdict run_checker(const std::string& text, const std::optional<FamilyInput>& family_input,
                           int threads) {
  runs.fetch_add(1, std::memory_order_relaxed);
  std::istringstream cert(text);
  std::istringstream family_stream(family_input ? family_input->bytes : std::string());
  std::optional<krcheck::NamedInput> family;
  if (family_input) family = krcheck::NamedInput{family_input->path, &family_stream};
  std::ostringstream out, err;
  krcheck::CheckOptions options;
  options.threads = threads;
  return verdict_of(
      krcheck::check_certificate(krcheck::NamedInput{kInMemory, &cert}, family, out, err, options),
      out, err);
}

std::string checker_shard(const std::string& text, std::uint64_t index, std::uint64_t count,
                          int threads) {
  std::istringstream cert(text);
  std::ostringstream out, err;
  krcheck::CheckOptions options;
  options.threads = threads;
  options.shard = std::make_pair(index, count);
  const krcheck::CheckResult result = krcheck::check_certificate(
      krcheck::NamedInput{kInMemory, &cert}, std::nullopt, out, err, options);
  if (result.partial.empty())
    throw InternalError("kernelrank-check refuses shard " + std::to_string(index) + "/" +
                        std::to_string(count) + " of the certificate the producer made" +
                        kNothingWritten + ": " + err.str());
  return result.partial;
}

std::string family_digest_hex(const std::string& bytes) {
  return krcheck::to_hex(krcheck::sha256(bytes));
}

GateOutcome try_verify_certificate(CertificateDraft draft, int threads) {
  const CheckerVerdict verdict = run_checker(draft.text, draft.family, threads);
  GateOutcome outcome;
  outcome.refusal = refusal(verdict, draft.claim);
  if (outcome.refusal.empty())
    outcome.certificate = VerifiedCertificate(std::move(draft.text), std::move(draft.family),
                                              Integer(verdict.bound), verdict.status);
  return outcome;
}

VerifiedCertificate verify_certificate(CertificateDraft draft, int threads) {
  GateOutcome outcome = try_verify_certificate(std::move(draft), threads);
  if (!outcome.certificate) throw InternalError(outcome.refusal);
  return std::move(*outcome.certificate);
}

VerifiedCertificate verify_merged_certificate(CertificateDraft draft,
                                              const std::vector<std::string>& partials) {
  std::istringstream cert(draft.text);
  std::vector<std::istringstream> streams;
  streams.reserve(partials.size());
  std::vector<krcheck::NamedInput> inputs;
  for (std::size_t k = 0; k < partials.size(); ++k) streams.emplace_back(partials[k]);
  for (std::size_t k = 0; k < partials.size(); ++k)
    inputs.push_back(krcheck::NamedInput{"<checker shard " + std::to_string(k + 1) + " in memory>",
                                         &streams[k]});
  std::ostringstream out, err;
  const CheckerVerdict verdict = verdict_of(
      krcheck::merge_partials(krcheck::NamedInput{kInMemory, &cert}, inputs, out, err), out, err);
  if (const std::string why = refusal(verdict, draft.claim); !why.empty()) throw InternalError(why);
  return VerifiedCertificate(std::move(draft.text), std::move(draft.family), Integer(verdict.bound),
                             verdict.status);
}

std::string write_verified_certificate(const std::string& path,
                                       const VerifiedCertificate& certificate) {
  if (certificate.empty())
    throw InternalError("no verified certificate to write to " + path + " (a bug)");
  write_file_atomically(path, certificate.text());
  return "certificate written to " + path +
         " (verified in memory by the checker; check it with: kernelrank-check " + path +
         (certificate.family() ? " " + certificate.family()->path : std::string()) + ")\n";
}

VerifiedHead verify_layered_head(std::string text, const Integer& claimed_r) {
  const CheckerVerdict verdict = run_checker(text, std::nullopt);
  if (!verdict.verified)
    throw InternalError("kernelrank-check refuses the layered head the producer made" +
                        std::string(kNothingWritten) + ": " + verdict.diagnostics);
  if (verdict.upper != claimed_r.str())
    throw InternalError("the producer claims r <= " + claimed_r.str() +
                        ", but kernelrank-check verifies r <= " + verdict.upper + kNothingWritten);
  return VerifiedHead(std::move(text), claimed_r);
}

std::string write_verified_head(const std::string& path, const VerifiedHead& head) {
  if (head.empty()) throw InternalError("no verified head to write to " + path + " (a bug)");
  write_file_atomically(path, head.text());
  return "head written to " + path +
         " (verified in memory by the checker; check it with: kernelrank-check " + path + ")\n";
}

std::uint64_t checker_runs() { return runs.load(std::memory_order_relaxed); }

}  // namespace kernelrank
