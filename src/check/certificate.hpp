// The parsed form of a certificate (docs/certificate-format.md, versions 1 and 2).
//
// parse_certificate() reads the whole file and checks everything that can be checked
// without arithmetic: statement order, field order and counts, integer spellings and
// ranges, token widths, counts against the lines that follow, backward references.
// Anything wrong here is malformed input (exit 2). The arithmetic checks that decide
// between verified and not verified come later (cube_rule, family_chains, order_rule,
// dependence_rule, inherit_rule, conclusion).
#pragma once

#include <cstdint>
#include <istream>
#include <memory>
#include <string>
#include <vector>

#include "check/bignum.hpp"
#include "check/sha256.hpp"
#include "check/tokens.hpp"

namespace krcheck {

enum class QueryMode { first, last, all };
enum class ModelClass { NK, PF };
// order, dependence, inherit and trace_uniform: format 2 only; trace_product and
// shifted_trace: format 3 only
enum class RuleKind {
  trace,
  dominance,
  order,
  dependence,
  inherit,
  trace_uniform,
  trace_product,
  shifted_trace
};

inline constexpr int kMaxWidth = 4096;     // m
inline constexpr int kMinLength = 3;       // n
inline constexpr int kMaxLength = 1000;    // n
inline constexpr int kMaxPrecision = 256;  // P of the trace rule
inline constexpr std::uint64_t kMaxRows = 200000;
inline constexpr std::uint64_t kMaxKeyPairs = 20;  // the order rule enumerates 2^C orientations
inline constexpr int kMaxDependenceRank = 12;      // the dependence rule scans all 3^(R+1) patterns
inline constexpr std::uint64_t kMinGeneratedCount = 2;  // rule trace-uniform: count=
inline constexpr std::uint64_t kMaxGeneratedCount = 10000000;
inline constexpr std::uint64_t kMaxGeneratedBytes = std::uint64_t{4} << 30;  // count*ceil(m/64)*8
inline constexpr int kMaxProductWidth = 100000;         // m of rule trace-product (no row is held)
inline constexpr std::uint64_t kMaxBlocks = 1000;       // rule trace-product: distinct blocks
inline constexpr int kMaxBlockLength = 4096;            // L of one block
inline constexpr std::uint64_t kMaxBlockWords = 20000;  // explicit block: all pairs are counted
inline constexpr int kMaxHadamardPower = 16;            // rule trace-product power=k

struct Step {
  long line = 0;
  int position = 0;  // 1-based query position p
  Token query, a, b;
  std::uint64_t k = 0;
};

struct PairLine {
  long line = 0;
  std::uint32_t row = 0;       // i, 0-based
  std::uint32_t column = 0;    // j, 0-based
  std::size_t first_step = 0;  // the chain is pair_steps[first_step .. first_step + step_count)
  std::size_t step_count = 0;
};

// `keypair X Y : ids` of the order rule: the steps compare the key tokens X and Y.
struct KeyPairLine {
  long line = 0;
  Token x, y;
  std::size_t first_step = 0;  // the steps are core_steps[first_step .. first_step + step_count)
  std::size_t step_count = 0;
};

// `cover SIGNS A B : ids` of the dependence rule: one step per nonzero sign, in query order.
struct CoverLine {
  long line = 0;
  std::string signs;  // R + 1 characters over + - 0, not all 0
  Token a, b;
  std::size_t first_step = 0;  // the steps are cover_steps[first_step .. first_step + step_count)
  std::size_t step_count = 0;
};

// A block of rule trace-product: explicit words, or the checksum class GS(L, W, a).
struct ProductBlock {
  long line = 0;
  bool checksum = false;
  int length = 0;             // L
  int weight = 0;             // checksum: W as stated (explicit: found by the rule)
  std::uint64_t residue = 0;  // checksum: a
  std::uint64_t copies = 1;   // how many consecutive copies of the block the rows hold
  TokenMatrix words;          // explicit only
  std::vector<long> word_lines;
};

struct Certificate {
  std::string file;
  int version = 1;  // the header's format version
  long header_line = 0;

  long task_line = 0;
  std::string task_statement;  // the task line as written, for the summary
  bool is_family = false;
  int m = 0;
  int n = 0;
  QueryMode mode = QueryMode::first;
  ModelClass model_class = ModelClass::NK;
  bool dependent_positions = false;
  Digest family_digest{};  // family certificates only

  long rule_line = 0;
  RuleKind rule = RuleKind::trace;
  int precision = 0;        // trace rule only
  int hadamard_power = 1;   // trace-product only: k of theory.md L4' (power=k)
  Rational shift = 0;       // shifted-trace only: t of W = t J, 0 < t < 1
  int order_rank = 0;       // order rule only: the rank R it refutes
  int dependence_rank = 0;  // dependence rule only: the rank R it refutes

  long steps_line = 0;
  std::vector<Step> steps;  // family certificates, the order and the dependence rule

  long queries_line = 0;  // the dependence rule's R + 1 distinct query tokens
  std::vector<Token> dependence_queries;
  std::vector<long> query_lines;

  long covers_line = 0;  // the dependence rule's covers
  std::vector<CoverLine> covers;
  std::vector<std::uint32_t> cover_steps;  // 0-based step indices of all cover lines

  long core_line = 0;  // the order rule's core
  std::vector<KeyPairLine> keypairs;
  std::vector<std::uint32_t> core_steps;  // 0-based step indices of all keypair lines

  // The inherit rule's embedded certificate (a cube task, never itself inherit); its lines
  // are numbered in this file, from begin-embedded to end-embedded.
  long begin_embedded_line = 0;
  long end_embedded_line = 0;
  std::unique_ptr<Certificate> embedded;

  // Rule trace-uniform: `generated splitmix64 seed=S count=C weight=W queries=complement`
  // and the drops (1-based generated indices, strictly increasing). The rows are
  // regenerated by generated_rows.hpp; none of them is stored here.
  long generated_line = 0;
  std::uint64_t seed = 0;
  std::uint64_t generated_count = 0;
  int weight = 0;
  long drops_line = 0;
  std::vector<std::uint64_t> drops;

  // Rule trace-product: the blocks, in coordinate order.
  long blocks_line = 0;
  std::vector<ProductBlock> blocks;

  long rows_line = 0;
  TokenMatrix own;    // c_i
  TokenMatrix query;  // q_i
  std::vector<long> row_lines;

  long pairs_line = 0;
  std::vector<PairLine> pairs;            // family certificates only
  std::vector<std::uint32_t> pair_steps;  // 0-based step indices of all chains

  long sum_line = 0;
  Rational stated_sum;  // an integer for the trace rule

  long claim_line = 0;
  BigInt claim;

  std::size_t row_count() const { return row_lines.size(); }
  // Rule trace-uniform: K' = C - D, the rows the pair pass runs over.
  std::uint64_t kept_count() const { return generated_count - drops.size(); }
};

Certificate parse_certificate(std::istream& in, const std::string& file);
// The same, and the SHA-256 of every byte of `in` (the partial results of a sharded check
// name their certificate by it).
Certificate parse_certificate(std::istream& in, const std::string& file, Digest& digest);

}  // namespace krcheck
