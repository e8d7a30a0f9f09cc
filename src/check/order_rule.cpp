// Keypairs, orientations and the order rule; see order_rule.hpp.
#include "check/order_rule.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "check/conclusion.hpp"
#include "check/family_chains.hpp"
#include "check/status.hpp"

namespace krcheck {
namespace {

// Kahn's algorithm on the graph of one orientation. Nodes 0 .. Q-1 are the queries, Q + t
// the threshold of keypair t. Only the direction of an edge depends on the orientation, so
// the memberships are stored once and the buffers are reused across orientations.
class OrientationGraph {
 public:
  explicit OrientationGraph(const OrderCore& core)
      : queries_(core.query_count), members_(core.pairs.size()), memberships_(core.query_count) {
    for (std::uint32_t t = 0; t < core.pairs.size(); ++t)
      for (const std::uint32_t side : {0U, 1U})
        for (const std::uint32_t q :
             side == 0 ? core.pairs[t].first_above : core.pairs[t].second_above) {
          members_[t].push_back({q, side});
          memberships_[q].push_back({t, side});
        }
    indegree_.resize(queries_ + members_.size());
  }

  bool acyclic(std::uint32_t orientation) {
    // A member on the side the orientation puts first points to the threshold (x -> t);
    // the threshold points to the members on the other side (t -> y).
    const auto first = [&](std::uint32_t t, std::uint32_t side) {
      return side == ((orientation >> t) & 1U);
    };
    std::fill(indegree_.begin(), indegree_.end(), 0);
    for (std::uint32_t t = 0; t < members_.size(); ++t)
      for (const Member& member : members_[t])
        ++indegree_[first(t, member.side) ? queries_ + t : member.node];
    ready_.clear();
    for (std::uint32_t node = 0; node < indegree_.size(); ++node)
      if (indegree_[node] == 0) ready_.push_back(node);
    for (std::size_t next = 0; next < ready_.size(); ++next) {
      const std::uint32_t node = ready_[next];
      const auto release = [&](std::uint32_t target) {
        if (--indegree_[target] == 0) ready_.push_back(target);
      };
      if (node < queries_) {
        for (const Member& membership : memberships_[node])
          if (first(membership.node, membership.side)) release(queries_ + membership.node);
      } else {
        const std::uint32_t t = node - static_cast<std::uint32_t>(queries_);
        for (const Member& member : members_[t])
          if (!first(t, member.side)) release(member.node);
      }
    }
    return ready_.size() == indegree_.size();  // every node removed: no cycle
  }

