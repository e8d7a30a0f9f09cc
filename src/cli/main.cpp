// kernelrank: exact verification and proof checking for Min-IP kernel attention.
#include "commands.hpp"

#include "kernelrank/errors.hpp"
#include "kernelrank/model.hpp"
#include "kernelrank/progress.hpp"
#include "reader.hpp"  // krcheck::printable, shared with the checker

#include <iostream>
#include <new>

namespace kernelrank::cli {

void emit(const GlobalOptions& global, const nlohmann::json& json, const std::string& human) {
  if (global.json) {
    std::cout << json.dump(2) << "\n";
  } else {
    std::cout << human;
  }
  std::cout.flush();
}

}  // namespace kernelrank::cli

int main(int argc, char** argv) {
  using namespace kernelrank;
  CLI::App app{
      "kernelrank: exact verification of feature-rank questions for nonnegative kernel "
      "attention on the Min-IP task.\nExit codes: 0 verified/solves/found, 1 refuted/fails, "
      "2 malformed input or bad parameter, 3 resource limit, 4 internal error, 5 unknown."};
  app.require_subcommand(1);
  app.fallthrough();  // --json and --quiet may also follow the subcommand
  cli::GlobalOptions global;
  app.add_flag("--json", global.json, "Machine-readable output on stdout");
  app.add_flag("--quiet", global.quiet, "No progress output on stderr");
  cli::Action action;
  cli::add_reproduce_command(app, global, action);
  cli::add_code_command(app, global, action);
  cli::add_instances_command(app, global, action);
  cli::add_eval_command(app, global, action);
  cli::add_softmax_base_command(app, global, action);
  cli::add_bound_command(app, global, action);
  cli::add_transition_command(app, global, action);
  cli::add_domination_command(app, global, action);
  cli::add_witness_command(app, global, action);
  cli::add_certify_command(app, global, action);
  cli::add_counterexample_command(app, global, action);
  cli::add_generate_command(app, global, action);
  cli::add_bench_command(app, global, action);
  cli::add_search_command(app, global, action);
  cli::add_min_rank_command(app, global, action);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    // CLI11 reports --help as success; every real parse error is a bad parameter.
    return code == 0 ? 0 : kExitMalformed;
  }
  if (global.quiet) Progress::set_enabled(false);
  try {
    return action ? action() : kExitMalformed;
  } catch (const InputError& e) {
    std::cerr << krcheck::printable(e.what()) << "\n";
    return kExitMalformed;
  } catch (const UsageError& e) {
    std::cerr << "kernelrank: error: " << krcheck::printable(e.what()) << "\n";
    return kExitMalformed;
  } catch (const ResourceError& e) {
    std::cerr << "kernelrank: resource limit: " << krcheck::printable(e.what()) << "\n";
    return kExitResource;
  } catch (const OutputError& e) {
    std::cerr << "kernelrank: error: " << krcheck::printable(e.what()) << "\n";
    return kExitMalformed;
  } catch (const ModelDomainError& e) {
    std::cerr << "kernelrank: error: " << krcheck::printable(e.what()) << "\n";
    return kExitMalformed;
  } catch (const InternalError& e) {
    std::cerr << "kernelrank: INTERNAL ERROR (please report): " << krcheck::printable(e.what()) << "\n";
    return kExitInternal;
  } catch (const std::bad_alloc&) {
    std::cerr << "kernelrank: resource limit: out of memory\n";
    return kExitResource;
  } catch (const std::exception& e) {
    std::cerr << "kernelrank: error: " << krcheck::printable(e.what()) << "\n";
    return kExitInternal;
  }
}
