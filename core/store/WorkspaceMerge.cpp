// Merging workspaces (WorkspaceMerge.h): each input is attached read-only to
// a connection of the output's and copied table by table in one transaction,
// its ids remapped through temporary tables.
#include "store/WorkspaceMerge.h"

#include "common/ContentHash.h"
#include "common/Error.h"
#include "store/Statement.h"
#include "store/Workspace.h"

#include <sqlite3.h>

#include <filesystem>
#include <map>
#include <memory>
#include <sstream>

namespace steerbench::store {
namespace {

const char* kCorpusQuery = "SELECT content_hash || ' ' || name FROM kernels "
                           "WHERE role IN ('train', 'held_out', 'capped') ORDER BY content_hash, name";

/// The identity of the corpus kernels kCorpusQuery lists, one line each.
CorpusIdentity identityOfLines(const std::vector<std::string>& lines) {
  std::string all;
  for (const auto& l : lines) {
    all += l;
    all += '\n';
  }
  return {sha256Hex(all), std::int64_t(lines.size())};
}

/// The same read through a read-only connection of its own (an input is never opened as a Workspace, which
/// would upgrade it).
CorpusIdentity identityOf(const std::string& path) {
  sqlite3* raw = nullptr;
  sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READONLY, nullptr);
  const std::unique_ptr<sqlite3, int (*)(sqlite3*)> db(raw, sqlite3_close);
  std::vector<std::string> lines;
  Statement st(db.get(), kCorpusQuery);
  while (st.step())
    lines.push_back(st.text(0));
  if (st.lastRc != SQLITE_OK) throw WorkspaceError(path + ": cannot read the corpus: " + describeRc(st.lastRc));
  return identityOfLines(lines);
}

/// A raw connection of the merge's own (URI names, so inputs attach read-only).
class Connection {
public:
  explicit Connection(const std::string& path) : path_(path) {
    const int rc = sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, nullptr);
    if (rc != SQLITE_OK) fail("cannot open", rc);
    sqlite3_busy_timeout(db_, 5000);
    exec("PRAGMA foreign_keys = ON");
  }
  ~Connection() { sqlite3_close(db_); }
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  sqlite3* db() const { return db_; }
  void exec(const std::string& sql) {
    char* err = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err);
    if (rc != SQLITE_OK) {
      const std::string msg = err ? err : "";
      sqlite3_free(err);
      throw WorkspaceError(path_ + ": " + describeRc(rc) + (msg.empty() ? "" : " (" + msg + ")"));
    }
  }
  /// Runs `sql` and returns the rows it changed.
  std::int64_t change(const std::string& sql) {
    exec(sql);
    return sqlite3_changes64(db_);
  }
  std::int64_t scalar(const std::string& sql) {
    Statement st(db_, sql.c_str());
    return st.step() ? st.integer(0) : 0;
  }
  /// The table's columns, in order.
  std::vector<std::string> columns(const std::string& table) {
    Statement st(db_, ("PRAGMA main.table_info(" + table + ")").c_str());
    std::vector<std::string> out;
    while (st.step())
      out.push_back(st.text(1));
    return out;
  }

private:
  void fail(const std::string& what, int rc) {
    throw WorkspaceError(path_ + ": " + what + ": " + describeRc(rc));
  }
  std::string path_;
  sqlite3* db_ = nullptr;
};

std::string quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) {
    out += c;
    if (c == '\'') out += '\'';
  }
  return out + "'";
}

