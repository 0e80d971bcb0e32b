// Workspace: kernels, their feature vectors, the corpus files they came from.
#include "store/Workspace.h"

#include "store/Statement.h"

#include "common/ContentHash.h"

namespace steerbench::store {

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

} // namespace steerbench::store
