// The generate pipeline (generate_job.hpp).
#include "kernelrank/app/generate_job.hpp"

#include "kernelrank/core/atomic_write.hpp"
#include "kernelrank/core/code.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/resource_limits.hpp"

#include <nlohmann/json.hpp>

namespace kernelrank {
namespace {

GenerateOptions generate_options(const GenerateRequest& request, std::string& source) {
  if (request.format != "family" && request.format != "csv" && request.format != "jsonl" &&
      request.format != "all")
    throw DomainError("{format} must be family, csv, jsonl or all");
  if (!request.code.empty() && !request.golay.empty())
    throw DomainError("{code} and {golay} exclude each other");
  if (request.weight && (!request.code.empty() || !request.golay.empty()))
    throw DomainError("{weight} applies to random tokens, not to {code} or {golay}");
  GenerateOptions options;
  options.m = request.m;
  options.n = request.n;
  options.mode = request.mode;
  options.seed = request.seed;
  options.train = request.train;
  options.test = request.test;
  options.weight = request.weight;
  source = request.weight ? "uniformly random tokens of weight " + std::to_string(*request.weight) +
                                " and width " + std::to_string(request.m)
                          : "uniformly random tokens";
  if (!request.code.empty()) {
    const Code code = read_code(request.code);
    options.tokens = code.words;
    options.m = code.m;
    source = "the words of " + request.code;
  } else if (!request.golay.empty()) {
    if (request.golay != "octads" && request.golay != "dodecads")
      throw DomainError("{golay} must be octads or dodecads");
    options.tokens = (request.golay == "octads" ? golay_octads() : golay_dodecads()).words;
    options.m = 24;
    source = "the Golay " + request.golay;
  }
  // Checked one by one: their sum can wrap around in generate_instances.
  for (const std::size_t count : {request.train, request.test})
    if (count > kMaxGenerated)
      throw DomainResourceError("{train} and {test} take at most " + std::to_string(kMaxGenerated) +
                                " instances each, not " + std::to_string(count));
  if (options.n >= 1 && options.m >= 1) {
    const std::size_t larger = request.train > request.test ? request.train : request.test;
    require_family_file_size(larger, options.n, options.m, "generate");
    // Every instance is kept twice while drawing (the list and the set of seen ones).
    require_instance_memory(request.train + request.test, options.n, options.m, 2, "generate");
  }
  return options;
}

// One split's files, in the order family, csv, jsonl.
void write_split(const GenerateRequest& request, const std::string& split, const Family& family,
                 std::vector<std::string>& written) {
  const bool all = request.format == "all";
  const std::string stem = request.prefix + "-" + split;
  if (all || request.format == "family") {
    write_file_atomically(stem + ".family", family_to_text(family));
    written.push_back(stem + ".family");
  }
  if (all || request.format == "csv") {
    write_file_atomically(stem + ".csv", family_to_csv(family));
    written.push_back(stem + ".csv");
  }
  if (all || request.format == "jsonl") {
    write_file_atomically(stem + ".jsonl", family_to_jsonl(family));
    written.push_back(stem + ".jsonl");
  }
}

}  // namespace

GenerateOutcome run_generate(const GenerateRequest& request) {
  GenerateOutcome out;
  const GenerateOptions options = generate_options(request, out.source);
  out.sets = generate_instances(options);
  out.m = options.m;
  out.n = options.n;
  out.seed = request.seed;
  if (!request.prefix.empty()) {
    write_split(request, "train", out.sets.train, out.files);
    write_split(request, "test", out.sets.test, out.files);
  }
  return out;
}

nlohmann::json generate_json(const GenerateOutcome& outcome) {
  return {{"train", outcome.sets.train.instances.size()},
          {"test", outcome.sets.test.instances.size()},
          {"files", outcome.files},
          {"m", outcome.m},
          {"n", outcome.n},
          {"seed", outcome.seed},
          {"source", outcome.source}};
}

}  // namespace kernelrank
