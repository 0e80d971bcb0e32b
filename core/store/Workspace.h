// The workspace: one SQLite file holding kernels, feature vectors and results.
//
// Thread-safety: a Workspace is used from one thread at a time (the engine's
// writer thread); open a second Workspace on the same file to read elsewhere.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace steerbench::store {

struct KernelRecord {
  std::int64_t id = 0;
  std::string name;        ///< kernel function name
  std::string source;      ///< the unit's OpenCL C text
  std::string contentHash; ///< sha256 of source (filled by addKernel)
  std::string originFile;  ///< where it came from
  std::string package;     ///< e.g. a Debian package, or empty
  std::string license;
  std::string flags; ///< compile flags used, as text
  // Corpus fields (schema 2).
  std::string role = "user"; ///< user, train, held_out (matches an evaluation kernel), capped (balance)
  std::string dedupeHash;
  std::string family;
  std::string original;
  std::string reconstructed;
  std::int64_t tokens = 0;
};

struct CorpusFileRecord {
  std::string path, contentHash, package, specHash, stage, reason;
};

struct CorpusKernelRecord {
  std::string name, stage, reason;
  bool compiledAsIs = false, reconstructed = false;
  std::int64_t kernelId = 0; ///< 0 when not stored
};

struct FeatureRecord {
  std::int64_t kernelId = 0;
  std::string space;
  int spaceVersion = 0;
  std::vector<double> values;
  bool fromErrors = false;
  std::string spec; ///< JSON: what produced it (app version, options)
};

/// One kernel's vector in a space, with what the plot and lists need.
struct FeatureRow {
  std::int64_t kernelId = 0;
  std::string name;
  std::string role;
  std::vector<double> values;
};

class Workspace {
public:
  enum class Mode { OpenOrCreate, OpenExisting };

  /// Opens (or creates) the workspace at `path`, upgrading an older schema
  /// in one transaction. Throws WorkspaceError, leaving the file untouched,
  /// when it is not a SQLite file, not a Steerbench workspace, corrupt, or
  /// written by a newer Steerbench.
  [[nodiscard]] static Workspace open(const std::string& path, Mode mode = Mode::OpenOrCreate);

  Workspace(Workspace&&) noexcept;
  Workspace& operator=(Workspace&&) noexcept;
  ~Workspace();

  [[nodiscard]] static int currentSchemaVersion();
  /// Checks the workspace at `path` read-only, as open() does, and returns
  /// its schema version without upgrading it. Throws WorkspaceError.
  [[nodiscard]] static int inspect(const std::string& path);
  [[nodiscard]] int schemaVersion() const;
  [[nodiscard]] const std::string& path() const { return path_; }

  /// Runs `work` in one transaction: everything it wrote is kept, or nothing
  /// (an exception rolls back and is rethrown).
  template <class F> void transaction(F&& work) {
    begin();
    try {
      work();
    } catch (...) {
      rollback();
      throw;
    }
    commit();
  }

  /// Adds a kernel, or returns the id of the stored one with the same source
  /// and name. Fills `contentHash` when empty.
  std::int64_t addKernel(KernelRecord kernel);
  [[nodiscard]] std::optional<KernelRecord> kernel(std::int64_t id) const;
  [[nodiscard]] std::int64_t kernelCount() const;

  /// Stores (replacing) a kernel's vector in one space and version.
  void putFeatures(const FeatureRecord& features);
  [[nodiscard]] std::optional<FeatureRecord> features(std::int64_t kernelId, const std::string& space,
                                                      int spaceVersion) const;
  [[nodiscard]] std::int64_t featureCount(const std::string& space) const;
  /// Every kernel's vector in one space and version, by kernel id.
  [[nodiscard]] std::vector<FeatureRow> featureRows(const std::string& space, int spaceVersion) const;

  // --- corpus ---------------------------------------------------------
  /// True when this file, with these bytes, was already ingested with this spec.
  [[nodiscard]] bool corpusFileDone(const std::string& path, const std::string& contentHash,
                                    const std::string& specHash) const;
  std::int64_t addCorpusFile(const CorpusFileRecord& file);
  void addCorpusKernel(std::int64_t fileId, const CorpusKernelRecord& kernel);
  /// The stored kernel with this dedupe hash, or 0.
  [[nodiscard]] std::int64_t kernelByDedupeHash(const std::string& hash) const;
  void setRole(std::int64_t kernelId, const std::string& role);
  /// Records a spec (JSON) under its hash; returns the hash.
  std::string putSpec(const std::string& json);

