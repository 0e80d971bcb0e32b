// The bridge to the engine thread. The engine thread owns the workspace
// writer and does all core work; the GUI thread posts closures to it and gets
// back continuations (run on the GUI thread) and job progress as queued signals.
// The GUI thread never waits on the engine.
//
// Every long task is a job: progress and cancel go through the bridge and the
// status bar shows it. Most jobs run on the engine thread, one at a time.
// A job that takes hours and does not need the workspace while it computes
// (training) runs on a thread of its own instead, so the engine stays free;
// it hands what must be written to the engine thread (JobFeedback::onEngine).
#pragma once

#include "engine/ParallelFor.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>


namespace steerbench::ui {

struct EngineState;

/// Handed to a job: reports progress (throttled) and carries its cancel token.
class JobFeedback {
public:
  virtual ~JobFeedback() = default;
  /// Progress in [0, 1] and the current stage. Engine thread; cheap to call often.
  virtual void progress(double fraction, const std::string& stage) = 0;
  [[nodiscard]] virtual const CancelToken& cancel() const = 0;
  /// Runs `work` on the engine thread, after what is queued there (for a
  /// background job: the workspace is the engine's to write). Its
  /// continuation, if any, runs on the GUI thread; an exception is reported
  /// as the job's failure (the `failed` signal).
  virtual void onEngine(std::function<std::function<void()>(EngineState&)> work) = 0;
};

class EngineBridge : public QObject {
  Q_OBJECT
public:
  /// Runs on the GUI thread after the work is done.
  using Continuation = std::function<void()>;
  /// Runs on the engine thread; may throw (the message reaches `failed`).
  using Work = std::function<Continuation(EngineState&)>;
  using JobWork = std::function<Continuation(EngineState&, JobFeedback&)>;
  /// A background job's work: on its own thread, without the engine state.
  using BackgroundWork = std::function<Continuation(JobFeedback&)>;

  explicit EngineBridge(QObject* parent = nullptr);
  /// Cancels running jobs and stops the engine thread (waits for the work in
  /// hand to reach its next cancel check).
  ~EngineBridge() override;

  /// Queues `work`. A non-empty tag replaces a request with the same tag that
  /// is still waiting (e.g. "nearest kernels under the mouse").
  void post(const QString& tag, Work work);
  /// Queues a cancellable job shown in the status bar; returns its id.
  int startJob(const QString& title, JobWork work);
  /// Starts a cancellable job on a thread of its own (below the GUI's
  /// priority), shown in the status bar like the others; returns its id.
  int startBackgroundJob(const QString& title, BackgroundWork work);
  void cancelJob(int id);
  /// True when every request posted so far (background jobs included) has
  /// finished and its continuation has run on the GUI thread (for tests,
  /// benches and --screenshot). GUI thread.
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
  /// Queues a job's JobFeedback::onEngine work for the engine thread.
  void postForJob(const QString& title, std::function<Continuation(EngineState&)> work);
  /// Queues `r` for the engine thread (the caller holds no lock).
  void enqueue(std::shared_ptr<Request> r);
  /// Hands a finished job's result to the GUI thread.
  void deliver(Continuation next, const QString& error, const QString& what, int id, bool cancelled);

  CancelToken shutdown_;
  std::unique_ptr<EngineState> state_;
  std::atomic<int> pending_{0}; ///< requests whose continuation has not run yet
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::shared_ptr<Request>> queue_;
  std::map<int, std::shared_ptr<CancelToken>> jobs_;
  bool stop_ = false;
  int nextJob_ = 1;
  std::thread thread_;
  std::vector<std::thread> background_; ///< background jobs' threads, joined when the bridge goes
};

} // namespace steerbench::ui
