// The bridge to the engine thread. The engine thread owns the workspace
// writer and does all core work; the GUI thread posts closures to it and gets
// back continuations (run on the GUI thread) and job progress as queued signals.
// The GUI thread never waits on the engine.
#pragma once

#include "engine/ParallelFor.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>


namespace steerbench::ui {

struct EngineState;

/// Handed to a job: reports progress (throttled) and carries its cancel token.
class JobFeedback {
public:
  virtual ~JobFeedback() = default;
  /// Progress in [0, 1] and the current stage. Engine thread; cheap to call often.
  virtual void progress(double fraction, const std::string& stage) = 0;
  [[nodiscard]] virtual const CancelToken& cancel() const = 0;
};

class EngineBridge : public QObject {
  Q_OBJECT
public:
  /// Runs on the GUI thread after the work is done.
  using Continuation = std::function<void()>;
  /// Runs on the engine thread; may throw (the message reaches `failed`).
  using Work = std::function<Continuation(EngineState&)>;
  using JobWork = std::function<Continuation(EngineState&, JobFeedback&)>;

  explicit EngineBridge(QObject* parent = nullptr);
  /// Cancels running jobs and stops the engine thread (waits for the work in
  /// hand to reach its next cancel check).
  ~EngineBridge() override;

  /// Queues `work`. A non-empty tag replaces a request with the same tag that
  /// is still waiting (e.g. "nearest kernels under the mouse").
  void post(const QString& tag, Work work);
  /// Queues a cancellable job shown in the status bar; returns its id.
  int startJob(const QString& title, JobWork work);
  void cancelJob(int id);
  /// True when every request posted so far has finished and its continuation
  /// has run on the GUI thread (for tests, benches and --screenshot). GUI thread.
  [[nodiscard]] bool idle() const;

signals:
  void jobStarted(int id, const QString& title);
  void jobProgress(int id, double fraction, const QString& stage);
  void jobFinished(int id, bool cancelled, const QString& error);
  /// Work failed with an exception; `what` is the request's tag or job title.
  void failed(const QString& what, const QString& message);

private:
  struct Request;
  void loop();
  void runRequest(Request& r);

  CancelToken shutdown_;
  std::unique_ptr<EngineState> state_;
  int pending_ = 0; ///< requests whose continuation has not run yet (GUI thread only)
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Request>> queue_;
  std::map<int, std::shared_ptr<CancelToken>> jobs_;
  bool stop_ = false;
  int nextJob_ = 1;
  std::thread thread_;
};

} // namespace steerbench::ui
