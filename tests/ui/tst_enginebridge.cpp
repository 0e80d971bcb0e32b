// The engine bridge: work runs on the engine thread, continuations on the
// GUI thread; a newer request with the same tag replaces a waiting one; jobs
// report progress and can be cancelled; errors reach `failed`.
#include "EngineBridge.h"
#include "EngineState.h"

#include "engine/ParallelFor.h"

#include <QSignalSpy>
#include <QThread>
#include <QtTest>

#include <atomic>
#include <future>

using steerbench::ui::EngineBridge;
using steerbench::ui::EngineState;
using steerbench::ui::JobFeedback;

class TestEngineBridge : public QObject {
  Q_OBJECT
private slots:
  void workOnTheEngineThreadContinuationOnTheGuiThread() {
    EngineBridge engine;
    QThread* workThread = nullptr;
    QThread* continuationThread = nullptr;
    engine.post(QString(), [&](EngineState&) -> EngineBridge::Continuation {
      workThread = QThread::currentThread();
      return [&] { continuationThread = QThread::currentThread(); };
    });
    QTRY_VERIFY(continuationThread != nullptr);
    QVERIFY(workThread != QThread::currentThread());
    QCOMPARE(continuationThread, QThread::currentThread());
  }

  void aNewerRequestWithTheSameTagReplacesAWaitingOne() {
    EngineBridge engine;
    std::promise<void> release;
    auto gate = release.get_future().share();
    QStringList ran;
    // Keep the engine busy while three "hover" requests queue up.
    engine.post(QStringLiteral("block"), [gate](EngineState&) -> EngineBridge::Continuation {
      gate.wait();
      return {};
    });
    for (int i = 1; i <= 3; ++i)
      engine.post(QStringLiteral("hover"), [&ran, i](EngineState&) -> EngineBridge::Continuation {
        return [&ran, i] { ran << QStringLiteral("hover %1").arg(i); };
      });
    engine.post(QStringLiteral("other"), [&ran](EngineState&) -> EngineBridge::Continuation {
      return [&ran] { ran << QStringLiteral("other"); };
    });
    QVERIFY(!engine.idle());
    release.set_value();
    QTRY_COMPARE(ran.size(), 2);
    QCOMPARE(ran, (QStringList{QStringLiteral("hover 3"), QStringLiteral("other")}));
    QTRY_VERIFY(engine.idle());
  }

