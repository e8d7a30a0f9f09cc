// The family file: `kernelrank-family 1 m=<m> n=<n>`, then one instance per line
// (1-based query position, then n tokens). The checker keeps only a set of lookup keys.
//
// A key identifies an instance the way the model class sees it. With position-independent
// maps the model sees the query token and the multiset of the other n-1 tokens, so the key
// is (query position, query token, the other tokens sorted). With position-dependent maps
// the order matters and the key is (query position, all tokens in order). The same
// instance_key() builds the keys of the family and of every instance a step asks for, so
// the two cannot disagree about the encoding.
#pragma once

#include <istream>
#include <string>
#include <unordered_set>
#include <vector>

#include "check/sha256.hpp"
#include "check/tokens.hpp"

namespace krcheck {

struct Family {
  std::string file;
  int m = 0;
  int n = 0;
  long header_line = 0;
  std::size_t instance_count = 0;  // lines, including repeated instances
  Digest digest{};                 // SHA-256 of the file's bytes
  std::unordered_set<std::string> keys;
  // With record_used_pairs only: used_pair_key(query, key) for every instance's token at its
  // query position and each of its n tokens (the query token too). The order rule needs
  // alpha >= 0 on a block, and class NK promises that only where the kernel is used.
  std::unordered_set<std::string> used_pairs;
};

// `position` is 1-based; `sequence` holds the n tokens in order.
std::string instance_key(int position, const std::vector<Token>& sequence,
                         bool dependent_positions);

std::string used_pair_key(const Token& query, const Token& key);

Family read_family(std::istream& in, const std::string& file, bool dependent_positions,
                   bool record_used_pairs = false);

}  // namespace krcheck
