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

struct EngineBridge::Request {
  QString tag;
  Work work;
  JobWork job;
  int jobId = 0;
  QString title;
  std::shared_ptr<CancelToken> cancel;
};

namespace {
/// Lowers the calling thread's priority: engine work is background work, and
/// the GUI thread and the display server stay responsive when every core is
/// busy. Threads it starts inherit it. Failure leaves the priority as is.
void runBelowTheGui(int nice) { (void)setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), nice); }
} // namespace

namespace {

/// Sends progress to the GUI at most every 200 ms (a status bar needs no
/// more; each update repaints the window), and always a change of stage.
class ThrottledFeedback : public JobFeedback {
public:
  using Post = std::function<void(std::function<std::function<void()>(EngineState&)>)>;
  ThrottledFeedback(EngineBridge* bridge, int id, const CancelToken& cancel, Post post)
      : bridge_(bridge), id_(id), cancel_(cancel), post_(std::move(post)) {}
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
  void onEngine(std::function<std::function<void()>(EngineState&)> work) override { post_(std::move(work)); }

private:
  EngineBridge* bridge_;
  int id_;
  const CancelToken& cancel_;
  Post post_;
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
  for (auto& t : background_) // a background job stops at its next cancel check (a training step)
    t.join();
  thread_.join();
}

void EngineBridge::post(const QString& tag, Work work) {
  auto r = std::make_shared<Request>();
  r->tag = tag;
  r->work = std::move(work);
  enqueue(std::move(r));
}

void EngineBridge::enqueue(std::shared_ptr<Request> r) {
  const QString tag = r->tag;
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
    if (!replaced && !stop_) {
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

void EngineBridge::postForJob(const QString& title, std::function<Continuation(EngineState&)> work) {
  auto r = std::make_shared<Request>();
  r->work = std::move(work); // untagged: never replaced
  r->title = title;          // a failure is reported under the job's title
  enqueue(std::move(r));
}

int EngineBridge::startBackgroundJob(const QString& title, BackgroundWork work) {
  auto cancel = std::make_shared<CancelToken>();
  int id = 0;
  {
    std::lock_guard lock(mutex_);
    id = nextJob_++;
    jobs_[id] = cancel;
    ++pending_;
  }
  emit jobStarted(id, title);
  std::lock_guard lock(mutex_);
  background_.emplace_back([this, id, title, cancel, work = std::move(work)] {
    runBelowTheGui(10); // below the GUI, above the engine's short jobs: it is what the user waits for
    ThrottledFeedback feedback(this, id, *cancel, [this, title](auto w) { postForJob(title, std::move(w)); });
    Continuation next;
    QString error;
    try {
      if (!cancel->cancelled()) next = work(feedback);
    } catch (const std::exception& e) {
      error = QString::fromStdString(e.what());
    } catch (...) {
      error = tr("an unknown error");
    }
    {
      std::lock_guard l(mutex_);
      jobs_.erase(id);
    }
    deliver(std::move(next), error, title, id, cancel->cancelled());
  });
  return id;
}

void EngineBridge::cancelJob(int id) {
  std::lock_guard lock(mutex_);
  if (auto it = jobs_.find(id); it != jobs_.end()) it->second->cancel();
}

bool EngineBridge::idle() const { return pending_ == 0; }

void EngineBridge::loop() {
  runBelowTheGui(19);
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
      ThrottledFeedback feedback(this, r.jobId, *r.cancel, [this, title = r.title](auto w) { postForJob(title, std::move(w)); });
      if (!r.cancel->cancelled()) next = r.job(*state_, feedback);
    } else {
      next = r.work(*state_);
    }
  } catch (const std::exception& e) {
    error = QString::fromStdString(e.what());
  } catch (...) {
    error = tr("an unknown error");
  }
  const QString what = r.jobId || r.tag.isEmpty() ? r.title : r.tag;
  deliver(std::move(next), error, what, r.jobId, r.cancel && r.cancel->cancelled());
}

void EngineBridge::deliver(Continuation next, const QString& error, const QString& what, int id, bool cancelled) {
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