  // --- training ---------------------------------------------------------
  /// The training run that writes `checkpoint` (the latest one), or 0.
  [[nodiscard]] std::int64_t trainingRunFor(const std::string& checkpoint) const;
  std::int64_t addTrainingRun(const std::string& checkpoint, const std::string& specJson);
  /// Records one step's figures (replacing the step if it was recorded
  /// before a resume); validationLoss < 0 means not measured.
  void addTrainingStep(std::int64_t run, std::int64_t step, double loss, double validationLoss, double tokensPerSecond,
                       double labelsPerSecond, double elapsedSeconds, double cpuSeconds);
  void setTrainingStatus(std::int64_t run, const std::string& status);
  /// Replaces a run's spec (a resumed run may go on for more steps).
  void setTrainingSpec(std::int64_t run, const std::string& specJson);

  // --- samples ----------------------------------------------------------
  struct SampleRecord {
    std::string feed, text, error, modelHash, spec;
    std::int64_t newTokens = 0, seed = 0, kernelId = 0;
    bool complete = false, compiled = false;
  };
  std::int64_t addSample(const SampleRecord& sample);

  // --- drive -------------------------------------------------------------
  struct DriveStats {
    std::int64_t n = 0;
    double median = 0, mean = 0, ciLow = 0, ciHigh = 0; ///< ns; the interval is 95% of the mean
  };
  struct DriveMeasurementRecord {
    std::string deviceId, device, deviceType, outcome, detail;
    DriveStats kernel, transfer, total;
    std::string kernelNs = "[]", transferNs = "[]"; ///< JSON arrays of every timed run
  };
  struct DriveCaseRecord {
    std::int64_t id = 0, kernelId = 0;
    std::string kernelName;
    std::int64_t globalSize = 0, localSize = 0, transferBytes = 0;
    std::string outcome, detail, label, labelStatus, specHash, createdAt;
    std::vector<DriveMeasurementRecord> devices;
  };
  /// Stores a case and its measurements (call inside transaction() to keep them together).
  std::int64_t addDriveCase(const DriveCaseRecord& c);
  /// Every stored case with its measurements, oldest first.
  [[nodiscard]] std::vector<DriveCaseRecord> driveCases() const;
  /// Which cases a drive with given settings stored: those whose spec is
  /// `spec` or begins with `prefix` (the drive's spec, to which each case
  /// adds its payload's fields).
  struct CaseSpecMatch {
    std::string spec, prefix;
  };
  /// The outcomes of one kernel's cases that match, oldest first, with their ids.
  struct StoredOutcome {
    std::int64_t caseId = 0;
    std::string outcome;
  };
  [[nodiscard]] std::vector<StoredOutcome> driveOutcomes(std::int64_t kernelId, const std::string& kernelName,
                                                         const CaseSpecMatch& match) const;
  /// The kernel (id and name) of the newest case that matches; id 0 when
  /// there is none.
  [[nodiscard]] std::pair<std::int64_t, std::string> lastDriven(const CaseSpecMatch& match) const;
  /// Removes these cases and their measurements.
  void removeDriveCases(const std::vector<std::int64_t>& caseIds);
  /// The sources of the kernels with drive cases (any settings), each once.
  [[nodiscard]] std::vector<std::string> drivenSources() const;
  // --- steering ------------------------------------------------------------
  struct SteerRunRecord {
    std::int64_t id = 0;
    std::string space;
    int spaceVersion = 0;
    std::string target;   ///< JSON {"space", "values", "origin"}
    std::string specHash; ///< the spec's JSON is in specs
    std::string modelHash;
    std::string status = "running", stopReason, createdAt;
    double elapsed = 0;
    std::int64_t bestKernelId = 0;
  };
  struct SteerCandidateRecord {
    std::int64_t id = 0, run = 0, parent = 0; ///< parent 0: a seed
    int generation = 0;
    std::string origin, text, replaced, infill, error, kernelName;
    std::int64_t holeStart = -1, holeLength = 0, newTokens = 0;
    bool compiled = false, kept = false;
    std::vector<double> values; ///< empty when not compiled
    double distance = -1;       ///< < 0: none (not compiled)
    std::string unclean;        ///< the clean-compile rule it broke (never kept); empty: clean
    /// How the contenders' check ended (PASS, DEAD_CODE, a drive outcome);
    /// empty: not checked.
    std::string checkOutcome, checkDetail;
  };
  struct SteerGenerationRecord {
    std::int64_t run = 0;
    int generation = 0;
    std::int64_t candidates = 0, compiled = 0, bestId = 0;
    double bestDistance = -1, medianDistance = -1; ///< < 0: nothing compiled yet
    std::vector<std::int64_t> beam;                ///< kept candidates' ids, best first
    double elapsed = 0, seconds = 0;
  };
  std::int64_t addSteerRun(const SteerRunRecord& run);
  void setSteerRunStatus(std::int64_t run, const std::string& status, const std::string& stopReason, double elapsed,
                         std::int64_t bestKernelId = 0);
  /// Stores a generation: its candidates (ids assigned in place; parents must
  /// be stored already) and its summary, whose `beam` holds indexes into
  /// `candidates` or, when negative, ~id of an earlier candidate. Call inside
  /// transaction() so that a generation is stored whole or not at all.
  void addSteerGeneration(SteerGenerationRecord generation, std::vector<SteerCandidateRecord>& candidates);
  /// Records how a candidate's contender check ended (it may end after its generation was stored).
  void setSteerCandidateCheck(std::int64_t candidate, const std::string& outcome, const std::string& detail);
  [[nodiscard]] std::vector<SteerRunRecord> steerRuns() const;
  [[nodiscard]] std::optional<SteerRunRecord> steerRun(std::int64_t id) const;
  [[nodiscard]] std::vector<SteerGenerationRecord> steerGenerations(std::int64_t run) const;
  /// A run's candidates, by id; `generation` < 0 for all of them.
  [[nodiscard]] std::vector<SteerCandidateRecord> steerCandidates(std::int64_t run, int generation = -1) const;
  [[nodiscard]] std::optional<SteerCandidateRecord> steerCandidate(std::int64_t id) const;
  /// The nearest candidate of a run whose contender check passed (0: none).
  [[nodiscard]] std::int64_t steerRunnableBest(std::int64_t run) const;

