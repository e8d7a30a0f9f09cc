// The inner loops of brute-force evaluation (see eval_kernels.hpp).
#include "kernelrank/eval/eval_kernels.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(KERNELRANK_PORTABLE_KERNELS)
#define KR_X86 1
// GCC 12 warns inside its own AVX-512 headers (_mm512_undefined_* in the unmasked
// intrinsics, GCC bug 105593); nothing here reads an undefined value.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#define KR_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw")))
#define KR_AVX2 __attribute__((target("avx2,fma")))
#else
#define KR_X86 0
#endif

namespace kernelrank::detail {
namespace {

// ---- portable ------------------------------------------------------------------------

template <bool MaybeZero>
NarrowCounts narrow_portable(const NarrowArgs& g) {
  NarrowCounts out;
  for (std::size_t z = g.lo; z < g.hi; ++z) {
    const std::int64_t sa = g.ca + g.a[z];
    const std::int64_t sp = g.cp + g.p[z];
    const std::int64_t o = g.ov[z];
    const std::int64_t t = o < g.tp ? o : g.tp;
    const std::int64_t num = sp - t * sa;
    const auto an = static_cast<std::uint64_t>(num < 0 ? -num : num);
    const auto den = static_cast<std::uint64_t>(sa);
    out.fails += 2 * an >= den ? 1 : 0;
    if (MaybeZero && den == 0) {
      ++out.undefined;
      continue;
    }
    out.beats |= an * g.td > g.tn * den;
  }
  return out;
}

DoubleCounts division_portable(const DoubleArgs& g) {
  DoubleCounts out;
  for (std::size_t z = g.lo; z < g.hi; ++z) {
    const double sa = g.ca + g.a[z];
    const double sp = g.cp + g.p[z];
    const double t = std::min(g.ov[z], g.tp);
    const double e = std::fabs(sp / sa - t);
    out.fails += !(e < 0.5) ? 1 : 0;
    out.max_error = std::max(out.max_error, e);
  }
  return out;
}

DoubleCounts cross_portable(const DoubleArgs& g) {
  DoubleCounts out;
  for (std::size_t z = g.lo; z < g.hi; ++z) {
    const double sa = g.ca + g.a[z];
    const double sp = g.cp + g.p[z];
    const double t = std::min(g.ov[z], g.tp);
    const double an = std::fabs(sp - t * sa);
    out.fails += !(2 * an < sa) ? 1 : 0;
    out.beats |= an * g.bd > g.bn * sa;
  }
  return out;
}

#if KR_X86

// ---- AVX-512: 8 lanes, masked tail --------------------------------------------------

KR_AVX512 inline __mmask8 lanes(std::size_t left) {
  return left >= 8 ? static_cast<__mmask8>(0xFF) : static_cast<__mmask8>((1U << left) - 1U);
}

template <bool MaybeZero>
KR_AVX512 NarrowCounts narrow_avx512(const NarrowArgs& g) {
  const __m512i ca = _mm512_set1_epi64(g.ca), cp = _mm512_set1_epi64(g.cp),
                tp = _mm512_set1_epi64(g.tp);
  const __m512i tn = _mm512_set1_epi64(static_cast<long long>(g.tn));
  const __m512i td = _mm512_set1_epi64(static_cast<long long>(g.td));
  const __m512i one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512();
  __m512i fails = zero, undefined = zero;
  __mmask8 beats = 0;
  for (std::size_t z = g.lo; z < g.hi; z += 8) {
    const __mmask8 m = lanes(g.hi - z);
    const __m512i sa = _mm512_add_epi64(ca, _mm512_maskz_loadu_epi64(m, g.a + z));
    const __m512i sp = _mm512_add_epi64(cp, _mm512_maskz_loadu_epi64(m, g.p + z));
    const __m512i t =
        _mm512_min_epu64(_mm512_cvtepu16_epi64(_mm_maskz_loadu_epi16(m, g.ov + z)), tp);
    const __m512i an = _mm512_abs_epi64(_mm512_sub_epi64(sp, _mm512_mul_epu32(t, sa)));
    const __mmask8 f = _mm512_mask_cmpge_epu64_mask(m, _mm512_add_epi64(an, an), sa);
    fails = _mm512_mask_add_epi64(fails, f, fails, one);
    __mmask8 defined = m;
    if (MaybeZero) {
      const __mmask8 zr = _mm512_mask_cmpeq_epu64_mask(m, sa, zero);
      undefined = _mm512_mask_add_epi64(undefined, zr, undefined, one);
      defined = static_cast<__mmask8>(m & ~zr);
    }
    beats |=
        _mm512_mask_cmpgt_epu64_mask(defined, _mm512_mul_epu32(an, td), _mm512_mul_epu32(tn, sa));
  }
  NarrowCounts out;
  out.fails = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(fails));
  out.undefined = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(undefined));
  out.beats = beats != 0;
  return out;
}