/// A file: URI for `path`, read-only.
std::string readOnlyUri(const std::string& path) {
  std::string out = "file:";
  for (unsigned char c : std::filesystem::absolute(path).string()) {
    if (c == '%' || c == '?' || c == '#' || c < 0x20) {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  return out + "?mode=ro";
}

/// INSERT INTO main.TABLE(every column) SELECT each column from `from`
/// (aliased x), with `given` expressions for some columns; returns rows added.
std::int64_t copyRows(Connection& c, const std::string& table, const std::map<std::string, std::string>& given,
                      const std::string& from, bool orIgnore = false) {
  std::string cols, exprs;
  for (const auto& col : c.columns(table)) {
    const auto g = given.find(col);
    if (g != given.end() && g->second.empty()) continue; // left to SQLite (a new id)
    cols += (cols.empty() ? "" : ", ") + col;
    exprs += (exprs.empty() ? "" : ", ") + (g != given.end() ? g->second : "x." + col);
  }
  return c.change(std::string("INSERT ") + (orIgnore ? "OR IGNORE " : "") + "INTO main." + table + "(" + cols +
                  ") SELECT " + exprs + " FROM " + from);
}

/// Adds `offset` to every id of a JSON array of ids ("[3,1,2]").
std::string shiftIds(const std::string& json, std::int64_t offset) {
  std::string out = "[";
  std::size_t i = json.find('[');
  bool first = true;
  while (i != std::string::npos && i < json.size()) {
    const auto start = json.find_first_of("-0123456789", i);
    if (start == std::string::npos) break;
    std::size_t used = 0;
    const long long v = std::stoll(json.substr(start), &used);
    out += (first ? "" : ",") + std::to_string(v + offset);
    first = false;
    i = start + used;
  }
  return out + "]";
}

/// Where a row was made: kept from the input when it came from elsewhere.
std::string madeIn(const std::string& label) {
  return "CASE x.made_in WHEN '' THEN " + quoted(label) + " ELSE x.made_in END";
}

MergeReport mergeOne(Connection& c, const std::string& source, const CorpusIdentity& corpus) {
  MergeReport r;
  r.source = source;
  const std::string label = std::filesystem::path(source).filename().string();
  c.exec("ATTACH DATABASE " + quoted(readOnlyUri(source)) + " AS s");
  struct Detach {
    Connection& c;
    ~Detach() { sqlite3_exec(c.db(), "DETACH DATABASE s", nullptr, nullptr, nullptr); }
  } detach{c};
  c.exec("BEGIN IMMEDIATE");
  try {
    for (const char* t : {"kmap", "fmap", "trmap", "smap", "dmap", "srmap", "sruid", "ermap"})
      c.exec(std::string("DROP TABLE IF EXISTS temp.") + t + "; CREATE TEMP TABLE " + t +
             "(old INTEGER PRIMARY KEY, new INTEGER NOT NULL)");

    // Kernels, deduplicated by content and name; their vectors; specs.
    r.kernels = copyRows(c, "kernels", {{"id", ""}}, "s.kernels x ORDER BY x.id", true);
    c.exec("INSERT INTO temp.kmap SELECT x.id, k.id FROM s.kernels x JOIN main.kernels k "
           "ON k.content_hash = x.content_hash AND k.name = x.name");
    r.featureVectors = copyRows(c, "feature_vectors", {{"kernel_id", "m.new"}},
                                "s.feature_vectors x JOIN temp.kmap m ON m.old = x.kernel_id", true);
    copyRows(c, "specs", {}, "s.specs x", true);

    // Corpus files new to the output, with what was found in them.
    const auto filesBefore = c.scalar("SELECT COALESCE(max(id), 0) FROM main.corpus_files");
    copyRows(c, "corpus_files", {{"id", ""}}, "s.corpus_files x ORDER BY x.id", true);
    c.exec("INSERT INTO temp.fmap SELECT x.id, f.id FROM s.corpus_files x JOIN main.corpus_files f ON "
           "f.path = x.path AND f.content_hash = x.content_hash AND f.spec_hash = x.spec_hash WHERE f.id > " +
           std::to_string(filesBefore));
    copyRows(c, "corpus_kernels", {{"file_id", "f.new"}, {"kernel_id", "k.new"}},
             "s.corpus_kernels x JOIN temp.fmap f ON f.old = x.file_id LEFT JOIN temp.kmap k ON k.old = x.kernel_id");

    // Rows that carry a uid: those the output lacks get ids past its own.
    auto mapByUid = [&](const std::string& table, const std::string& map) {
      const auto offset = c.scalar("SELECT COALESCE(max(id), 0) FROM main." + table);
      c.exec("INSERT INTO temp." + map + " SELECT x.id, x.id + " + std::to_string(offset) + " FROM s." + table +
             " x WHERE x.uid NOT IN (SELECT uid FROM main." + table + ")");
      r.alreadyThere += c.scalar("SELECT count(*) FROM s." + table + " x WHERE x.uid IN (SELECT uid FROM main." +
                                 table + ")");
    };

    mapByUid("training_runs", "trmap");
    r.trainingRuns = copyRows(c, "training_runs", {{"id", "m.new"}, {"made_in", madeIn(label)}},
                              "s.training_runs x JOIN temp.trmap m ON m.old = x.id ORDER BY x.id");
    copyRows(c, "training_steps", {{"run_id", "m.new"}}, "s.training_steps x JOIN temp.trmap m ON m.old = x.run_id");

    mapByUid("samples", "smap");
    r.samples = copyRows(c, "samples", {{"id", "m.new"}, {"kernel_id", "k.new"}, {"made_in", madeIn(label)}},
                         "s.samples x JOIN temp.smap m ON m.old = x.id LEFT JOIN temp.kmap k ON k.old = x.kernel_id "
                         "ORDER BY x.id");

    mapByUid("drive_cases", "dmap");
    r.driveCases = copyRows(c, "drive_cases", {{"id", "m.new"}, {"kernel_id", "k.new"}, {"made_in", madeIn(label)}},
                            "s.drive_cases x JOIN temp.dmap m ON m.old = x.id JOIN temp.kmap k ON k.old = x.kernel_id "
                            "ORDER BY x.id");
    copyRows(c, "drive_measurements", {{"case_id", "m.new"}},
             "s.drive_measurements x JOIN temp.dmap m ON m.old = x.case_id");

    // Steering runs: one the output holds with fewer generations (merged
    // before it finished) gives way to the longer one.
    auto gens = [](const std::string& schema, const std::string& alias) {
      return "(SELECT count(*) FROM " + schema + ".steer_generations g WHERE g.run_id = " + alias + ".id)";
    };
    r.steerRunsReplaced = c.change("DELETE FROM main.steer_runs WHERE id IN (SELECT o.id FROM main.steer_runs o "
                                   "JOIN s.steer_runs x ON x.uid = o.uid WHERE " +
                                   gens("main", "o") + " < " + gens("s", "x") + ")");
    mapByUid("steer_runs", "srmap");
    const auto candidateOffset = c.scalar("SELECT COALESCE(max(id), 0) FROM main.steer_candidates");
    const std::string co = " + " + std::to_string(candidateOffset);
    r.steerRuns = copyRows(c, "steer_runs", {{"id", "m.new"}, {"best_kernel_id", "k.new"}, {"made_in", madeIn(label)}},
                           "s.steer_runs x JOIN temp.srmap m ON m.old = x.id LEFT JOIN temp.kmap k ON k.old = "
                           "x.best_kernel_id ORDER BY x.id");
    r.candidates = copyRows(c, "steer_candidates",
                            {{"id", "x.id" + co}, {"run_id", "m.new"}, {"parent_id", "x.parent_id" + co}},
                            "s.steer_candidates x JOIN temp.srmap m ON m.old = x.run_id ORDER BY x.id");
    copyRows(c, "steer_generations", {{"run_id", "m.new"}, {"best_id", "x.best_id" + co}},
             "s.steer_generations x JOIN temp.srmap m ON m.old = x.run_id");
    {
      std::vector<std::pair<std::string, std::string>> beams; // rowid, beam
      Statement st(c.db(), "SELECT g.rowid, g.beam FROM main.steer_generations g JOIN temp.srmap m ON m.new = g.run_id");
      while (st.step())
        beams.emplace_back(st.text(0), st.text(1));
      for (const auto& [rowid, beam] : beams)
        c.exec("UPDATE main.steer_generations SET beam = " + quoted(shiftIds(beam, candidateOffset)) +
               " WHERE rowid = " + rowid);
    }
    // Every input run's id in the output, for the epochs that name one.
    c.exec("INSERT INTO temp.sruid SELECT x.id, o.id FROM s.steer_runs x JOIN main.steer_runs o ON o.uid = x.uid");

    mapByUid("explore_runs", "ermap");
    r.exploreRuns = copyRows(c, "explore_runs", {{"id", "m.new"}, {"made_in", madeIn(label)}},
                             "s.explore_runs x JOIN temp.ermap m ON m.old = x.id ORDER BY x.id");
    copyRows(c, "explore_epochs", {{"run_id", "m.new"}, {"steer_run_id", "sr.new"}, {"kernel_id", "k.new"}},
             "s.explore_epochs x JOIN temp.ermap m ON m.old = x.run_id LEFT JOIN temp.sruid sr ON sr.old = "
             "x.steer_run_id LEFT JOIN temp.kmap k ON k.old = x.kernel_id");

    std::ostringstream added;
    added << "{\"kernels\":" << r.kernels << ",\"feature_vectors\":" << r.featureVectors
          << ",\"steer_runs\":" << r.steerRuns << ",\"steer_runs_replaced\":" << r.steerRunsReplaced
          << ",\"candidates\":" << r.candidates << ",\"drive_cases\":" << r.driveCases << ",\"samples\":" << r.samples
          << ",\"training_runs\":" << r.trainingRuns << ",\"explore_runs\":" << r.exploreRuns << "}";
    c.exec("INSERT INTO main.merges(source, corpus, added) VALUES (" + quoted(source) + ", " + quoted(corpus.hash) +
           ", " + quoted(added.str()) + ")");
    c.exec("COMMIT");
  } catch (...) {
    sqlite3_exec(c.db(), "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return r;
}

} // namespace

CorpusIdentity corpusIdentity(const Workspace& ws) {
  std::vector<std::string> lines;
  for (const auto& row : ws.rows(kCorpusQuery))
    lines.push_back(row[0]);
  return identityOfLines(lines);
}

std::vector<MergeReport> mergeWorkspaces(const std::vector<std::string>& sources, const std::string& output) {
  if (sources.empty()) throw InputError("nothing to merge: name the workspaces to merge");
  namespace fs = std::filesystem;
  std::error_code ec;
  for (const auto& s : sources)
    if (fs::exists(output) && fs::equivalent(s, output, ec))
      throw InputError(s + " is the output too: merge into another file");

  // Every input is checked, read-only, before anything is written.
  std::vector<CorpusIdentity> corpora;
  for (const auto& s : sources) {
    const int version = Workspace::inspect(s);
    if (version != Workspace::currentSchemaVersion())
      throw WorkspaceError(s + ": a workspace of schema " + std::to_string(version) + ", this Steerbench merges schema " +
                           std::to_string(Workspace::currentSchemaVersion()) +
                           " only; open it once with this Steerbench (which upgrades it), then merge. Nothing was merged");
    corpora.push_back(identityOf(s));
  }
  auto refuseCorpus = [](const std::string& file, const CorpusIdentity& a, const std::string& other,
                         const CorpusIdentity& b) {
    throw WorkspaceError(file + " holds another corpus (" + std::to_string(a.kernels) + " kernels, " +
                         a.hash.substr(0, 12) + ") than " + other + " (" + std::to_string(b.kernels) + " kernels, " +
                         b.hash.substr(0, 12) +
                         "): only workspaces steered from the same corpus merge. Nothing was merged");
  };
  for (std::size_t i = 1; i < sources.size(); ++i)
    if (corpora[i].hash != corpora[0].hash) refuseCorpus(sources[i], corpora[i], sources[0], corpora[0]);
  if (fs::exists(output)) {
    const auto ws = Workspace::open(output, Workspace::Mode::OpenExisting);
    const auto mine = corpusIdentity(ws);
    if (mine.kernels > 0 && mine.hash != corpora[0].hash) refuseCorpus(sources[0], corpora[0], output, mine);
  } else {
    (void)Workspace::open(output); // a new workspace of this schema
  }

  std::vector<MergeReport> out;
  Connection c(output);
  for (std::size_t i = 0; i < sources.size(); ++i)
    out.push_back(mergeOne(c, sources[i], corpora[i]));
  return out;
}

} // namespace steerbench::store
