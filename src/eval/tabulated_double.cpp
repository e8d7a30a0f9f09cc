// The double-precision twin of the exact tabulated evaluation, for the benchmark only: the
// same walk, blocks and weights (tabulated_walk.hpp), in double arithmetic. It never decides
// a verdict.
#include "eval/tabulated_walk.hpp"

#include "kernelrank/eval/eval_kernels.hpp"

#include <cmath>
#include <memory>

namespace kernelrank::detail {

DoubleTable double_table(const TabulatedModel& table) {
  DoubleTable values;
  const std::size_t U = table.universe;
  const auto B = static_cast<std::size_t>(table.blocks);
  values.kernel.resize(table.kernel_int.size());
  values.product.resize(table.product_int.size());
  for (std::size_t qb = 0; qb < B; ++qb)
    for (std::size_t u = 0; u < U; ++u)
      for (std::size_t kb = 0; kb < B; ++kb) {
        const std::size_t off = table.block_offset(static_cast<int>(qb), static_cast<int>(kb), u);
        const bool exact = table.row_tier[qb * U + u] == RowTier::Exact;
        for (std::size_t z = 0; z < U; ++z) {
          if (exact) {
            values.kernel[off + z] =
                table.kernel_exact[qb * U + u][kb * U + z].convert_to<double>();
            values.product[off + z] =
                table.product_exact[qb * U + u][kb * U + z].convert_to<double>();
          } else {
            values.kernel[off + z] = static_cast<double>(table.kernel_int[off + z]);
            values.product[off + z] = static_cast<double>(table.product_int[off + z]);
          }
        }
      }
  values.overlap.assign(table.overlap.begin(), table.overlap.end());
  return values;
}

namespace {

class DoublePolicy;

struct DoubleWorker {
  std::uint64_t instances = 0, failing = 0;
  double max_error = 0;   // division form
  double bn = 0, bd = 1;  // cross form: the maximum as bn / bd
  std::shared_ptr<DoublePolicy> policy;
  std::vector<std::uint32_t> keys;
};

// The double twin of IntegerPolicy: the same walk, the same runs, the same weights.
class DoublePolicy {
 public:
  struct Sum {
    double a, p;
  };
  DoublePolicy(const TabulatedModel& table, const DoubleTable& values, const Layout& layout,
               bool division, DoubleWorker& worker)
      : table_(table), values_(values), layout_(layout), division_(division), worker_(worker) {}

  Sum begin_row(std::uint64_t pass, int qp, std::size_t u) {
    if (row_.load(table_, layout_, pass, u, values_.kernel.data(), values_.product.data()))
      ov_ = &values_.overlap[u * layout_.U];
    const std::size_t self = RowTables<double>::self_offset(table_, qp, u);
    return {values_.kernel[self], values_.product[self]};
  }
  Sum add(const Sum& s, int d, std::size_t z) const {
    return {s.a + row_.a[static_cast<std::size_t>(d)][z],
            s.p + row_.p[static_cast<std::size_t>(d)][z]};
  }
  void single(const Sum& s, int t, std::uint64_t weight, std::uint64_t,
              const std::vector<std::uint32_t>&) {
    worker_.instances += weight;
    test(s.a, s.p, t, weight);
  }
  void segment(const Sum& s, int t, int d, std::size_t lo, std::size_t hi, std::uint64_t weight,
               std::uint64_t first_weight, std::uint64_t, std::vector<std::uint32_t>&) {
    DoubleArgs g;
    g.a = row_.a[static_cast<std::size_t>(d)];
    g.p = row_.p[static_cast<std::size_t>(d)];
    g.ov = ov_;
    g.lo = lo;
    g.hi = hi;
    g.ca = s.a;
    g.cp = s.p;
    g.tp = t;
    g.bn = worker_.bn;
    g.bd = worker_.bd;
    worker_.instances += weight * (hi - lo) - (weight - first_weight);
    const DoubleCounts c = division_ ? double_division_segment(g) : double_cross_segment(g);
    worker_.failing += weight * c.fails;
    if (first_weight != weight) {
      // The first instance counts first_weight times, not weight times.
      const double sa = g.ca + g.a[lo];
      const double an = std::fabs(g.cp + g.p[lo] - std::min<double>(t, ov_[lo]) * sa);
      if (!(2 * an < sa)) worker_.failing -= weight - first_weight;
    }
    if (division_) {
      if (c.max_error > worker_.max_error) worker_.max_error = c.max_error;
      return;
    }
    if (!c.beats) return;
    for (std::size_t z = lo; z < hi; ++z) {
      const double sa = g.ca + g.a[z];
      const double an = std::fabs(g.cp + g.p[z] - std::min<double>(t, ov_[z]) * sa);
      if (an * worker_.bd > worker_.bn * sa) {
        worker_.bn = an;
        worker_.bd = sa;
      }
    }
  }

 private:
  void test(double sa, double sp, int t, std::uint64_t weight) {
    if (division_) {
      const double e = std::fabs(sp / sa - t);
      if (!(e < 0.5)) worker_.failing += weight;
      if (e > worker_.max_error) worker_.max_error = e;
    } else {
      const double an = std::fabs(sp - t * sa);
      if (!(2 * an < sa)) worker_.failing += weight;
      if (an * worker_.bd > worker_.bn * sa) {
        worker_.bn = an;
        worker_.bd = sa;
      }
    }
  }

  const TabulatedModel& table_;
  const DoubleTable& values_;
  const Layout& layout_;
  bool division_;
  DoubleWorker& worker_;
  RowTables<double> row_;
  const double* ov_ = nullptr;
};

}  // namespace

DoubleLoopResult evaluate_tabulated_double(const TabulatedModel& table, const DoubleTable& values,
                                           QueryMode mode, int threads, bool division,
                                           const EngineOptions& engine) {
  const Layout layout = make_layout(table, mode, engine);
  auto make = [] { return DoubleWorker{}; };
  auto body = [&](DoubleWorker& worker, std::uint64_t block) {
    if (!worker.policy)
      worker.policy = std::make_shared<DoublePolicy>(table, values, layout, division, worker);
    walk_block(layout, table.overlap.data(), decode_block(layout, block), *worker.policy,
               worker.keys);
  };
  const std::vector<DoubleWorker> workers = run_blocks<DoubleWorker>(
      layout.blocks, Shard{}, resolve_threads(threads), make, body, "double loop");
  DoubleLoopResult result;
  for (const DoubleWorker& w : workers) {
    result.instances += w.instances;
    result.failing += w.failing;
    const double e = division ? w.max_error : w.bn / w.bd;
    if (e > result.max_error) result.max_error = e;
  }
  return result;
}

}  // namespace kernelrank::detail
