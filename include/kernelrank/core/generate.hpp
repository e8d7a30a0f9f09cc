// Instance sets for machine-learning experiments: seeded, disjoint train and
// test pools of length-n sequences over a code, uniformly random tokens or uniformly random
// tokens of one weight, with Min-IP targets, written as families, CSV or JSON lines.
#pragma once

#include "kernelrank/core/instance.hpp"
#include "kernelrank/core/rational.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

struct GenerateOptions {
  int m = 24;
  int n = 3;
  QueryMode mode = QueryMode::First;  // `all`: a uniformly random query position per instance
  std::vector<Token> tokens;          // empty: uniformly random tokens of width m
  // With no `tokens`: draw uniformly from the weight-W words of width m (0 <= W <= m).
  std::optional<int> weight;
  std::uint64_t seed = 1;
  std::size_t train = 1000;
  std::size_t test = 1000;
};

struct GeneratedSets {
  Family train;
  Family test;
};

// Draws distinct instances until train + test are found; the first `train` form the
// training pool, the rest the test pool, so the pools are disjoint. Throws DomainError when
// train + test exceeds the distinct instances that exist (distinct_instance_count).
GeneratedSets generate_instances(const GenerateOptions& options);

// How many distinct instances (query position and token sequence) the options can draw:
// tokens^n, times n in query mode `all`; tokens = 2^m, C(m, W) or the code's distinct words.
Integer distinct_instance_count(const GenerateOptions& options);

// "query,x1,...,xn,target" with a header line; tokens as 0/1 strings.
std::string family_to_csv(const Family& family);
// {"query":1,"tokens":["0101",...],"target":t} per line.
std::string family_to_jsonl(const Family& family);

}  // namespace kernelrank