  void aBackgroundJobRunsBesideTheEngineAndWritesThroughIt() {
    // A long job on a thread of its own: the engine stays free for other
    // work meanwhile, and what the job hands to onEngine runs on the engine
    // thread, in order; cancel stops it at its next check.
    EngineBridge engine;
    QThread* engineThread = nullptr;
    engine.post(QString(), [&](EngineState&) -> EngineBridge::Continuation {
      engineThread = QThread::currentThread();
      return {};
    });
    QTRY_VERIFY(engineThread != nullptr);
    QSignalSpy started(&engine, &EngineBridge::jobStarted), finished(&engine, &EngineBridge::jobFinished);
    std::atomic<QThread*> jobThread{nullptr};
    std::atomic<int> steps{0};
    std::vector<int> written; // on the engine thread only
    std::atomic<bool> writtenOnEngine{true};
    QThread* continuationThread = nullptr;
    const int id = engine.startBackgroundJob(QStringLiteral("long"), [&](JobFeedback& f) -> EngineBridge::Continuation {
      jobThread = QThread::currentThread();
      while (!f.cancel().cancelled() && steps < 100000) {
        const int step = ++steps;
        f.onEngine([&, step](EngineState&) -> std::function<void()> {
          writtenOnEngine = writtenOnEngine && QThread::currentThread() == engineThread;
          written.push_back(step);
          return {};
        });
        f.progress(double(step) / 100000, "step");
        QThread::msleep(2);
      }
      return [&] { continuationThread = QThread::currentThread(); };
    });
    QCOMPARE(started.count(), 1);
    QTRY_VERIFY(steps >= 5);
    // The engine answers while the job runs.
    bool answered = false;
    engine.post(QString(), [&](EngineState&) -> EngineBridge::Continuation { return [&] { answered = true; }; });
    QTRY_VERIFY(answered);
    QVERIFY(!engine.idle()); // the job still runs
    engine.cancelJob(id);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), id);
    QVERIFY(finished.at(0).at(1).toBool()); // cancelled
    QTRY_VERIFY(engine.idle()); // its last writes too
    QVERIFY(jobThread != engineThread && jobThread != QThread::currentThread());
    QCOMPARE(continuationThread, QThread::currentThread());
    QVERIFY(writtenOnEngine);
    QCOMPARE(int(written.size()), steps.load());
    for (std::size_t i = 0; i < written.size(); ++i)
      QCOMPARE(written[i], int(i) + 1);
    QVERIFY(steps < 100000);
  }

  void errorsReachFailedAndTheEngineGoesOn() {
    EngineBridge engine;
    QSignalSpy failed(&engine, &EngineBridge::failed);
    engine.post(QStringLiteral("broken"), [](EngineState& s) -> EngineBridge::Continuation {
      (void)s.ws(); // no workspace is open
      return {};
    });
    bool after = false;
    engine.post(QString(), [&](EngineState&) -> EngineBridge::Continuation { return [&] { after = true; }; });
    QTRY_VERIFY(after);
    QCOMPARE(failed.count(), 1);
    QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("broken"));
    QVERIFY(failed.at(0).at(1).toString().contains(QLatin1String("no workspace is open")));
  }

  void idleMeansTheContinuationRan() {
    EngineBridge engine;
    bool ran = false;
    engine.post(QString(), [&](EngineState&) -> EngineBridge::Continuation { return [&] { ran = true; }; });
    // The work finishes quickly on the engine thread; idle waits for the GUI side too.
    QThread::msleep(50);
    QVERIFY(!engine.idle());
    QVERIFY(!ran);
    QTRY_VERIFY(engine.idle());
    QVERIFY(ran);
  }

  void aJobCancelledBeforeItStartsDoesNotRun() {
    EngineBridge engine;
    std::promise<void> release;
    auto gate = release.get_future().share();
    engine.post(QStringLiteral("block"), [gate](EngineState&) -> EngineBridge::Continuation {
      gate.wait();
      return {};
    });
    bool ran = false;
    QSignalSpy finished(&engine, &EngineBridge::jobFinished);
    const int id = engine.startJob(QStringLiteral("never"), [&](EngineState&, JobFeedback&) -> EngineBridge::Continuation {
      ran = true;
      return {};
    });
    engine.cancelJob(id);
    release.set_value();
    QTRY_COMPARE(finished.count(), 1);
    QVERIFY(!ran);
    QCOMPARE(finished.at(0).at(1).toBool(), true);
  }

  void destroyingWithWorkQueuedStopsCleanly() {
    std::atomic<bool> later{false};
    std::atomic<bool> stopped{false};
    {
      EngineBridge engine;
      std::promise<void> started;
      engine.post(QString(), [&](EngineState& s) -> EngineBridge::Continuation {
        started.set_value();
        while (!s.shutdown->cancelled()) // long work without a job token watches the shutdown token
          QThread::msleep(1);
        stopped = true;
        return [] { QFAIL("a continuation ran after the bridge was destroyed"); };
      });
      engine.post(QString(), [&](EngineState&) -> EngineBridge::Continuation {
        later = true;
        return {};
      });
      started.get_future().wait();
    } // the destructor cancels, drops the queue and joins
    QVERIFY(stopped);
    QVERIFY(!later);
    QCoreApplication::processEvents(); // nothing queued for a dead bridge may run
  }

  void jobsReportProgressAndCanBeCancelled() {
    EngineBridge engine;
    QSignalSpy progress(&engine, &EngineBridge::jobProgress);
    QSignalSpy finished(&engine, &EngineBridge::jobFinished);
    std::atomic<int> steps{0};
    const int id = engine.startJob(QStringLiteral("count"), [&](EngineState&, JobFeedback& f) -> EngineBridge::Continuation {
      for (int i = 0; i < 100000 && !f.cancel().cancelled(); ++i) {
        f.progress(i / 100000.0, "counting");
        ++steps;
        QThread::usleep(100);
      }
      return {};
    });
    QTRY_VERIFY(progress.count() >= 1);
    engine.cancelJob(id);
    QTRY_COMPARE(finished.count(), 1);
    QCOMPARE(finished.at(0).at(0).toInt(), id);
    QCOMPARE(finished.at(0).at(1).toBool(), true); // cancelled
    QVERIFY(steps.load() < 100000);
    QCOMPARE(progress.at(0).at(2).toString(), QStringLiteral("counting"));
  }
};

QTEST_MAIN(TestEngineBridge)
#include "tst_enginebridge.moc"
