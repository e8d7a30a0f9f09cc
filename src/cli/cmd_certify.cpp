// `kernelrank certify`: the best bound an arbitrary family supports.
#include "commands.hpp"
#include "family_output.hpp"

#include "kernelrank/bounds/certificate.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/core/token.hpp"

#include "check/certificate.hpp"  // the checker's parser reads --baseline
#include "check/status.hpp"

#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

namespace kernelrank::cli {
namespace {

struct CertifyArgs {
  std::string family;
  std::string cert;
  std::string baseline;
  bool position_dependent = false;
  std::size_t show_incomplete = 10;
};

// The steps of a --baseline certificate, read by the checker's own parser: a garbled,
// truncated or empty file is refused naming its line, never read as "no steps".
std::vector<FamilyStep> baseline_steps(const std::string& path, const Family& family) {
  if (const auto why = irregular_file(path)) throw InputError(path, 0, *why);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, "cannot open file");
  krcheck::Certificate cert;
  try {
    cert = krcheck::parse_certificate(in, path);
  } catch (const krcheck::CheckError& e) {
    throw InputError(e.file, static_cast<std::size_t>(e.line), e.what());
  }
  // Steps of another task cannot be looked up in this family.
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

int run_certify(const CertifyArgs& args, const GlobalOptions& global) {
  const std::string bytes = read_file_checked(args.family);
  const Family family = parse_family(args.family, bytes);
  FamilyBound bound = certify_family(family, args.position_dependent);
  // With --cert the gate checks the certificate first, and the bound shown is the checker's.
  VerifiedCertificate certificate;
  if (bound.found && !args.cert.empty()) {
    CertificateTask task;
    task.m = family.m;
    task.n = family.n;
    task.position_dependent = args.position_dependent;
    certificate = verify_certificate(CertificateDraft{
        family_certificate(task, sha256_hex(bytes), "certify " + args.family, bound),
        FamilyInput{args.family, bytes}, bound.bound.bound});
    bound.bound.bound = certificate.bound();
  }
  std::string human = "family " + args.family + ": " + std::to_string(family.instances.size()) +
                      " instances, m=" + std::to_string(family.m) +
                      ", n=" + std::to_string(family.n) + "\n";
  human += family_bound_text(bound, args.show_incomplete);
  nlohmann::json json = family_bound_json(bound, args.show_incomplete);
  json["family"] = args.family;
  if (!args.baseline.empty()) {
    const auto lost =
        unsupported_steps(family, baseline_steps(args.baseline, family), args.position_dependent);
    human +=
        "steps of " + args.baseline + " no longer supported: " + std::to_string(lost.size()) + "\n";
    nlohmann::json lost_json = nlohmann::json::array();
    for (std::size_t shown = 0; shown < std::min(lost.size(), args.show_incomplete); ++shown) {
      const IncompletePattern& p = lost[shown];
      std::string line = "query " + p.q.to_string() + ", a = " + p.a.to_string() +
                         ", b = " + p.b.to_string() + ": missing";
      for (const std::string& m : p.missing) line += " " + m;
      human += "  " + line + "\n";
      lost_json.push_back(line);
    }
    if (lost.size() > args.show_incomplete)
      human += "  ... " + std::to_string(lost.size() - args.show_incomplete) +
               " more (--incomplete N)\n";
    json["lost_steps"] = lost_json;
    json["lost_steps_count"] = lost.size();
  }
  if (!certificate.empty()) {
    human += write_verified_certificate(args.cert, certificate);
    json["certificate"] = args.cert;
  }
  emit(global, json, human);
  return bound.found ? kExitOk : kExitNegative;
}

}  // namespace

void add_certify_command(CLI::App& app, const GlobalOptions& global, Action& action) {
  auto args = std::make_shared<CertifyArgs>();
  CLI::App* cmd =
      app.add_subcommand("certify", "Certify the best rank bound an explicit family supports");
  cmd->add_option("--family", args->family, "Family file")->required();
  cmd->add_option("--cert", args->cert, "Write the certificate here");
  cmd->add_option("--baseline", args->baseline,
                  "An earlier certificate: list its steps that this family no longer supports");
  cmd->add_flag("--position-dependent", args->position_dependent,
                "Bound position-dependent models (every arrangement of S3 needed)");
  cmd->add_option("--incomplete", args->show_incomplete,
                  "Incomplete patterns and lost steps to list")
      ->capture_default_str();
  run_when_selected(cmd, global, action, args, run_certify);
}

}  // namespace kernelrank::cli
