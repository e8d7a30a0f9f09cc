// Tabulation: a model's kernel and product tables over a finite token universe, each query
// row brought to integers and given its tier (see tabulated_eval.hpp).
#include "kernelrank/eval/tabulated_eval.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"
#include "kernelrank/core/progress.hpp"

#include <algorithm>
#include <limits>

namespace kernelrank::detail {
namespace {

__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr std::size_t kTableBudgetBytes = std::size_t{3} << 30;
// Row integers must stay below 2^62 so that sums of up to 2^40 terms and their
// products with a target (< 2^16) fit in 128 bits.
constexpr std::int64_t kRowLimit = std::int64_t{1} << 62;
constexpr u128 kNarrowLimit = u128{1} << 32;

// Brings a row of rationals to coprime integers with the same ratios; returns
// false if some integer reaches kRowLimit.
bool integerise_row(const std::vector<Rational>& row, std::vector<std::int64_t>& out) {
  Integer lcm = 1;
  for (const Rational& x : row)
    mpz_lcm(lcm.backend().data(), lcm.backend().data(), mpq_denref(x.backend().data()));
  std::vector<Integer> scaled(row.size());
  Integer gcd = 0;
  for (std::size_t i = 0; i < row.size(); ++i) {
    Integer num = numerator(row[i]);
    mpz_divexact(scaled[i].backend().data(), lcm.backend().data(),
                 mpq_denref(row[i].backend().data()));
    scaled[i] *= num;
    mpz_gcd(gcd.backend().data(), gcd.backend().data(), scaled[i].backend().data());
  }
  out.resize(row.size());
  for (std::size_t i = 0; i < row.size(); ++i) {
    if (gcd > 1)
      mpz_divexact(scaled[i].backend().data(), scaled[i].backend().data(), gcd.backend().data());
    if (!mpz_fits_slong_p(scaled[i].backend().data())) return false;
    const long v = mpz_get_si(scaled[i].backend().data());
    if (v >= kRowLimit || v <= -kRowLimit) return false;
    out[i] = v;
  }
  return true;
}

// Narrow when A >= 0 and, for every instance of the row (n summands, target t <= |u|),
// SA < 2^32 and |SP - t SA| < 2^32: then |SP - t SA| * td and tn * SA fit in 64 bits for
// any tn, td < 2^32.
bool row_is_narrow(const std::int64_t* kernel, const std::int64_t* product, std::size_t count,
                   int n, int max_target) {
  u128 amax = 0, pabs = 0;
  bool product_nonnegative = true;
  for (std::size_t i = 0; i < count; ++i) {
    if (kernel[i] < 0) return false;
    amax = std::max<u128>(amax, static_cast<u128>(kernel[i]));
    if (product[i] < 0) product_nonnegative = false;
    pabs = std::max<u128>(
        pabs, static_cast<u128>(product[i] < 0 ? -static_cast<i128>(product[i]) : product[i]));
  }
  const u128 den = amax * static_cast<u128>(n);
  const u128 sp = pabs * static_cast<u128>(n);
  const u128 tsa = den * static_cast<u128>(max_target);
  // SP and t*SA are both >= 0 when P >= 0, so their difference is below the larger one.
  const u128 num = product_nonnegative ? std::max(sp, tsa) : sp + tsa;
  return den < kNarrowLimit && num < kNarrowLimit;
}

}  // namespace

std::size_t TabulatedModel::rows_in_tier(RowTier tier) const {
  return static_cast<std::size_t>(std::count(row_tier.begin(), row_tier.end(), tier));
}

std::vector<Token> cube_tokens(int m) {
  if (m < 0 || m > 24) throw ResourceError("cube tokens are listed only for m <= 24");
  std::vector<Token> tokens;
  tokens.reserve(std::size_t{1} << m);
  for (std::uint64_t i = 0; i < (std::uint64_t{1} << m); ++i)
    tokens.push_back(Token::from_index(m, i));
  return tokens;
}

namespace {

// The table's shape, its overlap matrix and every row slot, refused beyond the budget.
TabulatedModel empty_table(const Model& model, const std::vector<Token>& universe, int n) {
  TabulatedModel table;
  table.universe = universe.size();
  table.n = n;
  table.position_dependent = model.position_dependent();
  table.blocks = table.position_dependent ? n : 1;
  const std::size_t U = universe.size();
  const auto B = static_cast<std::size_t>(table.blocks);
  const long double bytes = static_cast<long double>(U) * U * B * B * 16.0L + U * U * 2.0L;
  if (bytes > static_cast<long double>(kTableBudgetBytes))
    throw ResourceError("tabulating the model over " + std::to_string(U) +
                        " tokens needs more than 3 GiB; use a family or overlap profiles");
  table.overlap.resize(U * U);
  for (std::size_t u = 0; u < U; ++u)
    for (std::size_t z = 0; z < U; ++z)
      table.overlap[u * U + z] = static_cast<std::uint16_t>(inner(universe[u], universe[z]));
  table.kernel_int.assign(U * U * B * B, 0);
  table.product_int.assign(U * U * B * B, 0);
  table.row_tier.assign(U * B, RowTier::Exact);
  table.row_fits.assign(U * B, 0);
  table.row_positive.assign(U * B, 0);
  table.kernel_exact.resize(U * B);
  table.product_exact.resize(U * B);
  return table;
}

// Row (qb, u): kernel values and readouts against every key block and token.
void ask_row(const Model& model, const std::vector<Token>& universe, std::size_t B, std::size_t qb,
             std::size_t u, std::vector<Rational>& row_a, std::vector<Rational>& row_f) {
  const std::size_t U = universe.size();
  row_a.resize(U * B);
  row_f.resize(U * B);
  for (std::size_t kb = 0; kb < B; ++kb)
    for (std::size_t z = 0; z < U; ++z) {
      row_a[kb * U + z] =
          model.kernel(universe[u], universe[z], static_cast<int>(qb), static_cast<int>(kb));
      row_f[kb * U + z] =
          row_a[kb * U + z] == 0
              ? Rational(0)
              : model.readout(universe[u], universe[z], static_cast<int>(qb), static_cast<int>(kb));
    }
}

// Row (qb, u) stored as integers on one common scale (narrow or wide tier) when they fit,
// else as exact rationals.
void store_row(TabulatedModel& table, std::size_t qb, std::size_t u,
               const std::vector<Rational>& row_a, const std::vector<Rational>& row_f) {
  const std::size_t U = table.universe;
  const auto B = static_cast<std::size_t>(table.blocks);
  std::vector<Rational> row_p(U * B);
  for (std::size_t j = 0; j < U * B; ++j)
    row_p[j] = row_a[j] == 0 ? Rational(0) : Rational(row_a[j] * row_f[j]);
  // One common scale for the kernel and product parts of the row.
  std::vector<Rational> both(row_a);
  both.insert(both.end(), row_p.begin(), row_p.end());
  std::vector<std::int64_t> ints;
  if (!integerise_row(both, ints)) {
    table.kernel_exact[qb * U + u] = row_a;
    table.product_exact[qb * U + u] = std::move(row_p);
    return;
  }
  for (std::size_t kb = 0; kb < B; ++kb) {
    const std::size_t offset = table.block_offset(static_cast<int>(qb), static_cast<int>(kb), u);
    for (std::size_t z = 0; z < U; ++z) {
      table.kernel_int[offset + z] = ints[kb * U + z];
      table.product_int[offset + z] = ints[B * U + kb * U + z];
    }
  }
  const bool narrow =
      row_is_narrow(ints.data(), ints.data() + B * U, B * U, table.n, table.overlap[u * U + u]);
  table.row_tier[qb * U + u] = narrow ? RowTier::Narrow : RowTier::Wide;
  table.row_fits[qb * U + u] = 1;
  table.row_positive[qb * U + u] =
      std::all_of(ints.begin(), ints.begin() + static_cast<std::ptrdiff_t>(B * U),
                  [](std::int64_t x) { return x > 0; });
}

}  // namespace

TabulatedModel tabulate(const Model& model, const std::vector<Token>& universe, int n,
                        int threads) {
  TabulatedModel table = empty_table(model, universe, n);
  const std::size_t U = universe.size();
  const auto B = static_cast<std::size_t>(table.blocks);
  // Rows (query block qb, query token u) in chunks: the model is asked on this thread only
  // (model objects may cache), then products, integers and tiers are computed on `threads`.
  const std::size_t rows = U * B;
  const std::size_t chunk = std::max<std::size_t>(
      1, std::min<std::size_t>(rows, (std::size_t{1} << 20) / std::max<std::size_t>(U * B, 1)));
  std::vector<std::vector<Rational>> kernels(chunk), readouts(chunk);
  Progress progress("tabulating model", rows);
  for (std::size_t first = 0; first < rows; first += chunk) {
    const std::size_t count = std::min(chunk, rows - first);
    for (std::size_t i = 0; i < count; ++i)
      ask_row(model, universe, B, (first + i) / U, (first + i) % U, kernels[i], readouts[i]);
    parallel_for(count, threads, [&](std::size_t i, int) {
      store_row(table, (first + i) / U, (first + i) % U, kernels[i], readouts[i]);
    });
    progress.update(first + count);
  }
  return table;
}

}  // namespace kernelrank::detail