KR_AVX512 DoubleCounts division_avx512(const DoubleArgs& g) {
  const __m512d ca = _mm512_set1_pd(g.ca), cp = _mm512_set1_pd(g.cp), tp = _mm512_set1_pd(g.tp);
  const __m512d half = _mm512_set1_pd(0.5);
  const __m512i one = _mm512_set1_epi64(1);
  __m512i fails = _mm512_setzero_si512();
  __m512d max_error = _mm512_setzero_pd();
  for (std::size_t z = g.lo; z < g.hi; z += 8) {
    const __mmask8 m = lanes(g.hi - z);
    const __m512d sa = _mm512_add_pd(ca, _mm512_maskz_loadu_pd(m, g.a + z));
    const __m512d sp = _mm512_add_pd(cp, _mm512_maskz_loadu_pd(m, g.p + z));
    const __m512d t = _mm512_min_pd(_mm512_maskz_loadu_pd(m, g.ov + z), tp);
    const __m512d e = _mm512_abs_pd(_mm512_sub_pd(_mm512_div_pd(sp, sa), t));
    const __mmask8 f = _mm512_mask_cmp_pd_mask(m, e, half, _CMP_NLT_UQ);
    fails = _mm512_mask_add_epi64(fails, f, fails, one);
    max_error = _mm512_mask_max_pd(max_error, m, max_error, e);
  }
  DoubleCounts out;
  out.fails = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(fails));
  out.max_error = _mm512_reduce_max_pd(max_error);
  return out;
}

KR_AVX512 DoubleCounts cross_avx512(const DoubleArgs& g) {
  const __m512d ca = _mm512_set1_pd(g.ca), cp = _mm512_set1_pd(g.cp), tp = _mm512_set1_pd(g.tp);
  const __m512d bn = _mm512_set1_pd(g.bn), bd = _mm512_set1_pd(g.bd);
  const __m512i one = _mm512_set1_epi64(1);
  __m512i fails = _mm512_setzero_si512();
  __mmask8 beats = 0;
  for (std::size_t z = g.lo; z < g.hi; z += 8) {
    const __mmask8 m = lanes(g.hi - z);
    const __m512d sa = _mm512_add_pd(ca, _mm512_maskz_loadu_pd(m, g.a + z));
    const __m512d sp = _mm512_add_pd(cp, _mm512_maskz_loadu_pd(m, g.p + z));
    const __m512d t = _mm512_min_pd(_mm512_maskz_loadu_pd(m, g.ov + z), tp);
    const __m512d an = _mm512_abs_pd(_mm512_fnmadd_pd(t, sa, sp));
    const __mmask8 f = _mm512_mask_cmp_pd_mask(m, _mm512_add_pd(an, an), sa, _CMP_NLT_UQ);
    fails = _mm512_mask_add_epi64(fails, f, fails, one);
    beats |= _mm512_mask_cmp_pd_mask(m, _mm512_mul_pd(an, bd), _mm512_mul_pd(bn, sa), _CMP_GT_OQ);
  }
  DoubleCounts out;
  out.fails = static_cast<std::uint64_t>(_mm512_reduce_add_epi64(fails));
  out.beats = beats != 0;
  return out;
}

// ---- AVX2: 4 lanes, portable tail ----------------------------------------------------

KR_AVX2 inline std::uint64_t sum4(__m256i v) {
  alignas(32) std::uint64_t x[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(x), v);
  return x[0] + x[1] + x[2] + x[3];
}

