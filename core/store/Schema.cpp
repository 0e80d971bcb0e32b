#include "store/Schema.h"

namespace steerbench::store {

const std::vector<const char*>& migrations() {
  static const std::vector<const char*> m = {
      // 0 -> 1: kernels and their feature vectors.
      R"sql(
CREATE TABLE kernels (
  id           INTEGER PRIMARY KEY,
  name         TEXT NOT NULL,
  source       TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  origin_file  TEXT NOT NULL DEFAULT '',
  package      TEXT NOT NULL DEFAULT '',
  license      TEXT NOT NULL DEFAULT '',
  flags        TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  UNIQUE (content_hash, name)
);
CREATE TABLE feature_vectors (
  kernel_id     INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
  space         TEXT NOT NULL,
  space_version INTEGER NOT NULL,
  dims          INTEGER NOT NULL,
  vals          BLOB NOT NULL,          -- dims little-endian float64
  from_errors   INTEGER NOT NULL DEFAULT 0,
  spec          TEXT NOT NULL DEFAULT '{}',
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (kernel_id, space, space_version)
);
CREATE INDEX feature_vectors_space ON feature_vectors(space, space_version);
)sql",
      // 1 -> 2: the corpus: per-kernel corpus fields, files ingested, and the
      // outcome of every kernel found (for stage counts and resuming).
      R"sql(
ALTER TABLE kernels ADD COLUMN role TEXT NOT NULL DEFAULT 'user';      -- user, train, held_out, capped
ALTER TABLE kernels ADD COLUMN dedupe_hash TEXT NOT NULL DEFAULT '';   -- sha256 of whitespace-folded source
ALTER TABLE kernels ADD COLUMN family TEXT NOT NULL DEFAULT '';        -- template family (near-duplicates)
ALTER TABLE kernels ADD COLUMN original TEXT NOT NULL DEFAULT '';      -- isolated unit before rewriting
ALTER TABLE kernels ADD COLUMN reconstructed TEXT NOT NULL DEFAULT ''; -- declarations reconstruction added
ALTER TABLE kernels ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0;
CREATE INDEX kernels_dedupe ON kernels(dedupe_hash);
CREATE INDEX kernels_role ON kernels(role);
CREATE TABLE corpus_files (
  id           INTEGER PRIMARY KEY,
  path         TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  package      TEXT NOT NULL DEFAULT '',
  spec_hash    TEXT NOT NULL,                 -- the ingest options that processed it
  stage        TEXT NOT NULL,                 -- done (kernels found), or the stage that rejected it
  reason       TEXT NOT NULL DEFAULT '',
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  UNIQUE (path, content_hash, spec_hash)
);
CREATE TABLE corpus_kernels (
  file_id        INTEGER NOT NULL REFERENCES corpus_files(id) ON DELETE CASCADE,
  name           TEXT NOT NULL,
  stage          TEXT NOT NULL,               -- where it stopped: stored, dedupe, reconstruct, compile, rewrite
  reason         TEXT NOT NULL DEFAULT '',
  compiled_as_is INTEGER NOT NULL DEFAULT 0,
  reconstructed  INTEGER NOT NULL DEFAULT 0,  -- compiled only thanks to reconstruction
  kernel_id      INTEGER REFERENCES kernels(id) ON DELETE SET NULL
);
CREATE INDEX corpus_kernels_file ON corpus_kernels(file_id);
CREATE TABLE specs (
  hash TEXT PRIMARY KEY,
  json TEXT NOT NULL
);
)sql",
      // 2 -> 3: model training: each run with the spec that made it, and its
      // progress (loss, validation loss, speed) step by step.
      R"sql(
CREATE TABLE training_runs (
  id          INTEGER PRIMARY KEY,
  checkpoint  TEXT NOT NULL,                  -- the checkpoint file it writes
  spec        TEXT NOT NULL,                  -- JSON: config, objective, seed, threads, corpus and tokenizer hashes
  status      TEXT NOT NULL DEFAULT 'running', -- running, done, stopped
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE training_steps (
  run_id          INTEGER NOT NULL REFERENCES training_runs(id) ON DELETE CASCADE,
  step            INTEGER NOT NULL,
  loss            REAL NOT NULL,
  validation_loss REAL,                       -- NULL when not measured at this step
  tokens_per_s    REAL NOT NULL,
  labels_per_s    REAL NOT NULL,
  at              TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
  PRIMARY KEY (run_id, step)
);
)sql",
      // 3 -> 4: samples from the model, with what made them; the compiling
      // ones are also kernels (role 'sample') with their feature vectors.
      R"sql(
CREATE TABLE samples (
  id            INTEGER PRIMARY KEY,
  feed          TEXT NOT NULL,
  text          TEXT NOT NULL,
  new_tokens    INTEGER NOT NULL,
  complete      INTEGER NOT NULL,            -- every hole closed by [ENDHOLE]
  compiled      INTEGER NOT NULL,
  error         TEXT NOT NULL DEFAULT '',
  model_sha256  TEXT NOT NULL,
  seed          INTEGER NOT NULL,
  spec          TEXT NOT NULL,               -- JSON: temperature, batch, limits, app version
  kernel_id     INTEGER REFERENCES kernels(id) ON DELETE SET NULL,
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
)sql",
      // 4 -> 5: training progress also records the run's wall and CPU time,
      // so objectives compare by validation loss per CPU hour.
      R"sql(
ALTER TABLE training_steps ADD COLUMN elapsed_s REAL;  -- wall seconds since the run started
ALTER TABLE training_steps ADD COLUMN cpu_s REAL;      -- CPU seconds of the training process (all threads)
)sql",
      // 5 -> 6: driving kernels on devices: one case per kernel, global and
      // local size and spec, with the checker's outcome and the label; one
      // measurement per device with its raw times and their statistics (ns).
      R"sql(
