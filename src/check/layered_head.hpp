// The parsed form of a layered head, an upper-bound model file for the cube task T(m,3)
// (docs/certificate-format.md, "Layered heads (upper bounds)"), and its parser.
//
//   kernelrank-model 1 kind=layered m=<m> r=<r> class=<PF|NK>
//   layer <j> <c_j>                        (j strictly increasing from 0, within 0..m)
//   correction <w> <g_w(0)> ... <g_w(w)>   (one line for each w = 0..m, in order)
//
// parse_layered_head() reads the whole file and checks everything that needs no
// arithmetic: the header's keys, counts of fields, number spellings and ranges, the order
// of the lines. Anything wrong is malformed input (exit 2); layered_rule.hpp decides the rest.
#pragma once

#include <istream>
#include <string>
#include <vector>

#include "check/bignum.hpp"
#include "check/certificate.hpp"

namespace krcheck {

struct LayeredHead {
  struct Layer {
    int size = 0;          // j
    Rational coefficient;  // c_j
    long line = 0;
  };
  struct Correction {
    std::vector<Rational> values;  // g_w(u), u = 0..w
    long line = 0;
  };
  std::string file;
  long header_line = 0;
  int m = 0;
  BigInt declared_features;  // r
  ModelClass model_class = ModelClass::PF;
  std::vector<Layer> layers;
  std::vector<Correction> corrections;  // indexed by w = 0..m
};

// True when the first non-blank line of `in` is a model header ("kernelrank-model ...");
// rewinds `in` to where it was, so that the file is then parsed from its first byte.
bool is_model_file(std::istream& in, const std::string& file);

LayeredHead parse_layered_head(std::istream& in, const std::string& file);

// An exact number as the project's text files write it (docs/model-format.md, section 1):
// an optional sign, then digits, a fraction p/q, or a decimal with an optional exponent
// e/E (|exponent| <= 100000). False for anything else (junk, 1/0, 1/2/3, a lone sign).
bool parse_exact_number(std::string_view text, Rational& value);

}  // namespace krcheck
