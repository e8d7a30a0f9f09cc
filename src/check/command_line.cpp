// kernelrank-check's arguments; see command_line.hpp.
#include "check/command_line.hpp"

#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <utility>

#include "check/check.hpp"
#include "check/partial.hpp"
#include "check/reader.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

constexpr int kMaxThreads = 1024;

const char* const kUsage =
    "kernelrank-check: error: usage: kernelrank-check [--threads T] CERT [FAMILY]\n"
    "       kernelrank-check [--threads T] --shard k/K --partial OUT CERT\n"
    "       kernelrank-check --merge CERT PARTIAL...\n"
    "  CERT          certificate (docs/certificate-format.md)\n"
    "  FAMILY        the family file a family certificate names by its SHA-256\n"
    "  --threads T   worker threads, 0 (the default) for all hardware threads\n"
    "  --shard k/K   count only shard k of K of a rule trace-uniform certificate's pairs\n"
    "  --partial OUT write that shard's partial result to OUT\n"
    "  --merge       conclude from the partial results of all K shards\n";

struct UsageError {
  std::string problem;
};

struct Arguments {
  int threads = 0;
  std::optional<std::pair<std::uint64_t, std::uint64_t>> shard;
  std::optional<std::string> partial;
  bool merge = false;
  std::vector<std::string> files;
};

std::uint64_t number(const std::string& text, std::uint64_t max, const std::string& what) {
  if (!is_canonical_integer(text)) throw UsageError{what + " must be a decimal integer"};
  std::uint64_t value = 0;
  for (const char c : text) {
    const auto digit = static_cast<std::uint64_t>(c - '0');
    if (value > (max - digit) / 10) throw UsageError{what + " exceeds " + std::to_string(max)};
    value = value * 10 + digit;
  }
  return value;
}

Arguments parse(const std::vector<std::string>& args) {
  Arguments parsed;
  std::size_t at = 0;
  const auto value = [&](const std::string& option) -> const std::string& {
    if (at + 1 >= args.size()) throw UsageError{option + " needs a value"};
    return args[++at];
  };
  for (; at < args.size() && args[at].rfind("--", 0) == 0; ++at) {
    const std::string& option = args[at];
    if (option == "--threads") {
      parsed.threads = static_cast<int>(
          number(value(option), kMaxThreads, "--threads T (0 for all hardware threads)"));
    } else if (option == "--shard") {
      const std::string& text = value(option);
      const auto slash = text.find('/');
      if (slash == std::string::npos) throw UsageError{"--shard takes k/K, e.g. --shard 2/8"};
      const auto max = std::numeric_limits<std::uint64_t>::max();
      const auto k = number(text.substr(0, slash), max, "the k of --shard k/K");
      const auto shards = number(text.substr(slash + 1), max, "the K of --shard k/K");
      if (k < 1 || k > shards) throw UsageError{"--shard k/K needs 1 <= k <= K"};
      parsed.shard = std::make_pair(k, shards);
    } else if (option == "--partial") {
      parsed.partial = value(option);
    } else if (option == "--merge") {
      parsed.merge = true;
    } else {
      throw UsageError{"unknown option '" + printable(option) + "'"};
    }
  }
  parsed.files.assign(args.begin() + static_cast<std::ptrdiff_t>(at), args.end());
  if (parsed.merge) {
    if (parsed.shard || parsed.partial) throw UsageError{"--merge takes no --shard or --partial"};
    if (parsed.files.size() < 2) throw UsageError{"--merge needs CERT and at least one PARTIAL"};
  } else if (parsed.shard || parsed.partial) {
    if (!parsed.shard || !parsed.partial) throw UsageError{"--shard and --partial go together"};
    if (parsed.files.size() != 1) throw UsageError{"--shard takes one CERT and no FAMILY"};
    std::error_code ignored;
    if (*parsed.partial == parsed.files[0] ||
        std::filesystem::equivalent(*parsed.partial, parsed.files[0], ignored))
      throw UsageError{"--partial OUT must not be the certificate itself"};
  } else if (parsed.files.empty() || parsed.files.size() > 2) {
    throw UsageError{"expected CERT [FAMILY]"};
  }
  return parsed;
}

// A shard run: the partial file is written before the status line leaves, so "s PARTIAL"
// is never printed for a partial that does not exist.
int run_shard(const Arguments& arguments, std::ostream& out, std::ostream& err) {
  std::ostringstream buffered;
  CheckOptions options;
  options.threads = arguments.threads;
  options.shard = arguments.shard;
  const CheckResult result =
      check_certificate(arguments.files[0], std::nullopt, buffered, err, options);
  std::string text = buffered.str();
  if (!result.partial.empty()) {
    try {
      write_file_atomically(*arguments.partial, result.partial);
    } catch (const CheckError& error) {
      err << error.file << ":" << error.line << ": error: " << printable(error.what()) << "\n";
      const auto status_line = text.rfind("s ");  // the last line
      out << text.substr(0, status_line) << "s NOT VERIFIED\n";
      return exit_code(Status::malformed);
    }
  }
  out << text;
  return exit_code(result.status);
}

int run_merge(const Arguments& arguments, std::ostream& out, std::ostream& err) {
  std::ifstream cert_file;
  const NamedInput cert = open_input(arguments.files[0], cert_file);
  std::vector<std::unique_ptr<std::ifstream>> files;
  std::vector<NamedInput> partials;
  for (std::size_t p = 1; p < arguments.files.size(); ++p) {
    files.push_back(std::make_unique<std::ifstream>());
    partials.push_back(open_input(arguments.files[p], *files.back()));
  }
  return exit_code(merge_partials(cert, partials, out, err).status);
}

}  // namespace

int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  Arguments arguments;
  try {
    if (!args.empty() && (args[0] == "--help" || args[0] == "-h"))
      throw UsageError{"no certificate given"};
    arguments = parse(args);
  } catch (const UsageError& usage) {
    // No certificate was checked, so even --help ends NOT VERIFIED with a nonzero exit.
    err << kUsage << "kernelrank-check: " << usage.problem << "\n";
    out << "s NOT VERIFIED\n";
    return 2;
  }
  if (arguments.merge) return run_merge(arguments, out, err);
  if (arguments.shard) return run_shard(arguments, out, err);
  CheckOptions options;
  options.threads = arguments.threads;
  std::optional<std::string> family;
  if (arguments.files.size() == 2) family = arguments.files[1];
  return exit_code(check_certificate(arguments.files[0], family, out, err, options).status);
}

}  // namespace krcheck
