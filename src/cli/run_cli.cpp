// The process around every subcommand: global options, parsing, and the one place that maps
// exceptions to exit codes (errors.hpp). Shared by `kernelrank` and `kernelrank-train`.
#include "run_cli.hpp"

#include "check/reader.hpp"  // krcheck::printable, shared with the checker
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/progress.hpp"
#include "kernelrank/models/model.hpp"
#include "option_checks.hpp"

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

namespace {

// The first word that is no option when no subcommand was recognised: CLI11 would only say
// "A subcommand is required".
const char* unknown_subcommand(CLI::App& app, int argc, char** argv) {
  if (!app.get_subcommands().empty()) return nullptr;
  for (int i = 1; i < argc; ++i) {
    if (argv[i][0] == '-') continue;  // the global options are flags: no values to skip
    try {
      (void)app.get_subcommand(argv[i]);
      return nullptr;
    } catch (const CLI::OptionNotFound&) {
      return argv[i];
    }
  }
  return nullptr;
}

// Every integer option of every subcommand takes decimal digits only (CLI11 reads base 0:
// --seed 010 was 8), and every unsigned one refuses a sign or a value past 2^64-1, which
// CLI11's conversion would clamp to 2^64-1 (--seed -1, --failures -1).
void check_integer_options(CLI::App& app) {
  for (CLI::Option* option : app.get_options()) {
    const std::string type = option->get_type_name();
    const auto is = [&type](const std::string& name) {
      return type == name || type.rfind(name + ":", 0) == 0;
    };
    if (is("UINT")) option->check(unsigned_range());
    if (is("UINT") || is("INT")) option->check(decimal_integer());
  }
  for (CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    check_integer_options(*sub);
}

}  // namespace

std::string cli_message(const std::exception& e) {
  // Every library parameter is the flag of the same name: {m} is --m, {max-base} --max-base.
  if (const auto* named = dynamic_cast<const ParameterMessage*>(&e))
    return named->render([](const std::string& parameter) { return "--" + parameter; });
  return e.what();
}

int run_cli(int argc, char** argv, const CommandRegistrar& add_commands) {
  CLI::App app{
      "kernelrank: exact verification of feature-rank questions for nonnegative kernel "
      "attention on the Min-IP task.\nExit codes: 0 verified/solves/found, 1 refuted/fails, "
      "2 malformed input or bad parameter, 3 resource limit, 4 internal error, 5 unknown."};
  app.require_subcommand(1);
  app.fallthrough();  // --json and --quiet may also follow the subcommand
  GlobalOptions global;
  app.add_flag("--json", global.json, "Machine-readable output on stdout");
  app.add_flag("--quiet", global.quiet, "No progress output on stderr");
  Action action;
  add_commands(app, global, action);
  check_integer_options(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (const char* unknown = unknown_subcommand(app, argc, argv)) {
      std::cerr << "kernelrank: unknown subcommand '" << krcheck::printable(unknown)
                << "' (kernelrank --help lists them)\n";
      return kExitMalformed;
    }
    const int code = app.exit(e);
    // CLI11 reports --help as success; every real parse error is a bad parameter.
    return code == 0 ? 0 : kExitMalformed;
  }
  if (global.quiet) Progress::set_enabled(false);
  const auto report = [](const char* prefix, const std::exception& e, int code) {
    std::cerr << prefix << krcheck::printable(cli_message(e)) << "\n";
    return code;
  };
  try {
    return action ? action() : kExitMalformed;
  } catch (const InputError& e) {
    return report("", e, kExitMalformed);  // the message names the file
  } catch (const UsageError& e) {
    return report("kernelrank: error: ", e, kExitMalformed);
  } catch (const ResourceError& e) {
    return report("kernelrank: resource limit: ", e, kExitResource);
  } catch (const OutputError& e) {
    return report("kernelrank: error: ", e, kExitMalformed);
  } catch (const ModelDomainError& e) {
    return report("kernelrank: error: ", e, kExitMalformed);
  } catch (const InternalError& e) {
    return report("kernelrank: INTERNAL ERROR (please report): ", e, kExitInternal);
  } catch (const std::bad_alloc&) {
    std::cerr << "kernelrank: resource limit: out of memory\n";
    return kExitResource;
  } catch (const std::exception& e) {
    return report("kernelrank: error: ", e, kExitInternal);
  }
}

}  // namespace kernelrank::cli
