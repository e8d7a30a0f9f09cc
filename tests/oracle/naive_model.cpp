// The naive model evaluator: see naive_model.hpp.
#include "naive_model.hpp"

#include <stdexcept>
#include <string>
#include <utility>

namespace kernelrank::oracle {

namespace {

// y = numerator / denominator against the target, as the definition says.
NaiveOutcome outcome_of(const Rational& numerator, const Rational& denominator, int target) {
  NaiveOutcome outcome;
  outcome.target = target;
  if (denominator == 0) {
    outcome.fails = true;
    return outcome;
  }
  outcome.output = numerator / denominator;
  Rational error = *outcome.output - Rational(target);
  if (error < 0) error = -error;
  outcome.fails = !(error < Rational(1, 2));
  return outcome;
}

std::size_t linear_index(const std::vector<Token>& tokens, const Token& token) {
  for (std::size_t a = 0; a < tokens.size(); ++a)
    if (tokens[a] == token) return a;
  throw std::invalid_argument("naive oracle: token " + token.to_string() + " is not in the table");
}

const Token& query_token(const Instance& instance) {
  if (instance.query < 0 || instance.query >= instance.length())
    throw std::invalid_argument("naive oracle: query position out of range");
  return instance.tokens[static_cast<std::size_t>(instance.query)];
}

}  // namespace

int naive_overlap(const Token& a, const Token& b) {
  const std::string x = a.to_string();
  const std::string z = b.to_string();
  if (x.size() != z.size()) throw std::invalid_argument("naive oracle: tokens of different widths");
  int count = 0;
  for (std::size_t k = 0; k < x.size(); ++k)
    if (x[k] == '1' && z[k] == '1') ++count;
  return count;
}

int naive_target(const Instance& instance) {
  const Token& q = query_token(instance);
  int best = naive_overlap(q, instance.tokens.front());
  for (const Token& z : instance.tokens) {
    const int s = naive_overlap(q, z);
    if (s < best) best = s;
  }
  return best;
}

NaiveOutcome naive_model_outcome(const Model& model, const Instance& instance) {
  const Token& q = query_token(instance);
  Rational numerator = 0, denominator = 0;
  for (std::size_t j = 0; j < instance.tokens.size(); ++j) {
    const Token& z = instance.tokens[j];
    const int kpos = static_cast<int>(j);
    const Rational alpha = model.kernel(q, z, instance.query, kpos);
    numerator += alpha * model.readout(q, z, instance.query, kpos);
    denominator += alpha;
  }
  return outcome_of(numerator, denominator, naive_target(instance));
}

NaiveOutcome naive_table_outcome(const TabularModel& model, const Instance& instance) {
  if (model.positions() != 0)
    throw std::invalid_argument("naive oracle: position-dependent tables are not supported");
  const std::vector<Token>& tokens = model.tokens();
  const RationalMatrix& kernel = model.kernel_table();
  const RationalMatrix& readout = model.readout_table();
  const std::size_t a = linear_index(tokens, query_token(instance));
  Rational numerator = 0, denominator = 0;
  for (const Token& z : instance.tokens) {
    const std::size_t b = linear_index(tokens, z);
    numerator += kernel[a][b] * readout[a][b];
    denominator += kernel[a][b];
  }
  return outcome_of(numerator, denominator, naive_target(instance));
}

NaiveOutcome naive_rank_outcome(const std::vector<Token>& tokens, const RankModel& model,
                                const Instance& instance) {
  const std::size_t a = linear_index(tokens, query_token(instance));
  Rational numerator = 0, denominator = 0;
  for (const Token& z : instance.tokens) {
    const std::size_t b = linear_index(tokens, z);
    Rational alpha = 0;
    for (int k = 0; k < model.r; ++k)
      alpha += model.query_features.at(a).at(static_cast<std::size_t>(k)) *
               model.key_features.at(b).at(static_cast<std::size_t>(k));
    numerator += alpha * model.readout.at(a).at(b);
    denominator += alpha;
  }
  return outcome_of(numerator, denominator, naive_target(instance));
}

NaiveSweep naive_cube_sweep(int m, int n,
                            const std::function<NaiveOutcome(const Instance&)>& evaluate,
                            const std::vector<int>& query_positions) {
  if (m < 1 || m > 20 || n < 1 || static_cast<long long>(m) * n > 40)
    throw std::invalid_argument("naive oracle: the cube sweep is for small m and n only");
  // The 2^m tokens, coordinate k set from bit k of the index (any fixed order will do).
  std::vector<Token> cube;
  for (std::uint64_t index = 0; index < (std::uint64_t{1} << m); ++index) {
    Token token(m);
    for (int k = 0; k < m; ++k) token.set(k, ((index >> k) & 1) != 0);
    cube.push_back(std::move(token));
  }
  NaiveSweep sweep;
  std::vector<std::size_t> digits(static_cast<std::size_t>(n), 0);
  Instance instance;
  instance.tokens.assign(static_cast<std::size_t>(n), cube.front());
  while (true) {
    for (std::size_t t = 0; t < digits.size(); ++t) instance.tokens[t] = cube[digits[t]];
    for (const int position : query_positions) {
      instance.query = position;
      const NaiveOutcome outcome = evaluate(instance);
      ++sweep.instances;
      if (outcome.output) {
        Rational error = *outcome.output - Rational(outcome.target);
        if (error < 0) error = -error;
        if (!sweep.max_error || error > *sweep.max_error) sweep.max_error = error;
      } else {
        ++sweep.undefined;
      }
      if (outcome.fails) {
        ++sweep.failing;
        if (!sweep.first_failure) sweep.first_failure = instance;
      }
    }
    std::size_t t = 0;
    while (t < digits.size() && ++digits[t] == cube.size()) digits[t++] = 0;
    if (t == digits.size()) break;
  }
  return sweep;
}

std::size_t naive_rank(RationalMatrix matrix) {
  std::size_t rank = 0;
  const std::size_t rows = matrix.size();
  const std::size_t columns = rows == 0 ? 0 : matrix.front().size();
  for (std::size_t column = 0; column < columns && rank < rows; ++column) {
    std::size_t pivot = rank;
    while (pivot < rows && matrix[pivot][column] == 0) ++pivot;
    if (pivot == rows) continue;
    std::swap(matrix[pivot], matrix[rank]);
    for (std::size_t row = rank + 1; row < rows; ++row) {
      if (matrix[row][column] == 0) continue;
      const Rational factor = matrix[row][column] / matrix[rank][column];
      for (std::size_t c = column; c < columns; ++c) matrix[row][c] -= factor * matrix[rank][c];
    }
    ++rank;
  }
  return rank;
}

}  // namespace kernelrank::oracle
