// cvc5 through SMT-LIB2 in a child process (see cvc5_process.hpp).
#include "search/cvc5/cvc5_process.hpp"

#include "kernelrank/core/errors.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

extern char** environ;

namespace kernelrank::detail {
namespace {

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A minimal S-expression reader for cvc5's answers.
struct Sexp {
  std::string atom;  // empty for a list
  std::vector<Sexp> items;
};

class SexpReader {
 public:
  explicit SexpReader(const std::string& text) : text_(text) {}
  Sexp read() {
    skip();
    if (pos_ >= text_.size()) throw InternalError("cvc5's output ended early");
    Sexp node;
    if (text_[pos_] == '(') {
      ++pos_;
      for (skip(); pos_ < text_.size() && text_[pos_] != ')'; skip()) node.items.push_back(read());
      if (pos_ >= text_.size()) throw InternalError("cvc5's output has an unclosed list");
      ++pos_;
    } else if (text_[pos_] == '|') {
      const std::size_t end = text_.find('|', pos_ + 1);
      if (end == std::string::npos) throw InternalError("cvc5's output has an unclosed |symbol|");
      node.atom = text_.substr(pos_, end + 1 - pos_);
      pos_ = end + 1;
    } else {
      const std::size_t start = pos_;
      while (pos_ < text_.size() && !std::isspace(static_cast<unsigned char>(text_[pos_])) &&
             text_[pos_] != '(' && text_[pos_] != ')')
        ++pos_;
      node.atom = text_.substr(start, pos_ - start);
    }
    return node;
  }

 private:
  void skip() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  const std::string& text_;
  std::size_t pos_ = 0;
};

// An exact real value: a numeral, (- x) or (/ x y); false for anything else.
bool exact_value(const Sexp& node, Rational& value) {
  if (node.items.empty()) {
    if (node.atom.empty() || !std::isdigit(static_cast<unsigned char>(node.atom[0]))) return false;
    try {
      value = parse_rational(node.atom);
      return true;
    } catch (const RationalParseError&) {
      return false;
    }
  }
  Rational a, b;
  if (node.items.size() == 2 && node.items[0].atom == "-" && exact_value(node.items[1], a)) {
    value = -a;
    return true;
  }
  if (node.items.size() == 3 && node.items[0].atom == "/" && exact_value(node.items[1], a) &&
      exact_value(node.items[2], b) && b != 0) {
    value = a / b;
    return true;
  }
  return false;
}

}  // namespace

std::string find_cvc5() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  for (std::string dir; std::getline(dirs, dir, ':');) {
    const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/cvc5";
    if (::access(candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(candidate))
      return candidate;
  }
  return "";
}

std::string require_cvc5() {
  std::string path = find_cvc5();
  if (path.empty())
    throw DomainError(
        "{solver} cvc5 needs the cvc5 executable, which is not on PATH (Debian package cvc5: "
        "apt-get install cvc5, or scripts/install-deps.sh)");
  return path;
}

std::string cvc5_version() {
  static const std::string version = [] {
    const std::string path = find_cvc5();
    if (path.empty()) return std::string();
    const std::string command = "'" + path + "' --version 2>/dev/null";
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) return std::string();
    char line[256] = {};
    const bool read = std::fgets(line, sizeof line, pipe) != nullptr;
    ::pclose(pipe);
    std::string text = read ? line : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    const std::string prefix = "This is cvc5 version ";
    return text.rfind(prefix, 0) == 0 ? "cvc5 " + text.substr(prefix.size()) : text;
  }();
  return version;
}

