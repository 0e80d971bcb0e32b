// The steering panel: the beam search's parameters (a steer::SteerSpec its
// widgets edit), Steer and Stop, live progress (best and median distance per
// generation, compile rate, candidates/s), and the lineage from the seed to
// the best candidate as formatted diffs. While "Follow the best" is on, the
// editor shows the run's best kernel as it changes, with its last infill
// highlighted; a click on a step of the lineage opens that step instead.
// The workspace's earlier runs are listed: one opens with its lineage and
// best kernel, and one that did not finish can be resumed.
//
// A run is a job on the engine thread (it owns the workspace and the model);
// each generation comes back as a queued call, and the plot gets its
// candidates and the seed-to-best path through signals.
#pragma once

#include "steer/SteerSpec.h"

#include <QString>
#include <QVector>
#include <QWidget>

#include <functional>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class QChartView;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineSeries;
class QListWidget;
class QPushButton;
class QSpinBox;
class QValueAxis;

namespace steerbench::steer {
struct TargetSamplingOptions;
struct GenerationReport;
struct LineageStep;
struct SteerResult;
} // namespace steerbench::steer

class QAbstractSpinBox;
class QGridLayout;

namespace steerbench::ui {

class EngineBridge;

class SteeringPanel : public QWidget {
  Q_OBJECT
public:
  explicit SteeringPanel(EngineBridge* engine, QWidget* parent = nullptr);

  /// Follows the open workspace (its model steers).
  void setWorkspace(const QString& workspacePath);
  /// The target of the next run (space and vector); nullopt: none set.
  void setTarget(const QString& space, const std::optional<std::vector<double>>& values, const QString& origin);
  /// Starts a run toward the target; with `seedText`, from that kernel only ("Steer from here").
  void steer(const QString& seedText = {}, const QString& seedName = {});
  /// Lets the model write kernels toward the target (Grewe; a model trained
  /// with conditions), as many and as spread as the Parameters tab says
  /// (steer::sampleTowardTarget): each is stored and sent to the plot as it arrives.
  void sampleTowardTarget();
  /// Lets the model write kernels over a grid of two Grewe counts ("comp=0:400,mem=0:100",
  /// model::gridTargets): as many cells a side and samples a cell as the
  /// Parameters tab says; the other counts are the target's, or 0 without
  /// one (no target needed). The plot asks for its view's grid (FeaturePlot::viewGrid).
  void sampleGrid(const QString& grid);
  /// Cancels the run (or the sampling) at once (the generation in hand is not stored).
  void stop();
  /// Lists the workspace's steering runs again (done when it opens and after each run).
  void refreshRuns();
  /// Opens stored run `run`: its lineage (to its runnable best, else its
  /// best) in the list, the path on the plot and its last kernel in the editor.
  void openRun(std::int64_t run);
  /// Goes on with stored run `run`, which did not finish, with its own spec and model.
  void resumeRun(std::int64_t run);
  /// The runs listed (for tests): their ids, oldest first.
  [[nodiscard]] std::vector<std::int64_t> listedRuns() const;
  /// Active learning: trains the committee on the workspace's labelled drive
  /// cases, scores `points` random points by vote entropy, lists the most
  /// disputed as suggested targets and sends them all to the plot's entropy layer.
  void suggestTargets(int points = 2000);
  [[nodiscard]] int suggestionCount() const;
  /// Uses suggestion `row` as the target (as a click on it does).
  void useSuggestion(int row);
  [[nodiscard]] bool running() const { return job_ != 0; }

  /// The search's parameters, as the widgets show them (target and seeds
  /// are set when a run starts). Every default is steer::SteerSpec's.
  void setSpec(const steer::SteerSpec& spec);
  [[nodiscard]] const steer::SteerSpec& spec() const { return spec_; }
  /// Whether the editor follows the run's best kernel.
  void setFollowBest(bool follow);
  [[nodiscard]] bool followsBest() const;

