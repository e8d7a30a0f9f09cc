// The default job (app/reproduce_job.hpp).
#include "kernelrank/app/reproduce_job.hpp"

#include "kernelrank/app/result_text.hpp"

#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/softmax_base.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <nlohmann/json.hpp>

#include <utility>

namespace kernelrank {
namespace {

std::string task_name(int m, int n) {
  return "T(" + std::to_string(m) + "," + std::to_string(n) + ")";
}

// A claim without a certificate of its own (checker_status empty).
ReproduceClaim claim(std::string name, bool holds, std::string evidence,
                     std::string checker_status = "") {
  ReproduceClaim c;
  c.name = std::move(name);
  c.holds = holds;
  c.evidence = std::move(evidence);
  c.checker_status = std::move(checker_status);
  return c;
}

ReproduceClaim exact_claim(const std::string& name, const Model& model, int small_m, int large_m,
                           int n) {
  EvalOptions options;
  const EvalReport brute = evaluate_cube(model, small_m, n, options);
  const auto large = make_rank1_mean(large_m, n);
  const EvalReport profiles = evaluate_profiles(*large->overlap_form(), large_m, n, options);
  ReproduceClaim result =
      claim(name, brute.max_error == Rational(0) && profiles.max_error == Rational(0), "");
  result.evidence = "max error " + to_string(*brute.max_error) + " on " + task_name(small_m, n) +
                    " (brute force, " + brute.instances.str() + " instances), " +
                    to_string(*profiles.max_error) + " on " + task_name(large_m, n) + " (profiles)";
  return result;
}

std::string code_line(const Code& code) {
  const CodeStatistics stats = code_statistics(code);
  std::string line = code.construction + ": " + std::to_string(stats.size) + " words, weight " +
                     std::to_string(stats.min_weight) + ", min distance " +
                     std::to_string(stats.min_distance) + ", distances";
  for (const auto& [d, count] : stats.distance_distribution)
    line += " " + std::to_string(d) + ":" + std::to_string(count);
  return line;
}

// L1 and L5: rank 1 at lengths 1 and 2, and softmax bases 2 and 3 at length 3.
void add_rank1_and_softmax_claims(std::vector<ReproduceClaim>& claims, int sm, int lm) {
  EvalOptions options;
  options.max_failures = 1;
  claims.push_back(exact_claim("L1: rank 1 is exact at n=1", *make_rank1_mean(sm, 1), sm, lm, 1));
  claims.push_back(exact_claim("L1: rank 1 is exact at n=2", *make_rank1_mean(sm, 2), sm, lm, 2));
  {
    const EvalReport r = evaluate_cube(*make_rank1_mean(sm, 3), sm, 3, options);
    claims.push_back(claim(
        "rank1-mean fails at n=3", !r.solves(),
        r.failures.empty() ? "no failure" : "fails on " + outcome_to_text(r.failures.front())));
  }
  {
    const auto softmax3 = make_softmax(sm, Rational(3));
    const EvalReport brute = evaluate_cube(*softmax3, sm, 3, options);
    const EvalReport profiles =
        evaluate_profiles(*make_softmax(lm, Rational(3))->overlap_form(), lm, 3, options);
    claims.push_back(claim("L5: softmax base 3 solves n=3", brute.solves() && profiles.solves(),
                           "max error " + exact_with_decimal(*brute.max_error) + " on " +
                               task_name(sm, 3) + " (brute force), " +
                               exact_with_decimal(*profiles.max_error) + " on " + task_name(lm, 3) +
                               " (profiles)"));
  }
  {
    const EvalReport r = evaluate_cube(*make_softmax(sm, Rational(2)), sm, 3, options);
    claims.push_back(claim("L5: softmax base 2 fails at n=3", !r.solves(),
                           r.worst ? "fails on " + outcome_to_text(*r.worst) : "no failure"));
  }
  {
    const SoftmaxBaseResult r = smallest_softmax_base(lm, 3);
    claims.push_back(claim("L5: smallest integer base for " + task_name(lm, 3) + " is 3",
                           r.base && *r.base == 3,
                           r.base ? "bases 1.." + std::to_string(*r.base - 1) +
                                        " refuted by instances, base " + std::to_string(*r.base) +
                                        " max error " + exact_with_decimal(*r.report.max_error)
                                  : "no base found"));
  }
}

// The two Golay codes the certificates are built from, with their statistics.
void add_golay_claims(std::vector<ReproduceClaim>& claims) {
  const Code octads = golay_octads();
  const Code dodecads = golay_dodecads();
  const CodeStatistics octad_stats = code_statistics(octads);
  const CodeStatistics dodecad_stats = code_statistics(dodecads);
  claims.push_back(claim("Golay octads: 759 words of weight 8, min distance 8",
                         octad_stats.size == 759 && octad_stats.constant_weight &&
                             octad_stats.min_weight == 8 && octad_stats.min_distance == 8,
                         code_line(octads)));
  claims.push_back(claim("Golay dodecads: 2576 words of weight 12, min distance 8",
                         dodecad_stats.size == 2576 && dodecad_stats.constant_weight &&
                             dodecad_stats.min_weight == 12 && dodecad_stats.min_distance == 8,
                         code_line(dodecads)));
}

// L4 on the dodecads: the whole code without subset search, as in theory.md. The certificate
// goes through the gate (one checker run in memory), and the bound shown is the checker's.
VerifiedCertificate add_dodecad_bound_claim(std::vector<ReproduceClaim>& claims) {
  const Code dodecads = golay_dodecads();
  BoundSearchEntry entry = certify_pool("golay dodecads", dodecads.words, 3, false);
  VerifiedCertificate certificate;
  if (entry.bound.applicable) {
    CertificateTask task;
    task.m = 24;
    certificate = verify_certificate(CertificateDraft{
        cube_certificate(task, "golay dodecads", complement_rows(dodecads.words), entry.bound),
        std::nullopt, entry.bound.bound});
    entry.bound.bound = certificate.bound();
  }
  claims.push_back(claim(
      "L4: the Golay dodecads certify r >= 21 for T(24,3)",
      !certificate.empty() && entry.bound.bound >= 21,
      "trace rule over " + std::to_string(entry.rows) +
          " rows: T >= " + exact_with_decimal(entry.bound.trace_value()) +
          (certificate.empty() ? ", no certified bound" : ", r >= " + entry.bound.bound.str()),
      certificate.checker_status()));
  return certificate;
}

}  // namespace

ReproduceResult run_reproduce(const ReproduceRequest& request) {
  if (request.small_m < 2 || request.small_m > 8) throw DomainError("{small-m} must be in 2..8");
  if (request.large_m < 2 || request.large_m > 4096)
    throw DomainError("{large-m} must be in 2..4096");
  // The large-m claims evaluate T(large-m, 3) through overlap profiles.
  require_profile_work(request.large_m, 3, kDefaultMaxProfileWork, "; lower {large-m}",
                       "; use a smaller n, or a family file (eval {family}) for longer sequences");
  ReproduceResult result;
  add_rank1_and_softmax_claims(result.claims, request.small_m, request.large_m);
  add_golay_claims(result.claims);
  const VerifiedCertificate certificate = add_dodecad_bound_claim(result.claims);
  result.all_hold = true;
  for (const ReproduceClaim& c : result.claims) result.all_hold = result.all_hold && c.holds;
  if (!request.certificate.empty() && !certificate.empty())
    result.certificate_message = write_verified_certificate(request.certificate, certificate);
  return result;
}

nlohmann::json reproduce_json(const ReproduceRequest& request, const ReproduceResult& result) {
  nlohmann::json list = nlohmann::json::array();
  for (const ReproduceClaim& c : result.claims) {
    nlohmann::json claim = {{"claim", c.name}, {"holds", c.holds}, {"evidence", c.evidence}};
    if (!c.checker_status.empty()) claim["checker_status"] = c.checker_status;
    list.push_back(claim);
  }
  nlohmann::json json = {{"claims", list}, {"all_verified", result.all_hold}};
  if (!result.certificate_message.empty()) json["certificate"] = request.certificate;
  return json;
}

}  // namespace kernelrank
