#include "common/Json.h"

#include "common/Error.h"
#include "common/TextFormat.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <type_traits>

namespace steerbench::json {

Object::Object(std::initializer_list<std::pair<std::string, Value>> members) : members_(members) {}

void Object::set(std::string key, Value v) {
  for (auto& [k, old] : members_)
    if (k == key) {
      old = std::move(v);
      return;
    }
  members_.emplace_back(std::move(key), std::move(v));
}

const Value* Object::find(const std::string& key) const {
  for (const auto& [k, v] : members_)
    if (k == key) return &v;
  return nullptr;
}

std::optional<std::string> Object::getString(const std::string& key) const {
  const Value* v = find(key);
  if (!v || !v->getAsString()) return std::nullopt;
  return *v->getAsString();
}

std::optional<std::int64_t> Object::getInteger(const std::string& key) const {
  const Value* v = find(key);
  return v ? v->getAsInteger() : std::nullopt;
}

std::optional<bool> Object::getBoolean(const std::string& key) const {
  const Value* v = find(key);
  return v ? v->getAsBoolean() : std::nullopt;
}

const Array* Object::getArray(const std::string& key) const {
  const Value* v = find(key);
  return v ? v->getAsArray() : nullptr;
}

const Object* Object::getObject(const std::string& key) const {
  const Value* v = find(key);
  return v ? v->getAsObject() : nullptr;
}

std::optional<bool> Value::getAsBoolean() const {
  if (const bool* b = std::get_if<bool>(&v_)) return *b;
  return std::nullopt;
}

std::optional<std::int64_t> Value::getAsInteger() const {
  if (const auto* i = std::get_if<std::int64_t>(&v_)) return *i;
  if (const auto* d = std::get_if<double>(&v_))
    if (std::isfinite(*d) && std::trunc(*d) == *d && std::fabs(*d) < 9.2e18) return std::int64_t(*d);
  return std::nullopt;
}

std::optional<double> Value::getAsNumber() const {
  if (const auto* i = std::get_if<std::int64_t>(&v_)) return double(*i);
  if (const auto* d = std::get_if<double>(&v_)) return *d;
  return std::nullopt;
}


// The variant's alternatives are printed by a small recursive visitor.
class Printer {
public:
  static void print(const Value& v, std::string& out);
};

std::string Value::print() const {
  std::string out;
  Printer::print(*this, out);
  return out;
}

class Parser {
public:
  explicit Parser(const std::string& t) : t_(t) {}

  Value document() {
    Value v = value(0);
    space();
    if (i_ != t_.size()) fail("the end of the text");
    return v;
  }

private:
  const std::string& t_;
  std::size_t i_ = 0;

  [[noreturn]] void fail(const char* expected) const {
    std::string found = i_ < t_.size() ? "'" + t_.substr(i_, 12) + "'" : "the end";
    throw InputError("JSON: expected " + std::string(expected) + " at byte " + std::to_string(i_) + ", found " + found);
  }

  void space() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r'))
      ++i_;
  }

  /// After a member or element: true on ',' (another follows), false on
  /// `close` (the container ends); anything else is an error.
  bool more(char close, const char* expected) {
    space();
    if (i_ < t_.size() && (t_[i_] == ',' || t_[i_] == close)) return t_[i_++] == ',';
    fail(expected);
  }

