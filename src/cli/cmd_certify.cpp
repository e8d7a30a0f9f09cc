// `kernelrank certify`: the best bound an arbitrary family supports.
#include "commands.hpp"
#include "family_output.hpp"

#include "kernelrank/certificate.hpp"
#include "kernelrank/certificate_gate.hpp"
#include "kernelrank/errors.hpp"
#include "kernelrank/text_input.hpp"

#include "certificate.hpp"  // the checker's parser, used to validate --baseline
#include "status.hpp"

#include <fstream>
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

// read_certificate_steps picks out the step lines and skips everything else, so an
// empty, truncated or garbled baseline would pass as "no steps"; the checker's own
// parser rejects it first, naming the line.
void require_well_formed_certificate(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open file");
  try {
    (void)krcheck::parse_certificate(in, path);
  } catch (const krcheck::CheckError& e) {
    throw InputError(e.file, static_cast<std::size_t>(e.line), e.what());
  }
}

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
    require_well_formed_certificate(args.baseline);
    const auto lost = unsupported_steps(family, read_certificate_steps(args.baseline, family.m, family.n),
                                        args.position_dependent);
    human += "steps of " + args.baseline + " no longer supported: " + std::to_string(lost.size()) + "\n";
    nlohmann::json lost_json = nlohmann::json::array();
    for (std::size_t shown = 0; shown < std::min(lost.size(), args.show_incomplete); ++shown) {
      const IncompletePattern& p = lost[shown];
      std::string line = "query " + p.q.to_string() + ", a = " + p.a.to_string() + ", b = " + p.b.to_string() + ": missing";
      for (const std::string& m : p.missing) line += " " + m;
      human += "  " + line + "\n";
      lost_json.push_back(line);
    }
    if (lost.size() > args.show_incomplete)
      human += "  ... " + std::to_string(lost.size() - args.show_incomplete) + " more (--incomplete N)\n";
    json["lost_steps"] = lost_json;
    json["lost_steps_count"] = lost.size();
  }
  if (bound.found && !args.cert.empty()) {
    CertificateTask task;
    task.m = family.m;
    task.n = family.n;
    task.position_dependent = args.position_dependent;
    human += write_verified_certificate(args.cert,
                                        family_certificate(task, sha256_hex(bytes), "certify " + args.family, bound),
                                        FamilyInput{args.family, bytes});
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
  cmd->add_option("--incomplete", args->show_incomplete, "Incomplete patterns and lost steps to list")->capture_default_str();
  cmd->callback([args, &global, &action] { action = [args, &global] { return run_certify(*args, global); }; });
}

}  // namespace kernelrank::cli
