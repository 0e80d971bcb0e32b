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
  };
  return m;
}

} // namespace steerbench::store
