// kernelrank-check: the independent certificate checker (command_line.hpp). Exit codes:
// 0 verified (or a shard's partial result written), 1 not verified (a check failed),
// 2 malformed input or usage, 4 internal error (a bug of the checker).
#include <iostream>
#include <string>
#include <vector>

#include "check/command_line.hpp"

int main(int argc, char** argv) {
  try {
    const std::vector<std::string> args(argv + 1, argv + argc);
    return krcheck::run_command_line(args, std::cout, std::cerr);
  } catch (...) {  // the checks catch everything; this guards the argument copies
    std::cerr << "kernelrank-check: error: internal error\n";
    return 4;
  }
}
