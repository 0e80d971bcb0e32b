// The steering panel: the beam search's parameters, Steer and Stop, live
// progress (best and median distance per generation, compile rate,
// candidates/s), and the lineage from the seed to the best candidate. A step
// of the lineage opens in the editor with what its hole changed highlighted.
//
// A run is a job on the engine thread (it owns the workspace and the model);
// each generation comes back as a queued call, and the plot gets its
// candidates and the seed-to-best path through signals.
#pragma once

#include <QString>
#include <QVector>
#include <QWidget>

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
struct GenerationReport;
struct LineageStep;
struct SteerResult;
} // namespace steerbench::steer

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
  /// Cancels the run at once (the generation in hand is not stored).
  void stop();
  /// Active learning: trains the committee on the workspace's labelled drive
  /// cases, scores `points` random points by vote entropy, lists the most
  /// disputed as suggested targets and sends them all to the plot's entropy layer.
  void suggestTargets(int points = 2000);
  [[nodiscard]] int suggestionCount() const;
  /// Uses suggestion `row` as the target (as a click on it does).
  void useSuggestion(int row);
  [[nodiscard]] bool running() const { return job_ != 0; }

  /// The search's parameters the panel shows; every default is steer::SteerSpec's.
  struct Settings {
    Settings();
    int width, candidates, depth, holeMin, holeMax, maxNewTokens, seed;
    int patience; ///< stop after this many generations without a better best (0: never)
    int combine;  ///< pairs of one member's infills tried together a generation (0: none)
    int maxPerVector; ///< beam members that may share one feature vector (0: any number)
    int reseedAfter;  ///< generations a beam may stall before it starts again from the seeds (0: never)
    double temperature, swap, endHoleBias, guideLogits, timeBudget;
    int seeding = 0; ///< 0: nearest corpus kernels, 1: empty kernel
    bool guard;      ///< grammar-guided infills
    bool check;      ///< compiler-checked statements in infills
  };
  void setSettings(const Settings& s);
  [[nodiscard]] Settings settings() const;

  // For tests and screenshots.
  [[nodiscard]] int generationsShown() const;
  [[nodiscard]] int lineageSteps() const;
  [[nodiscard]] QString statusText() const;
  /// Opens lineage step `row` in the editor (as a click on it does).
  void showStep(int row);

signals:
  /// A run started: the plot clears its steering layer.
  void runStarted();
  /// A generation's compiling candidates, for the plot.
  void candidatesArrived(int generation, const std::vector<std::vector<double>>& vectors);
  /// The seed-to-best path changed.
  void pathChanged(const std::vector<std::vector<double>>& path);
  /// Show this kernel in the editor, with [start, start + length) highlighted.
  void showKernel(const QString& title, const QString& text, int highlightStart, int highlightLength);
  /// A run ended; its best candidate is workspace kernel `bestKernelId` (0: none).
  void runFinished(qint64 bestKernelId);
  /// Scored points for the plot's entropy layer (Grewe vectors and their vote entropy).
  void entropyLayerReady(const std::vector<std::vector<double>>& vectors, const std::vector<double>& entropies);
  /// A suggested target was chosen.
  void targetSuggested(const std::vector<double>& values, const QString& origin);
  /// Suggestions are listed (or could not be made: the status says why).
  void suggestionsShown();

private:
  static QString stopReasonText(const std::string& reason);
  void addGeneration(const steer::GenerationReport& g, const std::vector<steer::LineageStep>& lineage);
  void finished(const steer::SteerResult& r, const QString& error);
  void updateButtons();

  EngineBridge* engine_;
  QString workspace_, space_, origin_;
  std::optional<std::vector<double>> target_;
  int job_ = 0;
  int runToken_ = 0; ///< drops generations of an earlier run that arrive late

  QLabel* targetLabel_;
  QSpinBox *width_, *candidates_, *depth_, *holeMin_, *holeMax_, *seed_;
  QDoubleSpinBox *temperature_, *swap_, *timeBudget_;
  QSpinBox* patience_ = nullptr;
  QSpinBox* combine_ = nullptr;
  QSpinBox* maxPerVector_ = nullptr;
  QSpinBox* reseedAfter_ = nullptr;
  QCheckBox* guard_ = nullptr;
  QCheckBox* check_ = nullptr;
  QComboBox* seeding_;
  QPushButton *steer_, *stop_;
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
  int maxNewTokens_ = 8;
  double endHoleBias_ = 4;
  double guideLogits_ = 1; ///< not a widget: steer::SteerSpec's default, kept through settings()
};

} // namespace steerbench::ui
