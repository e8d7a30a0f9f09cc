// Instance sets for machine-learning experiments: seeded, disjoint train and
// test pools of length-n sequences over a code or uniformly random tokens,
// with Min-IP targets, written as families, CSV or JSON lines.
#pragma once

#include "kernelrank/core/instance.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace kernelrank {

struct GenerateOptions {
  int m = 24;
  int n = 3;
  QueryMode mode = QueryMode::First;  // `all`: a uniformly random query position per instance
  std::vector<Token> tokens;          // empty: uniformly random tokens of width m
  std::uint64_t seed = 1;
  std::size_t train = 1000;
  std::size_t test = 1000;
};

struct GeneratedSets {
  Family train;
  Family test;
};

// Draws distinct instances until train + test are found (throws ResourceError
// when the task has too few distinct instances); the first `train` form the
// training pool, the rest the test pool, so the pools are disjoint.
GeneratedSets generate_instances(const GenerateOptions& options);

// "query,x1,...,xn,target" with a header line; tokens as 0/1 strings.
std::string family_to_csv(const Family& family);
// {"query":1,"tokens":["0101",...],"target":t} per line.
std::string family_to_jsonl(const Family& family);

}  // namespace kernelrank
