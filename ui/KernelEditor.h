// The kernel editor (QScintilla): OpenCL C highlighting, line numbers,
// folding, and Clang's diagnostics as inline annotations and margin markers.
#pragma once

#include <QPair>
#include <QString>
#include <QVector>
#include <QWidget>

#include <cstdint>

class QsciScintilla;
class QLabel;
class QAction;

namespace steerbench::ui {

/// One compiler message, as the editor shows it.
struct EditorDiagnostic {
  int line = 0; ///< 1-based; 0 when it has no location in this kernel
  int column = 0;
  QString severity; ///< note, warning, error, fatal
  QString message;
};

class KernelEditor : public QWidget {
  Q_OBJECT
public:
  explicit KernelEditor(QWidget* parent = nullptr);

  /// Shows a kernel (id 0: text that is not in the workspace).
  void setKernel(std::int64_t id, const QString& title, const QString& source);
  [[nodiscard]] std::int64_t kernelId() const { return id_; }
  [[nodiscard]] QString title() const { return title_; }
  [[nodiscard]] QString text() const;
  [[nodiscard]] bool modified() const;

  /// Replaces the shown diagnostics (empty clears them).
  void setDiagnostics(const QVector<EditorDiagnostic>& diagnostics, const QString& summary);
  [[nodiscard]] const QVector<EditorDiagnostic>& diagnostics() const { return diagnostics_; }
  /// The annotation text on a 1-based line (for tests).
  [[nodiscard]] QString annotationAt(int line) const;
  /// The style of the annotation on a 1-based line: error, warning, note, or empty.
  [[nodiscard]] QString annotationSeverityAt(int line) const;
  [[nodiscard]] QString summary() const;

  [[nodiscard]] QsciScintilla* scintilla() const { return edit_; }
  [[nodiscard]] QAction* evaluateAction() const { return evaluate_; }
  [[nodiscard]] QAction* saveAction() const { return save_; }
  [[nodiscard]] QAction* fillAction() const { return fill_; }
  [[nodiscard]] QAction* steerAction() const { return steer_; }
  /// Marks [start, start + length) of the text (characters) as what a steering
  /// step's infill changed; setKernel() clears it.
  void highlight(int start, int length);
  /// The highlighted range as (start, length); length 0 when none.
  [[nodiscard]] QPair<int, int> highlighted() const { return highlight_; }
  void setDarkTheme(bool dark);

signals:
  void evaluateRequested(const QString& source);
  void saveRequested(const QString& source);
  /// Fill the [HOLE]s of this text with the model.
  void fillRequested(const QString& source);
  /// Start a steering run from this text ("Steer from here").
  void steerRequested(const QString& source);

private:
  QsciScintilla* edit_;
  QLabel* header_;
  QLabel* status_;
  QAction* evaluate_;
  QAction* save_;
  QAction* fill_;
  QAction* steer_;
  QPair<int, int> highlight_{0, 0};
  std::int64_t id_ = 0;
  QString title_;
  QVector<EditorDiagnostic> diagnostics_;
  int errorMarker_ = 0, warningMarker_ = 1;
  bool dark_ = false;
};

} // namespace steerbench::ui
