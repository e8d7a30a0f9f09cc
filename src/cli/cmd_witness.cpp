// `kernelrank witness`: a family of instances whose solution alone forces the
// certified bound, with its family certificate (the pipeline: app/witness_job.hpp).
#include "commands.hpp"
#include "family_output.hpp"
#include "option_checks.hpp"

#include "kernelrank/app/witness_job.hpp"
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

int run_witness_command(const WitnessArgs& args, const GlobalOptions& global) {
  if (args.out.empty() || args.cert.empty())
    throw UsageError("witness needs --out FAMILY and --cert CERT");
  WitnessRequest request;
  request.m = args.m;
  request.n = args.n;
  request.code = args.code;
  request.golay = args.golay;
  request.mode = parse_query_mode(args.mode);
  request.position_dependent = args.position_dependent;
  request.max_instances = args.max_instances;
  request.out = args.out;
  request.certificate = args.cert;
  const WitnessOutcome w = run_witness(request);
  std::string human = "witness family for T(" + std::to_string(w.witness.family.m) + "," +
                      std::to_string(args.n) + ") from " + w.construction + ": " +
                      std::to_string(w.witness.family.instances.size()) + " instances, " +
                      std::to_string(w.witness.rows.size()) + " code rows (" +
                      std::to_string(w.witness.rows_left_out) + " left out by the budget)\n";
  human += family_bound_text(w.bound, 5);
  human += "family written to " + args.out + ", certificate to " + args.cert + "\n";
  human += "check with: kernelrank-check " + args.cert + " " + args.out + "\n";
  nlohmann::json json = family_bound_json(w.bound, 5);
  json["construction"] = w.construction;
  json["instances"] = w.witness.family.instances.size();
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
  run_when_selected(cmd, global, action, args, run_witness_command);
}

}  // namespace kernelrank::cli
