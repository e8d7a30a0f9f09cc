// Outcomes of a check and the one exception type that carries a failure.
//
// Every failure, from an unreadable file to a sum that does not match, is thrown as a
// CheckError naming the file and line to blame and whether the input was malformed (exit 2)
// or well-formed but wrong (exit 1). Only check_certificate() catches it, so no code path
// can fall through to "verified" after a failure: success is a separate, explicit return.
#pragma once

#include <stdexcept>
#include <string>

namespace krcheck {

// partial: a shard run (rule trace-uniform) that counted its share of the pairs and found
// nothing wrong in it; only a merge of all shards concludes.
// internal: the checker itself failed (a bug), exit 4 as kernelrank's internal errors.
enum class Status { verified = 0, not_verified = 1, malformed = 2, partial = 3, internal = 4 };

class CheckError : public std::runtime_error {
 public:
  CheckError(Status kind, std::string file_name, long line_number, const std::string& message)
      : std::runtime_error(message), status(kind), file(std::move(file_name)), line(line_number) {}

  Status status;
  std::string file;
  long line;  // 1-based; 0 for problems with the whole file
};

[[noreturn]] inline void fail_malformed(const std::string& file, long line,
                                        const std::string& message) {
  throw CheckError(Status::malformed, file, line, message);
}

[[noreturn]] inline void fail_check(const std::string& file, long line,
                                    const std::string& message) {
  throw CheckError(Status::not_verified, file, line, message);
}

}  // namespace krcheck