CREATE TABLE drive_cases (
  id             INTEGER PRIMARY KEY,
  kernel_id      INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
  kernel_name    TEXT NOT NULL,
  global_size    INTEGER NOT NULL,
  local_size     INTEGER NOT NULL,             -- 0: chosen by the runtime
  transfer_bytes INTEGER NOT NULL,             -- bytes to and from the device per run
  outcome        TEXT NOT NULL,                -- PASS, NO_OUTPUT, INPUT_INSENSITIVE, NONDETERMINISTIC, ...
  detail         TEXT NOT NULL DEFAULT '',
  label          TEXT NOT NULL DEFAULT '',     -- the device with the lowest mean total time (PASS only)
  label_status   TEXT NOT NULL DEFAULT '',     -- significant, AMBIGUOUS, or '' (nothing to label)
  spec_hash      TEXT NOT NULL REFERENCES specs(hash),
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX drive_cases_kernel ON drive_cases(kernel_id);
CREATE TABLE drive_measurements (
  case_id     INTEGER NOT NULL REFERENCES drive_cases(id) ON DELETE CASCADE,
  position    INTEGER NOT NULL,                -- the device's place in the run's device list
  device_id   TEXT NOT NULL,                   -- PLATFORM:DEVICE in the ICD loader's order
  device      TEXT NOT NULL,
  device_type TEXT NOT NULL,                   -- CPU, GPU, other
  outcome     TEXT NOT NULL,
  detail      TEXT NOT NULL DEFAULT '',
  runs        INTEGER NOT NULL,                -- timed runs kept (warm-up runs are discarded)
  kernel_median_ns REAL, kernel_mean_ns REAL, kernel_ci_low_ns REAL, kernel_ci_high_ns REAL,
  transfer_median_ns REAL, transfer_mean_ns REAL, transfer_ci_low_ns REAL, transfer_ci_high_ns REAL,
  total_median_ns REAL, total_mean_ns REAL, total_ci_low_ns REAL, total_ci_high_ns REAL,
  kernel_ns   TEXT NOT NULL DEFAULT '[]',      -- JSON array: every timed run's kernel time
  transfer_ns TEXT NOT NULL DEFAULT '[]',
  PRIMARY KEY (case_id, position)
);
)sql",
      // 6 -> 7: steering. A run holds its target and spec; every candidate it
      // made is kept with its generation, parent, the span its hole replaced,
      // compile status, features and distance; a generation's row (written in
      // the same transaction as its candidates) marks it complete and lists the
      // beam it kept, which is where a resumed run goes on.
      R"sql(
