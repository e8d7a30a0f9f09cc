// `kernelrank witness`: a family of instances whose solution alone forces the
// certified bound, with its family certificate (the pipeline: app/witness_job.hpp).
#include "commands.hpp"
#include "family_output.hpp"
#include "option_checks.hpp"

#include "kernelrank/app/result_json.hpp"
#include "kernelrank/app/witness_job.hpp"
#include "kernelrank/core/errors.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

constexpr std::size_t kListedPatterns = 5;  // incomplete patterns shown

// The options bind straight into the request; only the query mode is parsed afterwards.
struct WitnessArgs {
  WitnessRequest request;
  std::string mode = "first";
};

int run_witness_command(const WitnessArgs& args, const GlobalOptions& global) {
  WitnessRequest request = args.request;
  if (request.out.empty() || request.certificate.empty())
    throw UsageError("witness needs --out FAMILY and --cert CERT");
  request.mode = parse_query_mode(args.mode);
  const WitnessOutcome w = run_witness(request);
  std::string human = "witness family for T(" + std::to_string(w.witness.family.m) + "," +
                      std::to_string(request.n) + ") from " + w.construction + ": " +
                      std::to_string(w.witness.family.instances.size()) + " instances, " +
                      std::to_string(w.witness.rows.size()) + " code rows (" +
                      std::to_string(w.witness.rows_left_out) + " left out by the budget)\n";
  human += family_bound_text(w.bound, w.certificate, kListedPatterns);
  human += "family written to " + request.out + ", certificate to " + request.certificate + "\n";
  human += "check with: kernelrank-check " + request.certificate + " " + request.out + "\n";
  emit(global, witness_json(request, w, kListedPatterns), human);
  return kExitOk;
}

}  // namespace

void add_witness_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<WitnessArgs>();
  WitnessRequest& request = args->request;
  CLI::App* cmd = app.add_subcommand("witness", "Write a witness family and its certificate");
  cmd->add_option("--m", request.m, "Token width (default constructions: lexicodes of weight m/2)")
      ->capture_default_str()
      ->check(in_range(1, 65536));
  cmd->add_option("--n", request.n, "Sequence length (>= 3)")->capture_default_str();
  auto* code = cmd->add_option("--code", request.code, "Own tokens from this code file");
  auto* golay =
      cmd->add_option("--golay", request.golay, "Own tokens from the Golay octads or dodecads");
  code->excludes(golay);
  cmd->add_option("--mode", args->mode, "Query position: first or last")->capture_default_str();
  cmd->add_flag("--position-dependent", request.position_dependent,
                "Include every arrangement of S3's keys");
  cmd->add_option("--max-instances", request.max_instances, "Largest family to write")
      ->capture_default_str();
  cmd->add_option("--out", request.out, "Family file to write")->required();
  cmd->add_option("--cert", request.certificate, "Certificate file to write")->required();
  run_when_selected(cmd, global, action, args, run_witness_command);
}

}  // namespace kernelrank::cli
