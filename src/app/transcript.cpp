// The transcript bound of a cube or a family (app/transcript.hpp).
#include "kernelrank/app/transcript.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"

#include <chrono>

namespace kernelrank {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void check_request(const TranscriptRequest& request) {
  const bool has_family = !request.family.empty();
  if (request.m && has_family)
    throw DomainError("{m} and {family} exclude each other: give one of them");
  if (!request.m && !has_family) throw DomainError("give {m} M (the cube T(M,N)) or {family} FILE");
  if (has_family) {
    if (request.n) throw DomainError("{n} is the cube's length; a {family} file has its own n");
    if (request.method != "auto" || request.cross_check)
      throw DomainError("{method} and {cross-check} apply to the cube ({m}) only");
  }
}

}  // namespace

TranscriptResult run_transcript(const TranscriptRequest& request) {
  check_request(request);
  TranscriptResult result;
  const auto start = std::chrono::steady_clock::now();
  if (request.m) {
    result.cube =
        cube_transcript_bound(*request.m, request.n.value_or(3),
                              parse_cube_count_method(request.method), request.cross_check);
  } else {
    result.family_path = request.family;
    result.family = family_transcript_bound(read_family(request.family));
  }
  result.seconds = seconds_since(start);
  return result;
}

}  // namespace kernelrank
