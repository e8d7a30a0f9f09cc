// The witness pipeline (witness_job.hpp): every construction tried, the best kept, its
// certificate through the gate, then the files.
#include "kernelrank/app/witness_job.hpp"

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <optional>

namespace kernelrank {
namespace {

struct Candidate {
  std::string construction;
  Witness witness;
  FamilyBound bound;
};

WitnessOptions witness_options(const WitnessRequest& request) {
  if (request.mode == QueryMode::All)
    throw DomainError("witness families use {mode} first or last");
  WitnessOptions options;
  options.n = request.n;
  options.position = request.mode == QueryMode::First ? 0 : request.n - 1;
  options.position_dependent = request.position_dependent;
  options.max_instances = request.max_instances;
  return options;
}

// The candidate with the largest certified bound (the first among equals).
std::optional<Candidate> best_candidate(const WitnessRequest& request,
                                        const WitnessOptions& options) {
  std::optional<Candidate> best;
  auto consider = [&](const std::string& name, const std::vector<Token>& words) {
    Candidate candidate{name, build_witness(words, options), {}};
    candidate.bound = certify_family(candidate.witness.family, options.position_dependent);
    if (candidate.bound.found && (!best || candidate.bound.bound.bound > best->bound.bound.bound))
      best = std::move(candidate);
  };
  if (!request.code.empty()) {
    consider("code " + request.code, read_code(request.code).words);
  } else if (!request.golay.empty()) {
    if (request.golay == "octads")
      consider("golay octads", golay_octads().words);
    else if (request.golay == "dodecads")
      consider("golay dodecads", golay_dodecads().words);
    else
      throw DomainError("{golay} must be octads or dodecads");
  } else {
    // Lexicodes from the sparsest (fewest, farthest words) down; the budget decides.
    const int w = request.m / 2;
    for (int d = 2 * std::min(w, request.m - w); d >= 4; d -= 2) {
      const Code code = lexicode(request.m, w, d);
      if (code.words.size() >= 2) consider(code.construction, code.words);
    }
  }
  return best;
}

}  // namespace

WitnessOutcome run_witness(const WitnessRequest& request) {
  const WitnessOptions options = witness_options(request);
  std::optional<Candidate> best = best_candidate(request, options);
  if (!best)
    throw DomainError("no construction tried gives a witness family with a certified bound" +
                      std::string(request.code.empty() && request.golay.empty()
                                      ? " at m = " + std::to_string(request.m) +
                                            " (lexicodes of weight m/2 need m >= 6)"
                                      : "") +
                      " within {max-instances} " + std::to_string(request.max_instances));
  WitnessOutcome out;
  out.construction = std::move(best->construction);
  out.witness = std::move(best->witness);
  out.bound = std::move(best->bound);
  out.family_text = family_to_text(out.witness.family);
  CertificateTask task;
  task.m = out.witness.family.m;
  task.n = request.n;
  task.position_dependent = request.position_dependent;
  const std::string construction = "witness family along chains of " + out.construction + ", " +
                                   std::to_string(out.witness.rows.size()) + " code rows";
  const std::string family_name = request.out.empty() ? "<witness family>" : request.out;
  // The certificate is checked against the family text before either file is written.
  out.certificate = verify_certificate(CertificateDraft{
      family_certificate(task, family_digest_hex(out.family_text), construction, out.bound),
      FamilyInput{family_name, out.family_text}, out.bound.bound.bound});
  out.bound.bound.bound = out.certificate.bound();  // what the user reads is the checker's number
  if (!request.out.empty()) write_file_atomically(request.out, out.family_text);
  if (!request.certificate.empty())
    out.certificate_message = write_verified_certificate(request.certificate, out.certificate);
  return out;
}

}  // namespace kernelrank
