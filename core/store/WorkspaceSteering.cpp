// Workspace: steering runs, generations and candidates; active-learning runs and epochs.
#include "store/Workspace.h"

#include "store/Statement.h"

namespace steerbench::store {

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

void Workspace::setSteerCandidateCheck(std::int64_t candidate, const std::string& outcome, const std::string& detail) {
  Statement st(db_, "UPDATE steer_candidates SET check_outcome = ?, check_detail = ? WHERE id = ?");
  st.bind(1, outcome).bind(2, detail).bind(3, candidate);
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot record the check of steering candidate " + std::to_string(candidate), st.lastRc);
}

void Workspace::addSteerGeneration(SteerGenerationRecord g, std::vector<SteerCandidateRecord>& candidates) {
  for (auto& c : candidates) {
    Statement st(db_, "INSERT INTO steer_candidates(run_id, generation, parent_id, origin, text, hole_start, "
                      "hole_length, new_tokens, infill, compiled, error, kernel_name, features, distance, kept, replaced, "
                      "unclean, check_outcome, check_detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    st.bind(1, g.run).bind(2, std::int64_t(g.generation));
    if (c.parent) st.bind(3, c.parent);
    st.bind(4, c.origin).bind(5, c.text).bind(6, c.holeStart).bind(7, c.holeLength).bind(8, c.newTokens);
    st.bind(9, c.infill).bind(10, std::int64_t(c.compiled)).bind(11, c.error).bind(12, c.kernelName);
    if (!c.values.empty()) st.bindBlob(13, c.values.data(), c.values.size() * sizeof(double));
    if (c.distance >= 0) st.bindDouble(14, c.distance);
    st.bind(15, std::int64_t(c.kept)).bind(16, c.replaced).bind(17, c.unclean).bind(18, c.checkOutcome);
    st.bind(19, c.checkDetail);
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
    "compiled, error, kernel_name, features, COALESCE(distance, -1), kept, replaced, unclean, check_outcome, check_detail "
    "FROM steer_candidates";

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
  c.unclean = st.text(17);
  c.checkOutcome = st.text(18);
  c.checkDetail = st.text(19);
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

std::int64_t Workspace::steerRunnableBest(std::int64_t run) const {
  Statement st(db_, "SELECT id FROM steer_candidates WHERE run_id = ? AND check_outcome = 'PASS' AND distance IS NOT NULL "
                    "ORDER BY distance, id LIMIT 1");
  st.bind(1, run);
  if (st.step()) return st.integer(0);
  if (st.lastRc != SQLITE_OK) fail("cannot read steering run " + std::to_string(run), st.lastRc);
  return 0;
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
                    "steer_run_id, kernel_id, cases, labels_added, member) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  st.bind(1, e.run).bind(2, std::int64_t(e.epoch)).bind(3, e.labelled).bind(4, e.committee).bindDouble(5, e.entropy);
  st.bind(6, e.point).bind(7, e.target);
  if (e.steerRun) st.bind(8, e.steerRun);
  if (e.kernelId) st.bind(9, e.kernelId);
  st.bind(10, e.cases).bind(11, e.labelsAdded).bind(12, std::int64_t(e.member));
  st.step();
  if (st.lastRc != SQLITE_OK) fail("cannot store active-learning epoch " + std::to_string(e.epoch), st.lastRc);
}

std::vector<Workspace::ExploreEpochRecord> Workspace::exploreEpochs(std::int64_t run) const {
  Statement st(db_, "SELECT epoch, labelled, committee, entropy, point, target, COALESCE(steer_run_id, 0), "
                    "COALESCE(kernel_id, 0), cases, labels_added, member FROM explore_epochs WHERE run_id = ? "
                    "ORDER BY epoch, member");
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
    e.member = int(st.integer(10));
    out.push_back(std::move(e));
  }
  if (st.lastRc != SQLITE_OK) fail("cannot read active-learning run " + std::to_string(run), st.lastRc);
  return out;
}

} // namespace steerbench::store
