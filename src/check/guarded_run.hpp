// The output contract around one check (check.cpp): the banner, exactly one status line at
// the end, and every failure turned into one "FILE:LINE: error:" line. A CheckError is a
// verdict on the input (exit 1 or 2); any other exception is a bug of the checker (internal,
// exit 4), never reported as a property of the certificate.
#pragma once

#include <new>
#include <ostream>
#include <string>

#include "check/check.hpp"
#include "check/reader.hpp"
#include "check/status.hpp"

namespace krcheck {

// The output contract around one check: the banner, exactly one status line at the end and
// every failure turned into one "FILE:LINE: error:" line. `body` returns the status of a
// check that ran to its end (verified, or partial for a shard).
template <typename Body>
CheckResult guarded_run(const std::string& name, std::ostream& out, std::ostream& err,
                        const Body& body) {
  CheckResult result;  // status malformed until the body has returned
  out << "c kernelrank-check, certificate formats 1, 2 and 3\n";
  try {
    result.status = body(result);
  } catch (const CheckError& error) {
    err << error.file << ":" << error.line << ": error: " << printable(error.what()) << "\n";
    result.status = error.status;
  } catch (const std::bad_alloc&) {
    err << name << ":0: error: out of memory\n";
    result.status = Status::malformed;
  } catch (const std::exception& error) {  // not a verdict on the input: a bug of the checker
    err << name << ":0: error: internal error: " << error.what() << "\n";
    result.status = Status::internal;
  } catch (...) {
    err << name << ":0: error: internal error\n";
    result.status = Status::internal;
  }
  if (result.status != Status::partial && result.status != Status::not_verified)
    result.partial.clear();  // malformed or internal: nothing was counted that a merge could use
  out << (result.status == Status::verified  ? "s VERIFIED\n"
          : result.status == Status::partial ? "s PARTIAL\n"
                                             : "s NOT VERIFIED\n");
  return result;
}

}  // namespace krcheck
