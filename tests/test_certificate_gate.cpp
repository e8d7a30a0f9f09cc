// The certificate gate is the only writer of certificates: a draft passes only when the
// checker verifies it and the checker's bound equals the producer's claim (and the claim the
// text states); best_certified_bound puts only its winner through the checker; and no file
// of src/ but the gate writes with write_file_atomically, except the plain outputs listed
// below with their reasons.
#include "kernelrank/bounds/bound_sources.hpp"
#include "kernelrank/bounds/certificate_gate.hpp"
#include "kernelrank/bounds/generated_bound.hpp"
#include "kernelrank/bounds/refutation_certificate.hpp"
#include "kernelrank/core/errors.hpp"
#include "kernelrank/core/parallel.hpp"

#include "source_dir.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>
#include <sstream>

using namespace kernelrank;
namespace fs = std::filesystem;

namespace {

CertificateTask nk_task(int m) {
  CertificateTask task;
  task.m = m;
  task.n = 3;
  return task;
}

// A fresh path in the temporary directory that does not exist yet.
fs::path fresh_path(const std::string& name) {
  const fs::path path = fs::temp_directory_path() / ("kernelrank-gate-" + name);
  fs::remove_all(path);
  return path;
}

// The order argument's certificate for rank 2 on T(5,3): r >= 3 (theory.md, the order
// argument; docs/bounds.md).
std::string order_certificate_t53() {
  const RankTask base = cube_rank_task(5, 3);
  const OrderArgument order = order_argument(base, 2, SearchClass::NK);
  REQUIRE(order.refuted);
  std::string why_not;
  const std::optional<std::string> text =
      order_certificate(base, SearchClass::NK, order, 2, "", why_not);
  REQUIRE_MESSAGE(text, why_not);
  return *text;
}

}  // namespace

TEST_CASE("gate: a claim one above or one below the checker's bound is refused, nothing written") {
  // The dependence argument at m = 8: four queries with disjoint pairs of ones refute rank 3,
  // so r >= floor(8/2) = 4 (docs/bounds.md).
  const std::string text = dependence_certificate(nk_task(8));
  const fs::path path = fresh_path("claim.cert");
  for (const int wrong : {3, 5}) {
    CAPTURE(wrong);
    const GateOutcome outcome = try_verify_certificate({text, std::nullopt, Integer(wrong)});
    CHECK_FALSE(outcome.certificate);
    // The message names the producer's claim and the checker's number.
    CHECK(outcome.refusal.find("claims r >= " + std::to_string(wrong)) != std::string::npos);
    CHECK(outcome.refusal.find("verifies r >= 4") != std::string::npos);
    CHECK_THROWS_AS((void)write_verified_certificate(
                        path.string(), verify_certificate({text, std::nullopt, Integer(wrong)})),
                    InternalError);
    CHECK_FALSE(fs::exists(path));
  }
  const VerifiedCertificate accepted = verify_certificate({text, std::nullopt, Integer(4)});
  CHECK(accepted.bound() == 4);
  CHECK(accepted.text() == text);
  (void)write_verified_certificate(path.string(), accepted);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream written;
  written << in.rdbuf();
  CHECK(written.str() == text);
  fs::remove(path);
}

TEST_CASE("gate: a certificate the checker refuses is refused whatever the claim") {
  // One row proves r >= 1 and no more: the same text claiming r >= 2 is refused by the
  // checker itself.
  std::string text = one_row_certificate(nk_task(4));
  CHECK(verify_certificate({text, std::nullopt, Integer(1)}).bound() == 1);
  const std::size_t claim = text.find("claim r >= 1\n");
  REQUIRE(claim != std::string::npos);
  text.replace(claim, 12, "claim r >= 2");
  const GateOutcome outcome = try_verify_certificate({text, std::nullopt, Integer(2)});
  CHECK_FALSE(outcome.certificate);
  CHECK(outcome.refusal.find("kernelrank-check refuses") != std::string::npos);
}