SmtAnswer parse_cvc5_output(const std::string& output, std::size_t terms) {
  SmtAnswer answer;
  std::istringstream lines(output);
  std::string first;
  std::getline(lines, first);
  if (first == "unsat") {
    answer.answer = "unsat";
    return answer;
  }
  if (first != "sat") {
    answer.answer = "unknown";
    answer.reason = first == "unknown" ? "cvc5: unknown" : "cvc5 gave no answer";
    return answer;
  }
  answer.answer = "sat";
  if (terms == 0) return answer;  // nothing was asked (no get-value)
  const std::string rest = output.substr(first.size());
  // A sat without a readable model (cvc5 stopped by its time limit during get-value, an
  // error message) is no answer; values that are not rational numerals are not approximated.
  const auto no_model = [&](const std::string& why) {
    answer.answer = "unknown";
    answer.reason = "cvc5 said sat, but " + why;
    answer.values.clear();
    return answer;
  };
  Sexp values;
  try {
    values = SexpReader(rest).read();
  } catch (const InternalError& e) {
    return no_model(std::string("its model could not be read (") + e.what() + ")");
  }
  if (values.items.size() != terms)
    return no_model("it gave " + std::to_string(values.items.size()) + " values for " +
                    std::to_string(terms) + " terms");
  for (const Sexp& pair : values.items) {
    Rational value;
    if (pair.items.size() != 2 || !exact_value(pair.items[1], value))
      return no_model("its model has a value that is not a rational numeral");
    answer.values.push_back(value);
  }
  answer.answer = "sat";
  return answer;
}

Cvc5Process::Cvc5Process(const std::string& smt2, const std::vector<std::string>& terms,
                         unsigned timeout_ms)
    : terms_(terms.size()), start_(std::chrono::steady_clock::now()) {
  const std::string executable = require_cvc5();
  std::string pattern = (std::filesystem::temp_directory_path() / "kernelrank-cvc5-XXXXXX");
  if (!::mkdtemp(pattern.data()))
    throw ResourceError("cannot create a temporary directory for the cvc5 query");
  dir_ = pattern;
  {
    std::ofstream query(dir_ + "/query.smt2", std::ios::binary);
    query << "(set-logic QF_NRA)\n" << smt2 << "\n(check-sat)\n";
    if (!terms.empty()) {
      query << "(get-value (";
      for (const std::string& t : terms) query << t << ' ';
      query << "))\n";
    }
    if (!query) throw ResourceError("cannot write the cvc5 query in " + dir_);
  }
  std::vector<std::string> args = {executable, "--lang", "smt2", "--produce-models"};
  if (timeout_ms > 0) args.push_back("--tlimit=" + std::to_string(timeout_ms));
  args.push_back(dir_ + "/query.smt2");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string out = dir_ + "/out", err = dir_ + "/err";
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  const int rc = posix_spawn(&pid_, executable.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    pid_ = -1;
    throw ResourceError("cannot start " + executable + ": " + std::strerror(rc));
  }
}

Cvc5Process::~Cvc5Process() {
  stop();
  if (!dir_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(dir_, ignored);
  }
}

void Cvc5Process::reap(int status) {
  done_ = true;
  status_ = status;
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

bool Cvc5Process::finished() {
  if (done_ || pid_ < 0) return true;
  int status = 0;
  if (::waitpid(pid_, &status, WNOHANG) == pid_) reap(status);
  return done_;
}

SmtAnswer Cvc5Process::wait() {
  int status = 0;
  if (!done_ && pid_ >= 0 && ::waitpid(pid_, &status, 0) == pid_) reap(status);
  return answer();
}

void Cvc5Process::stop() {
  if (done_ || pid_ < 0) return;
  ::kill(pid_, SIGKILL);
  killed_ = true;
  int status = 0;
  if (::waitpid(pid_, &status, 0) == pid_) reap(status);
  done_ = true;
}

SmtAnswer Cvc5Process::answer() {
  SmtAnswer result;
  if (killed_) {
    result.answer = "unknown";
    result.reason = "stopped";
  } else {
    result = parse_cvc5_output(read_all(dir_ + "/out"), terms_);
    if (result.answer == "unknown" && result.reason == "cvc5 gave no answer") {
      const std::string err = read_all(dir_ + "/err");
      if (err.find("timeout") != std::string::npos)
        result.reason = "cvc5: timeout";
      else if (WIFSIGNALED(status_))
        result.reason = "cvc5 ended by signal " + std::to_string(WTERMSIG(status_));
      else if (!err.empty())
        result.reason = "cvc5: " + err.substr(0, err.find('\n'));
    }
  }
  result.seconds = seconds_;
  return result;
}

}  // namespace kernelrank::detail
