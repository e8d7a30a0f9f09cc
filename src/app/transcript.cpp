// The transcript bound of a cube or a family (app/transcript.hpp).
#include "kernelrank/app/transcript.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/instance.hpp"

#include <nlohmann/json.hpp>

#include <chrono>

namespace kernelrank {
namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void check_request(const TranscriptRequest& request) {
  const bool has_family = !request.family.empty();
  if (request.m && has_family)
    throw DomainError("{m} and {family} exclude each other: give one of them");
  if (!request.m && !has_family) throw DomainError("give {m} M (the cube T(M,N)) or {family} FILE");
  if (has_family) {
    if (request.n) throw DomainError("{n} is the cube's length; a {family} file has its own n");
    if (request.method != "auto" || request.cross_check)
      throw DomainError("{method} and {cross-check} apply to the cube ({m}) only");
  }
}

nlohmann::json log2_json(const Log2Interval& bits) {
  return {{"floor", bits.floor}, {"ceil", bits.ceil}};
}

nlohmann::json independent_json(const IndependentAnswers& answers, const Log2Interval& bits) {
  nlohmann::json queries = nlohmann::json::array();
  for (const Token& q : answers.query_tokens) queries.push_back(q.to_string());
  return {{"queries", answers.queries},       {"values", answers.values},
          {"s", answers.values - 1},          {"product", answers.product.str()},
          {"log2", log2_json(bits)},          {"query_tokens", queries},
          {"value_sets", answers.value_sets}, {"verified", answers.verified}};
}

nlohmann::json cube_json(const CubeTranscriptResult& r, double seconds) {
  nlohmann::json independent = independent_json(r.independent, r.independent_bits);
  independent["block_weight"] = r.independent.block_weight;
  // Wide cubes have thousands of block queries; they are described by block_weight.
  if (r.m > 64) {
    independent.erase("query_tokens");
    independent.erase("value_sets");
  }
  return {{"task", "cube"},
          {"m", r.m},
          {"n", r.n},
          {"contexts", r.contexts.str()},
          {"queries", r.queries.str()},
          {"answer_vectors", r.answer_vectors.str()},
          {"exact", true},
          {"method", r.method},
          {"cross_checked", r.cross_checked},
          {"log2", log2_json(r.bits)},
          {"min_bits", r.bits.ceil},
          {"independent", independent},
          {"seconds", seconds}};
}

nlohmann::json family_json(const FamilyTranscriptResult& r, const std::string& path,
                           double seconds) {
  const auto context_json = [&](std::size_t c) {
    nlohmann::json tokens = nlohmann::json::array();
    for (const Token& t : r.context_tokens[c]) tokens.push_back(t.to_string());
    return tokens;
  };
  nlohmann::json clique = nlohmann::json::array();
  for (std::size_t c : r.clique) clique.push_back(context_json(c));
  nlohmann::json independent = independent_json(r.independent, r.independent_bits);
  nlohmann::json witnesses = nlohmann::json::array();
  if (r.independent.queries > 0)
    for (std::size_t c : r.independent.witness_contexts) witnesses.push_back(context_json(c));
  independent["witness_contexts"] = witnesses;
  const bool empty = r.contexts == 0;
  return {{"task", "family"},
          {"family", path},
          {"m", r.m},
          {"n", r.n},
          {"instances", r.instances},
          {"contexts", r.contexts},
          {"queries", r.queries},
          {"pairs", r.pairs},
          {"grid", r.grid},
          {"answer_vectors", r.answer_vectors.str()},
          {"exact", r.exact},
          {"log2", empty ? nlohmann::json(nullptr) : log2_json(r.bits)},
          {"min_bits", empty ? nlohmann::json(nullptr) : nlohmann::json(r.bits.ceil)},
          {"clique", clique},
          {"clique_source", r.grid ? nlohmann::json(nullptr) : nlohmann::json(r.clique_source)},
          {"transcripts_upper", r.transcripts_upper},
          {"independent", independent},
          {"seconds", seconds}};
}

}  // namespace

TranscriptResult run_transcript(const TranscriptRequest& request) {
  check_request(request);
  TranscriptResult result;
  const auto start = std::chrono::steady_clock::now();
  if (request.m) {
    result.cube =
        cube_transcript_bound(*request.m, request.n.value_or(3),
                              parse_cube_count_method(request.method), request.cross_check);
  } else {
    result.family_path = request.family;
    result.family = family_transcript_bound(read_family(request.family));
  }
  result.seconds = seconds_since(start);
  return result;
}

nlohmann::json transcript_json(const TranscriptResult& result) {
  if (result.family) return family_json(*result.family, result.family_path, result.seconds);
  return cube_json(*result.cube, result.seconds);
}

}  // namespace kernelrank
