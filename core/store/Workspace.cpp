// Workspace: opening, validating and migrating the file, transactions, specs
// and raw queries. The table groups are in WorkspaceKernels.cpp,
// WorkspaceTraining.cpp, WorkspaceDrive.cpp and WorkspaceSteering.cpp.
#include "store/Workspace.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "store/Schema.h"
#include "store/Statement.h"

#include <sqlite3.h>

#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace steerbench::store {

std::string describeRc(int rc) {
  switch (rc & 0xff) {
  case SQLITE_FULL: return "the disk is full; free some space and try again (nothing of this step was saved)";
  case SQLITE_READONLY: return "the workspace is read-only; check the file's permissions";
  case SQLITE_BUSY:
  case SQLITE_LOCKED: return "the workspace is locked by another program; close it there and try again";
  case SQLITE_CORRUPT:
  case SQLITE_NOTADB: return "the workspace file is corrupt; restore it from a backup";
  case SQLITE_IOERR: return "an I/O error occurred (disk full or failing?)";
  case SQLITE_CANTOPEN: return "cannot open the file; check the folder exists and is writable";
  default: return sqlite3_errstr(rc);
  }
}

namespace {

bool fileExists(const std::string& path, off_t* size) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  *size = st.st_size;
  return true;
}

/// Checks an existing file without writing to it and returns its schema
/// version. Throws WorkspaceError.
int validateExisting(const std::string& path, off_t size) {
  if (size == 0)
    throw WorkspaceError(path + ": the file is empty, not a Steerbench workspace; choose another path "
                                "or delete it to start a new workspace");
  {
    char header[16] = {};
    std::ifstream in(path, std::ios::binary);
    in.read(header, sizeof header);
    if (!in || std::memcmp(header, "SQLite format 3", 16) != 0)
      throw WorkspaceError(path + ": not a Steerbench workspace (the file is not an SQLite database); "
                                  "check the path, the file was left untouched");
  }
  sqlite3* db = nullptr;
  int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
  auto closeDb = [&] { sqlite3_close(db); };
  if (rc != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    closeDb();
    throw WorkspaceError(path + ": cannot open the workspace: " + msg);
  }
  auto pragmaInt = [&](const char* sql, std::int64_t* out) -> int {
    sqlite3_stmt* st = nullptr;
    int r = sqlite3_prepare_v2(db, sql, -1, &st, nullptr);
    if (r == SQLITE_OK) {
      r = sqlite3_step(st);
      if (r == SQLITE_ROW) {
        *out = sqlite3_column_int64(st, 0);
        r = SQLITE_OK;
      }
    }
    sqlite3_finalize(st);
    return r;
  };
  std::int64_t appId = 0, version = 0;
  rc = pragmaInt("PRAGMA application_id", &appId);
  if (rc == SQLITE_OK) rc = pragmaInt("PRAGMA user_version", &version);
  if (rc != SQLITE_OK) {
    closeDb();
    throw WorkspaceError(path + ": the workspace is corrupt and cannot be read (" + sqlite3_errstr(rc) +
                         "); the file was left untouched: restore it from a backup");
  }
  if (appId != kApplicationId) {
    closeDb();
    throw WorkspaceError(path + ": an SQLite database, but not a Steerbench workspace; the file was left "
                                "untouched: choose a .sbw workspace or a new path");
  }
  const auto current = static_cast<std::int64_t>(migrations().size());
  if (version > current) {
    closeDb();
    throw WorkspaceError(path + ": written by a newer Steerbench (workspace schema " + std::to_string(version) +
                         ", this build reads up to " + std::to_string(current) +
                         "); upgrade Steerbench to open it. The file was left untouched");
  }
  sqlite3_stmt* st = nullptr;
  std::string verdict;
  rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &st, nullptr);
  if (rc == SQLITE_OK) {
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      const auto* t = sqlite3_column_text(st, 0);
      if (t && std::strcmp(reinterpret_cast<const char*>(t), "ok") != 0 && verdict.empty())
        verdict = reinterpret_cast<const char*>(t);
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
  }
  sqlite3_finalize(st);
  closeDb();
  if (rc != SQLITE_OK || !verdict.empty())
    throw WorkspaceError(path + ": the workspace is corrupt (" + (verdict.empty() ? sqlite3_errstr(rc) : verdict) +
                         "); the file was left untouched: restore it from a backup");
  return int(version);
}

} // namespace