  // --- active learning ------------------------------------------------------
  struct ExploreEpochRecord {
    std::int64_t run = 0;
    int epoch = 0;
    int member = 0; ///< which of the epoch's points (batch active learning)
    std::int64_t labelled = 0, steerRun = 0, kernelId = 0, cases = 0, labelsAdded = 0;
    std::string committee, point, target;
    double entropy = 0;
  };
  std::int64_t addExploreRun(const std::string& mode, const std::string& specHash);
  void setExploreStatus(std::int64_t run, const std::string& status);
  void addExploreEpoch(const ExploreEpochRecord& epoch);
  [[nodiscard]] std::vector<ExploreEpochRecord> exploreEpochs(std::int64_t run) const;

  /// A stored spec's JSON, or "" when unknown.
  [[nodiscard]] std::string spec(const std::string& hash) const;

  /// Runs a read-only query and returns its rows as text (NULL as ""). For
  /// reports; `sql` is the program's own, never user text.
  [[nodiscard]] std::vector<std::vector<std::string>> rows(const std::string& sql) const;
  /// Writes a consistent copy of the whole workspace to `path` (which must
  /// not exist), while other connections may be writing to it.
  void copyTo(const std::string& path) const;
  /// Integrity check ("ok" when sound).
  [[nodiscard]] std::string integrityCheck() const;

  /// Size of the file in database pages, and a cap on it: writes past the cap
  /// fail as they would on a full disk (SQLITE_FULL), rolling back their
  /// transaction. Used to test full-disk handling and to bound a workspace.
  [[nodiscard]] std::int64_t pageCount() const;
  void setMaxPages(std::int64_t pages);

private:
  explicit Workspace(std::string path);
  void begin();
  void commit();
  void rollback();
  void exec(const char* sql);
  void fail(const std::string& what, int rc) const;

  std::string path_;
  sqlite3* db_ = nullptr;
};

} // namespace steerbench::store
