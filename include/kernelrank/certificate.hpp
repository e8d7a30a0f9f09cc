// Writing certificates (docs/certificate-format.md). The producer only writes;
// kernelrank-check, which shares no code with it, re-derives everything.
#pragma once

#include "kernelrank/instance.hpp"
#include "kernelrank/rank_bound.hpp"

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

// A cube certificate for rows whose factors are R_n(G_ij). The text is a pure
// function of its inputs (byte-identical for the same rows and bound).
std::string cube_certificate(const CertificateTask& task, const std::string& construction,
                             const std::vector<BoundRow>& rows, const RankBoundResult& bound);

}  // namespace kernelrank