Workspace::Workspace(std::string path) : path_(std::move(path)) {}
Workspace::Workspace(Workspace&& o) noexcept : path_(std::move(o.path_)), db_(o.db_) {
  o.db_ = nullptr;
}
Workspace& Workspace::operator=(Workspace&& o) noexcept {
  if (this != &o) {
    if (db_) sqlite3_close(db_);
    path_ = std::move(o.path_);
    db_ = o.db_;
    o.db_ = nullptr;
  }
  return *this;
}
Workspace::~Workspace() {
  if (db_) sqlite3_close(db_);
}

int Workspace::inspect(const std::string& path) {
  off_t size = 0;
  if (!fileExists(path, &size)) throw WorkspaceError(path + ": no such workspace; check the path");
  return validateExisting(path, size);
}

int Workspace::currentSchemaVersion() {
  return static_cast<int>(migrations().size());
}

void Workspace::fail(const std::string& what, int rc) const {
  throw WorkspaceError(path_ + ": " + what + ": " + describeRc(rc));
}

void Workspace::exec(const char* sql) {
  char* err = nullptr;
  int rc = sqlite3_exec(db_, sql, nullptr, nullptr, &err);
  if (rc != SQLITE_OK) {
    std::string msg = err ? err : "";
    sqlite3_free(err);
    throw WorkspaceError(path_ + ": " + describeRc(rc) + (msg.empty() ? "" : " (" + msg + ")"));
  }
}

void Workspace::begin() {
  exec("BEGIN IMMEDIATE");
}
void Workspace::commit() {
  exec("COMMIT");
}
void Workspace::rollback() {
  if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
}

Workspace Workspace::open(const std::string& path, Mode mode) {
  off_t size = 0;
  const bool exists = fileExists(path, &size);
  if (!exists && mode == Mode::OpenExisting)
    throw WorkspaceError(path + ": no such workspace; check the path, or create one with --workspace on a new path");
  if (exists) validateExisting(path, size);

  Workspace ws(path);
  int rc = sqlite3_open_v2(path.c_str(), &ws.db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) ws.fail("cannot open the workspace", rc);
  sqlite3_busy_timeout(ws.db_, 5000);
  sqlite3_extended_result_codes(ws.db_, 1);
  ws.exec("PRAGMA foreign_keys = ON");
  ws.exec("PRAGMA journal_mode = WAL");
  ws.exec("PRAGMA synchronous = NORMAL");

  const int from = ws.schemaVersion();
  const int to = currentSchemaVersion();
  if (from < to) {
    ws.transaction([&] {
      if (from == 0) {
        ws.exec(("PRAGMA application_id = " + std::to_string(kApplicationId)).c_str());
      }
      for (int v = from; v < to; ++v) {
        ws.exec(migrations()[static_cast<std::size_t>(v)]);
        ws.exec(("PRAGMA user_version = " + std::to_string(v + 1)).c_str());
      }
    });
  }
  return ws;
}

int Workspace::schemaVersion() const {
  Statement st(db_, "PRAGMA user_version");
  return st.step() ? static_cast<int>(st.integer(0)) : 0;
}

std::string Workspace::spec(const std::string& hash) const {
  Statement st(db_, "SELECT json FROM specs WHERE hash = ?");
  st.bind(1, hash);
  return st.step() ? st.text(0) : std::string();
}

std::string Workspace::putSpec(const std::string& json) {
  const std::string hash = sha256Hex(json);
  Statement st(db_, "INSERT OR IGNORE INTO specs(hash, json) VALUES (?, ?)");
  st.bind(1, hash).bind(2, json);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record the spec", st.lastRc);
  return hash;
}

std::vector<std::vector<std::string>> Workspace::rows(const std::string& sql) const {
  Statement st(db_, sql.c_str());
  std::vector<std::vector<std::string>> out;
  while (st.step()) {
    std::vector<std::string> row;
    for (int i = 0; i < st.columns(); ++i)
      row.push_back(st.text(i));
    out.push_back(std::move(row));
  }
  if (st.lastRc != SQLITE_OK) fail("query failed", st.lastRc);
  return out;
}

std::string Workspace::integrityCheck() const {
  auto r = rows("PRAGMA integrity_check");
  return r.empty() || r[0].empty() ? "no answer" : r[0][0];
}

void Workspace::copyTo(const std::string& path) const {
  Statement st(db_, "VACUUM INTO ?");
  st.bind(1, path);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot copy the workspace to " + path, st.lastRc);
}

std::int64_t Workspace::pageCount() const {
  Statement st(db_, "PRAGMA page_count");
  return st.step() ? st.integer(0) : 0;
}

void Workspace::setMaxPages(std::int64_t pages) {
  Statement st(db_, ("PRAGMA max_page_count = " + std::to_string(pages)).c_str());
  st.step();
}

} // namespace steerbench::store