CREATE TABLE steer_runs (
  id             INTEGER PRIMARY KEY,
  space          TEXT NOT NULL,
  space_version  INTEGER NOT NULL,
  target         TEXT NOT NULL,                -- JSON: {"space", "values", "origin"}
  spec_hash      TEXT NOT NULL REFERENCES specs(hash),
  model_sha256   TEXT NOT NULL,
  status         TEXT NOT NULL DEFAULT 'running', -- running, finished, cancelled, failed
  stop_reason    TEXT NOT NULL DEFAULT '',     -- exact match, depth, time budget, patience, ...
  elapsed_s      REAL NOT NULL DEFAULT 0,      -- wall seconds over the whole run, resumed parts included
  best_kernel_id INTEGER REFERENCES kernels(id) ON DELETE SET NULL,
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE steer_candidates (
  id           INTEGER PRIMARY KEY,
  run_id       INTEGER NOT NULL REFERENCES steer_runs(id) ON DELETE CASCADE,
  generation   INTEGER NOT NULL,
  parent_id    INTEGER REFERENCES steer_candidates(id),  -- NULL for a seed
  origin       TEXT NOT NULL DEFAULT '',     -- seeds: empty feed, kernel #ID, a file
  text         TEXT NOT NULL,
  hole_start   INTEGER NOT NULL DEFAULT -1,  -- token index in the parent where the hole went
  hole_length  INTEGER NOT NULL DEFAULT 0,   -- parent tokens the hole replaced
  new_tokens   INTEGER NOT NULL DEFAULT 0,   -- tokens the model put in their place
  replaced     TEXT NOT NULL DEFAULT '',     -- the parent's text the hole replaced
  infill       TEXT NOT NULL DEFAULT '',     -- the text the model put there
  compiled     INTEGER NOT NULL,
  error        TEXT NOT NULL DEFAULT '',
  kernel_name  TEXT NOT NULL DEFAULT '',
  features     BLOB,                         -- float64 LE in the run's space; NULL when not compiled
  distance     REAL,                         -- to the target (scaled as the spec says)
  kept         INTEGER NOT NULL DEFAULT 0    -- entered the beam
);
CREATE INDEX steer_candidates_run ON steer_candidates(run_id, generation);
CREATE TABLE steer_generations (
  run_id          INTEGER NOT NULL REFERENCES steer_runs(id) ON DELETE CASCADE,
  generation      INTEGER NOT NULL,
  candidates      INTEGER NOT NULL,
  compiled        INTEGER NOT NULL,
  best_distance   REAL,
  median_distance REAL,
  best_id         INTEGER REFERENCES steer_candidates(id),
  beam            TEXT NOT NULL,               -- JSON array of the kept candidates' ids, best first
  elapsed_s       REAL NOT NULL,               -- run time when the generation completed
  seconds         REAL NOT NULL,               -- this generation's wall time
  PRIMARY KEY (run_id, generation)
);
)sql",
      // 7 -> 8: active learning. A run is its mode and spec; each epoch keeps
      // the committee it trained, the entropy and target it chose, the
      // steering run that went there, and what driving the result labelled.
      R"sql(
CREATE TABLE explore_runs (
  id          INTEGER PRIMARY KEY,
  mode        TEXT NOT NULL,                   -- active, passive
  spec_hash   TEXT NOT NULL REFERENCES specs(hash),
  status      TEXT NOT NULL DEFAULT 'running', -- running, finished, cancelled, failed
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE explore_epochs (
  run_id       INTEGER NOT NULL REFERENCES explore_runs(id) ON DELETE CASCADE,
  epoch        INTEGER NOT NULL,
  labelled     INTEGER NOT NULL,                -- labelled points the committee trained on
  committee    TEXT NOT NULL,                   -- JSON: its members and their parameters
  entropy      REAL NOT NULL,                   -- vote entropy at the chosen point
  point        TEXT NOT NULL,                   -- JSON: the chosen point's raw features, F1..F4
  target       TEXT NOT NULL,                   -- JSON: the Grewe target steered to
  steer_run_id INTEGER REFERENCES steer_runs(id) ON DELETE SET NULL,
  kernel_id    INTEGER REFERENCES kernels(id) ON DELETE SET NULL,
  cases        INTEGER NOT NULL,                -- drive cases of the steered kernel
  labels_added INTEGER NOT NULL,                -- of them, labelled (and so added to the set)
  PRIMARY KEY (run_id, epoch)
);
)sql",
      // 8 -> 9: steering keeps benchmarks. A candidate records the
      // clean-compile rule it broke (then it was never kept) and how the
      // contenders' check ended (dead code or the drive outcome; '' when it
      // was not checked).
      R"sql(
