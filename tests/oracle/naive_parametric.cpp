// The naive parametric oracle: see naive_parametric.hpp. One evaluation routine over dual
// numbers does everything: with no seeded parameter the derivative parts stay 0 and the value
// parts are the plain exact output; with parameter k seeded, the derivative parts are d/dtheta_k.
#include "naive_parametric.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace kernelrank::oracle {

namespace {

// value + derivative * eps with eps^2 = 0.
struct Dual {
  Rational value;
  Rational derivative;
};

Dual operator+(const Dual& a, const Dual& b) {
  return {a.value + b.value, a.derivative + b.derivative};
}
Dual operator-(const Dual& a, const Dual& b) {
  return {a.value - b.value, a.derivative - b.derivative};
}
Dual operator*(const Dual& a, const Dual& b) {
  return {a.value * b.value, a.derivative * b.value + a.value * b.derivative};
}
// The caller checks b.value != 0.
Dual operator/(const Dual& a, const Dual& b) {
  return {a.value / b.value,
          (a.derivative * b.value - a.value * b.derivative) / (b.value * b.value)};
}

// relu'(t) = 1 for t > 0 and 0 for t <= 0 (PyTorch's convention at the kink t = 0).
Dual relu(const Dual& t) { return t.value > 0 ? t : Dual{Rational(0), Rational(0)}; }
Dual square(const Dual& t) { return t * t; }
Dual activate(FeatureMap act, const Dual& t) {
  if (act == FeatureMap::Identity) return t;
  return act == FeatureMap::Relu ? relu(t) : square(t);
}

constexpr int kRoles = 5;

int rows_of(const ParametricShape& shape, int role) {
  switch (role) {
    case 0:
    case 1:
      return shape.r;
    case 2:
    case 3:
      return shape.d;
    default:
      return 1;
  }
}

const AffineMap& map_of(const ParametricMaps& maps, int role) {
  switch (role) {
    case 0:
      return maps.query;
    case 1:
      return maps.key;
    case 2:
      return maps.value;
    case 3:
      return maps.readout_c;
    default:
      return maps.readout_e;
  }
}

AffineMap& map_of(ParametricMaps& maps, int role) {
  return const_cast<AffineMap&>(map_of(static_cast<const ParametricMaps&>(maps), role));
}

std::size_t slot_size(const ParametricShape& shape) {
  return static_cast<std::size_t>(2 * shape.r + 2 * shape.d + 1) *
         static_cast<std::size_t>(shape.m + 1);
}

// The parameter whose derivative is taken: slot < 0 means none. col == m names the bias.
struct Seed {
  int slot = -1;
  int role = 0;
  int row = 0;
  int col = 0;
};

Seed decode(const ParametricShape& shape, std::size_t index) {
  Seed seed;
  seed.slot = static_cast<int>(index / slot_size(shape));
  std::size_t rest = index % slot_size(shape);
  for (int role = 0; role < kRoles; ++role) {
    const auto rows = static_cast<std::size_t>(rows_of(shape, role));
    const auto m = static_cast<std::size_t>(shape.m);
    if (rest < rows * (m + 1)) {
      seed.role = role;
      if (rest < rows * m) {
        seed.row = static_cast<int>(rest / m);
        seed.col = static_cast<int>(rest % m);
      } else {
        seed.row = static_cast<int>(rest - rows * m);
        seed.col = shape.m;
      }
      return seed;
    }
    rest -= rows * (m + 1);
  }
  throw std::logic_error("naive oracle: parameter index out of range");
}

// W x + b of one map, as duals: the entry of the seeded row gets derivative x_col (or 1 for
// the bias).
std::vector<Dual> apply(const ParametricMaps& maps, int slot, int role, const Token& x, int m,
                        const Seed& seed) {
  const AffineMap& map = map_of(maps, role);
  std::vector<Dual> out;
  for (std::size_t i = 0; i < map.weight.size(); ++i) {
    Dual entry{map.bias[i], Rational(0)};
    for (int k = 0; k < m; ++k)
      if (x.get(k)) entry.value += map.weight[i][static_cast<std::size_t>(k)];
    if (seed.slot == slot && seed.role == role && seed.row == static_cast<int>(i))
      entry.derivative = (seed.col == m || x.get(seed.col)) ? 1 : 0;
    out.push_back(entry);
  }
  return out;
}

Dual dot(const std::vector<Dual>& a, const std::vector<Dual>& b) {
  Dual sum{Rational(0), Rational(0)};
  for (std::size_t i = 0; i < a.size(); ++i) sum = sum + a[i] * b[i];
  return sum;
}

int popcount_and(const Token& a, const Token& b) {
  int count = 0;
  for (int k = 0; k < a.width(); ++k)
    if (a.get(k) && b.get(k)) ++count;
  return count;
}

int target_of(const Instance& inst) {
  const Token& q = inst.tokens[static_cast<std::size_t>(inst.query)];
  int best = popcount_and(q, inst.tokens.front());
  for (const Token& z : inst.tokens) best = std::min(best, popcount_and(q, z));
  return best;
}

void check_instance(const ParametricShape& shape, const Instance& inst) {
  const int n = inst.length();
  if (n < 1 || inst.query < 0 || inst.query >= n)
    throw std::invalid_argument("naive oracle: empty instance or query position out of range");
  if (shape.slots != 1 && shape.slots != n)
    throw std::invalid_argument("naive oracle: " + std::to_string(shape.slots) +
                                " position slots for an instance of length " + std::to_string(n));
  for (const Token& token : inst.tokens)
    if (token.width() != shape.m)
      throw std::invalid_argument("naive oracle: token width differs from the model width");
}

// y with its derivative along the seed, or nullopt when the denominator is 0.
std::optional<Dual> evaluate(const std::vector<ParametricMaps>& maps, const ParametricShape& shape,
                             FeatureMap act, const Instance& inst, const Seed& seed) {
  const int i = inst.query;
  const int qslot = shape.slots == 1 ? 0 : i;
  const ParametricMaps& qmaps = maps[static_cast<std::size_t>(qslot)];
  const Token& x = inst.tokens[static_cast<std::size_t>(i)];
  std::vector<Dual> phi_q = apply(qmaps, qslot, 0, x, shape.m, seed);
  for (Dual& entry : phi_q) entry = activate(act, entry);
  const std::vector<Dual> c = apply(qmaps, qslot, 3, x, shape.m, seed);
  const Dual e = apply(qmaps, qslot, 4, x, shape.m, seed).front();

  Dual numerator{Rational(0), Rational(0)};
  Dual denominator{Rational(0), Rational(0)};
  for (int j = 0; j < inst.length(); ++j) {
    const int kslot = shape.slots == 1 ? 0 : j;
    const ParametricMaps& kmaps = maps[static_cast<std::size_t>(kslot)];
    const Token& z = inst.tokens[static_cast<std::size_t>(j)];
    std::vector<Dual> phi_k = apply(kmaps, kslot, 1, z, shape.m, seed);
    for (Dual& entry : phi_k) entry = activate(act, entry);
    const std::vector<Dual> v = apply(kmaps, kslot, 2, z, shape.m, seed);
    const Dual alpha = dot(phi_q, phi_k);
    numerator = numerator + alpha * dot(c, v);
    denominator = denominator + alpha;
  }
  if (denominator.value == 0) return std::nullopt;
  return numerator / denominator + e;
}

}  // namespace