template <bool MaybeZero>
KR_AVX2 NarrowCounts narrow_avx2(const NarrowArgs& g) {
  const __m256i ca = _mm256_set1_epi64x(g.ca), cp = _mm256_set1_epi64x(g.cp),
                tp = _mm256_set1_epi64x(g.tp);
  const __m256i tn = _mm256_set1_epi64x(static_cast<long long>(g.tn));
  const __m256i td = _mm256_set1_epi64x(static_cast<long long>(g.td));
  const __m256i zero = _mm256_setzero_si256();
  __m256i passes = zero, undefined = zero, beats = zero;
  std::size_t z = g.lo;
  for (; z + 4 <= g.hi; z += 4) {
    const __m256i sa =
        _mm256_add_epi64(ca, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g.a + z)));
    const __m256i sp =
        _mm256_add_epi64(cp, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g.p + z)));
    const __m256i o =
        _mm256_cvtepu16_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(g.ov + z)));
    const __m256i t = _mm256_min_epu32(o, tp);  // the high halves are 0 in both
    const __m256i num = _mm256_sub_epi64(sp, _mm256_mul_epu32(t, sa));
    const __m256i neg = _mm256_cmpgt_epi64(zero, num);
    const __m256i an = _mm256_sub_epi64(_mm256_xor_si256(num, neg), neg);
    passes = _mm256_sub_epi64(passes, _mm256_cmpgt_epi64(sa, _mm256_add_epi64(an, an)));
    // Products below 2^63 (an < 2^32, td < 2^31; tn < 2^31, SA < 2^32): signed compare.
    __m256i gt = _mm256_cmpgt_epi64(_mm256_mul_epu32(an, td), _mm256_mul_epu32(tn, sa));
    if (MaybeZero) {
      const __m256i zr = _mm256_cmpeq_epi64(sa, zero);
      undefined = _mm256_sub_epi64(undefined, zr);
      gt = _mm256_andnot_si256(zr, gt);
    }
    beats = _mm256_or_si256(beats, gt);
  }
  NarrowCounts out;
  out.fails = (z - g.lo) - sum4(passes);
  out.undefined = sum4(undefined);
  out.beats = _mm256_testz_si256(beats, beats) == 0;
  // The tail runs in the portable (SSE) code: leave no dirty upper YMM state behind, or
  // every SSE instruction after this would pay for it.
  _mm256_zeroupper();
  if (z < g.hi) {
    NarrowArgs tail = g;
    tail.lo = z;
    const NarrowCounts rest = narrow_portable<MaybeZero>(tail);
    out.fails += rest.fails;
    out.undefined += rest.undefined;
    out.beats = out.beats || rest.beats;
  }
  return out;
}

KR_AVX2 DoubleCounts division_avx2(const DoubleArgs& g) {
  const __m256d ca = _mm256_set1_pd(g.ca), cp = _mm256_set1_pd(g.cp), tp = _mm256_set1_pd(g.tp);
  const __m256d half = _mm256_set1_pd(0.5), sign = _mm256_set1_pd(-0.0);
  __m256i fails = _mm256_setzero_si256();
  __m256d max_error = _mm256_setzero_pd();
  std::size_t z = g.lo;
  for (; z + 4 <= g.hi; z += 4) {
    const __m256d sa = _mm256_add_pd(ca, _mm256_loadu_pd(g.a + z));
    const __m256d sp = _mm256_add_pd(cp, _mm256_loadu_pd(g.p + z));
    const __m256d t = _mm256_min_pd(_mm256_loadu_pd(g.ov + z), tp);
    const __m256d e = _mm256_andnot_pd(sign, _mm256_sub_pd(_mm256_div_pd(sp, sa), t));
    fails = _mm256_sub_epi64(fails, _mm256_castpd_si256(_mm256_cmp_pd(e, half, _CMP_NLT_UQ)));
    max_error = _mm256_max_pd(max_error, e);
  }
  DoubleCounts out;
  out.fails = sum4(fails);
  alignas(32) double x[4];
  _mm256_store_pd(x, max_error);
  out.max_error = std::max(std::max(x[0], x[1]), std::max(x[2], x[3]));
  _mm256_zeroupper();
  if (z < g.hi) {
    DoubleArgs tail = g;
    tail.lo = z;
    const DoubleCounts rest = division_portable(tail);
    out.fails += rest.fails;
    out.max_error = std::max(out.max_error, rest.max_error);
  }
  return out;
}

