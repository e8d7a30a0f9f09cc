// See resource_limits.hpp.
#include "kernelrank/core/resource_limits.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"
#include "kernelrank/core/token.hpp"

#include <cmath>
#include <cstdio>

namespace kernelrank {
namespace {

// C(m+n, n) * n in floating point: an estimate for a refusal, never for a verdict.
double profile_work(int m, int n) {
  const double log_binomial =
      std::lgamma(double(m) + n + 1) - std::lgamma(double(m) + 1) - std::lgamma(double(n) + 1);
  return std::exp(log_binomial) * n;
}

std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", value);
  return text;
}

}  // namespace

void require_profile_work(int m, int n, double max_work, const std::string& work_hint,
                          const std::string& length_hint) {
  if (n > kMaxProfileLength)
    throw DomainResourceError(
        ParameterMessage::literal("T(" + std::to_string(m) + "," + std::to_string(n) +
                                  ") through overlap profiles: n=" + std::to_string(n) +
                                  " is above " + std::to_string(kMaxProfileLength) +
                                  ", the longest sequence the overlap-profile scan handles") +
        length_hint);
  const double work = profile_work(m, n);
  if (!(work <= max_work)) {
    int largest = m;
    while (largest > 1 && !(profile_work(largest, n) <= max_work)) largest = largest * 9 / 10;
    throw DomainResourceError(
        ParameterMessage::literal(
            "T(" + std::to_string(m) + "," + std::to_string(n) +
            ") through overlap profiles needs C(m+n,n) * n = " + scientific(work) +
            " steps, above the limit of " + scientific(max_work) +
            " (about m = " + std::to_string(largest) + " at n = " + std::to_string(n) + ")") +
        work_hint);
  }
}

void require_family_file_size(std::uint64_t instances, int n, int m, const std::string& what) {
  // "<position> <token> ... <token>\n": at most 8 characters for the position.
  const double bytes = double(instances) * (8.0 + double(n) * (double(m) + 1.0));
  if (bytes > double(kMaxInputBytes))
    throw ResourceError(what + ": " + std::to_string(instances) + " instances of " +
                        std::to_string(n) + " tokens of width " + std::to_string(m) +
                        " make a file of about " + scientific(bytes) +
                        " bytes, more than the 1 GiB the family readers accept; ask for fewer "
                        "instances");
}

void require_instance_memory(std::uint64_t instances, int n, int m, int copies,
                             const std::string& what) {
  const double per_token = double(sizeof(Token)) + 32.0 + 8.0 * std::ceil(double(m) / 64);
  const double bytes = double(instances) * double(n) * per_token * copies;
  if (bytes > kMaxInstanceBytes)
    throw ResourceError(what + ": " + std::to_string(instances) + " instances of " +
                        std::to_string(n) + " tokens of width " + std::to_string(m) +
                        " need about " + scientific(bytes) + " bytes in memory (limit " +
                        scientific(kMaxInstanceBytes) + "); ask for fewer instances");
}

void require_pair_work(std::uint64_t words, int m, const std::string& what,
                       const std::string& hint) {
  const double stride = std::ceil(double(m) / 64);
  const double pairs = double(words) * (double(words) - 1) / 2;
  if (pairs * stride > kMaxPairWork) {
    const auto largest = static_cast<std::uint64_t>(std::sqrt(2 * kMaxPairWork / stride));
    throw ResourceError(what + ": " + std::to_string(words) + " words of width " +
                        std::to_string(m) + " make " + scientific(pairs) +
                        " pairs to compare, above the limit of " + scientific(kMaxPairWork) +
                        " pair-word operations (about " + std::to_string(largest) +
                        " words at this width); " + hint);
  }
}

}  // namespace kernelrank
