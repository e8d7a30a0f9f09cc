// kernelrank-check CERT [FAMILY]: the independent certificate checker. Exit codes:
// 0 verified, 1 not verified (a check failed), 2 malformed input or usage.
#include <exception>
#include <iostream>
#include <optional>
#include <string>

#include "check.hpp"

int main(int argc, char** argv) {
  try {
    const std::string first = argc >= 2 ? argv[1] : "";
    if (argc < 2 || argc > 3 || first == "--help" || first == "-h") {
      // No certificate was checked, so even --help ends NOT VERIFIED with a nonzero exit.
      std::cerr << "kernelrank-check: error: usage: kernelrank-check CERT [FAMILY]\n"
                   "  CERT    certificate (docs/certificate-format.md)\n"
                   "  FAMILY  the family file a family certificate names by its SHA-256\n";
      std::cout << "s NOT VERIFIED\n";
      return 2;
    }
    std::optional<std::string> family;
    if (argc == 3) family = argv[2];
    const auto result = krcheck::check_certificate(argv[1], family, std::cout, std::cerr);
    return krcheck::exit_code(result.status);
  } catch (...) {  // check_certificate catches everything; this guards the stream setup
    std::cerr << "kernelrank-check: error: internal error\n";
    return 2;
  }
}
