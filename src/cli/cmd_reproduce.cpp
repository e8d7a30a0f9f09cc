// `kernelrank reproduce`: the default job. Re-checks, with exact arithmetic, the
// facts of theory.md that the engine can verify on shipped defaults, and prints
// the Golay codes used by the rank bounds.
#include "commands.hpp"
#include "report_output.hpp"

#include "kernelrank/bounds/bound_search.hpp"
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"
#include "kernelrank/eval/evaluate.hpp"
#include "kernelrank/eval/softmax_base.hpp"
#include "kernelrank/models/builtin_models.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct ReproduceArgs {
  int small_m = 8;   // brute force width
  int large_m = 24;  // overlap-profile width
  std::string cert;  // where to write the m = 24 bound certificate
};

struct Claim {
  std::string name;
  bool holds = false;
  std::string evidence;
};

std::string task_name(int m, int n) {
  return "T(" + std::to_string(m) + "," + std::to_string(n) + ")";
}

Claim exact_claim(const std::string& name, const Model& model, int small_m, int large_m, int n) {
  EvalOptions options;
  const EvalReport brute = evaluate_cube(model, small_m, n, options);
  const auto large = make_rank1_mean(large_m, n);
  const EvalReport profiles = evaluate_profiles(*large->overlap_form(), large_m, n, options);
  Claim claim{name, brute.max_error == Rational(0) && profiles.max_error == Rational(0), ""};
  claim.evidence = "max error " + to_string(*brute.max_error) + " on " + task_name(small_m, n) +
                   " (brute force, " + brute.instances.str() + " instances), " +
                   to_string(*profiles.max_error) + " on " + task_name(large_m, n) + " (profiles)";
  return claim;
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
void add_rank1_and_softmax_claims(std::vector<Claim>& claims, int sm, int lm) {
  EvalOptions options;
  options.max_failures = 1;
  claims.push_back(exact_claim("L1: rank 1 is exact at n=1", *make_rank1_mean(sm, 1), sm, lm, 1));
  claims.push_back(exact_claim("L1: rank 1 is exact at n=2", *make_rank1_mean(sm, 2), sm, lm, 2));
  {
    const EvalReport r = evaluate_cube(*make_rank1_mean(sm, 3), sm, 3, options);
    claims.push_back(
        {"rank1-mean fails at n=3", !r.solves(),
         r.failures.empty() ? "no failure" : "fails on " + outcome_to_text(r.failures.front())});
  }
  {
    const auto softmax3 = make_softmax(sm, Rational(3));
    const EvalReport brute = evaluate_cube(*softmax3, sm, 3, options);
    const EvalReport profiles =
        evaluate_profiles(*make_softmax(lm, Rational(3))->overlap_form(), lm, 3, options);
    claims.push_back({"L5: softmax base 3 solves n=3", brute.solves() && profiles.solves(),
                      "max error " + exact_with_decimal(*brute.max_error) + " on " +
                          task_name(sm, 3) + " (brute force), " +
                          exact_with_decimal(*profiles.max_error) + " on " + task_name(lm, 3) +
                          " (profiles)"});
  }
  {
    const EvalReport r = evaluate_cube(*make_softmax(sm, Rational(2)), sm, 3, options);
    claims.push_back({"L5: softmax base 2 fails at n=3", !r.solves(),
                      r.worst ? "fails on " + outcome_to_text(*r.worst) : "no failure"});
  }
  {
    const SoftmaxBaseResult r = smallest_softmax_base(lm, 3);
    claims.push_back({"L5: smallest integer base for " + task_name(lm, 3) + " is 3",
                      r.base && *r.base == 3,
                      r.base ? "bases 1.." + std::to_string(*r.base - 1) +
                                   " refuted by instances, base " + std::to_string(*r.base) +
                                   " max error " + exact_with_decimal(*r.report.max_error)
                             : "no base found"});
  }
}

// The two Golay codes the certificates are built from, with their statistics.
void add_golay_claims(std::vector<Claim>& claims) {
  const Code octads = golay_octads();
  const Code dodecads = golay_dodecads();
  const CodeStatistics octad_stats = code_statistics(octads);
  const CodeStatistics dodecad_stats = code_statistics(dodecads);
  claims.push_back({"Golay octads: 759 words of weight 8, min distance 8",
                    octad_stats.size == 759 && octad_stats.constant_weight &&
                        octad_stats.min_weight == 8 && octad_stats.min_distance == 8,
                    code_line(octads)});
  claims.push_back({"Golay dodecads: 2576 words of weight 12, min distance 8",
                    dodecad_stats.size == 2576 && dodecad_stats.constant_weight &&
                        dodecad_stats.min_weight == 12 && dodecad_stats.min_distance == 8,
                    code_line(dodecads)});
}

// L4 on the dodecads; with --cert the certificate goes through the gate.
void add_dodecad_bound_claim(std::vector<Claim>& claims, const ReproduceArgs& args) {
  const Code dodecads = golay_dodecads();
  {
    // L4 on the dodecads without subset search: the whole code, as in theory.md.
    BoundSearchEntry entry = certify_pool("golay dodecads", dodecads.words, 3, false);
    // With --cert the gate checks the certificate first, and the bound shown is the checker's.
    VerifiedCertificate certificate;
    if (!args.cert.empty() && entry.bound.applicable) {
      CertificateTask task;
      task.m = 24;
      certificate = verify_certificate(CertificateDraft{
          cube_certificate(task, "golay dodecads", complement_rows(dodecads.words), entry.bound),
          std::nullopt, entry.bound.bound});
      entry.bound.bound = certificate.bound();
    }
    claims.push_back({"L4: the Golay dodecads certify r >= 21 for T(24,3)",
                      entry.bound.applicable && entry.bound.bound >= 21,
                      "trace rule over " + std::to_string(entry.rows) +
                          " rows: T >= " + exact_with_decimal(entry.bound.trace_value()) +
                          ", r >= " + entry.bound.bound.str()});
    if (!certificate.empty()) {
      (void)write_verified_certificate(args.cert, certificate);
      claims.back().evidence +=
          "; certificate written to " + args.cert + " (verified by the checker)";
    }
  }
}

int run_reproduce(const ReproduceArgs& args, const GlobalOptions& global) {
  if (args.small_m < 2 || args.small_m > 8) throw UsageError("--small-m must be in 2..8");
  if (args.large_m < 2 || args.large_m > 4096) throw UsageError("--large-m must be in 2..4096");
  // The large-m claims evaluate T(large-m, 3) through overlap profiles.
  require_profile_work(args.large_m, 3, kDefaultMaxProfileWork, "; lower --large-m",
                       kProfileLengthHint);
  std::vector<Claim> claims;
  add_rank1_and_softmax_claims(claims, args.small_m, args.large_m);
  add_golay_claims(claims);
  add_dodecad_bound_claim(claims, args);
  bool all = true;
  nlohmann::json list = nlohmann::json::array();
  std::string human = "kernelrank reproduce: exact checks of theory.md on shipped defaults\n";
  for (const Claim& c : claims) {
    all = all && c.holds;
    list.push_back({{"claim", c.name}, {"holds", c.holds}, {"evidence", c.evidence}});
    human += std::string(c.holds ? "[ok]     " : "[FAILED] ") + c.name + "\n         " +
             c.evidence + "\n";
  }
  human += all ? "all claims verified\n" : "SOME CLAIMS FAILED\n";
  emit(global, {{"claims", list}, {"all_verified", all}}, human);
  return all ? kExitOk : kExitNegative;
}

}  // namespace

void add_reproduce_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<ReproduceArgs>();
  CLI::App* cmd = app.add_subcommand(
      "reproduce", "Default job: re-verify L1, L5, the Golay codes and the m = 24 bound exactly");
  cmd->add_option("--small-m", args->small_m, "Width for brute force")->capture_default_str();
  cmd->add_option("--large-m", args->large_m, "Width for overlap profiles")->capture_default_str();
  cmd->add_option("--cert", args->cert,
                  "Write the certificate of the m = 24 bound (check it with kernelrank-check)");
  run_when_selected(cmd, global, action, args, run_reproduce);
}

}  // namespace kernelrank::cli