TEST_CASE("gate: the claim the certificate states must be the checker's bound too") {
  // An inherit certificate may state less than its embedded certificate proves: the checker
  // verifies "r >= 2" over an embedded r >= 3, and its bound is 3. Neither number alone is
  // what the user may be shown.
  CertificateTask outer = nk_task(7);
  const std::string weaker = inherit_certificate(outer, "padded", order_certificate_t53(), "2");
  const CheckerVerdict verdict = run_checker(weaker, std::nullopt);
  REQUIRE(verdict.verified);
  CHECK(verdict.bound == "3");
  CHECK(verdict.claim == "2");
  for (const int claim : {2, 3}) {
    CAPTURE(claim);
    CHECK_FALSE(try_verify_certificate({weaker, std::nullopt, Integer(claim)}).certificate);
  }
  const std::string exact = inherit_certificate(outer, "padded", order_certificate_t53(), "3");
  CHECK(verify_certificate({exact, std::nullopt, Integer(3)}).bound() == 3);
}

TEST_CASE("gate: a generated-rows draft checked in shards needs the merged bound as its claim") {
  GeneratedRows rows{40, 3, 9, 400, 20};
  const auto words = generate_words(rows);
  const auto drops = conflict_drops(rows, words);
  const GeneratedBound bound =
      conclude_generated(rows, drops, count_pairs(rows, words, drops, 1, Shard{}, ""));
  const std::string text = generated_certificate(nk_task(40), bound);
  // The unsharded checker's number, which a merge must reproduce.
  const CheckerVerdict whole = run_checker(text, std::nullopt, 1);
  REQUIRE(whole.verified);
  const Integer checker_bound(whole.bound);
  std::vector<std::string> partials;
  for (std::uint64_t k = 1; k <= 3; ++k) partials.push_back(checker_shard(text, k, 3, 1));
  for (const Integer& wrong : {checker_bound - 1, checker_bound + 1})
    CHECK_THROWS_AS(verify_merged_certificate({text, std::nullopt, wrong}, partials),
                    InternalError);
  CHECK(verify_merged_certificate({text, std::nullopt, checker_bound}, partials).bound() ==
        checker_bound);
  // A missing shard is no verification at all.
  partials.pop_back();
  CHECK_THROWS_AS(verify_merged_certificate({text, std::nullopt, checker_bound}, partials),
                  InternalError);
}

TEST_CASE("bound: only the winner goes through the checker, and the others would not beat it") {
  for (const int m : {8, 16}) {
    CAPTURE(m);
    BoundSearchOptions options;
    options.m = m;
    options.n = 3;
    const std::uint64_t before = checker_runs();
    SourcedBound sourced = best_certified_bound(nk_task(m), options);
    // m = 8 and 16 have five candidates each (code, inherited order, dependence, one row,
    // product); one checker run decides.
    CHECK(sourced.candidates.size() == 5);
    CHECK(checker_runs() - before == 1);
    CHECK(sourced.refused.empty());
    CHECK_FALSE(sourced.best.certificate.empty());
    CHECK(sourced.best.bound == sourced.best.certificate.bound());
    // floor(m/2) from the dependence argument (m = 8) and the code (m = 16): docs/bounds.md.
    CHECK(sourced.best.certificate.bound() == m / 2);
    // What checking every candidate (as before) would have chosen: each is accepted with the
    // bound it claims, none above the winner, and in the list the winner comes first.
    CHECK(sourced.candidates.front().source == sourced.best.source);
    for (SourcedCandidate& c : sourced.candidates) {
      CAPTURE(to_string(c.source));
      const Integer claimed = c.bound;
      certify_candidate(c);
      CHECK(c.certificate.bound() == claimed);
      CHECK(claimed <= sourced.best.bound);
    }
    CHECK(checker_runs() - before == sourced.candidates.size());
  }
}

// ---- the writers of src/ ----------------------------------------------------------------

