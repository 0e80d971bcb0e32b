// A small JSON value, reader and writer for the drive line protocol.
//
// The OpenCL worker (steerbench-drive) must not load libLLVM: Oclgrind's
// simulator, which runs inside the worker to check memory accesses, brings
// its own LLVM and crashes when LLVM 15 is in the same process. So the
// protocol cannot use llvm::json, and this module has no dependency beyond
// the C++ library. Integers are kept exactly (64 bits); other numbers are
// doubles. Text is passed through byte for byte (no UTF-8 validation), with
// quotes, backslashes and control characters escaped, so every encoded value
// fits on one line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace steerbench::json {

class Value;
using Array = std::vector<Value>;

/// An object: members in insertion order (the protocol's objects are small).
class Object {
public:
  Object() = default;
  Object(std::initializer_list<std::pair<std::string, Value>> members);

  void set(std::string key, Value v);
  [[nodiscard]] const Value* find(const std::string& key) const;
  [[nodiscard]] std::optional<std::string> getString(const std::string& key) const;
  [[nodiscard]] std::optional<std::int64_t> getInteger(const std::string& key) const;
  [[nodiscard]] std::optional<bool> getBoolean(const std::string& key) const;
  [[nodiscard]] const Array* getArray(const std::string& key) const;
  [[nodiscard]] const Object* getObject(const std::string& key) const;
  [[nodiscard]] const std::vector<std::pair<std::string, Value>>& members() const { return members_; }

private:
  std::vector<std::pair<std::string, Value>> members_;
};

class Value {
public:
  Value() = default; // null
  Value(std::nullptr_t) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(std::int64_t(i)) {}
  Value(std::int64_t i) : v_(i) {}
  Value(double d) : v_(d) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(Array a) : v_(std::move(a)) {}
  Value(Object o) : v_(std::move(o)) {}

  [[nodiscard]] bool isNull() const { return std::holds_alternative<std::monostate>(v_); }
  [[nodiscard]] std::optional<bool> getAsBoolean() const;
  /// Whole numbers only (a double with no fraction that fits counts too).
  [[nodiscard]] std::optional<std::int64_t> getAsInteger() const;
  [[nodiscard]] std::optional<double> getAsNumber() const;
  [[nodiscard]] const std::string* getAsString() const { return std::get_if<std::string>(&v_); }
  [[nodiscard]] const Array* getAsArray() const { return std::get_if<Array>(&v_); }
  [[nodiscard]] const Object* getAsObject() const { return std::get_if<Object>(&v_); }

  /// One line of JSON. Non-finite numbers (which JSON cannot hold) become null.
  [[nodiscard]] std::string print() const;

private:
  friend class Parser;
  friend class Printer;
  std::variant<std::monostate, bool, std::int64_t, double, std::string, Array, Object> v_;
};

/// Parse one JSON text. Throws InputError naming the byte offset and what was
/// expected there; trailing non-space characters are an error.
[[nodiscard]] Value parse(const std::string& text);

} // namespace steerbench::json
