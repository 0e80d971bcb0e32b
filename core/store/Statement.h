// The workspace's SQLite plumbing, shared by its table groups
// (Workspace*.cpp): a prepared statement finalized on scope exit, and what
// an SQLite result code means to a user. Internal to core/store.
#pragma once

#include "common/Error.h"

#include <sqlite3.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace steerbench::store {

/// One prepared statement, finalized on scope exit.
class Statement {
public:
  Statement(sqlite3* db, const char* sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK)
      throw WorkspaceError(std::string("workspace query failed: ") + sqlite3_errmsg(db));
  }
  ~Statement() { sqlite3_finalize(stmt_); }
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& bind(int i, std::int64_t v) { return check(sqlite3_bind_int64(stmt_, i, v)); }
  Statement& bind(int i, const std::string& v) {
    return check(sqlite3_bind_text(stmt_, i, v.data(), int(v.size()), SQLITE_TRANSIENT));
  }
  Statement& bindDouble(int i, double v) { return check(sqlite3_bind_double(stmt_, i, v)); }
  Statement& bindBlob(int i, const void* data, std::size_t n) {
    return check(sqlite3_bind_blob(stmt_, i, data, int(n), SQLITE_TRANSIENT));
  }
  /// Returns true while there is a row; throws on errors.
  bool step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    lastRc = rc;
    return false;
  }
  std::int64_t integer(int col) const { return sqlite3_column_int64(stmt_, col); }
  double real(int col) const { return sqlite3_column_double(stmt_, col); }
  int columns() const { return sqlite3_column_count(stmt_); }
  std::string text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    return p ? std::string(reinterpret_cast<const char*>(p), sqlite3_column_bytes(stmt_, col)) : std::string();
  }
  std::vector<double> doubles(int col) const {
    const void* p = sqlite3_column_blob(stmt_, col);
    const int n = sqlite3_column_bytes(stmt_, col);
    std::vector<double> v(std::size_t(n) / sizeof(double));
    if (p && !v.empty()) std::memcpy(v.data(), p, v.size() * sizeof(double));
    return v;
  }
  int lastRc = SQLITE_OK;

private:
  Statement& check(int rc) {
    if (rc != SQLITE_OK) throw WorkspaceError(std::string("workspace query failed: ") + sqlite3_errmsg(db_));
    return *this;
  }
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// What an SQLite result code means to a user, and what to do about it.
[[nodiscard]] std::string describeRc(int rc);

} // namespace steerbench::store
