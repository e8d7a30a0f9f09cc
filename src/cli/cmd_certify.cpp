// `kernelrank certify`: the best bound an arbitrary family supports.
#include "commands.hpp"
#include "family_output.hpp"

#include "kernelrank/atomic_write.hpp"
#include "kernelrank/certificate.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/text_input.hpp"

#include <memory>

namespace kernelrank::cli {
namespace {

struct CertifyArgs {
  std::string family;
  std::string cert;
  std::string baseline;
  bool position_dependent = false;
  std::size_t show_incomplete = 10;
};

int run_certify(const CertifyArgs& args, const GlobalOptions& global) {
  const std::string bytes = read_file_checked(args.family);
  const Family family = parse_family(args.family, bytes);
  const FamilyBound bound = certify_family(family, args.position_dependent);
  std::string human = "family " + args.family + ": " + std::to_string(family.instances.size()) +
                      " instances, m=" + std::to_string(family.m) + ", n=" + std::to_string(family.n) + "\n";
  human += family_bound_text(bound, args.show_incomplete);
  nlohmann::json json = family_bound_json(bound, args.show_incomplete);
  json["family"] = args.family;
  if (!args.baseline.empty()) {
    const auto lost = unsupported_steps(family, read_certificate_steps(args.baseline, family.m, family.n),
                                        args.position_dependent);
    human += "steps of " + args.baseline + " no longer supported: " + std::to_string(lost.size()) + "\n";
    nlohmann::json lost_json = nlohmann::json::array();
    for (const IncompletePattern& p : lost) {
      std::string line = "query " + p.q.to_string() + ", a = " + p.a.to_string() + ", b = " + p.b.to_string() + ": missing";
      for (const std::string& m : p.missing) line += " " + m;
      human += "  " + line + "\n";
      lost_json.push_back(line);
    }
    json["lost_steps"] = lost_json;
  }
  if (bound.found && !args.cert.empty()) {
    CertificateTask task;
    task.m = family.m;
    task.n = family.n;
    task.position_dependent = args.position_dependent;
    write_file_atomically(args.cert, family_certificate(task, sha256_hex(bytes), "certify " + args.family, bound));
    human += "certificate written to " + args.cert + " (check: kernelrank-check " + args.cert + " " +
             args.family + ")\n";
    json["certificate"] = args.cert;
  }
  emit(global, json, human);
  return bound.found ? kExitOk : kExitNegative;
}

}  // namespace

void add_certify_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<CertifyArgs>();
  CLI::App* cmd = app.add_subcommand("certify", "Certify the best rank bound an explicit family supports");
  cmd->add_option("--family", args->family, "Family file")->required();
  cmd->add_option("--cert", args->cert, "Write the certificate here");
  cmd->add_option("--baseline", args->baseline,
                  "An earlier certificate: list its steps that this family no longer supports");
  cmd->add_flag("--position-dependent", args->position_dependent,
                "Bound position-dependent models (every arrangement of S3 needed)");
  cmd->add_option("--incomplete", args->show_incomplete, "Incomplete patterns to list")->capture_default_str();
  cmd->callback([args, &global, &action] { action = [args, &global] { return run_certify(*args, global); }; });
}

}  // namespace kernelrank::cli
