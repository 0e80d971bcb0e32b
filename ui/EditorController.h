// The kernel editor's engine work: showing a workspace kernel with its
// vectors, evaluating what is typed (diagnostics, features, its point on the
// plot), saving it as your kernel, filling its [HOLE]s with the model, and
// showing the kernels a steering run makes.
#pragma once

#include "Workbench.h"

#include <QObject>

#include <cstdint>
#include <functional>

namespace steerbench::ui {

class EditorController : public QObject {
  Q_OBJECT
public:
  /// `workspace` and `checkpoint` give the open workspace's path and the
  /// model Fill holes uses (the workspace's own, else the default).
  EditorController(const Workbench& bench, std::function<QString()> workspace, QObject* parent = nullptr);

  void showKernel(std::int64_t id);
  void evaluate(const QString& source);
  void save(const QString& source);
  void fillHoles(const QString& source);
  /// A kernel a steering run made (not in the workspace as a kernel), with
  /// [start, start + length) highlighted. Following a run replaces what the
  /// editor shows; the first kernel of a run goes on the undo stack, so
  /// Ctrl+Z brings back what was there before.
  void showSteered(const QString& title, const QString& text, int start, int length, bool following);
  /// The next showSteered(following) is the first of a run.
  void runStarted() { followed_ = false; }

signals:
  void kernelShown(qint64 id);
  void evaluated(bool compiled);
  void kernelSaved(qint64 id);
  void holesFilled(bool complete);
  /// Saving changed the workspace's kernels (the plot and the count reload).
  void kernelsChanged(std::int64_t kernels);

private:
  Workbench bench_;
  std::function<QString()> workspace_;
  bool followed_ = false;
};

} // namespace steerbench::ui
