// Error kinds and the process exit codes they map to.
//
// Every command exits 0 only on a positive outcome (verified, solves, found).
// The codes are kept small because CLI11 uses 100-127 for its own parse errors.
#pragma once

#include <cstddef>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>

namespace kernelrank {

enum ExitCode : int {
  kExitOk = 0,         // verified / the model solves / the search found a model
  kExitNegative = 1,   // refuted / the model fails / the claim does not follow
  kExitMalformed = 2,  // malformed input file or impossible parameters
  kExitResource = 3,   // a size, time or memory limit refuses the run
  kExitInternal = 4,   // a bug: an internal consistency check failed
  kExitUnknown = 5,    // the question stayed open (e.g. Z3 returned unknown)
};

// A message about the library's parameters, each written {name}: "{m} must be in 2..4096".
// The library speaks of its own parameters (what() is "m must be in 2..4096"); a front end
// names each its own way (the CLI by its flag, --m; Python by its keyword, m).
class ParameterMessage {
 public:
  explicit ParameterMessage(std::string pattern) : pattern_(std::move(pattern)) {}
  virtual ~ParameterMessage() = default;
  const std::string& pattern() const { return pattern_; }
  // Each {name} (lowercase letters, digits and '-', starting with a letter) replaced by
  // name(parameter); any other text, braces included, is kept.
  std::string render(const std::function<std::string(const std::string&)>& name) const;
  // The library's own wording: each parameter by its bare name.
  static std::string plain(const std::string& pattern);
  // Other text (a value, a path) for a pattern: its '{' written "{{", so never a parameter.
  static std::string literal(const std::string& text);

 private:
  std::string pattern_;
};

// Malformed input: rendered as "file:line: error: message" (line 0 = whole file), or
// "file:line:column: error: message" where the reader knows the column (JSON).
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::size_t line, const std::string& message);
  InputError(std::string file, std::size_t line, std::size_t column, const std::string& message);
  // For binary files (safetensors), which have no lines: rendered as
  // "file: error: message", with line() == 0.
  static InputError whole_file(std::string file, const std::string& message);
  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  std::size_t column() const { return column_; }  // 0: not known
  const std::string& message() const { return message_; }

 private:
  struct WholeFileTag {};
  InputError(WholeFileTag, std::string file, const std::string& message);

  std::string file_;
  std::size_t line_;
  std::size_t column_ = 0;
  std::string message_;
};

// An impossible or inconsistent parameter (named in the message).
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A parameter outside its domain (exit code 2); the pattern names it (ParameterMessage).
class DomainError : public UsageError, public ParameterMessage {
 public:
  explicit DomainError(const std::string& pattern)
      : UsageError(ParameterMessage::plain(pattern)), ParameterMessage(pattern) {}
};

// A run that would exceed a size/time/memory limit; the message says what would
// be needed and what to use instead.
class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A ResourceError whose advice names parameters ("use fewer {words} or a larger {m}").
class DomainResourceError : public ResourceError, public ParameterMessage {
 public:
  explicit DomainResourceError(const std::string& pattern)
      : ResourceError(ParameterMessage::plain(pattern)), ParameterMessage(pattern) {}
};

// An output file that cannot be written (bad path, full disk): exit code 2.
class OutputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A failed internal consistency check (e.g. a Z3 model that does not verify).
class InternalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace kernelrank
