#include "EngineBridge.h"

#include "EngineState.h"
#include "common/Error.h"
#include "engine/ParallelFor.h"

#include <QMetaObject>

#include <chrono>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <exception>

namespace steerbench::ui {

store::Workspace& EngineState::ws() {
  if (!workspace) throw WorkspaceError("no workspace is open; open or create one first (File menu)");
  return *workspace;
}

struct EngineBridge::Request {
  QString tag;
  Work work;
  JobWork job;
  int jobId = 0;
  QString title;
  std::shared_ptr<CancelToken> cancel;
};

namespace {

/// Sends progress to the GUI at most every 200 ms (a status bar needs no
/// more; each update repaints the window), and always a change of stage.
class ThrottledFeedback : public JobFeedback {
public:
  ThrottledFeedback(EngineBridge* bridge, int id, const CancelToken& cancel)
      : bridge_(bridge), id_(id), cancel_(cancel) {}
  void progress(double fraction, const std::string& stage) override {
    const auto now = std::chrono::steady_clock::now();
    if (stage == stage_ && now - last_ < std::chrono::milliseconds(200) && fraction < 1.0) return;
    last_ = now;
    stage_ = stage;
    QMetaObject::invokeMethod(
        bridge_, [b = bridge_, id = id_, fraction, s = QString::fromStdString(stage)] { emit b->jobProgress(id, fraction, s); },
        Qt::QueuedConnection);
  }
  const CancelToken& cancel() const override { return cancel_; }

private:
  EngineBridge* bridge_;
  int id_;
  const CancelToken& cancel_;
  std::string stage_;
  std::chrono::steady_clock::time_point last_{};
};

} // namespace

EngineBridge::EngineBridge(QObject* parent) : QObject(parent), state_(std::make_unique<EngineState>()) {
  state_->shutdown = &shutdown_;
  thread_ = std::thread([this] { loop(); });
}

EngineBridge::~EngineBridge() {
  shutdown_.cancel(); // long work without a job token checks this one
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    for (auto& [id, token] : jobs_)
      token->cancel();
    queue_.clear();
  }
  wake_.notify_all();
  thread_.join();
}

void EngineBridge::post(const QString& tag, Work work) {
  auto r = std::make_shared<Request>();
  r->tag = tag;
  r->work = std::move(work);
  {
    std::lock_guard lock(mutex_);
    bool replaced = false;
    if (!tag.isEmpty())
      for (auto& q : queue_)
        if (q->jobId == 0 && q->tag == tag) {
          q = r;
          replaced = true;
          break;
        }
    if (!replaced) {
      queue_.push_back(r);
      ++pending_;
    }
  }
  wake_.notify_one();
}

int EngineBridge::startJob(const QString& title, JobWork work) {
  auto r = std::make_shared<Request>();
  r->title = title;
  r->job = std::move(work);
  r->cancel = std::make_shared<CancelToken>();
  {
    std::lock_guard lock(mutex_);
    r->jobId = nextJob_++;
    jobs_[r->jobId] = r->cancel;
    queue_.push_back(r);
    ++pending_;
  }
  emit jobStarted(r->jobId, title);
  wake_.notify_one();
  return r->jobId;
}

void EngineBridge::cancelJob(int id) {
  std::lock_guard lock(mutex_);
  if (auto it = jobs_.find(id); it != jobs_.end()) it->second->cancel();
}

bool EngineBridge::idle() const { return pending_ == 0; }

void EngineBridge::loop() {
  // Engine work is background work: a lower priority (inherited by the
  // threads it starts) keeps the GUI thread and the display server responsive
  // when every core is busy compiling. Failure just leaves the priority as is.
  (void)setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 19);
  for (;;) {
    std::shared_ptr<Request> r;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (stop_) break;
      r = queue_.front();
      queue_.pop_front();
    }
    runRequest(*r);
    std::lock_guard lock(mutex_);
    if (r->jobId) jobs_.erase(r->jobId);
  }
  state_.reset(); // the workspace closes on the thread that wrote it
}

void EngineBridge::runRequest(Request& r) {
  Continuation next;
  QString error;
  try {
    if (r.jobId) {
      ThrottledFeedback feedback(this, r.jobId, *r.cancel);
      if (!r.cancel->cancelled()) next = r.job(*state_, feedback);
    } else {
      next = r.work(*state_);
    }
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  } catch (...) {
    error = tr("an unknown error");
  }
  const QString what = r.jobId ? r.title : r.tag;
  const int id = r.jobId;
  const bool cancelled = r.cancel && r.cancel->cancelled();
  QMetaObject::invokeMethod(
      this,
      [this, next = std::move(next), error, what, id, cancelled] {
        QString problem = error;
        if (!error.isEmpty()) emit failed(what, error);
        try {
          if (next) next();
        } catch (const std::exception& e) { // an exception must not cross the event loop
          problem = QString::fromStdString(e.what());
          emit failed(what, problem);
        }
        --pending_;
        if (id) emit jobFinished(id, cancelled, problem);
      },
      Qt::QueuedConnection);
}

} // namespace steerbench::ui
