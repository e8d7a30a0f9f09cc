// The checker's entry point: parse, check, conclude, and print exactly one status line.
//
// Output on `out`: comment lines starting with "c " and one status line, "s VERIFIED" or
// "s NOT VERIFIED". Errors go to `err` as "FILE:LINE: error: MESSAGE" (line 0 for the
// whole file). "s VERIFIED" is printed only when every check has returned normally.
#pragma once

#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "status.hpp"

namespace krcheck {

struct CheckResult {
  Status status = Status::malformed;
  std::string bound;  // the bound r >= bound that the rule gives (when it was computed)
  std::string claim;  // the claimed K (when the certificate was parsed)
};

// An input by name; `stream` is null when the file could not be opened.
struct NamedInput {
  std::string name;
  std::istream* stream = nullptr;
};

CheckResult check_certificate(const NamedInput& cert, const std::optional<NamedInput>& family,
                              std::ostream& out, std::ostream& err);

CheckResult check_certificate(const std::string& cert_path,
                              const std::optional<std::string>& family_path, std::ostream& out,
                              std::ostream& err);

// The exit code of a status: 0 verified, 1 not verified, 2 malformed.
int exit_code(Status status);

}  // namespace krcheck