  // For tests and screenshots.
  [[nodiscard]] int generationsShown() const;
  [[nodiscard]] int lineageSteps() const;
  [[nodiscard]] QString statusText() const;
  /// Opens lineage step `row` in the editor (as a click on it does; it stops following the best).
  void showStep(int row);
  /// The lineage list's text of step `row` (a formatted diff from its parent).
  [[nodiscard]] QString stepText(int row) const;

signals:
  /// A run started, or a stored one is opened: the plot clears its steering layer.
  void runStarted();
  /// Sent after runStarted when what starts is a sampling, not a run.
  void samplingStarted();
  /// A generation's compiling candidates, for the plot.
  void candidatesArrived(int generation, const std::vector<std::vector<double>>& vectors);
  /// The seed-to-best path changed.
  void pathChanged(const std::vector<std::vector<double>>& path);
  /// Show this kernel in the editor, with [start, start + length) highlighted.
  void showKernel(const QString& title, const QString& text, int highlightStart, int highlightLength);
  /// The run's best changed and the editor follows it: show it (as showKernel).
  void bestChanged(const QString& title, const QString& text, int highlightStart, int highlightLength);
  /// A run ended; its best candidate is workspace kernel `bestKernelId` (0: none).
  void runFinished(qint64 bestKernelId);
  /// Scored points for the plot's entropy layer (Grewe vectors and their vote entropy).
  void entropyLayerReady(const std::vector<std::vector<double>>& vectors, const std::vector<double>& entropies);
  /// A suggested target was chosen.
  void targetSuggested(const std::vector<double>& values, const QString& origin);
  /// Suggestions are listed (or could not be made: the status says why).
  void suggestionsShown();
  /// The runs are listed again.
  void runsListed();
  /// A stored run was opened (its lineage is listed).
  void runOpened(qint64 run);
  /// Sampling toward the target ended (finished, stopped or failed: the status says which).
  void samplingFinished(int samples, int compiled);

private:
  static QString stopReasonText(const std::string& reason);
  /// "Seeds: ..." for a run's seeding (steer::seedingName), or auto seeding's choice and reason.
  static QString seedingText(const std::string& seeding, const std::string& why);
  void addGeneration(const steer::GenerationReport& g, const std::vector<steer::LineageStep>& lineage);
  void finished(const steer::SteerResult& r, const QString& error);
  /// Runs sampleTowardTarget's or sampleGrid's sampling as a job.
  void startSampling(const steer::TargetSamplingOptions& options);
  /// What a sampling made, for its status line.
  struct SamplingTally {
    int made = 0, compiled = 0;
    int cut = 0, nothing = 0; ///< held samples given up, ending at their last clean statement or with no kernel
    double medianProximity = 0; ///< of the samples that compile, to their vectors (NAN: none compiled)
    int cells = 0, cellsNear = 0; ///< a grid's cells, and those with a compiling sample within 10% of the cell's vector
  };
  void samplingDone(const SamplingTally& tally, bool cancelled, const QString& error);
  void updateButtons();
  /// Empties the chart, the lineage and the steps before a run or sampling.
  void clearRunView();
  /// The model a new run or sampling starts with; empty, with the status
  /// saying why, when a job runs, there is no target (`needsTarget`), no
  /// workspace or no model.
  QString checkpointToStart(bool needsTarget = true);
  /// Starts the search's job: a new run of `spec`, or stored run `resume` (> 0).
  void startRun(const QString& checkpoint, const steer::SteerSpec& spec, std::int64_t resume);
  void buildForm(QGridLayout* form);
  void showLineage(const std::vector<steer::LineageStep>& lineage);
  /// Widgets bound to a field of spec_: they write it as they change, and read it back in setSpec.
  QSpinBox* intField(int steer::SteerSpec::*field, int lo, int hi, const QString& tip);
  QDoubleSpinBox* realField(double steer::SteerSpec::*field, double lo, double hi, double step, int decimals,
                            const QString& tip);
  QCheckBox* flagField(bool steer::SteerSpec::*field, const QString& text, const QString& tip);

  EngineBridge* engine_;
  QString workspace_, space_, origin_;
  std::optional<std::vector<double>> target_;
  int job_ = 0;
  int runToken_ = 0; ///< drops generations of an earlier run that arrive late

  steer::SteerSpec spec_;
  std::vector<std::function<void()>> readBack_; ///< each bound widget's read of spec_
  QLabel* targetLabel_;
  QSpinBox* seed_ = nullptr;
  QComboBox* seeding_ = nullptr;
  QCheckBox* follow_ = nullptr;
  QPushButton *steer_, *stop_, *resume_, *sample_ = nullptr;
  QSpinBox* sampleCount_ = nullptr;        ///< kernels "Sample toward target" writes
  QDoubleSpinBox* sampleSpread_ = nullptr; ///< and how far their vectors spread
  QSpinBox* gridCells_ = nullptr;          ///< cells a side of "Sample a grid over this view"
  QSpinBox* gridPerCell_ = nullptr;        ///< and samples a cell
  QComboBox* runs_ = nullptr;
  std::vector<std::int64_t> runIds_;
  std::vector<bool> runResumable_;
  QLabel* status_;
  QChartView* chartView_;
  QLineSeries *best_, *median_;
  QValueAxis *axisX_, *axisY_;
  QListWidget* lineage_;
  QPushButton* suggest_;
  QListWidget* suggestions_;
  struct Suggestion {
    std::vector<double> target;
    QString origin;
  };
  QVector<Suggestion> suggested_;
  struct Step {
    QString title, text;
    int start = 0, length = 0;
  };
  QVector<Step> steps_;
  QStringList stepTexts_;
  std::int64_t shownBest_ = 0; ///< the best the editor follows (0: none yet this run)
};

} // namespace steerbench::ui
