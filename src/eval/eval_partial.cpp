// Mergeable evaluation results and shard partial files (see eval_partial.hpp).
#include "kernelrank/eval/eval_partial.hpp"

#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/text_input.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace kernelrank {
namespace {

constexpr const char* kFormat = "kernelrank-eval-partial";
// Version 2 adds the negative-denominator count and example to the summary; version 1
// partials are still read (see parse_eval_partial).
constexpr int kVersion = 2;

using Json = nlohmann::json;

[[noreturn]] void malformed(const std::string& where, const std::string& message) {
  throw InputError(where, 0, message);
}

const Json& field(const Json& object, const char* key, const std::string& where,
                  const std::string& context) {
  if (!object.is_object() || !object.contains(key))
    malformed(where, context + " has no field '" + key + "'");
  return object.at(key);
}

std::string string_field(const Json& object, const char* key, const std::string& where,
                         const std::string& context) {
  const Json& value = field(object, key, where, context);
  if (!value.is_string()) malformed(where, context + ": '" + key + "' must be a string");
  return value.get<std::string>();
}

std::int64_t int_field(const Json& object, const char* key, std::int64_t lo, std::int64_t hi,
                       const std::string& where, const std::string& context) {
  const Json& value = field(object, key, where, context);
  if (!value.is_number_integer()) malformed(where, context + ": '" + key + "' must be an integer");
  const auto v = value.get<std::int64_t>();
  if (v < lo || v > hi)
    malformed(where, context + ": '" + key + "' must be in " + std::to_string(lo) + ".." +
                         std::to_string(hi));
  return v;
}

bool canonical_decimal(const std::string& text) {
  if (text.empty() || text.size() > 100000) return false;
  if (!std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  return text == "0" || text[0] != '0';
}

Integer count_field(const Json& object, const char* key, const std::string& where,
                    const std::string& context) {
  const std::string text = string_field(object, key, where, context);
  if (!canonical_decimal(text))
    malformed(where, context + ": '" + key +
                         "' must be a nonnegative decimal integer in a string, not '" + text + "'");
  return Integer(text);
}

std::uint64_t index_field(const Json& object, const std::string& where,
                          const std::string& context) {
  const Integer value = count_field(object, "index", where, context);
  if (value > Integer(std::numeric_limits<std::uint64_t>::max()))
    malformed(where, context + ": 'index' exceeds 2^64 - 1");
  return value.convert_to<std::uint64_t>();
}

Rational rational_text(const std::string& text, const std::string& where,
                       const std::string& context) {
  Rational value;
  try {
    value = parse_rational(text);
  } catch (const RationalParseError& e) {
    malformed(where, context + ": '" + text + "' is not a rational: " + e.what());
  }
  if (to_string(value) != text)
    malformed(where, context + ": '" + text + "' is not in lowest terms p/q");
  return value;
}

Json outcome_json(const IndexedOutcome& item, bool with_denominator = false) {
  Json tokens = Json::array();
  for (const Token& x : item.outcome.instance.tokens) tokens.push_back(x.to_string());
  Json j = {{"index", std::to_string(item.index)},
            {"query", item.outcome.instance.query + 1},
            {"tokens", tokens},
            {"target", item.outcome.target}};
  j["output"] = item.outcome.output ? Json(to_string(*item.outcome.output)) : Json(nullptr);
  j["error"] = item.outcome.error ? Json(to_string(*item.outcome.error)) : Json(nullptr);
  if (with_denominator)
    j["denominator"] =
        item.outcome.denominator ? Json(to_string(*item.outcome.denominator)) : Json(nullptr);
  return j;
}

// Reads an instance outcome and checks that it is self-consistent (target, error).
IndexedOutcome outcome_from_json(const Json& j, const std::string& where,
                                 const std::string& context) {
  if (!j.is_object()) malformed(where, context + " must be an object");
  IndexedOutcome item;
  item.index = index_field(j, where, context);
  const Json& tokens = field(j, "tokens", where, context);
  if (!tokens.is_array() || tokens.empty())
    malformed(where, context + ": 'tokens' must be a nonempty array");
  int width = -1;
  for (const Json& t : tokens) {
    if (!t.is_string()) malformed(where, context + ": every token must be a 0/1 string");
    try {
      item.outcome.instance.tokens.push_back(parse_token(t.get<std::string>(), width));
    } catch (const TokenParseError& e) {
      malformed(where, context + ": bad token '" + t.get<std::string>() + "': " + e.what());
    }
    width = item.outcome.instance.tokens.back().width();
  }
  item.outcome.instance.query =
      static_cast<int>(
          int_field(j, "query", 1, static_cast<std::int64_t>(tokens.size()), where, context)) -
      1;
  item.outcome.target = static_cast<int>(int_field(j, "target", 0, kMaxTokenWidth, where, context));
  if (item.outcome.target != min_ip_target(item.outcome.instance))
    malformed(where, context + ": target " + std::to_string(item.outcome.target) +
                         " is not the instance's Min-IP target");
  const Json& output = field(j, "output", where, context);
  const Json& error = field(j, "error", where, context);
  if (output.is_null() != error.is_null())
    malformed(where, context + ": 'output' and 'error' must both be null or both set");
  if (!output.is_null()) {
    if (!output.is_string() || !error.is_string())
      malformed(where, context + ": 'output' and 'error' must be strings");
    item.outcome.output = rational_text(output.get<std::string>(), where, context);
    item.outcome.error = rational_text(error.get<std::string>(), where, context);
    if (*item.outcome.error != abs_of(*item.outcome.output - item.outcome.target))
      malformed(where, context + ": 'error' is not |output - target|");
  }
  return item;
}

// The negative-denominator example: a solved instance whose "denominator" is negative.
IndexedOutcome negative_example_from_json(const Json& j, const std::string& where) {
  const std::string context = "negative_example";
  IndexedOutcome item = outcome_from_json(j, where, context);
  const Json& denominator = field(j, "denominator", where, context);
  if (!denominator.is_string()) malformed(where, context + ": 'denominator' must be a string");
  item.outcome.denominator = rational_text(denominator.get<std::string>(), where, context);
  item.outcome.negative_denominator = true;
  if (*item.outcome.denominator >= 0)
    malformed(where, context + ": 'denominator' must be negative");
  if (item.outcome.fails()) malformed(where, context + ": the instance is not solved");
  return item;
}

Json identity_json(const EvalIdentity& id) {
  return {{"model_sha256", id.model_sha256},
          {"model_source", id.model_source},
          {"source", id.source},
          {"source_sha256", id.source_sha256},
          {"m", id.m},
          {"n", id.n},
          {"mode", id.mode},
          {"blocks", std::to_string(id.blocks)},
          {"total_instances", id.total_instances},
          {"task", id.task},
          {"model_description", id.model_description},
          {"class", id.model_class},
          {"class_detail", id.class_detail}};
}

EvalIdentity identity_from_json(const Json& j, const std::string& where) {
  const std::string context = "identity";
  if (!j.is_object()) malformed(where, "'identity' must be an object");
  EvalIdentity id;
  id.model_sha256 = string_field(j, "model_sha256", where, context);
  id.model_source = string_field(j, "model_source", where, context);
  id.source = string_field(j, "source", where, context);
  if (id.source != "cube" && id.source != "tokens" && id.source != "family" &&
      id.source != "profiles")
    malformed(where, "identity: 'source' must be cube, tokens, family or profiles");
  id.source_sha256 = string_field(j, "source_sha256", where, context);
  id.m = static_cast<int>(int_field(j, "m", 0, kMaxTokenWidth, where, context));
  id.n = static_cast<int>(int_field(j, "n", 0, 1 << 30, where, context));
  id.mode = string_field(j, "mode", where, context);
  const Integer blocks = count_field(j, "blocks", where, context);
  if (blocks > Integer(std::numeric_limits<std::uint64_t>::max()))
    malformed(where, "identity: 'blocks' exceeds 2^64 - 1");
  id.blocks = blocks.convert_to<std::uint64_t>();
  id.total_instances = count_field(j, "total_instances", where, context).str();
  id.task = string_field(j, "task", where, context);
  id.model_description = string_field(j, "model_description", where, context);
  id.model_class = string_field(j, "class", where, context);
  id.class_detail = string_field(j, "class_detail", where, context);
  return id;
}

// The first identity field on which two partials differ ("" when none).
std::string identity_difference(const EvalIdentity& a, const EvalIdentity& b) {
  if (a.model_sha256 != b.model_sha256)
    return "the model (SHA-256 " + a.model_sha256 + " vs " + b.model_sha256 + ")";
  if (a.source != b.source) return "the task (" + a.source + " vs " + b.source + ")";
  if (a.source_sha256 != b.source_sha256)
    return "the " + a.source + " file (SHA-256 " + a.source_sha256 + " vs " + b.source_sha256 + ")";
  if (a.m != b.m) return "m (" + std::to_string(a.m) + " vs " + std::to_string(b.m) + ")";
  if (a.n != b.n) return "n (" + std::to_string(a.n) + " vs " + std::to_string(b.n) + ")";
  if (a.mode != b.mode) return "the query mode (" + a.mode + " vs " + b.mode + ")";
  if (a.blocks != b.blocks)
    return "the number of blocks (" + std::to_string(a.blocks) + " vs " + std::to_string(b.blocks) +
           ")";
  if (a.total_instances != b.total_instances)
    return "the instance count (" + a.total_instances + " vs " + b.total_instances + ")";
  if (a.task != b.task) return "the task text ('" + a.task + "' vs '" + b.task + "')";
  if (a.model_description != b.model_description) return "the model description";
  if (a.model_class != b.model_class || a.class_detail != b.class_detail) return "the model class";
  // model_source (the path as typed) is not compared: the SHA-256 identifies the model.
  return "";
}

}  // namespace

Json eval_summary_to_json(const EvalSummary& summary) {
  Json failures = Json::array();
  for (const IndexedOutcome& f : summary.failures) failures.push_back(outcome_json(f));
  Json j = {{"method", summary.method},
            {"max_failures", summary.max_failures},
            {"instances", summary.instances.str()},
            {"failing", summary.failing.str()},
            {"undefined", summary.undefined.str()},
            {"negative_solved", summary.negative_solved.str()},
            {"failures", failures}};
  j["max_error"] = summary.max_error ? Json(to_string(*summary.max_error)) : Json(nullptr);
  j["worst"] = summary.worst ? outcome_json(*summary.worst) : Json(nullptr);
  j["negative_example"] =
      summary.negative_example ? outcome_json(*summary.negative_example, true) : Json(nullptr);
  return j;
}

namespace {

// Version 2's negative-denominator fields (absent in version 1, where they read as 0).
void read_negative_fields(const Json& j, const std::string& where, int version, EvalSummary& s) {
  if (version < 2) return;
  const std::string context = "summary";
  s.negative_solved = count_field(j, "negative_solved", where, context);
  if (s.negative_solved + s.failing > s.instances)
    malformed(where, "summary: the counts must satisfy negative_solved + failing <= instances");
  const Json& example = field(j, "negative_example", where, context);
  if (example.is_null() != (s.negative_solved == 0))
    malformed(where, "summary: 'negative_example' must be set exactly when negative_solved > 0");
  if (!example.is_null()) s.negative_example = negative_example_from_json(example, where);
}

}  // namespace

EvalSummary eval_summary_from_json(const Json& j, const std::string& where, int version) {
  const std::string context = "summary";
  if (!j.is_object()) malformed(where, "'summary' must be an object");
  EvalSummary s;
  s.method = string_field(j, "method", where, context);
  s.max_failures = static_cast<std::size_t>(
      int_field(j, "max_failures", 0, std::numeric_limits<std::int64_t>::max(), where, context));
  s.instances = count_field(j, "instances", where, context);
  s.failing = count_field(j, "failing", where, context);
  s.undefined = count_field(j, "undefined", where, context);
  if (s.undefined > s.failing || s.failing > s.instances)
    malformed(where, "summary: the counts must satisfy undefined <= failing <= instances");
  const Json& max_error = field(j, "max_error", where, context);
  const Json& worst = field(j, "worst", where, context);
  if (max_error.is_null() != worst.is_null())
    malformed(where, "summary: 'max_error' and 'worst' must both be null or both set");
  if (!worst.is_null()) {
    if (!max_error.is_string()) malformed(where, "summary: 'max_error' must be a string");
    s.max_error = rational_text(max_error.get<std::string>(), where, context);
    s.worst = outcome_from_json(worst, where, "worst");
    if (!s.worst->outcome.error || *s.worst->outcome.error != *s.max_error)
      malformed(where, "summary: the worst instance's error is not 'max_error'");
  }
  const Json& failures = field(j, "failures", where, context);
  if (!failures.is_array()) malformed(where, "summary: 'failures' must be an array");
  if (failures.size() > s.max_failures)
    malformed(where, "summary: more 'failures' than 'max_failures'");
  if (Integer(static_cast<std::uint64_t>(failures.size())) > s.failing)
    malformed(where, "summary: more 'failures' listed than 'failing' counts");
  for (std::size_t i = 0; i < failures.size(); ++i) {
    IndexedOutcome f = outcome_from_json(failures[i], where, "failure " + std::to_string(i + 1));
    if (!f.outcome.fails()) malformed(where, "failure " + std::to_string(i + 1) + " does not fail");
    if (!s.failures.empty() && f.index <= s.failures.back().index)
      malformed(where, "summary: 'failures' must have strictly increasing indices");
    s.failures.push_back(std::move(f));
  }
  read_negative_fields(j, where, version, s);
  return s;
}

std::string eval_partial_to_text(const EvalPartial& partial) {
  const Json j = {{"format", kFormat},
                  {"version", kVersion},
                  {"shard", partial.shard.str()},
                  {"blocks_evaluated", std::to_string(partial.blocks_evaluated)},
                  {"identity", identity_json(partial.identity)},
                  {"summary", eval_summary_to_json(partial.summary)}};
  return j.dump(2) + "\n";
}

EvalPartial parse_eval_partial(const std::string& path, const std::string& contents) {
  Json j;
  try {
    j = Json::parse(contents);
  } catch (const Json::parse_error& e) {
    malformed(path, std::string("not a JSON document: ") + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kFormat)
    malformed(path, std::string("not an evaluation partial (no \"format\": \"") + kFormat + "\")");
  const auto version = static_cast<int>(int_field(j, "version", 0, 1000, path, "partial"));
  if (version != 1 && version != kVersion)
    malformed(path, "unsupported partial version (this build reads versions 1 and " +
                        std::to_string(kVersion) + ")");
  EvalPartial partial;
  try {
    partial.shard = parse_shard(string_field(j, "shard", path, "partial"), "'shard'");
  } catch (const UsageError& e) {
    malformed(path, e.what());
  }
  const Integer blocks = count_field(j, "blocks_evaluated", path, "partial");
  partial.identity = identity_from_json(field(j, "identity", path, "partial"), path);
  if (blocks > Integer(partial.identity.blocks))
    malformed(path, "'blocks_evaluated' exceeds the task's blocks");
  partial.blocks_evaluated = blocks.convert_to<std::uint64_t>();
  partial.summary = eval_summary_from_json(field(j, "summary", path, "partial"), path, version);
  // Version 1 did not count negative denominators, which only a signed model (then called
  // "outside NK") can have: its count is known to be 0 only for PF and NK models.
  if (version == 1 && partial.identity.model_class != "PF" && partial.identity.model_class != "NK")
    malformed(path, "a version 1 partial of a model of class '" + partial.identity.model_class +
                        "' has no count of negative denominators; re-run this shard");
  return partial;
}

EvalPartial read_eval_partial(const std::string& path) {
  return parse_eval_partial(path, read_file_checked(path));
}

EvalPartial merge_eval_partials(const std::vector<EvalPartial>& partials,
                                const std::vector<std::string>& names) {
  auto name = [&](std::size_t i) {
    return i < names.size() ? names[i] : "partial " + std::to_string(i + 1);
  };
  if (partials.empty()) throw UsageError("no partial results to merge");
  const EvalPartial& first = partials.front();
  const std::uint64_t K = first.shard.count;
  std::map<std::uint64_t, std::size_t> seen;  // k -> which partial
  for (std::size_t i = 0; i < partials.size(); ++i) {
    const EvalPartial& p = partials[i];
    const std::string difference = identity_difference(first.identity, p.identity);
    if (!difference.empty())
      throw UsageError(name(i) + " belongs to a different run than " + name(0) +
                       ": they differ in " + difference);
    if (p.summary.method != first.summary.method ||
        p.summary.max_failures != first.summary.max_failures)
      throw DomainError(name(i) + " and " + name(0) + " differ in the method or in {failures}");
    if (p.shard.count != K)
      throw UsageError(name(i) + " is shard " + p.shard.str() + " but " + name(0) + " is shard " +
                       first.shard.str() + ": every partial must use the same K");
    const auto [it, inserted] = seen.emplace(p.shard.index, i);
    if (!inserted)
      throw UsageError("shard " + p.shard.str() + " is given twice (" + name(it->second) + " and " +
                       name(i) + ")");
  }
  for (std::uint64_t k = 1; k <= K; ++k)
    if (!seen.count(k))
      throw UsageError("shard " + std::to_string(k) + "/" + std::to_string(K) + " is missing (" +
                       std::to_string(partials.size()) + " of " + std::to_string(K) +
                       " partials given)");
  EvalPartial merged;
  merged.identity = first.identity;
  merged.shard = Shard{};
  merged.summary.method = first.summary.method;
  merged.summary.max_failures = first.summary.max_failures;
  for (const auto& [k, i] : seen) {
    merge_summary(merged.summary, partials[i].summary);
    merged.blocks_evaluated += partials[i].blocks_evaluated;
  }
  if (merged.blocks_evaluated != merged.identity.blocks)
    throw UsageError("the partials cover " + std::to_string(merged.blocks_evaluated) +
                     " of the task's " + std::to_string(merged.identity.blocks) + " blocks");
  if (merged.summary.instances.str() != merged.identity.total_instances)
    throw UsageError("the partials count " + merged.summary.instances.str() +
                     " instances, but the task has " + merged.identity.total_instances);
  return merged;
}

}  // namespace kernelrank
