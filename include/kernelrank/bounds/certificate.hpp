// Writing certificates (docs/certificate-format.md). The producer only writes;
// kernelrank-check, which shares no code with it, re-derives everything.
#pragma once

#include "kernelrank/bounds/family_bound.hpp"
#include "kernelrank/bounds/rank_bound.hpp"
#include "kernelrank/core/instance.hpp"

#include <string>
#include <vector>

namespace kernelrank {

struct CertificateTask {
  int m = 0;
  int n = 3;
  QueryMode mode = QueryMode::First;
  bool positive_features = false;  // class=PF instead of class=NK
  bool position_dependent = false;
};

// `text` on one line, with the characters that would end a statement blanked.
std::string single_line(const std::string& text);
// The `task` statement (without newline); kind is "cube" or "family".
std::string task_line(const CertificateTask& task, const std::string& kind);

// A cube certificate for rows whose factors are R_n(G_ij). The text is a pure
// function of its inputs (byte-identical for the same rows and bound).
std::string cube_certificate(const CertificateTask& task, const std::string& construction,
                             const std::vector<BoundRow>& rows, const RankBoundResult& bound);

// A family certificate: the family is named by the SHA-256 of its file's bytes
// (lowercase hex); steps, rows and chains come from certify_family. The query
// mode is `first` or `last` when every step uses that position, else `all`.
std::string family_certificate(const CertificateTask& task, const std::string& family_sha256,
                               const std::string& construction, const FamilyBound& bound);

}  // namespace kernelrank
