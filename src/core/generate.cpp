// Seeded generation of disjoint train/test instance pools.
#include "kernelrank/core/generate.hpp"

#include "kernelrank/core/binomial.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/portable_random.hpp"

#include <nlohmann/json.hpp>

#include <numeric>
#include <set>
#include <unordered_set>

namespace kernelrank {
namespace {

void check_options(const GenerateOptions& options) {
  if (options.m < 1 || options.m > kMaxTokenWidth)
    throw DomainError("{m} must be in 1.." + std::to_string(kMaxTokenWidth));
  if (options.n < 1 || options.n > 1000) throw DomainError("{n} must be in 1..1000");
  if (options.weight) {
    if (!options.tokens.empty())
      throw UsageError("a token weight applies to random tokens, not to the words of a code");
    if (*options.weight < 0 || *options.weight > options.m)
      throw DomainError("{weight} must be in 0..m = 0.." + std::to_string(options.m) + ", not " +
                        std::to_string(*options.weight));
  }
  for (const Token& t : options.tokens)
    if (t.width() != options.m)
      throw UsageError("code words must have width m = " + std::to_string(options.m));
}

std::string token_source(const GenerateOptions& options) {
  if (!options.tokens.empty()) return "the words of the code";
  if (options.weight)
    return "the weight-" + std::to_string(*options.weight) + " words of width " +
           std::to_string(options.m);
  return "the words of width " + std::to_string(options.m);
}

// A uniformly random W-subset of the m coordinates (partial Fisher-Yates).
Token weighted_token(PortableUniform& rng, int m, int weight, std::vector<int>& positions) {
  std::iota(positions.begin(), positions.end(), 0);
  Token t(m);
  for (int i = 0; i < weight; ++i) {
    const auto j = i + static_cast<int>(rng.below(static_cast<std::uint64_t>(m - i)));
    std::swap(positions[static_cast<std::size_t>(i)], positions[static_cast<std::size_t>(j)]);
    t.set(positions[static_cast<std::size_t>(i)], true);
  }
  return t;
}

}  // namespace

Integer distinct_instance_count(const GenerateOptions& options) {
  check_options(options);
  Integer tokens;
  if (!options.tokens.empty()) {
    const std::unordered_set<Token, TokenHash> distinct(options.tokens.begin(),
                                                        options.tokens.end());
    tokens = static_cast<unsigned long>(distinct.size());
  } else if (options.weight) {
    tokens = binomial(Integer(options.m), static_cast<std::uint64_t>(*options.weight));
  } else {
    mpz_ui_pow_ui(tokens.backend().data(), 2, static_cast<unsigned long>(options.m));
  }
  Integer count;
  mpz_pow_ui(count.backend().data(), tokens.backend().data(),
             static_cast<unsigned long>(options.n));
  if (options.mode == QueryMode::All) count *= options.n;
  return count;
}

GeneratedSets generate_instances(const GenerateOptions& options) {
  check_options(options);
  const std::size_t wanted = options.train + options.test;
  if (wanted == 0) throw DomainError("ask for at least one instance ({train}/{test})");
  if (wanted > 10'000'000) throw ResourceError("more than 10,000,000 instances requested");
  if (const Integer exist = distinct_instance_count(options); exist < wanted)
    throw DomainError("{train} + {test} = " + std::to_string(wanted) + " instances, but only " +
                      to_string(exist) + " distinct instances of length " +
                      std::to_string(options.n) + " over " + token_source(options) +
                      " exist; ask for fewer");
  PortableUniform rng(options.seed);
  std::vector<int> positions(static_cast<std::size_t>(options.m));
  auto draw_token = [&]() {
    if (!options.tokens.empty()) return options.tokens[rng.below(options.tokens.size())];
    if (options.weight) return weighted_token(rng, options.m, *options.weight, positions);
    Token t(options.m);
    for (int i = 0; i < options.m; ++i) t.set(i, (rng.raw() >> 63) != 0);
    return t;
  };
  std::set<std::pair<int, std::vector<Token>>> seen;
  std::vector<Instance> drawn;
  const std::size_t max_attempts = wanted * 50 + 10'000;
  for (std::size_t attempt = 0; attempt < max_attempts && drawn.size() < wanted; ++attempt) {
    Instance instance;
    for (int i = 0; i < options.n; ++i) instance.tokens.push_back(draw_token());
    switch (options.mode) {
      case QueryMode::First:
        instance.query = 0;
        break;
      case QueryMode::Last:
        instance.query = options.n - 1;
        break;
      case QueryMode::All:
        instance.query = static_cast<int>(rng.below(static_cast<std::uint64_t>(options.n)));
        break;
    }
    if (seen.insert({instance.query, instance.tokens}).second) drawn.push_back(std::move(instance));
  }
  if (drawn.size() < wanted)
    throw ResourceError("found only " + std::to_string(drawn.size()) + " distinct instances in " +
                        std::to_string(max_attempts) + " draws; ask for fewer or use more tokens");
  GeneratedSets sets;
  sets.train = Family{options.m, options.n, {}};
  sets.test = Family{options.m, options.n, {}};
  for (std::size_t i = 0; i < drawn.size(); ++i)
    (i < options.train ? sets.train : sets.test).instances.push_back(std::move(drawn[i]));
  return sets;
}

std::string family_to_csv(const Family& family) {
  std::string text = "query";
  for (int i = 1; i <= family.n; ++i) text += ",x" + std::to_string(i);
  text += ",target\n";
  for (const Instance& instance : family.instances) {
    text += std::to_string(instance.query + 1);
    for (const Token& x : instance.tokens) text += "," + x.to_string();
    text += "," + std::to_string(min_ip_target(instance)) + "\n";
  }
  return text;
}

std::string family_to_jsonl(const Family& family) {
  std::string text;
  for (const Instance& instance : family.instances) {
    nlohmann::json tokens = nlohmann::json::array();
    for (const Token& x : instance.tokens) tokens.push_back(x.to_string());
    text +=
        nlohmann::json{
            {"query", instance.query + 1}, {"tokens", tokens}, {"target", min_ip_target(instance)}}
            .dump();
    text += "\n";
  }
  return text;
}

}  // namespace kernelrank
