// The generated-rows path of `kernelrank bound` (bounds/generated_bound.hpp): certified bounds
// from C random constant-weight words, on all threads, as one shard of a job array (its exact
// counts in a partial file, then a merge of all of them), or over the ranks of a collective
// (MPI under the CLI). Every way gives the same report and certificate bytes. The partial-file
// format (kernelrank-bound-partial, version 1) is defined here. Messages name parameters as
// {words}, {shard}, {merge} (core/errors.hpp).
#pragma once

#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/generated_bound.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace kernelrank {

// The few collective operations the distributed run needs. The app owns the interface; a
// front end implements it (the CLI over MPI, cli/mpi_runtime.hpp), so that no layer below
// the front ends includes <mpi.h>.
class ShardCollective {
 public:
  virtual ~ShardCollective() = default;
  virtual int rank() const = 0;  // 0-based; rank 0 is the root
  virtual int size() const = 0;
  bool root() const { return rank() == 0; }
  // Element-wise sum of every rank's vector (same length on all ranks), at the root.
  virtual std::vector<std::uint64_t> sum_at_root(
      const std::vector<std::uint64_t>& values) const = 0;
  // The root's string on every rank.
  virtual std::string broadcast(const std::string& text) const = 0;
  // Every rank's string at the root, in rank order (empty elsewhere).
  virtual std::vector<std::string> gather_at_root(const std::string& text) const = 0;
};

struct BoundWordsRequest {
  int m = 24;
  int n = 3;
  std::string model_class = "NK";  // NK or PF
  std::string mode = "first";
  bool position_dependent = false;  // refused: generated rows are position-independent
  std::uint64_t seed = 1;           // SplitMix64's seed
  std::uint64_t words = 0;          // C, 2..kMaxGeneratedRows
  int weight = 0;                   // the words' weight; 0: m/2
  int threads = 0;                  // 0: all
  std::string shard;                // "k/K": count only this shard, into `partial`
  std::string partial;              // the shard's partial file
  std::vector<std::string> merge;   // the partial files of every shard, to merge
  // Run one shard per rank of this collective, made after the request is checked (empty: no
  // collective). The report is the root's; the other ranks' reports are empty.
  std::function<std::unique_ptr<ShardCollective>()> collective;
  std::string cert;            // write the certificate here ("": nowhere)
  std::optional<long long> r;  // say whether r features are ruled out
  bool progress = true;        // the pair pass's progress line on a terminal
};

struct BoundWordsReport {
  enum class Kind { Bound, Partial, NonRoot } kind = Kind::Bound;
  CertificateTask task;
  // Kind::Bound: the conclusion and its certificate (certificate.bound() is the checker's).
  GeneratedBound bound;
  VerifiedCertificate certificate;
  std::optional<long long> r;
  bool r_ruled_out = false;
  std::string certificate_path, certificate_message;
  // Kind::Partial: the shard counted and where its counts went.
  std::string shard, partial_path;
  std::uint64_t unordered_pairs = 0;
};

// DomainError for a request out of range or inconsistent; UsageError for a partial file that
// is not one of this run's.
BoundWordsReport run_bound_words(const BoundWordsRequest& request);

// The one JSON form (null for a non-root rank's empty report).
nlohmann::json bound_words_json(const BoundWordsReport& report);

}  // namespace kernelrank
