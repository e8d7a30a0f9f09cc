// The one way out for certificates: before a certificate is written or called
// certified, the checker's own library (src/check, which shares no code with the
// producer) reads the text in memory and must verify it.
#pragma once

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
  std::string diagnostics;  // the checker's error lines, when not verified
};

// `threads`: the checker's pair passes on this many threads (0 = all); the verdict is the
// same for any number.
CheckerVerdict run_checker(const std::string& text, const std::optional<FamilyInput>& family,
                           int threads = 0);

// Throws InternalError (exit 4) when the checker refuses a certificate the producer made.
void require_checker_verified(const std::string& text, const std::optional<FamilyInput>& family,
                              int threads = 0);

// The checker's library on shard k of K of a generated-rows certificate: the partial
// result's text (InternalError when the checker refuses the shard outright).
std::string checker_shard(const std::string& text, std::uint64_t index, std::uint64_t count,
                          int threads);

// The checker's merge of all K partials; InternalError unless it verifies the certificate.
void require_checker_merge_verified(const std::string& text,
                                    const std::vector<std::string>& partials);

// Lowercase hex SHA-256, as family certificates name their family file.
std::string family_digest_hex(const std::string& bytes);

// A certificate text the checker's library has verified. Only verify_certificate makes a
// non-empty one, so a holder need not (and write_verified_certificate does not) check it again.
class VerifiedCertificate {
 public:
  VerifiedCertificate() = default;  // empty: no certificate; writing it is an InternalError
  const std::string& text() const { return text_; }
  const std::optional<FamilyInput>& family() const { return family_; }
  bool empty() const { return text_.empty(); }

 private:
  friend VerifiedCertificate verify_certificate(std::string text, std::optional<FamilyInput> family,
                                                int threads);
  VerifiedCertificate(std::string text, std::optional<FamilyInput> family)
      : text_(std::move(text)), family_(std::move(family)) {}
  std::string text_;
  std::optional<FamilyInput> family_;
};

// Runs the checker once; InternalError (exit 4) when it refuses the certificate.
VerifiedCertificate verify_certificate(std::string text,
                                       std::optional<FamilyInput> family = std::nullopt,
                                       int threads = 0);

// Writes a verified certificate atomically, without checking it again; returns the sentence
// to show the user.
std::string write_verified_certificate(const std::string& path,
                                       const VerifiedCertificate& certificate);

// Checks, then writes `path` atomically; returns the sentence to show the user.
std::string write_verified_certificate(const std::string& path, const std::string& text,
                                       const std::optional<FamilyInput>& family = std::nullopt);

// How many times this process has run the checker on a whole certificate (run_checker and
// everything built on it), so that tests can see that a certificate is checked once.
std::uint64_t checker_runs();

}  // namespace kernelrank
