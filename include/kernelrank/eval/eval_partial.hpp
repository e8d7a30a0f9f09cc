// Exact, mergeable results of evaluating part of a task (threads, shards, MPI).
//
// Every evaluation path splits its instances into numbered blocks and reduces the blocks'
// results with one exact, order-free operation, merge_summary:
//
//   * instances, failing and undefined counts are added (integers);
//   * the worst instance is the one with the larger exact error, and on equal errors the
//     one with the smaller enumeration index;
//   * the failing instances kept are the max_failures smallest enumeration indices of the
//     union (sorted by index);
//   * solved instances with a negative denominator (signed kernels) are counted, and the
//     one with the smallest enumeration index is kept as the example.
//
// The operation is associative and commutative, so the report never depends on how many
// threads, shards or MPI ranks ran, nor in which order they finished. An MPI reduction can
// serialise an EvalSummary with eval_summary_to_json and combine with merge_summary.
//
// A shard's partial result (EvalPartial) adds the identity of the model and the task, so
// that merge_eval_partials can refuse partials of different runs, a missing shard or a
// duplicate. The file format is in docs/file-formats.md ("Evaluation partials").
#pragma once

#include "kernelrank/core/parallel.hpp"
#include "kernelrank/eval/evaluate.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// An evaluated instance with its position in the task's enumeration order (the order in
// which the unsharded, single-threaded run lists failures; see docs/cli.md, eval).
struct IndexedOutcome {
  std::uint64_t index = 0;
  InstanceOutcome outcome;
};

struct EvalSummary {
  std::string method;
  std::size_t max_failures = 10;
  Integer instances = 0;
  Integer failing = 0;
  Integer undefined = 0;
  std::optional<Rational> max_error;     // over instances with a defined output
  std::optional<IndexedOutcome> worst;   // attains max_error, smallest index among those
  std::vector<IndexedOutcome> failures;  // increasing index, at most max_failures
  // Solved instances whose denominator is negative (signed kernels), and the one of them
  // with the smallest index.
  Integer negative_solved = 0;
  std::optional<IndexedOutcome> negative_example;
};

// into := into (+) from (see above). Both must have the same method and max_failures
// (InternalError otherwise).
void merge_summary(EvalSummary& into, const EvalSummary& from);

EvalReport summary_to_report(const EvalSummary& summary);

// Who and what a partial belongs to. Every field must agree between the partials of one
// run; the text fields are what the report prints.
struct EvalIdentity {
  std::string model_sha256;   // SHA-256 of the model file's bytes, or of the built-in spec
  std::string model_source;   // "file PATH" or "builtin NAME ..." (for messages)
  std::string source;         // "cube", "profiles", "tokens" or "family"
  std::string source_sha256;  // SHA-256 of the token or family file ("" for the cube)
  int m = 0;
  int n = 0;
  std::string mode;             // first, last, all
  std::uint64_t blocks = 0;     // blocks of the whole task
  std::string total_instances;  // instances of the whole task (decimal)
  // Printed by the report:
  std::string task;
  std::string model_description;
  std::string model_class;
  std::string class_detail;
};

struct EvalPartial {
  EvalIdentity identity;
  Shard shard;
  std::uint64_t blocks_evaluated = 0;
  EvalSummary summary;
};

// JSON forms (rationals and big counts as strings, indices as decimal strings).
nlohmann::json eval_summary_to_json(const EvalSummary& summary);
// `where` names the file in error messages; throws InputError on malformed content.
// `version` is the partial format's: version 1 summaries have no negative-denominator fields.
EvalSummary eval_summary_from_json(const nlohmann::json& json, const std::string& where,
                                   int version = 2);

std::string eval_partial_to_text(const EvalPartial& partial);  // one JSON document + "\n"
EvalPartial parse_eval_partial(const std::string& path, const std::string& contents);
EvalPartial read_eval_partial(const std::string& path);

// Checks that the partials have one identity, one K and every k in 1..K exactly once,
// then merges them into the whole task's result (shard 1/1). UsageError naming the
// offending files otherwise. `names` (optional, parallel to `partials`) are file names
// for the messages.
EvalPartial merge_eval_partials(const std::vector<EvalPartial>& partials,
                                const std::vector<std::string>& names = {});

}  // namespace kernelrank
