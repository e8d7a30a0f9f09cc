// `kernelrank witness`: a family of instances whose solution alone forces the
// certified bound, with its family certificate.
#include "commands.hpp"
#include "family_output.hpp"
#include "option_checks.hpp"

#include "core/atomic_write.hpp"
#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/witness.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct WitnessArgs {
  int m = 24;
  int n = 3;
  std::string code;
  std::string golay;
  std::string mode = "first";
  bool position_dependent = false;
  std::size_t max_instances = 3000;
  std::string out;
  std::string cert;
};

struct Built {
  std::string construction;
  Witness witness;
  FamilyBound bound;
};

Built build(const std::string& construction, const std::vector<Token>& code,
            const WitnessOptions& options) {
  Built built{construction, build_witness(code, options), {}};
  built.bound = certify_family(built.witness.family, options.position_dependent);
  return built;
}

int run_witness(const WitnessArgs& args, const GlobalOptions& global) {
  if (args.out.empty() || args.cert.empty())
    throw UsageError("witness needs --out FAMILY and --cert CERT");
  const QueryMode mode = parse_query_mode(args.mode);
  if (mode == QueryMode::All) throw UsageError("witness families use --mode first or last");
  WitnessOptions options;
  options.n = args.n;
  options.position = mode == QueryMode::First ? 0 : args.n - 1;
  options.position_dependent = args.position_dependent;
  options.max_instances = args.max_instances;
  std::optional<Built> best;
  auto consider = [&](const std::string& name, const std::vector<Token>& words) {
    Built candidate = build(name, words, options);
    if (candidate.bound.found && (!best || candidate.bound.bound.bound > best->bound.bound.bound))
      best = std::move(candidate);
  };
  if (!args.code.empty()) {
    const Code code = read_code(args.code);
    consider("code " + args.code, code.words);
  } else if (!args.golay.empty()) {
    if (args.golay == "octads")
      consider("golay octads", golay_octads().words);
    else if (args.golay == "dodecads")
      consider("golay dodecads", golay_dodecads().words);
    else
      throw UsageError("--golay must be octads or dodecads");
  } else {
    // Lexicodes from the sparsest (fewest, farthest words) down; the budget decides.
    const int w = args.m / 2;
    for (int d = 2 * std::min(w, args.m - w); d >= 4; d -= 2) {
      const Code code = lexicode(args.m, w, d);
      if (code.words.size() >= 2) consider(code.construction, code.words);
    }
  }
  if (!best)
    throw UsageError("no construction tried gives a witness family with a certified bound" +
                     std::string(args.code.empty() && args.golay.empty()
                                     ? " at m = " + std::to_string(args.m) +
                                           " (lexicodes of weight m/2 need m >= 6)"
                                     : "") +
                     " within --max-instances " + std::to_string(args.max_instances));
  const std::string family_text = family_to_text(best->witness.family);
  CertificateTask task;
  task.m = best->witness.family.m;
  task.n = args.n;
  task.position_dependent = args.position_dependent;
  const std::string construction = "witness family along chains of " + best->construction + ", " +
                                   std::to_string(best->witness.rows.size()) + " code rows";
  // The certificate is checked against the family text before either file is written.
  const VerifiedCertificate certificate = verify_certificate(
      CertificateDraft{family_certificate(task, sha256_hex(family_text), construction, best->bound),
                       FamilyInput{args.out, family_text}, best->bound.bound.bound});
  best->bound.bound.bound = certificate.bound();  // what the user reads is the checker's number
  write_file_atomically(args.out, family_text);
  (void)write_verified_certificate(args.cert, certificate);
  std::string human = "witness family for T(" + std::to_string(task.m) + "," +
                      std::to_string(args.n) + ") from " + best->construction + ": " +
                      std::to_string(best->witness.family.instances.size()) + " instances, " +
                      std::to_string(best->witness.rows.size()) + " code rows (" +
                      std::to_string(best->witness.rows_left_out) + " left out by the budget)\n";
  human += family_bound_text(best->bound, 5);
  human += "family written to " + args.out + ", certificate to " + args.cert + "\n";
  human += "check with: kernelrank-check " + args.cert + " " + args.out + "\n";
  nlohmann::json json = family_bound_json(best->bound, 5);
  json["construction"] = best->construction;
  json["instances"] = best->witness.family.instances.size();
  json["family"] = args.out;
  json["certificate"] = args.cert;
  emit(global, json, human);
  return kExitOk;
}

}  // namespace

void add_witness_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<WitnessArgs>();
  CLI::App* cmd = app.add_subcommand("witness", "Write a witness family and its certificate");
  cmd->add_option("--m", args->m, "Token width (default constructions: lexicodes of weight m/2)")
      ->capture_default_str()
      ->check(in_range(1, 65536));
  cmd->add_option("--n", args->n, "Sequence length (>= 3)")->capture_default_str();
  auto* code = cmd->add_option("--code", args->code, "Own tokens from this code file");
  auto* golay =
      cmd->add_option("--golay", args->golay, "Own tokens from the Golay octads or dodecads");
  code->excludes(golay);
  cmd->add_option("--mode", args->mode, "Query position: first or last")->capture_default_str();
  cmd->add_flag("--position-dependent", args->position_dependent,
                "Include every arrangement of S3's keys");
  cmd->add_option("--max-instances", args->max_instances, "Largest family to write")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Family file to write")->required();
  cmd->add_option("--cert", args->cert, "Certificate file to write")->required();
  run_when_selected(cmd, global, action, args, run_witness);
}

}  // namespace kernelrank::cli