ParametricShape shape_of(const std::vector<ParametricMaps>& maps) {
  if (maps.empty()) throw std::invalid_argument("naive oracle: no maps");
  ParametricShape shape;
  const AffineMap& e = maps.front().readout_e;
  if (e.weight.size() != 1) throw std::invalid_argument("naive oracle: E must have one row");
  shape.m = static_cast<int>(e.weight.front().size());
  shape.r = static_cast<int>(maps.front().query.weight.size());
  shape.d = static_cast<int>(maps.front().value.weight.size());
  shape.slots = static_cast<int>(maps.size());
  for (const ParametricMaps& slot : maps)
    for (int role = 0; role < kRoles; ++role) {
      const AffineMap& map = map_of(slot, role);
      const auto rows = static_cast<std::size_t>(rows_of(shape, role));
      bool ok = map.weight.size() == rows && map.bias.size() == rows;
      for (const RationalVector& row : map.weight)
        ok = ok && row.size() == static_cast<std::size_t>(shape.m);
      if (!ok) throw std::invalid_argument("naive oracle: inconsistent map sizes");
    }
  return shape;
}

std::size_t parameter_count(const ParametricShape& shape) {
  return slot_size(shape) * static_cast<std::size_t>(shape.slots);
}

std::size_t parameter_index(const ParametricShape& shape, int slot, MapRole role, int row,
                            int col) {
  const int r = static_cast<int>(role);
  if (slot < 0 || slot >= shape.slots || row < 0 || row >= rows_of(shape, r) || col < 0 ||
      col > shape.m)
    throw std::invalid_argument("naive oracle: parameter out of range");
  std::size_t index = static_cast<std::size_t>(slot) * slot_size(shape);
  for (int before = 0; before < r; ++before)
    index +=
        static_cast<std::size_t>(rows_of(shape, before)) * static_cast<std::size_t>(shape.m + 1);
  const auto rows = static_cast<std::size_t>(rows_of(shape, r));
  const auto m = static_cast<std::size_t>(shape.m);
  const auto row_index = static_cast<std::size_t>(row);
  return index +
         (col == shape.m ? rows * m + row_index : row_index * m + static_cast<std::size_t>(col));
}

