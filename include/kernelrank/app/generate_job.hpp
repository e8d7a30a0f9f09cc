// The pipeline behind `kernelrank generate` and kernelrank.generate_family: seeded, disjoint
// train and test pools with Min-IP targets over uniformly random tokens (optionally of one
// weight), a code file's words or the Golay octads or dodecads, and their files (family, CSV,
// JSON lines), written atomically. Messages name parameters as {m}, {n}, {weight}, {code},
// {golay}, {train}, {test}, {format} (core/errors.hpp).
#pragma once

#include "kernelrank/core/generate.hpp"
#include "kernelrank/core/instance.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// The most instances train and test take, each.
inline constexpr std::size_t kMaxGenerated = 10'000'000;

struct GenerateRequest {
  int m = 24;  // random tokens' width (a code file or Golay sets its own)
  int n = 3;
  QueryMode mode = QueryMode::First;  // all: a random query position per instance
  std::string code;                   // a code file whose words are the tokens; or
  std::string golay;                  // "octads" or "dodecads"; or neither: random tokens
  std::optional<int> weight;          // random tokens of this weight only (0..m)
  std::uint64_t seed = 1;
  std::size_t train = 1000;
  std::size_t test = 1000;
  std::string prefix;          // PREFIX-train.family, ... ("": no files)
  std::string format = "all";  // family, csv, jsonl or all
};

struct GenerateOutcome {
  GeneratedSets sets;
  int m = 0;
  int n = 0;
  std::uint64_t seed = 0;
  std::string source;              // "uniformly random tokens", "the Golay octads", ...
  std::vector<std::string> files;  // written, train's before test's
};

// The request checked (formats, sources, the limits), the pools drawn, then the files.
GenerateOutcome run_generate(const GenerateRequest& request);

// {"train": count, "test": count, "files": [...], "m", "n", "seed", "source"}.
nlohmann::json generate_json(const GenerateOutcome& outcome);

}  // namespace kernelrank
