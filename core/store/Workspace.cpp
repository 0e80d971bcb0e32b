#include "store/Workspace.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "store/Schema.h"

#include <sqlite3.h>

#include <cstring>
#include <fstream>
#include <sys/stat.h>

namespace steerbench::store {
namespace {

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

bool fileExists(const std::string& path, off_t* size) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  *size = st.st_size;
  return true;
}

/// Checks an existing file without writing to it. Throws WorkspaceError.
void validateExisting(const std::string& path, off_t size) {
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

std::int64_t Workspace::addKernel(KernelRecord k) {
  if (k.contentHash.empty()) k.contentHash = sha256Hex(k.source);
  {
    Statement find(db_, "SELECT id FROM kernels WHERE content_hash = ? AND name = ?");
    find.bind(1, k.contentHash).bind(2, k.name);
    if (find.step()) return find.integer(0);
    if (find.lastRc != SQLITE_OK) fail("cannot read kernels", find.lastRc);
  }
  Statement ins(db_, "INSERT INTO kernels(name, source, content_hash, origin_file, package, license, flags, role, "
                     "dedupe_hash, family, original, reconstructed, tokens) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  ins.bind(1, k.name).bind(2, k.source).bind(3, k.contentHash).bind(4, k.originFile).bind(5, k.package);
  ins.bind(6, k.license).bind(7, k.flags).bind(8, k.role).bind(9, k.dedupeHash).bind(10, k.family);
  ins.bind(11, k.original).bind(12, k.reconstructed).bind(13, k.tokens);
  ins.step();
  if (ins.lastRc != SQLITE_OK) fail("cannot store kernel '" + k.name + "'", ins.lastRc);
  return sqlite3_last_insert_rowid(db_);
}

std::optional<KernelRecord> Workspace::kernel(std::int64_t id) const {
  Statement st(db_, "SELECT id, name, source, content_hash, origin_file, package, license, flags, role, dedupe_hash, "
                    "family, original, reconstructed, tokens FROM kernels WHERE id = ?");
  st.bind(1, id);
  if (!st.step()) {
    if (st.lastRc != SQLITE_OK) fail("cannot read kernel", st.lastRc);
    return std::nullopt;
  }
  return KernelRecord{st.integer(0), st.text(1), st.text(2), st.text(3),  st.text(4),  st.text(5),  st.text(6),
                      st.text(7),    st.text(8), st.text(9), st.text(10), st.text(11), st.text(12), st.integer(13)};
}

std::int64_t Workspace::kernelCount() const {
  Statement st(db_, "SELECT count(*) FROM kernels");
  return st.step() ? st.integer(0) : 0;
}

void Workspace::putFeatures(const FeatureRecord& f) {
  Statement st(db_, "INSERT OR REPLACE INTO feature_vectors(kernel_id, space, space_version, dims, vals, "
                    "from_errors, spec) VALUES (?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, f.kernelId).bind(2, f.space).bind(3, std::int64_t(f.spaceVersion));
  st.bind(4, std::int64_t(f.values.size()));
  st.bindBlob(5, f.values.data(), f.values.size() * sizeof(double));
  st.bind(6, std::int64_t(f.fromErrors ? 1 : 0)).bind(7, f.spec);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store the " + f.space + " vector", st.lastRc);
}

std::optional<FeatureRecord> Workspace::features(std::int64_t kernelId, const std::string& space,
                                                 int spaceVersion) const {
  Statement st(db_, "SELECT vals, from_errors, spec FROM feature_vectors "
                    "WHERE kernel_id = ? AND space = ? AND space_version = ?");
  st.bind(1, kernelId).bind(2, space).bind(3, std::int64_t(spaceVersion));
  if (!st.step()) {
    if (st.lastRc != SQLITE_OK) fail("cannot read features", st.lastRc);
    return std::nullopt;
  }
  return FeatureRecord{kernelId, space, spaceVersion, st.doubles(0), st.integer(1) != 0, st.text(2)};
}

std::int64_t Workspace::featureCount(const std::string& space) const {
  Statement st(db_, "SELECT count(*) FROM feature_vectors WHERE space = ?");
  st.bind(1, space);
  return st.step() ? st.integer(0) : 0;
}

std::vector<FeatureRow> Workspace::featureRows(const std::string& space, int spaceVersion) const {
  Statement st(db_, "SELECT k.id, k.name, k.role, f.vals FROM feature_vectors f JOIN kernels k ON k.id = f.kernel_id "
                    "WHERE f.space = ? AND f.space_version = ? ORDER BY k.id");
  st.bind(1, space).bind(2, std::int64_t(spaceVersion));
  std::vector<FeatureRow> out;
  while (st.step())
    out.push_back(FeatureRow{st.integer(0), st.text(1), st.text(2), st.doubles(3)});
  if (st.lastRc != SQLITE_OK) fail("cannot read the " + space + " vectors", st.lastRc);
  return out;
}

std::int64_t Workspace::trainingRunFor(const std::string& checkpoint) const {
  Statement st(db_, "SELECT id FROM training_runs WHERE checkpoint = ? ORDER BY id DESC LIMIT 1");
  st.bind(1, checkpoint);
  return st.step() ? st.integer(0) : 0;
}

std::int64_t Workspace::addTrainingRun(const std::string& checkpoint, const std::string& specJson) {
  Statement st(db_, "INSERT INTO training_runs(checkpoint, spec) VALUES (?, ?)");
  st.bind(1, checkpoint).bind(2, specJson);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record the training run", st.lastRc);
  return sqlite3_last_insert_rowid(db_);
}

void Workspace::addTrainingStep(std::int64_t run, std::int64_t step, double loss, double validationLoss,
                                double tokensPerSecond, double labelsPerSecond, double elapsedSeconds,
                                double cpuSeconds) {
  Statement st(db_, "INSERT OR REPLACE INTO training_steps(run_id, step, loss, validation_loss, tokens_per_s, "
                    "labels_per_s, elapsed_s, cpu_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, run).bind(2, step).bindDouble(3, loss);
  if (validationLoss >= 0) st.bindDouble(4, validationLoss);
  st.bindDouble(5, tokensPerSecond).bindDouble(6, labelsPerSecond).bindDouble(7, elapsedSeconds).bindDouble(8, cpuSeconds);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record training progress", st.lastRc);
}

void Workspace::setTrainingStatus(std::int64_t run, const std::string& status) {
  Statement st(db_, "UPDATE training_runs SET status = ? WHERE id = ?");
  st.bind(1, status).bind(2, run);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record the training status", st.lastRc);
}

void Workspace::setTrainingSpec(std::int64_t run, const std::string& specJson) {
  Statement st(db_, "UPDATE training_runs SET spec = ? WHERE id = ?");
  st.bind(1, specJson).bind(2, run);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record the training spec", st.lastRc);
}

std::int64_t Workspace::addSample(const SampleRecord& x) {
  Statement st(db_, "INSERT INTO samples(feed, text, new_tokens, complete, compiled, error, model_sha256, seed, spec, "
                    "kernel_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, x.feed).bind(2, x.text).bind(3, x.newTokens).bind(4, std::int64_t(x.complete));
  st.bind(5, std::int64_t(x.compiled)).bind(6, x.error).bind(7, x.modelHash).bind(8, x.seed).bind(9, x.spec);
  if (x.kernelId) st.bind(10, x.kernelId);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store a sample", st.lastRc);
  return sqlite3_last_insert_rowid(db_);
}

std::int64_t Workspace::addDriveCase(const DriveCaseRecord& c) {
  Statement st(db_, "INSERT INTO drive_cases(kernel_id, kernel_name, global_size, local_size, transfer_bytes, outcome, "
                    "detail, label, label_status, spec_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, c.kernelId).bind(2, c.kernelName).bind(3, c.globalSize).bind(4, c.localSize).bind(5, c.transferBytes);
  st.bind(6, c.outcome).bind(7, c.detail).bind(8, c.label).bind(9, c.labelStatus).bind(10, c.specHash);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store the drive result of " + c.kernelName, st.lastRc);
  const std::int64_t id = sqlite3_last_insert_rowid(db_);
  for (std::size_t i = 0; i < c.devices.size(); ++i) {
    const auto& m = c.devices[i];
    Statement ms(db_, "INSERT INTO drive_measurements(case_id, position, device_id, device, device_type, outcome, "
                      "detail, runs, kernel_median_ns, kernel_mean_ns, kernel_ci_low_ns, kernel_ci_high_ns, "
                      "transfer_median_ns, transfer_mean_ns, transfer_ci_low_ns, transfer_ci_high_ns, "
                      "total_median_ns, total_mean_ns, total_ci_low_ns, total_ci_high_ns, kernel_ns, transfer_ns) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    ms.bind(1, id).bind(2, std::int64_t(i)).bind(3, m.deviceId).bind(4, m.device).bind(5, m.deviceType);
    ms.bind(6, m.outcome).bind(7, m.detail).bind(8, m.total.n);
    int col = 9;
    for (const DriveStats* s : {&m.kernel, &m.transfer, &m.total}) {
      if (s->n == 0) { // not measured: NULL, never a zero time
        col += 4;
        continue;
      }
      ms.bindDouble(col++, s->median).bindDouble(col++, s->mean).bindDouble(col++, s->ciLow);
      ms.bindDouble(col++, s->ciHigh);
    }
    ms.bind(21, m.kernelNs).bind(22, m.transferNs);
    ms.step();
    if (ms.lastRc != SQLITE_OK) fail("cannot store the drive result of " + c.kernelName, ms.lastRc);
  }
  return id;
}

std::vector<Workspace::DriveCaseRecord> Workspace::driveCases() const {
  std::vector<DriveCaseRecord> out;
  {
    Statement st(db_, "SELECT id, kernel_id, kernel_name, global_size, local_size, transfer_bytes, outcome, detail, "
                      "label, label_status, spec_hash, created_at FROM drive_cases ORDER BY id");
    while (st.step()) {
      DriveCaseRecord c;
      c.id = st.integer(0);
      c.kernelId = st.integer(1);
      c.kernelName = st.text(2);
      c.globalSize = st.integer(3);
      c.localSize = st.integer(4);
      c.transferBytes = st.integer(5);
      c.outcome = st.text(6);
      c.detail = st.text(7);
      c.label = st.text(8);
      c.labelStatus = st.text(9);
      c.specHash = st.text(10);
      c.createdAt = st.text(11);
      out.push_back(std::move(c));
    }
    if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  }
  Statement st(db_, "SELECT case_id, device_id, device, device_type, outcome, detail, runs, kernel_median_ns, "
                    "kernel_mean_ns, kernel_ci_low_ns, kernel_ci_high_ns, transfer_median_ns, transfer_mean_ns, "
                    "transfer_ci_low_ns, transfer_ci_high_ns, total_median_ns, total_mean_ns, total_ci_low_ns, "
                    "total_ci_high_ns, kernel_ns, transfer_ns FROM drive_measurements ORDER BY case_id, position");
  std::size_t at = 0;
  while (st.step()) {
    const std::int64_t caseId = st.integer(0);
    while (at < out.size() && out[at].id < caseId)
      ++at;
    if (at == out.size()) break;
    if (out[at].id != caseId) continue;
    DriveMeasurementRecord m;
    m.deviceId = st.text(1);
    m.device = st.text(2);
    m.deviceType = st.text(3);
    m.outcome = st.text(4);
    m.detail = st.text(5);
    int col = 7;
    for (DriveStats* s : {&m.kernel, &m.transfer, &m.total}) {
      s->n = st.integer(6);
      s->median = st.real(col++);
      s->mean = st.real(col++);
      s->ciLow = st.real(col++);
      s->ciHigh = st.real(col++);
    }
    m.kernelNs = st.text(19);
    m.transferNs = st.text(20);
    out[at].devices.push_back(std::move(m));
  }
  if (st.lastRc != SQLITE_OK) fail("cannot read the drive results", st.lastRc);
  return out;
}

// --- steering ----------------------------------------------------------------

namespace {

std::string idList(const std::vector<std::int64_t>& ids) {
  std::string s = "[";
  for (std::size_t i = 0; i < ids.size(); ++i)
    s += (i ? "," : "") + std::to_string(ids[i]);
  return s + "]";
}

std::vector<std::int64_t> parseIdList(const std::string& s) {
  std::vector<std::int64_t> out;
  std::int64_t v = 0;
  bool in = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      in = true;
    } else if (in) {
      out.push_back(v);
      v = 0;
      in = false;
    }
  }
  if (in) out.push_back(v);
  return out;
}

} // namespace

std::int64_t Workspace::addSteerRun(const SteerRunRecord& r) {
  Statement st(db_, "INSERT INTO steer_runs(space, space_version, target, spec_hash, model_sha256, status, stop_reason, "
                    "elapsed_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, r.space).bind(2, std::int64_t(r.spaceVersion)).bind(3, r.target).bind(4, r.specHash);
  st.bind(5, r.modelHash).bind(6, r.status).bind(7, r.stopReason).bindDouble(8, r.elapsed);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store the steering run", st.lastRc);
  return sqlite3_last_insert_rowid(db_);
}

void Workspace::setSteerRunStatus(std::int64_t run, const std::string& status, const std::string& stopReason,
                                  double elapsed, std::int64_t bestKernelId) {
  Statement st(db_, "UPDATE steer_runs SET status = ?, stop_reason = ?, elapsed_s = ?, "
                    "best_kernel_id = COALESCE(?, best_kernel_id) WHERE id = ?");
  st.bind(1, status).bind(2, stopReason).bindDouble(3, elapsed);
  if (bestKernelId) st.bind(4, bestKernelId);
  st.bind(5, run);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot update steering run " + std::to_string(run), st.lastRc);
}

void Workspace::addSteerGeneration(SteerGenerationRecord g, std::vector<SteerCandidateRecord>& candidates) {
  for (auto& c : candidates) {
    Statement st(db_, "INSERT INTO steer_candidates(run_id, generation, parent_id, origin, text, hole_start, "
                      "hole_length, new_tokens, infill, compiled, error, kernel_name, features, distance, kept, replaced) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, g.run).bind(2, std::int64_t(g.generation));
    if (c.parent) st.bind(3, c.parent);
    st.bind(4, c.origin).bind(5, c.text).bind(6, c.holeStart).bind(7, c.holeLength).bind(8, c.newTokens);
    st.bind(9, c.infill).bind(10, std::int64_t(c.compiled)).bind(11, c.error).bind(12, c.kernelName);
    if (!c.values.empty()) st.bindBlob(13, c.values.data(), c.values.size() * sizeof(double));
    if (c.distance >= 0) st.bindDouble(14, c.distance);
    st.bind(15, std::int64_t(c.kept)).bind(16, c.replaced);
    st.step();
    if (st.lastRc != SQLITE_OK) fail("cannot store a steering candidate", st.lastRc);
    c.id = sqlite3_last_insert_rowid(db_);
    c.run = g.run;
    c.generation = g.generation;
  }
  std::vector<std::int64_t> beam;
  for (auto b : g.beam)
    beam.push_back(b >= 0 ? candidates.at(std::size_t(b)).id : ~b);
  if (g.bestId < 0) g.bestId = candidates.at(std::size_t(~g.bestId)).id;
  Statement st(db_, "INSERT INTO steer_generations(run_id, generation, candidates, compiled, best_distance, "
                    "median_distance, best_id, beam, elapsed_s, seconds) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, g.run).bind(2, std::int64_t(g.generation)).bind(3, g.candidates).bind(4, g.compiled);
  if (g.bestDistance >= 0) st.bindDouble(5, g.bestDistance);
  if (g.medianDistance >= 0) st.bindDouble(6, g.medianDistance);
  if (g.bestId) st.bind(7, g.bestId);
  st.bind(8, idList(beam)).bindDouble(9, g.elapsed).bindDouble(10, g.seconds);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store steering generation " + std::to_string(g.generation), st.lastRc);
}

namespace {

constexpr const char* kRunColumns = "id, space, space_version, target, spec_hash, model_sha256, status, stop_reason, "
                                    "elapsed_s, COALESCE(best_kernel_id, 0), created_at FROM steer_runs";

Workspace::SteerRunRecord readRun(const Statement& st) {
  Workspace::SteerRunRecord r;
  r.id = st.integer(0);
  r.space = st.text(1);
  r.spaceVersion = int(st.integer(2));
  r.target = st.text(3);
  r.specHash = st.text(4);
  r.modelHash = st.text(5);
  r.status = st.text(6);
  r.stopReason = st.text(7);
  r.elapsed = st.real(8);
  r.bestKernelId = st.integer(9);
  r.createdAt = st.text(10);
  return r;
}

constexpr const char* kCandidateColumns =
    "id, run_id, generation, COALESCE(parent_id, 0), origin, text, hole_start, hole_length, new_tokens, infill, "
    "compiled, error, kernel_name, features, COALESCE(distance, -1), kept, replaced FROM steer_candidates";

Workspace::SteerCandidateRecord readCandidate(const Statement& st) {
  Workspace::SteerCandidateRecord c;
  c.id = st.integer(0);
  c.run = st.integer(1);
  c.generation = int(st.integer(2));
  c.parent = st.integer(3);
  c.origin = st.text(4);
  c.text = st.text(5);
  c.holeStart = st.integer(6);
  c.holeLength = st.integer(7);
  c.newTokens = st.integer(8);
  c.infill = st.text(9);
  c.compiled = st.integer(10) != 0;
  c.error = st.text(11);
  c.kernelName = st.text(12);
  c.values = st.doubles(13);
  c.distance = st.real(14);
  c.kept = st.integer(15) != 0;
  c.replaced = st.text(16);
  return c;
}

} // namespace

std::vector<Workspace::SteerRunRecord> Workspace::steerRuns() const {
  Statement st(db_, (std::string("SELECT ") + kRunColumns + " ORDER BY id").c_str());
  std::vector<SteerRunRecord> out;
  while (st.step())
    out.push_back(readRun(st));
  if (st.lastRc != SQLITE_OK) fail("cannot read the steering runs", st.lastRc);
  return out;
}

std::optional<Workspace::SteerRunRecord> Workspace::steerRun(std::int64_t id) const {
  Statement st(db_, (std::string("SELECT ") + kRunColumns + " WHERE id = ?").c_str());
  st.bind(1, id);
  if (st.step()) return readRun(st);
  if (st.lastRc != SQLITE_OK) fail("cannot read steering run " + std::to_string(id), st.lastRc);
  return std::nullopt;
}

std::vector<Workspace::SteerGenerationRecord> Workspace::steerGenerations(std::int64_t run) const {
  Statement st(db_, "SELECT generation, candidates, compiled, COALESCE(best_distance, -1), "
                    "COALESCE(median_distance, -1), COALESCE(best_id, 0), beam, elapsed_s, seconds "
                    "FROM steer_generations WHERE run_id = ? ORDER BY generation");
  st.bind(1, run);
  std::vector<SteerGenerationRecord> out;
  while (st.step()) {
    SteerGenerationRecord g;
    g.run = run;
    g.generation = int(st.integer(0));
    g.candidates = st.integer(1);
    g.compiled = st.integer(2);
    g.bestDistance = st.real(3);
    g.medianDistance = st.real(4);
    g.bestId = st.integer(5);
    g.beam = parseIdList(st.text(6));
    g.elapsed = st.real(7);
    g.seconds = st.real(8);
    out.push_back(std::move(g));
  }
  if (st.lastRc != SQLITE_OK) fail("cannot read the generations of steering run " + std::to_string(run), st.lastRc);
  return out;
}

std::vector<Workspace::SteerCandidateRecord> Workspace::steerCandidates(std::int64_t run, int generation) const {
  Statement st(db_, (std::string("SELECT ") + kCandidateColumns +
                     " WHERE run_id = ? AND (? < 0 OR generation = ?) ORDER BY id")
                        .c_str());
  st.bind(1, run).bind(2, std::int64_t(generation)).bind(3, std::int64_t(generation));
  std::vector<SteerCandidateRecord> out;
  while (st.step())
    out.push_back(readCandidate(st));
  if (st.lastRc != SQLITE_OK) fail("cannot read the candidates of steering run " + std::to_string(run), st.lastRc);
  return out;
}

std::optional<Workspace::SteerCandidateRecord> Workspace::steerCandidate(std::int64_t id) const {
  Statement st(db_, (std::string("SELECT ") + kCandidateColumns + " WHERE id = ?").c_str());
  st.bind(1, id);
  if (st.step()) return readCandidate(st);
  if (st.lastRc != SQLITE_OK) fail("cannot read steering candidate " + std::to_string(id), st.lastRc);
  return std::nullopt;
}

std::int64_t Workspace::addExploreRun(const std::string& mode, const std::string& specHash) {
  Statement st(db_, "INSERT INTO explore_runs(mode, spec_hash) VALUES (?, ?)");
  st.bind(1, mode).bind(2, specHash);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store the active-learning run", st.lastRc);
  return sqlite3_last_insert_rowid(db_);
}

void Workspace::setExploreStatus(std::int64_t run, const std::string& status) {
  Statement st(db_, "UPDATE explore_runs SET status = ? WHERE id = ?");
  st.bind(1, status).bind(2, run);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot update active-learning run " + std::to_string(run), st.lastRc);
}

void Workspace::addExploreEpoch(const ExploreEpochRecord& e) {
  Statement st(db_, "INSERT INTO explore_epochs(run_id, epoch, labelled, committee, entropy, point, target, "
                    "steer_run_id, kernel_id, cases, labels_added) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, e.run).bind(2, std::int64_t(e.epoch)).bind(3, e.labelled).bind(4, e.committee).bindDouble(5, e.entropy);
  st.bind(6, e.point).bind(7, e.target);
  if (e.steerRun) st.bind(8, e.steerRun);
  if (e.kernelId) st.bind(9, e.kernelId);
  st.bind(10, e.cases).bind(11, e.labelsAdded);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store active-learning epoch " + std::to_string(e.epoch), st.lastRc);
}

std::vector<Workspace::ExploreEpochRecord> Workspace::exploreEpochs(std::int64_t run) const {
  Statement st(db_, "SELECT epoch, labelled, committee, entropy, point, target, COALESCE(steer_run_id, 0), "
                    "COALESCE(kernel_id, 0), cases, labels_added FROM explore_epochs WHERE run_id = ? ORDER BY epoch");
  st.bind(1, run);
  std::vector<ExploreEpochRecord> out;
  while (st.step()) {
    ExploreEpochRecord e;
    e.run = run;
    e.epoch = int(st.integer(0));
    e.labelled = st.integer(1);
    e.committee = st.text(2);
    e.entropy = st.real(3);
    e.point = st.text(4);
    e.target = st.text(5);
    e.steerRun = st.integer(6);
    e.kernelId = st.integer(7);
    e.cases = st.integer(8);
    e.labelsAdded = st.integer(9);
    out.push_back(std::move(e));
  }
  if (st.lastRc != SQLITE_OK) fail("cannot read active-learning run " + std::to_string(run), st.lastRc);
  return out;
}

std::string Workspace::spec(const std::string& hash) const {
  Statement st(db_, "SELECT json FROM specs WHERE hash = ?");
  st.bind(1, hash);
  return st.step() ? st.text(0) : std::string();
}

bool Workspace::corpusFileDone(const std::string& path, const std::string& contentHash,
                               const std::string& specHash) const {
  Statement st(db_, "SELECT 1 FROM corpus_files WHERE path = ? AND content_hash = ? AND spec_hash = ?");
  st.bind(1, path).bind(2, contentHash).bind(3, specHash);
  return st.step();
}

std::int64_t Workspace::addCorpusFile(const CorpusFileRecord& f) {
  Statement st(db_, "INSERT OR REPLACE INTO corpus_files(path, content_hash, package, spec_hash, stage, reason) "
                    "VALUES (?, ?, ?, ?, ?, ?)");
  st.bind(1, f.path).bind(2, f.contentHash).bind(3, f.package).bind(4, f.specHash).bind(5, f.stage).bind(6, f.reason);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record file " + f.path, st.lastRc);
  return sqlite3_last_insert_rowid(db_);
}

void Workspace::addCorpusKernel(std::int64_t fileId, const CorpusKernelRecord& k) {
  Statement st(db_,
               "INSERT INTO corpus_kernels(file_id, name, stage, reason, compiled_as_is, reconstructed, kernel_id) "
               "VALUES (?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, fileId).bind(2, k.name).bind(3, k.stage).bind(4, k.reason);
  st.bind(5, std::int64_t(k.compiledAsIs)).bind(6, std::int64_t(k.reconstructed));
  if (k.kernelId) st.bind(7, k.kernelId);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record kernel " + k.name, st.lastRc);
}

std::int64_t Workspace::kernelByDedupeHash(const std::string& hash) const {
  Statement st(db_, "SELECT id FROM kernels WHERE dedupe_hash = ? LIMIT 1");
  st.bind(1, hash);
  return st.step() ? st.integer(0) : 0;
}

void Workspace::setRole(std::int64_t kernelId, const std::string& role) {
  Statement st(db_, "UPDATE kernels SET role = ? WHERE id = ?");
  st.bind(1, role).bind(2, kernelId);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot update kernel roles", st.lastRc);
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

std::int64_t Workspace::pageCount() const {
  Statement st(db_, "PRAGMA page_count");
  return st.step() ? st.integer(0) : 0;
}

void Workspace::setMaxPages(std::int64_t pages) {
  Statement st(db_, ("PRAGMA max_page_count = " + std::to_string(pages)).c_str());
  st.step();
}

} // namespace steerbench::store