namespace {

// Every file of src/ that may call write_file_atomically, and why it writes no certificate.
// A new caller fails the test below: a certificate goes through write_verified_certificate,
// anything else is added here with its reason.
const std::map<std::string, std::string>& allowed_writers() {
  static const std::map<std::string, std::string> allowed = {
      {"src/core/atomic_write.cpp", "the function itself"},
      {"src/bounds/certificate_gate.cpp", "the gate: write_verified_certificate"},
      {"src/search/solver_side.cpp", "SMT-LIB files of the Z3 queries (--save-smt2)"},
      {"src/search/min_rank.cpp", "model files (text, JSON) of the rows found"},
      {"src/app/generate_job.cpp", "family, CSV and JSON-lines files"},
      {"src/cli/cmd_readout.cpp", "a model file"},
      {"src/cli/cmd_instances.cpp", "a family file"},
      {"src/app/counterexample_job.cpp", "the family file of a counterexample"},
      {"src/cli/cmd_open_min_rank.cpp", "model files of the rows found"},
      {"src/app/construct_job.cpp", "a model file (kernelrank construct, kernelrank.construct)"},
      {"src/app/search_job.cpp", "model files (tabular, features) of search"},
      {"src/app/eval_partials.cpp", "partial results of an evaluation shard"},
      {"src/app/bound_words_job.cpp", "partial pair counts of a shard (bound --words)"},
      {"src/app/witness_job.cpp",
       "the witness family file (its certificate goes through the gate)"},
      {"src/cli/cmd_code.cpp", "a code file"},
      {"src/app/train_job.cpp", "trained models (safetensors, text) and report.json"},
      {"src/plot/gnuplot.cpp", "SVG and PNG figures"},
      {"src/check/partial.hpp", "the checker's own writer (a separate program)"},
      {"src/check/partial.cpp", "the checker's own writer (a separate program)"},
      {"src/check/command_line.cpp", "the checker's partial results of a shard"},
  };
  return allowed;
}

// The files under root/src whose code (outside // comments) names write_file_atomically,
// as paths relative to root.
std::set<std::string> writers_under(const fs::path& root) {
  std::set<std::string> found;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / "src")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    std::ifstream in(entry.path());
    for (std::string line; std::getline(in, line);) {
      const std::string code = line.substr(0, line.find("//"));
      if (code.find("write_file_atomically") != std::string::npos) {
        found.insert(fs::relative(entry.path(), root).generic_string());
        break;
      }
    }
  }
  return found;
}

// What is wrong with the writers of root/src: one line per file not allowed, and per
// allowed file that no longer writes (the list must stay exact to stay meaningful).
std::string writer_problems(const fs::path& root) {
  const std::set<std::string> found = writers_under(root);
  std::string problems;
  for (const std::string& file : found)
    if (allowed_writers().count(file) == 0)
      problems += file +
                  " calls write_file_atomically: certificates are written only by "
                  "write_verified_certificate (bounds/certificate_gate.hpp); a plain output "
                  "goes into allowed_writers() in tests/test_certificate_gate.cpp with its "
                  "reason\n";
  for (const auto& [file, reason] : allowed_writers())
    if (found.count(file) == 0)
      problems += file + " is allowed (" + reason +
                  ") but no longer calls write_file_atomically: remove it from the list\n";
  return problems;
}

}  // namespace

TEST_CASE("writers: only the gate and the listed plain outputs call write_file_atomically") {
  CHECK_MESSAGE(writer_problems(KERNELRANK_SOURCE_DIR).empty(),
                writer_problems(KERNELRANK_SOURCE_DIR));
}

TEST_CASE("writers: a new certificate writer outside the gate is caught") {
  // A tree in which every allowed file calls it; then one more caller, one comment, and one
  // allowed caller gone.
  const fs::path root = fresh_path("writers");
  for (const auto& [file, reason] : allowed_writers()) {
    fs::create_directories((root / file).parent_path());
    std::ofstream(root / file) << "  write_file_atomically(path, text);\n";
  }
  REQUIRE(writer_problems(root).empty());
  {
    std::ofstream planted(root / "src/cli/cmd_new_writer.cpp");
    planted << "void f() { write_file_atomically(path, certificate_text); }\n";
  }
  {
    std::ofstream commented(root / "src/cli/cmd_mentions.cpp");
    commented << "// write_file_atomically(...) in a comment is not a call\n";
  }
  const std::string problems = writer_problems(root);
  CHECK(problems.find("src/cli/cmd_new_writer.cpp calls write_file_atomically") !=
        std::string::npos);
  CHECK(problems.find("cmd_mentions.cpp") == std::string::npos);
  fs::remove(root / "src/cli/cmd_new_writer.cpp");
  fs::remove(root / "src/cli/cmd_code.cpp");
  CHECK(writer_problems(root).find("src/cli/cmd_code.cpp is allowed") != std::string::npos);
  fs::remove_all(root);
}

