// The one way out for certificates. A producer hands the gate a draft: the certificate
// text, its family file (if any) and the bound it claims, the r >= N it is about to show.
// The checker's own library (src/check, which shares no code with the producer) reads the
// text in memory. The gate accepts the draft only when the checker verifies it and the
// checker's bound, the claim the certificate states and the producer's claim are one
// number; only then does the draft become a VerifiedCertificate, which carries the
// checker's bound, and only a VerifiedCertificate is ever written to a file.
#pragma once

#include "kernelrank/core/rational.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kernelrank {

// The family file of a family certificate, as the producer read or is about to write it.
struct FamilyInput {
  std::string path;
  std::string bytes;
};

struct CheckerVerdict {
  bool verified = false;
  std::string bound;        // what the checker's rule gives (r >= bound), when computed
  std::string claim;        // the claim the certificate states, when it was parsed
  std::string upper;        // a layered head's r <= upper, when verified
  std::string diagnostics;  // the checker's error lines, when not verified
  std::string status;       // the checker's status line as it prints it: "s VERIFIED", ...
};

// The checker's library on a certificate text, nothing more: no claim is compared and
// nothing is written. `threads`: its pair passes on this many threads (0 = all); the verdict
// is the same for any number.
CheckerVerdict run_checker(const std::string& text, const std::optional<FamilyInput>& family,
                           int threads = 0);

// The checker's library on shard k of K of a generated-rows certificate: the partial
// result's text (InternalError when the checker refuses the shard outright). The partials
// of all K shards go to verify_merged_certificate.
std::string checker_shard(const std::string& text, std::uint64_t index, std::uint64_t count,
                          int threads);

// Lowercase hex SHA-256, as family certificates name their family file.
std::string family_digest_hex(const std::string& bytes);

// What a producer hands the gate.
struct CertificateDraft {
  std::string text;
  std::optional<FamilyInput> family;
  Integer claim = 0;  // the bound r >= claim that the producer reports
};

struct GateOutcome;

// A certificate text the gate has accepted. Only the gate makes a non-empty one, so a
// holder need not (and write_verified_certificate does not) check it again.
class VerifiedCertificate {
 public:
  VerifiedCertificate() = default;  // empty: no certificate; writing it is an InternalError
  const std::string& text() const { return text_; }
  const std::optional<FamilyInput>& family() const { return family_; }
  // The checker's bound r >= bound(); the gate made sure the producer claimed the same.
  const Integer& bound() const { return bound_; }
  // The status line the checker printed on this text ("s VERIFIED"), for a command that
  // shows the bound as certified to show next to it.
  const std::string& checker_status() const { return status_; }
  bool empty() const { return text_.empty(); }

 private:
  friend GateOutcome try_verify_certificate(CertificateDraft draft, int threads);
  friend VerifiedCertificate verify_merged_certificate(CertificateDraft draft,
                                                       const std::vector<std::string>& partials);
  VerifiedCertificate(std::string text, std::optional<FamilyInput> family, Integer bound,
                      std::string status)
      : text_(std::move(text)),
        family_(std::move(family)),
        bound_(std::move(bound)),
        status_(std::move(status)) {}
  std::string text_;
  std::optional<FamilyInput> family_;
  Integer bound_ = 0;
  std::string status_;
};

// The gate's answer to a draft: the certificate, or why it was refused (the checker's
// error lines, or the claim next to the checker's bound).
struct GateOutcome {
  std::optional<VerifiedCertificate> certificate;
  std::string refusal;
};

// Runs the checker once on the draft; never throws for a refusal (a caller with another
// candidate may fall back to it).
GateOutcome try_verify_certificate(CertificateDraft draft, int threads = 0);

// The same, but a refusal is an InternalError (exit 4): the producer made a wrong certificate.
VerifiedCertificate verify_certificate(CertificateDraft draft, int threads = 0);

// A generated-rows draft checked in shards: the checker's merge of the partials of all K
// shards (checker_shard) must verify it, and its bound must equal the claim; InternalError
// otherwise.
VerifiedCertificate verify_merged_certificate(CertificateDraft draft,
                                              const std::vector<std::string>& partials);

// Writes a verified certificate atomically, without checking it again; returns the sentence
// to show the user. The only writer of certificate files in the producer.
std::string write_verified_certificate(const std::string& path,
                                       const VerifiedCertificate& certificate);

// A layered head (models/layered_head.hpp) the checker's library verified in memory: it
// solves T(m,3) and has r <= upper() features. Only verify_layered_head makes a non-empty one.
class VerifiedHead {
 public:
  VerifiedHead() = default;
  const std::string& text() const { return text_; }
  const Integer& upper() const { return upper_; }
  bool empty() const { return text_.empty(); }

 private:
  friend VerifiedHead verify_layered_head(std::string text, const Integer& claimed_r);
  VerifiedHead(std::string text, Integer upper)
      : text_(std::move(text)), upper_(std::move(upper)) {}
  std::string text_;
  Integer upper_ = 0;
};

// The checker's library on a layered head's text; InternalError unless it verifies it with
// r <= claimed_r exactly (the producer made a wrong head).
VerifiedHead verify_layered_head(std::string text, const Integer& claimed_r);

// Writes a verified head atomically; returns the sentence to show the user.
std::string write_verified_head(const std::string& path, const VerifiedHead& head);

// How many times this process has run the checker on a whole certificate (run_checker and
// everything built on it), so that tests can see that a certificate is checked once.
std::uint64_t checker_runs();

}  // namespace kernelrank
