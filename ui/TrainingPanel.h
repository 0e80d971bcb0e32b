// The training panel: start, pause and resume training of the workspace's
// model; live loss and validation-loss curves (Qt Charts), tokens/s and ETA;
// the model's recipe and hash.
//
// Training is a background job of the engine bridge (it takes hours; the
// engine thread stays free for everything else), shown in the status bar with
// its progress and a cancel button that pauses it. The engine thread prepares
// the run (corpus, tokenizer, the run's record) and stores each step, so it
// stays the workspace's only writer. Pausing stops at the next step and
// writes the checkpoint; Start resumes from it.
#pragma once

#include <QString>
#include <QWidget>

#include <cstdint>
#include <memory>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QPlainTextEdit;
class QPushButton;
class QScatterSeries;
class QComboBox;
class QSpinBox;
class QValueAxis;

namespace steerbench::model {
class TrainingSession;
struct TrainProgress;
} // namespace steerbench::model

namespace steerbench::ui {

class EngineBridge;

class TrainingPanel : public QWidget {
  Q_OBJECT
public:
  explicit TrainingPanel(EngineBridge* engine, QWidget* parent = nullptr);

  /// Shows the model of this workspace (WORKSPACE.model.ckpt): its curves so
  /// far, recipe and hash. A training of another workspace is paused first.
  void setWorkspace(const QString& workspacePath);
  /// Starts a new model, or resumes the checkpoint when there is one.
  void start();
  /// Stops at the next step boundary, writing the checkpoint.
  void pause();
  [[nodiscard]] bool training() const { return running_; }
  /// Pauses a running training and waits (with the event loop running) until
  /// its checkpoint is written and its steps are stored. For closing the
  /// window and switching workspaces.
  void stopAndFlush();

  /// Options of a new run (for tests and scripts; the spin boxes show them).
  struct Settings {
    int steps = 4000, batch = 16, seed = 1, layers = 3, hidden = 192, heads = 4, ffn = 768, maxLength = 256;
    bool decoder = false; ///< the model's architecture: a fill-in-the-middle decoder, else an encoder
    int validateEvery = 100, checkpointEvery = 100, threads = 0;
  };
  void setSettings(const Settings& s);
  [[nodiscard]] Settings settings() const;

  // For tests and screenshots.
  [[nodiscard]] int lossPoints() const;
  [[nodiscard]] int validationPoints() const;
  [[nodiscard]] QString statusText() const;
  [[nodiscard]] QString modelText() const;
  [[nodiscard]] QChartView* chartView() const { return view_; }

signals:
  /// A step's progress reached the GUI.
  void stepShown(qint64 step);
  /// Training ended: finished, paused (cancelled) or failed (error non-empty).
  void trainingEnded(bool paused, const QString& error);
  /// The checkpoint changed (the editor's Fill holes must reload the model).
  void modelChanged();

private:
  void launch(std::shared_ptr<const model::TrainingSession> training);
  void onProgress(int generation, const model::TrainProgress& p);
  void onEnded(int generation, bool cancelled, const QString& error, std::int64_t step);
  /// The job ended without reaching its own end (it never started, or failed outside training).
  void onJobFinished(int id, bool cancelled, const QString& error);
  /// Storing a step failed (a full disk): pause once, with the reason.
  void recordFailed(int generation, const QString& message);
  void loadHistory();
  void showModelInfo();
  void updateButtons();
  void addPoint(std::int64_t step, double loss, double validation);
  void clearCurves();
  [[nodiscard]] QString checkpoint() const;

  EngineBridge* engine_;
  QString workspace_;
  QString runWorkspace_;      ///< the workspace the running (or last) run belongs to
  int generation_ = 0;        ///< bumped per run: late events of an earlier run are ignored
  bool recordFailed_ = false;
  std::shared_ptr<const model::TrainingSession> run_;
  int job_ = 0;               ///< the training job of the bridge (0: none)
  bool pausing_ = false;
  bool running_ = false, preparing_ = false;

  QLabel* model_ = nullptr;
  QLabel* status_ = nullptr;
  QPlainTextEdit* recipe_ = nullptr;
  QPushButton* startButton_ = nullptr;
  QPushButton* pauseButton_ = nullptr;
  QComboBox* arch_ = nullptr;
  QSpinBox *steps_ = nullptr, *batch_ = nullptr, *seed_ = nullptr, *layers_ = nullptr, *hidden_ = nullptr,
           *heads_ = nullptr, *ffn_ = nullptr;
  QWidget* shape_ = nullptr; ///< the model-shape boxes: only for a new model
  Settings hidden_settings_;
  QChart* chart_ = nullptr;
  QChartView* view_ = nullptr;
  QLineSeries* loss_ = nullptr;
  QLineSeries* validation_ = nullptr;
  QScatterSeries* validationDots_ = nullptr;
  QValueAxis* xAxis_ = nullptr;
  QValueAxis* yAxis_ = nullptr;
  double yMax_ = 0, yMin_ = 1e30;
  std::int64_t lastStep_ = 0, totalSteps_ = 0;
};

} // namespace steerbench::ui