// ---- certificate text written outside the gate, whatever the API -------------------------

namespace {

// The only files of src/ (the checker's src/check aside) that may write certificate text.
const std::set<std::string>& certificate_text_writers() {
  static const std::set<std::string> allowed = {"src/bounds/certificate_gate.cpp"};
  return allowed;
}

// A statement that writes somewhere: a file stream, C stdio, the atomic writer, a write()
// call, a stream insertion.
const std::regex& write_call() {
  static const std::regex re(
      R"(ofstream|fstream|\bfopen\b|\bfwrite\b|\bfputs\b|\bfprintf\b|\bputs\b|\bprintf\b|)"
      R"(\bwrite_file_atomically\b|\bwrite_atomically\b|\bwrite\s*\(|<<)");
  return re;
}

// Certificate text: the format's header line, the gate's types, a certificate's text(), a
// producer of certificate text (cube_certificate(...), ...), the names drafts are kept under.
const std::regex& certificate_text() {
  static const std::regex re(
      R"(kernelrank-certificate|VerifiedCertificate|CertificateDraft|)"
      R"(certificate\w*\s*(\(\s*\))?\s*(\.|->)\s*text\s*\(|\w+_certificate\s*\(|)"
      R"(certificate_text|unchecked_text)");
  return re;
}

std::set<std::string> identifiers(const std::string& statement) {
  static const std::regex word(R"([A-Za-z_]\w*)");
  std::set<std::string> names;
  for (std::sregex_iterator it(statement.begin(), statement.end(), word), end; it != end; ++it)
    names.insert(it->str());
  return names;
}

bool holds_certificate_text(const std::string& statement, const std::set<std::string>& tainted) {
  if (std::regex_search(statement, certificate_text())) return true;
  for (const std::string& name : identifiers(statement))
    if (tainted.count(name) > 0) return true;
  return false;
}

// One file's writes of certificate text, "path: statement" each. The code (outside //
// comments) is cut into statements at ; { and }. A name declared or assigned from certificate
// text holds it too (followed to a fixed point), so `std::string t = cube_certificate(...);`
// then `out << t;` is caught; insertion into a string stream declared in the file only builds
// text, and writes nothing.
std::vector<std::string> certificate_writes_in(const std::string& code, const std::string& name) {
  std::string stripped;
  std::istringstream lines(code);
  for (std::string line; std::getline(lines, line);)
    stripped += line.substr(0, line.find("//")) + "\n";
  // The gate's own writer is the way out, not a write of its own.
  for (std::size_t at; (at = stripped.find("write_verified_certificate")) != std::string::npos;)
    stripped.erase(at, std::string("write_verified_certificate").size());
  std::vector<std::string> statements;
  std::string current;
  for (char c : stripped) {
    if (c == ';' || c == '{' || c == '}') {
      statements.push_back(current);
      current.clear();
    } else {
      current += c == '\n' ? ' ' : c;
    }
  }
  statements.push_back(current);
  static const std::regex declared(
      R"((?:std::string|auto|VerifiedCertificate|CertificateDraft)\s*&?\s+(\w+)\s*[=({),])");
  static const std::regex assigned(R"(^\s*(\w+)\s*\+?=)");
  static const std::regex string_stream(R"((?:std::)?o?stringstream\s+(\w+))");
  static const std::regex inserted_into(R"(^\s*(\w+)\s*<<)");
  std::set<std::string> tainted, string_streams;
  for (std::sregex_iterator it(stripped.begin(), stripped.end(), string_stream), end; it != end;
       ++it)
    string_streams.insert((*it)[1].str());
  for (bool grew = true; grew;) {
    grew = false;
    for (const std::string& s : statements) {
      if (!holds_certificate_text(s, tainted)) continue;
      for (std::sregex_iterator it(s.begin(), s.end(), declared), end; it != end; ++it)
        grew = tainted.insert((*it)[1].str()).second || grew;
      std::smatch m;
      if (std::regex_search(s, m, assigned)) grew = tainted.insert(m[1].str()).second || grew;
    }
  }
  std::vector<std::string> writes;
  for (const std::string& s : statements) {
    if (!std::regex_search(s, write_call()) || !holds_certificate_text(s, tainted)) continue;
    std::smatch m;
    if (std::regex_search(s, m, inserted_into) && string_streams.count(m[1].str()) > 0) continue;
    writes.push_back(name + ": " + s);
  }
  return writes;
}

// Every write of certificate text under root/src (src/check aside) outside the allowed files.
std::string certificate_writer_problems(const fs::path& root) {
  std::string problems;
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / "src")) {
    const std::string ext = entry.path().extension().string();
    if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp")) continue;
    const std::string name = fs::relative(entry.path(), root).generic_string();
    if (name.rfind("src/check/", 0) == 0 || certificate_text_writers().count(name) > 0) continue;
    std::ifstream in(entry.path());
    const std::string code((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (const std::string& write : certificate_writes_in(code, name))
      problems += write +
                  "\n  writes certificate text outside the gate: use write_verified_certificate "
                  "(bounds/certificate_gate.hpp)\n";
  }
  return problems;
}

}  // namespace

