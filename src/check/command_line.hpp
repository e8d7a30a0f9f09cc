// The command line of kernelrank-check (docs/certificate-format.md, "Checker outcomes" and
// "Sharded checking"):
//   kernelrank-check [--threads T] CERT [FAMILY]
//   kernelrank-check [--threads T] --shard k/K --partial OUT CERT
//   kernelrank-check --merge CERT PARTIAL...
// Returns the exit code: 0 verified or partial, 1 not verified, 2 malformed input or usage.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace krcheck {

int run_command_line(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace krcheck
