// Min-IP instances, their targets, query modes and family files.
//
// An instance is a sequence x_1..x_n plus the queried position i; its target is
// t_i = min_j <x_i, x_j> over all n positions (j = i included). Enumeration of
// the cube task T(m,n) and of all sequences over a token set is streaming: the
// visitor sees token indices into a universe, never a materialised list.
#pragma once

#include "kernelrank/core/rational.hpp"
#include "kernelrank/core/token.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kernelrank {

enum class QueryMode { First, Last, All };

QueryMode parse_query_mode(std::string_view text);  // "first" | "last" | "all"
std::string to_string(QueryMode mode);
// The 0-based query positions that a length-n sequence contributes in a mode.
std::vector<int> query_positions(QueryMode mode, int n);

struct Instance {
  std::vector<Token> tokens;  // x_1..x_n
  int query = 0;              // 0-based queried position

  int length() const { return static_cast<int>(tokens.size()); }
  int width() const { return tokens.empty() ? 0 : tokens.front().width(); }
  friend bool operator==(const Instance&, const Instance&) = default;
};

// min_j <x_query, x_j>.
int min_ip_target(const Instance& instance);
// "q=1 0101 0011 1100" style: 1-based query position then the tokens.
std::string to_string(const Instance& instance);

// Number of instances of T(m,n) or of all length-n sequences over `universe`
// tokens in the given mode; throws ResourceError if it exceeds `limit`.
std::uint64_t count_instances(std::uint64_t universe, int n, QueryMode mode, std::uint64_t limit);

// Calls visit(indices, query) for every length-n sequence over {0..universe-1}
// (odometer order, position 1 slowest) and every query position of the mode.
// Stops early when visit returns false.
void for_each_sequence(std::uint64_t universe, int n, QueryMode mode,
                       const std::function<bool(const std::vector<std::uint32_t>&, int)>& visit);

// An explicit finite set of instances with common width m and length n.
struct Family {
  int m = 0;
  int n = 0;
  std::vector<Instance> instances;
};

// Family text format (docs/file-formats.md):
//   kernelrank-family 1 m=<m> n=<n>
//   <query position 1..n> <token 1> ... <token n>     (one instance per line)
// '#' starts a comment. Errors name the file and line.
Family read_family(const std::string& path);
Family parse_family(const std::string& name, const std::string& contents);
std::string family_to_text(const Family& family);

}  // namespace kernelrank