 private:
  struct Member {
    std::uint32_t node;  // a query in members_, a keypair in memberships_
    std::uint32_t side;  // 0: first_above, 1: second_above
  };
  std::size_t queries_;
  std::vector<std::vector<Member>> members_;      // per keypair
  std::vector<std::vector<Member>> memberships_;  // per query
  std::vector<std::uint32_t> indegree_;
  std::vector<std::uint32_t> ready_;
};

// The core of a certificate, with its distinct query tokens in order of first use.
struct CoreOfCertificate {
  OrderCore core;
  std::vector<Token> queries;
};

// Checks every keypair line (a new unordered pair, steps that compare exactly its two keys,
// both directions present) and numbers the queries.
CoreOfCertificate build_core(const Certificate& cert) {
  const auto text = [&](const Token& token) {
    return token_text(token, static_cast<std::size_t>(cert.m));
  };
  CoreOfCertificate result;
  std::map<Token, std::uint32_t> query_index;
  std::map<std::pair<Token, Token>, long> pair_line;  // unordered key pair -> its line
  for (const KeyPairLine& keypair : cert.keypairs) {
    const std::string name = "keypair " + text(keypair.x) + " " + text(keypair.y);
    const auto fail = [&](const std::string& message) {
      fail_check(cert.file, keypair.line, name + ": " + message);
    };
    const auto unordered = keypair.x < keypair.y ? std::make_pair(keypair.x, keypair.y)
                                                 : std::make_pair(keypair.y, keypair.x);
    const auto [earlier, is_new] = pair_line.emplace(unordered, keypair.line);
    if (!is_new)
      fail("the same two keys as the keypair on line " + std::to_string(earlier->second));
    OrderCore::Sides sides;
    for (std::size_t t = 0; t < keypair.step_count; ++t) {
      const std::uint32_t id = cert.core_steps[keypair.first_step + t];
      const Step& step = cert.steps[id];
      const bool x_above = step.a == keypair.x && step.b == keypair.y;
      const bool y_above = step.a == keypair.y && step.b == keypair.x;
      if (!x_above && !y_above)
        fail("step " + std::to_string(id + 1) + " (line " + std::to_string(step.line) +
             ") compares a=" + text(step.a) + " and b=" + text(step.b) + ", not these two keys");
      const auto [entry, added] =
          query_index.emplace(step.query, static_cast<std::uint32_t>(result.queries.size()));
      if (added) result.queries.push_back(step.query);
      (x_above ? sides.first_above : sides.second_above).push_back(entry->second);
    }
    if (sides.first_above.empty() || sides.second_above.empty())
      fail("no step says " + text(sides.first_above.empty() ? keypair.x : keypair.y) +
           " is above " + text(sides.first_above.empty() ? keypair.y : keypair.x) +
           ": a keypair needs both directions");
    result.core.pairs.push_back(std::move(sides));
  }
  result.core.query_count = result.queries.size();
  return result;
}

// Class NK: the kernel is nonnegative where the task uses it, and the argument needs the
// whole block of the core's queries and keys. In the cube every pair is used; in a family,
// a pair (q, z) is used by an instance with q at its query position and z among its tokens.
void check_block(const Certificate& cert, const Family& family, const std::vector<Token>& queries) {
  for (const KeyPairLine& keypair : cert.keypairs)
    for (const Token* key : {&keypair.x, &keypair.y})
      for (const Token& query : queries)
        if (family.used_pairs.count(used_pair_key(query, *key)) == 0)
          fail_check(cert.file, keypair.line,
                     "class=NK: no family instance has query " +
                         token_text(query, static_cast<std::size_t>(cert.m)) + " and key " +
                         token_text(*key, static_cast<std::size_t>(cert.m)) +
                         "; the order argument needs alpha >= 0 on the whole block of the "
                         "core's queries and keys, which NK guarantees only where it is used");
}

}  // namespace

bool orientation_is_acyclic(const OrderCore& core, std::uint32_t orientation) {
  return OrientationGraph(core).acyclic(orientation);
}

std::string orientation_text(std::uint32_t orientation, std::size_t pair_count) {
  std::string digits;
  for (std::size_t t = 0; t < pair_count; ++t) digits += ((orientation >> t) & 1U) != 0 ? '1' : '0';
  return digits;
}

OrderDecision decide_order_core(int rank, const OrderCore& core) {
  OrderDecision decision;
  if (rank == 1) {
    decision.contradictory = !core.pairs.empty();
    return decision;
  }
  OrientationGraph graph(core);
  const std::uint64_t count = std::uint64_t{1} << core.pairs.size();
  for (std::uint64_t orientation = 0; orientation < count; ++orientation) {
    ++decision.orientations_examined;
    if (graph.acyclic(static_cast<std::uint32_t>(orientation))) {
      decision.consistent_orientation = static_cast<std::uint32_t>(orientation);
      return decision;
    }
  }
  decision.contradictory = true;
  return decision;
}

BigInt check_order_rule(const Certificate& cert, const Family* family, std::ostream& out) {
  check_fact_steps(cert, family, "order", out);
  const CoreOfCertificate core = build_core(cert);
  out << "c core: " << cert.keypairs.size() << " keypairs over " << core.queries.size()
      << " query tokens\n";
  if (family != nullptr && cert.model_class == ModelClass::NK)
    check_block(cert, *family, core.queries);
  if (cert.keypairs.empty())
    fail_check(cert.file, cert.core_line, "the core is not contradictory: it has no keypair");
  const OrderDecision decision = decide_order_core(cert.order_rank, core.core);
  if (!decision.contradictory)
    fail_check(cert.file, cert.core_line,
               "the core is not contradictory: orientation " +
                   orientation_text(decision.consistent_orientation, cert.keypairs.size()) +
                   " (one digit per keypair; 0 puts the queries where its first key is above "
                   "before its threshold) gives an acyclic graph, so rank 2 angles exist");
  if (cert.order_rank == 1)
    out << "c order rule at rank 1: a keypair with both directions contradicts query rows "
           "that are multiples of one vector\n";
  else
    out << "c order rule at rank 2: " << decision.orientations_examined
        << " orientations examined, every one has a cycle\n";
  const BigInt bound = cert.order_rank + 1;
  check_claim(cert, bound, "order rule at rank " + std::to_string(cert.order_rank), out);
  return bound;
}

}  // namespace krcheck
