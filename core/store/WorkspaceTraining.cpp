// Workspace: training runs and their steps, and samples.
#include "store/Workspace.h"

#include "store/Statement.h"

namespace steerbench::store {

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

} // namespace steerbench::store