std::vector<Rational> flatten_parameters(const std::vector<ParametricMaps>& maps) {
  shape_of(maps);  // validates
  std::vector<Rational> flat;
  for (const ParametricMaps& slot : maps)
    for (int role = 0; role < kRoles; ++role) {
      const AffineMap& map = map_of(slot, role);
      for (const RationalVector& row : map.weight) flat.insert(flat.end(), row.begin(), row.end());
      flat.insert(flat.end(), map.bias.begin(), map.bias.end());
    }
  return flat;
}

std::vector<ParametricMaps> maps_from_flat(const std::vector<Rational>& flat,
                                           const ParametricShape& shape) {
  if (shape.m < 0 || shape.r < 0 || shape.d < 0 || shape.slots < 1 ||
      flat.size() != parameter_count(shape))
    throw std::invalid_argument("naive oracle: flat parameter vector does not fit the shape");
  std::vector<ParametricMaps> maps(static_cast<std::size_t>(shape.slots));
  std::size_t next = 0;
  for (ParametricMaps& slot : maps)
    for (int role = 0; role < kRoles; ++role) {
      AffineMap& map = map_of(slot, role);
      const auto rows = static_cast<std::size_t>(rows_of(shape, role));
      map.weight.assign(rows, RationalVector(static_cast<std::size_t>(shape.m)));
      map.bias.assign(rows, Rational(0));
      for (RationalVector& row : map.weight)
        for (Rational& entry : row) entry = flat[next++];
      for (Rational& entry : map.bias) entry = flat[next++];
    }
  return maps;
}

NaiveOutcome naive_evaluate(const std::vector<ParametricMaps>& maps, FeatureMap act,
                            const Instance& inst) {
  const ParametricShape shape = shape_of(maps);
  check_instance(shape, inst);
  NaiveOutcome outcome;
  outcome.target = target_of(inst);
  if (const std::optional<Dual> y = evaluate(maps, shape, act, inst, Seed{})) {
    outcome.output = y->value;
    outcome.fails = abs_of(y->value - outcome.target) >= Rational(1, 2);
  }
  return outcome;
}

std::vector<Rational> naive_output_gradient(const std::vector<ParametricMaps>& maps, FeatureMap act,
                                            const Instance& inst) {
  const ParametricShape shape = shape_of(maps);
  check_instance(shape, inst);
  std::vector<Rational> gradient;
  for (std::size_t k = 0; k < parameter_count(shape); ++k) {
    const std::optional<Dual> y = evaluate(maps, shape, act, inst, decode(shape, k));
    if (!y) throw std::domain_error("naive oracle: output undefined (zero denominator)");
    gradient.push_back(y->derivative);
  }
  return gradient;
}

namespace {

// L = (1/N) sum (y - t)^2 as a dual along the seed.
Dual loss(const std::vector<ParametricMaps>& maps, const ParametricShape& shape, FeatureMap act,
          const std::vector<Instance>& instances, const Seed& seed) {
  if (instances.empty()) throw std::invalid_argument("naive oracle: loss of no instances");
  Dual sum{Rational(0), Rational(0)};
  for (const Instance& inst : instances) {
    check_instance(shape, inst);
    const std::optional<Dual> y = evaluate(maps, shape, act, inst, seed);
    if (!y) throw std::domain_error("naive oracle: output undefined (zero denominator)");
    const Dual residual = *y - Dual{Rational(target_of(inst)), Rational(0)};
    sum = sum + square(residual);
  }
  return sum / Dual{Rational(static_cast<long long>(instances.size())), Rational(0)};
}

}  // namespace

Rational naive_loss(const std::vector<ParametricMaps>& maps, FeatureMap act,
                    const std::vector<Instance>& instances) {
  return loss(maps, shape_of(maps), act, instances, Seed{}).value;
}

std::vector<Rational> naive_loss_gradient(const std::vector<ParametricMaps>& maps, FeatureMap act,
                                          const std::vector<Instance>& instances) {
  const ParametricShape shape = shape_of(maps);
  std::vector<Rational> gradient;
  for (std::size_t k = 0; k < parameter_count(shape); ++k)
    gradient.push_back(loss(maps, shape, act, instances, decode(shape, k)).derivative);
  return gradient;
}

}  // namespace kernelrank::oracle
