// Up-front resource checks shared by the subcommands and the Python module.
//
// A run that would take hours or allocate gigabytes is refused before it starts, with
// ResourceError (exit 3) saying what it would need and what to use instead. The figures
// are cost models, not timings: they count the work the algorithm does, so a refusal
// does not depend on the machine or its load.
#pragma once

#include <cstdint>
#include <string>

namespace kernelrank {

// Overlap-profile evaluation of T(m,n) visits C(m+n, n) profiles of n overlaps each;
// "work" is their product. The default allows m = 1000 at n = 3 (5e8, seconds to a
// minute) and refuses m = 4096 at n = 3 (3.4e10, hours). The profile scan recurses once
// per token, so n is capped at the checker's 1000 as well.
inline constexpr double kDefaultMaxProfileWork = 1e10;
inline constexpr int kMaxProfileLength = 1000;
// The hints end the messages with what to do instead, e.g. "; lower {m}" (a DomainResourceError:
// parameters written {name}): `work_hint` when the work is above max_work, `length_hint` when n
// is above kMaxProfileLength.
void require_profile_work(int m, int n, double max_work, const std::string& work_hint,
                          const std::string& length_hint);

// Text files the commands write must be readable back: the readers take at most 1 GiB.
// A family line is the query position and n tokens of m characters each.
void require_family_file_size(std::uint64_t instances, int n, int m, const std::string& what);

// Instances held in memory cost far more than their text for small m: each token is a
// Token object with its own heap block. `copies` counts how many times they are held.
inline constexpr double kMaxInstanceBytes = 4.0 * (1ULL << 30);
void require_instance_memory(std::uint64_t instances, int n, int m, int copies,
                             const std::string& what);

// Pairwise code statistics (and the random greedy construction) compare every pair of
// words, ceil(m/64) machine words each; 2e10 such operations take a few tens of seconds.
inline constexpr double kMaxPairWork = 2e10;
void require_pair_work(std::uint64_t words, int m, const std::string& what,
                       const std::string& hint);

}  // namespace kernelrank