TEST_CASE("writers: no certificate text is written outside the gate, whatever the API") {
  CHECK_MESSAGE(certificate_writer_problems(KERNELRANK_SOURCE_DIR).empty(),
                certificate_writer_problems(KERNELRANK_SOURCE_DIR));
}

TEST_CASE("writers: a planted std::ofstream, fwrite or stream writer of certificate text fails") {
  const fs::path root = fresh_path("certificate-writers");
  fs::create_directories(root / "src/cli");
  fs::create_directories(root / "src/bounds");
  fs::create_directories(root / "src/check");
  {
    std::ofstream gate(root / "src/bounds/certificate_gate.cpp");
    gate << "void w(const VerifiedCertificate& c) { write_file_atomically(p, c.text()); }\n";
    std::ofstream checker(root / "src/check/partial.cpp");
    checker << "void w() { std::ofstream(p) << \"kernelrank-certificate 1\\n\"; }\n";
    std::ofstream builder(root / "src/bounds/certificate.cpp");
    builder << "std::string t() {\n  std::ostringstream text;\n"
               "  text << \"kernelrank-certificate 2\\n\";\n  return text.str();\n}\n"
               "// std::ofstream(p) << certificate.text(); in a comment\n"
               "void shown(const Report& r) { std::cout << human << r.rows; }\n";
  }
  REQUIRE(certificate_writer_problems(root).empty());
  {
    std::ofstream planted(root / "src/cli/cmd_stream.cpp");
    planted << "void f(const SourcedBound& sourced, const std::string& path) {\n"
               "  std::ofstream out(path);\n"
               "  out << sourced.best.certificate.text();\n"
               "}\n";
  }
  {
    std::ofstream planted(root / "src/cli/cmd_stdio.cpp");
    planted << "void g(const CertificateTask& task) {\n"
               "  const std::string draft =\n      cube_certificate(task, \"x\", rows, bound);\n"
               "  FILE* file = std::fopen(\"x.cert\", \"w\");\n"
               "  std::fwrite(draft.data(), 1, draft.size(), file);\n"
               "}\n";
  }
  {
    std::ofstream planted(root / "src/cli/cmd_parameter.cpp");
    planted << "void h(const VerifiedCertificate& c) { std::ofstream(\"y\") << c.text(); }\n";
  }
  const std::string problems = certificate_writer_problems(root);
  CHECK(problems.find("src/cli/cmd_stream.cpp: ") != std::string::npos);
  CHECK(problems.find("out << sourced.best.certificate.text()") != std::string::npos);
  CHECK(problems.find("src/cli/cmd_stdio.cpp: ") != std::string::npos);
  CHECK(problems.find("std::fwrite(draft.data()") != std::string::npos);
  CHECK(problems.find("src/cli/cmd_parameter.cpp: ") != std::string::npos);
  CHECK(problems.find("src/bounds/") == std::string::npos);
  CHECK(problems.find("src/check/") == std::string::npos);
  fs::remove_all(root);
}