ALTER TABLE steer_candidates ADD COLUMN unclean TEXT NOT NULL DEFAULT '';
ALTER TABLE steer_candidates ADD COLUMN check_outcome TEXT NOT NULL DEFAULT '';
ALTER TABLE steer_candidates ADD COLUMN check_detail TEXT NOT NULL DEFAULT '';
)sql",
      // 9 -> 10: merging workspaces (campaigns run in shards). Every run,
      // sample and drive case gets a uid that stays with it across merges
      // (filled by triggers, so every writer gets one) and the file it was
      // made in ('' here); merges lists what was merged in, from where.
      R"sql(
ALTER TABLE training_runs ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE training_runs ADD COLUMN made_in TEXT NOT NULL DEFAULT '';
ALTER TABLE samples ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE samples ADD COLUMN made_in TEXT NOT NULL DEFAULT '';
ALTER TABLE drive_cases ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE drive_cases ADD COLUMN made_in TEXT NOT NULL DEFAULT '';
ALTER TABLE steer_runs ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE steer_runs ADD COLUMN made_in TEXT NOT NULL DEFAULT '';
ALTER TABLE explore_runs ADD COLUMN uid TEXT NOT NULL DEFAULT '';
ALTER TABLE explore_runs ADD COLUMN made_in TEXT NOT NULL DEFAULT '';
UPDATE training_runs SET uid = lower(hex(randomblob(16)));
UPDATE samples SET uid = lower(hex(randomblob(16)));
UPDATE drive_cases SET uid = lower(hex(randomblob(16)));
UPDATE steer_runs SET uid = lower(hex(randomblob(16)));
UPDATE explore_runs SET uid = lower(hex(randomblob(16)));
CREATE INDEX training_runs_uid ON training_runs(uid);
CREATE INDEX samples_uid ON samples(uid);
CREATE INDEX drive_cases_uid ON drive_cases(uid);
CREATE INDEX steer_runs_uid ON steer_runs(uid);
CREATE INDEX explore_runs_uid ON explore_runs(uid);
CREATE TRIGGER training_runs_uid AFTER INSERT ON training_runs WHEN NEW.uid = '' BEGIN
  UPDATE training_runs SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER samples_uid AFTER INSERT ON samples WHEN NEW.uid = '' BEGIN
  UPDATE samples SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER drive_cases_uid AFTER INSERT ON drive_cases WHEN NEW.uid = '' BEGIN
  UPDATE drive_cases SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER steer_runs_uid AFTER INSERT ON steer_runs WHEN NEW.uid = '' BEGIN
  UPDATE steer_runs SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TRIGGER explore_runs_uid AFTER INSERT ON explore_runs WHEN NEW.uid = '' BEGIN
  UPDATE explore_runs SET uid = lower(hex(randomblob(16))) WHERE id = NEW.id; END;
CREATE TABLE merges (
  id         INTEGER PRIMARY KEY,
  source     TEXT NOT NULL,                   -- the workspace merged in, as given
  corpus     TEXT NOT NULL,                   -- its corpus identity (store::corpusIdentity)
  added      TEXT NOT NULL,                   -- JSON: rows it added, by kind
  created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
)sql",
      // 10 -> 11: batch active learning: an epoch steers to several points
      // (member 0, 1, ...), each a row of explore_epochs.
      R"sql(
CREATE TABLE explore_epochs_batch (
  run_id       INTEGER NOT NULL REFERENCES explore_runs(id) ON DELETE CASCADE,
  epoch        INTEGER NOT NULL,
  member       INTEGER NOT NULL DEFAULT 0,      -- which of the epoch's points
  labelled     INTEGER NOT NULL,
  committee    TEXT NOT NULL,
  entropy      REAL NOT NULL,
  point        TEXT NOT NULL,
  target       TEXT NOT NULL,
  steer_run_id INTEGER REFERENCES steer_runs(id) ON DELETE SET NULL,
  kernel_id    INTEGER REFERENCES kernels(id) ON DELETE SET NULL,
  cases        INTEGER NOT NULL,
  labels_added INTEGER NOT NULL,
  PRIMARY KEY (run_id, epoch, member)
);
INSERT INTO explore_epochs_batch(run_id, epoch, member, labelled, committee, entropy, point, target, steer_run_id,
                                 kernel_id, cases, labels_added)
  SELECT run_id, epoch, 0, labelled, committee, entropy, point, target, steer_run_id, kernel_id, cases, labels_added
  FROM explore_epochs;
DROP TABLE explore_epochs;
ALTER TABLE explore_epochs_batch RENAME TO explore_epochs;
)sql",
  };
  return m;
}

} // namespace steerbench::store
