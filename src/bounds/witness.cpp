// Construction of witness families along amplification chains.
#include "kernelrank/bounds/witness.hpp"

#include "kernelrank/bounds/amplification.hpp"
#include "kernelrank/core/errors.hpp"

#include <algorithm>
#include <set>

namespace kernelrank {
namespace {

class FamilyBuilder {
 public:
  FamilyBuilder(int m, const WitnessOptions& options) : options_(options) {
    family_.m = m;
    family_.n = options.n;
  }

  std::size_t size() const { return family_.instances.size(); }
  const Family& family() const { return family_; }

  // Adds the instances of the chain from c_i to c_j under q_i; returns how many were new.
  void add_chain(const BoundRow& from, const Token& to, const AmplificationTable& table) {
    const int gap = inner(from.query, to) - inner(from.query, from.own);
    const auto& amplification = table.at(gap);
    if (gap < 2 || !amplification)
      throw UsageError("witness rows need gaps >= 2 between all pairs");
    const std::vector<Token> chain = cube_chain(from.query, from.own, to, amplification->parts);
    for (std::size_t s = 1; s < chain.size(); ++s) add_step(from.query, chain[s - 1], chain[s]);
  }

 private:
  void add_step(const Token& q, const Token& a, const Token& b) {
    const int n = options_.n;
    add(q, std::vector<Token>(static_cast<std::size_t>(n - 1), a));
    add(q, std::vector<Token>(static_cast<std::size_t>(n - 1), b));
    std::vector<Token> keys{a};
    for (int i = 1; i < n - 1; ++i) keys.push_back(b);
    std::sort(keys.begin(), keys.end());
    do {
      add(q, keys);
    } while (options_.position_dependent && std::next_permutation(keys.begin(), keys.end()));
  }

  void add(const Token& q, const std::vector<Token>& keys) {
    Instance instance;
    instance.query = options_.position;
    std::size_t next = 0;
    for (int pos = 0; pos < options_.n; ++pos)
      instance.tokens.push_back(pos == options_.position ? q : keys[next++]);
    if (seen_.insert(instance.tokens).second) family_.instances.push_back(std::move(instance));
  }

  WitnessOptions options_;
  Family family_;
  std::set<std::vector<Token>> seen_;
};

}  // namespace

Witness build_witness(const std::vector<Token>& code, const WitnessOptions& options) {
  if (code.empty()) throw UsageError("the witness code is empty");
  if (options.n < 3) throw UsageError("witness families need n >= 3");
  if (options.position < 0 || options.position >= options.n)
    throw UsageError("the query position must be in 1..n");
  const int m = code.front().width();
  const AmplificationTable table(options.n, m);
  const std::vector<BoundRow> all_rows = complement_rows(code);
  Witness witness;
  FamilyBuilder kept(m, options);
  for (const BoundRow& row : all_rows) {
    // Gaps < 2 with a kept row make the row unusable.
    bool usable = true;
    for (const BoundRow& other : witness.rows)
      usable = usable && inner(row.query, other.own) - inner(row.query, row.own) >= 2 &&
               inner(other.query, row.own) - inner(other.query, other.own) >= 2;
    if (!usable) {
      ++witness.rows_left_out;
      continue;
    }
    FamilyBuilder trial = kept;
    for (const BoundRow& other : witness.rows) {
      trial.add_chain(row, other.own, table);
      trial.add_chain(other, row.own, table);
    }
    if (trial.size() > options.max_instances && !witness.rows.empty()) {
      ++witness.rows_left_out;
      continue;
    }
    kept = std::move(trial);
    witness.rows.push_back(row);
  }
  witness.family = kept.family();
  return witness;
}

}  // namespace kernelrank