  bool literal(const char* word) {
    std::size_t n = std::char_traits<char>::length(word);
    if (t_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }

  Value value(int depth) {
    if (depth > 64) fail("less nesting (at most 64 levels)");
    space();
    if (i_ >= t_.size()) fail("a value");
    const char c = t_[i_];
    if (c == '{') return object(depth);
    if (c == '[') return array(depth);
    if (c == '"') return Value(string());
    if (literal("true")) return Value(true);
    if (literal("false")) return Value(false);
    if (literal("null")) return Value();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    fail("a value");
  }

  Value object(int depth) {
    ++i_;
    Object o;
    space();
    if (i_ < t_.size() && t_[i_] == '}') {
      ++i_;
      return Value(std::move(o));
    }
    for (;;) {
      space();
      if (i_ >= t_.size() || t_[i_] != '"') fail("a member name in quotes");
      std::string key = string();
      space();
      if (i_ >= t_.size() || t_[i_] != ':') fail("':'");
      ++i_;
      o.set(std::move(key), value(depth + 1));
      if (!more('}', "',' or '}'")) return Value(std::move(o));
    }
  }

  Value array(int depth) {
    ++i_;
    Array a;
    space();
    if (i_ < t_.size() && t_[i_] == ']') {
      ++i_;
      return Value(std::move(a));
    }
    for (;;) {
      a.push_back(value(depth + 1));
      if (!more(']', "',' or ']'")) return Value(std::move(a));
    }
  }

  unsigned hex4() {
    if (i_ + 4 > t_.size()) fail("four hex digits");
    unsigned cp = 0;
    for (int k = 0; k < 4; ++k) {
      const char h = t_[i_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= unsigned(h - '0');
      else if (h >= 'a' && h <= 'f') cp |= unsigned(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') cp |= unsigned(h - 'A' + 10);
      else {
        --i_;
        fail("a hex digit");
      }
    }
    return cp;
  }

  static void utf8(unsigned cp, std::string& out) {
    if (cp < 0x80) {
      out += char(cp);
    } else if (cp < 0x800) {
      out += char(0xc0 | (cp >> 6));
      out += char(0x80 | (cp & 0x3f));
    } else if (cp < 0x10000) {
      out += char(0xe0 | (cp >> 12));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    } else {
      out += char(0xf0 | (cp >> 18));
      out += char(0x80 | ((cp >> 12) & 0x3f));
      out += char(0x80 | ((cp >> 6) & 0x3f));
      out += char(0x80 | (cp & 0x3f));
    }
  }

  std::string string() {
    ++i_; // the opening quote
    std::string out;
    for (;;) {
      if (i_ >= t_.size()) fail("'\"' closing the text");
      const char c = t_[i_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) {
        --i_;
        fail("no control character inside a text (escape it)");
      }
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= t_.size()) fail("an escape");
      const char e = t_[i_++];
      switch (e) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case '/': out += '/'; break;
      case 'b': out += '\b'; break;
      case 'f': out += '\f'; break;
      case 'n': out += '\n'; break;
      case 'r': out += '\r'; break;
      case 't': out += '\t'; break;
      case 'u': {
        unsigned cp = hex4();
        if (cp >= 0xd800 && cp < 0xdc00 && t_.compare(i_, 2, "\\u") == 0) {
          i_ += 2;
          const unsigned low = hex4();
          if (low >= 0xdc00 && low < 0xe000) cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
          else {
            utf8(cp, out);
            cp = low;
          }
        }
        utf8(cp, out);
        break;
      }
      default: --i_; fail("an escape (one of \" \\ / b f n r t u)");
      }
    }
  }

  Value number() {
    const std::size_t start = i_;
    if (t_[i_] == '-') ++i_;
    bool integral = true;
    auto digits = [&] {
      const std::size_t from = i_;
      while (i_ < t_.size() && t_[i_] >= '0' && t_[i_] <= '9')
        ++i_;
      if (i_ == from) fail("a digit");
    };
    digits();
    if (i_ < t_.size() && t_[i_] == '.') {
      integral = false;
      ++i_;
      digits();
    }
    if (i_ < t_.size() && (t_[i_] == 'e' || t_[i_] == 'E')) {
      integral = false;
      ++i_;
      if (i_ < t_.size() && (t_[i_] == '+' || t_[i_] == '-')) ++i_;
      digits();
    }
    const std::string s = t_.substr(start, i_ - start);
    if (integral) {
      errno = 0;
      char* end = nullptr;
      const long long v = std::strtoll(s.c_str(), &end, 10);
      if (errno == 0) return Value(std::int64_t(v));
    }
    return Value(std::strtod(s.c_str(), nullptr));
  }
};

void Printer::print(const Value& v, std::string& out) {
  std::visit(
      [&out](const auto& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          out += "null";
        } else if constexpr (std::is_same_v<T, bool>) {
          out += x ? "true" : "false";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          out += std::to_string(x);
        } else if constexpr (std::is_same_v<T, double>) {
          if (!std::isfinite(x)) {
            out += "null";
          } else {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%.17g", x);
            out += buf;
            // Keep a double a double when read back ("3" would read as an integer).
            if (std::string(buf).find_first_of(".eE") == std::string::npos) out += ".0";
          }
        } else if constexpr (std::is_same_v<T, std::string>) {
          out += jsonString(x);
        } else if constexpr (std::is_same_v<T, Array>) {
          out += '[';
          for (std::size_t k = 0; k < x.size(); ++k) {
            if (k) out += ',';
            print(x[k], out);
          }
          out += ']';
        } else {
          out += '{';
          bool first = true;
          for (const auto& [key, member] : x.members()) {
            if (!first) out += ',';
            first = false;
            out += jsonString(key);
            out += ':';
            print(member, out);
          }
          out += '}';
        }
      },
      v.v_);
}

Value parse(const std::string& text) { return Parser(text).document(); }

} // namespace steerbench::json
