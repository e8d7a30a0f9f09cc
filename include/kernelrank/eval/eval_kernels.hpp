// Internal: the inner loops of brute-force evaluation, one key position's run of tokens
// z in [lo, hi) with everything else fixed, for the exact integer path and for its
// double-precision twin (benchmark only).
//
// Each loop exists three times: AVX-512, AVX2 and portable C++. The best one the CPU
// supports is chosen at run time (tests can force a lower one); the exact and the double
// loops are written the same way at every level, so the benchmark compares like with like.
// Every level computes the same integers, so the choice never changes a result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kernelrank::detail {

enum class KernelIsa { Portable = 0, Avx2 = 1, Avx512 = 2 };
std::string to_string(KernelIsa isa);
// The best level this CPU supports.
KernelIsa best_kernel_isa();
// The level in use (initially the best); set_kernel_isa clamps to what the CPU supports
// and returns the level set. Not for use while an evaluation runs.
KernelIsa kernel_isa();
KernelIsa set_kernel_isa(KernelIsa isa);

// Exact: SA = ca + a[z] and SP = cp + p[z] (row integers), t = min(tp, ov[z]). An instance
// fails when 2|SP - t SA| >= SA (SA = 0 counts as failing and undefined); it "beats" the
// running maximum's lower bound tn/td when SA > 0 and |SP - t SA| td > tn SA.
// Preconditions (a narrow row): 0 <= SA < 2^32, |SP - t SA| < 2^32, 0 <= tp < 2^16,
// tn < 2^31, 0 < td < 2^31. With maybe_zero false, SA > 0 for every z.
struct NarrowArgs {
  const std::int64_t* a = nullptr;
  const std::int64_t* p = nullptr;
  const std::uint16_t* ov = nullptr;
  std::size_t lo = 0, hi = 0;
  std::int64_t ca = 0, cp = 0, tp = 0;
  std::uint64_t tn = 0, td = 1;
  bool maybe_zero = true;
};
struct NarrowCounts {
  std::uint64_t fails = 0;
  std::uint64_t undefined = 0;
  bool beats = false;
};
NarrowCounts narrow_segment(const NarrowArgs& args);

// Double twin: the same sums in doubles (ov as doubles).
//   division form: e = |SP/SA - t|, fails when !(e < 1/2), max_error = max e;
//   cross form:    fails when !(2|SP - t SA| < SA), beats when |SP - t SA| bd > bn SA.
struct DoubleArgs {
  const double* a = nullptr;
  const double* p = nullptr;
  const double* ov = nullptr;
  std::size_t lo = 0, hi = 0;
  double ca = 0, cp = 0, tp = 0;
  double bn = 0, bd = 1;
};
struct DoubleCounts {
  std::uint64_t fails = 0;
  double max_error = 0;
  bool beats = false;
};
DoubleCounts double_division_segment(const DoubleArgs& args);
DoubleCounts double_cross_segment(const DoubleArgs& args);

}  // namespace kernelrank::detail
