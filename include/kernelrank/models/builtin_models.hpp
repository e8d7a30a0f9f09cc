// Built-in models of theory.md: rank1-mean (L1), dense softmax with a rational
// base (L5) and its positive-feature product realisation of rank 2^m (L6).
#pragma once

#include "kernelrank/models/model.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace kernelrank {

// rank1-mean for length n: phi_Q = phi_K = 1 (r = 1), v(z) = z, and the readout
// that turns the mean into the mean overlap with the other n-1 tokens:
// n = 1: y = <x, o>; n >= 2: y = (n <x, o> - |x|) / (n - 1). At n = 2 this is
// theory.md's y = 2<x,o> - |x| = <x_1, x_2>.
std::unique_ptr<Model> make_rank1_mean(int m, int n);

// Dense softmax with scores -ln(B) <q,z>: alpha(q,z) = B^(-<q,z>), v(z) = z,
// c(q) = q, e = 0, so F_q(z) = <q,z>. B > 0 rational.
std::unique_ptr<Model> make_softmax(int m, const Rational& base);

// The L6 tensor-product realisation of the same kernel with 2^m nonnegative
// features: f(0) = (1,0), f(1) = (0,1), g(0) = (1,1), g(1) = (1,1/B). Its kernel
// is computed as an explicit dot product of the 2^m-entry feature vectors, so it
// is an independent path to B^(-<q,z>); m <= kMaxProductWidth.
inline constexpr int kMaxProductWidth = 16;
std::unique_ptr<Model> make_product(int m, const Rational& base);
// The explicit feature vectors of the product model (for tests and export).
std::vector<Rational> product_query_features(const Token& q);
std::vector<Rational> product_key_features(const Token& z, const Rational& base);

// By name: "rank1-mean" (needs n), "softmax" and "product" (need base).
// `params` holds key=value strings from a model file or the command line.
std::unique_ptr<Model> make_builtin_model(std::string_view name, int m,
                                          const std::map<std::string, std::string>& params);

}  // namespace kernelrank