KR_AVX2 DoubleCounts cross_avx2(const DoubleArgs& g) {
  const __m256d ca = _mm256_set1_pd(g.ca), cp = _mm256_set1_pd(g.cp), tp = _mm256_set1_pd(g.tp);
  const __m256d bn = _mm256_set1_pd(g.bn), bd = _mm256_set1_pd(g.bd), sign = _mm256_set1_pd(-0.0);
  __m256i fails = _mm256_setzero_si256();
  __m256d beats = _mm256_setzero_pd();
  std::size_t z = g.lo;
  for (; z + 4 <= g.hi; z += 4) {
    const __m256d sa = _mm256_add_pd(ca, _mm256_loadu_pd(g.a + z));
    const __m256d sp = _mm256_add_pd(cp, _mm256_loadu_pd(g.p + z));
    const __m256d t = _mm256_min_pd(_mm256_loadu_pd(g.ov + z), tp);
    const __m256d an = _mm256_andnot_pd(sign, _mm256_fnmadd_pd(t, sa, sp));
    fails = _mm256_sub_epi64(
        fails, _mm256_castpd_si256(_mm256_cmp_pd(_mm256_add_pd(an, an), sa, _CMP_NLT_UQ)));
    beats = _mm256_or_pd(beats,
                         _mm256_cmp_pd(_mm256_mul_pd(an, bd), _mm256_mul_pd(bn, sa), _CMP_GT_OQ));
  }
  DoubleCounts out;
  out.fails = sum4(fails);
  out.beats = _mm256_movemask_pd(beats) != 0;
  _mm256_zeroupper();
  if (z < g.hi) {
    DoubleArgs tail = g;
    tail.lo = z;
    const DoubleCounts rest = cross_portable(tail);
    out.fails += rest.fails;
    out.beats = out.beats || rest.beats;
  }
  return out;
}

#endif  // KR_X86

KernelIsa detect() {
#if KR_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw"))
    return KernelIsa::Avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return KernelIsa::Avx2;
#endif
  return KernelIsa::Portable;
}

const KernelIsa g_best = detect();
std::atomic<int> g_isa{static_cast<int>(g_best)};

KernelIsa current() { return static_cast<KernelIsa>(g_isa.load(std::memory_order_relaxed)); }

// One loop at every level; the level chosen at run time (off x86 only the portable one).
template <class Result, class Args>
struct Levels {
  Result (*avx512)(const Args&);
  Result (*avx2)(const Args&);
  Result (*portable)(const Args&);
};

#if KR_X86
#define KR_X86_ONLY(f) f
#else
#define KR_X86_ONLY(f) nullptr
#endif

template <class Result, class Args>
Result at_current_level(const Levels<Result, Args>& loop, const Args& args) {
  switch (current()) {
    case KernelIsa::Avx512:
      if (loop.avx512 != nullptr) return loop.avx512(args);
      break;
    case KernelIsa::Avx2:
      if (loop.avx2 != nullptr) return loop.avx2(args);
      break;
    case KernelIsa::Portable:
      break;
  }
  return loop.portable(args);
}

}  // namespace

std::string to_string(KernelIsa isa) {
  switch (isa) {
    case KernelIsa::Portable:
      return "portable";
    case KernelIsa::Avx2:
      return "AVX2";
    case KernelIsa::Avx512:
      return "AVX-512";
  }
  return "?";
}

KernelIsa best_kernel_isa() { return g_best; }
KernelIsa kernel_isa() { return current(); }
KernelIsa set_kernel_isa(KernelIsa isa) {
  const KernelIsa chosen = static_cast<int>(isa) > static_cast<int>(g_best) ? g_best : isa;
  g_isa.store(static_cast<int>(chosen));
  return chosen;
}

NarrowCounts narrow_segment(const NarrowArgs& args) {
  static constexpr Levels<NarrowCounts, NarrowArgs> with_zero{
      KR_X86_ONLY(narrow_avx512<true>), KR_X86_ONLY(narrow_avx2<true>), narrow_portable<true>};
  static constexpr Levels<NarrowCounts, NarrowArgs> without_zero{
      KR_X86_ONLY(narrow_avx512<false>), KR_X86_ONLY(narrow_avx2<false>), narrow_portable<false>};
  return at_current_level(args.maybe_zero ? with_zero : without_zero, args);
}

DoubleCounts double_division_segment(const DoubleArgs& args) {
  static constexpr Levels<DoubleCounts, DoubleArgs> division{
      KR_X86_ONLY(division_avx512), KR_X86_ONLY(division_avx2), division_portable};
  return at_current_level(division, args);
}

DoubleCounts double_cross_segment(const DoubleArgs& args) {
  static constexpr Levels<DoubleCounts, DoubleArgs> cross{KR_X86_ONLY(cross_avx512),
                                                          KR_X86_ONLY(cross_avx2), cross_portable};
  return at_current_level(cross, args);
}

}  // namespace kernelrank::detail
