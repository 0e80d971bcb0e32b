#include "KernelEditor.h"

#include "OpenCLLexer.h"

#include <algorithm>
#include <QAction>
#include <QFontDatabase>
#include <QLabel>
#include <QToolBar>
#include <QVBoxLayout>
#include <Qsci/qsciscintilla.h>

namespace steerbench::ui {

namespace {
// Annotation styles beyond the lexer's own (Scintilla's styles 0-127 belong
// to the lexer; annotations use their own numbers, offset by the editor).
constexpr int kErrorStyle = 1, kWarningStyle = 2, kNoteStyle = 3;
constexpr int kStyleOffset = 256; ///< annotation styles live above the lexer's 0-255
constexpr int kInfillIndicator = 8; ///< marks what a steering step changed
} // namespace

KernelEditor::KernelEditor(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* bar = new QToolBar(this);
  evaluate_ = bar->addAction(QIcon::fromTheme(QStringLiteral("system-run")), tr("Evaluate"));
  evaluate_->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Return));
  evaluate_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  evaluate_->setToolTip(tr("Compile the kernel, measure its features in every space and place it on the plot (%1)")
                            .arg(evaluate_->shortcut().toString(QKeySequence::NativeText)));
  save_ = bar->addAction(QIcon::fromTheme(QStringLiteral("document-save")), tr("Save to workspace"));
  save_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  save_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  save_->setToolTip(tr("Store this text in the workspace as your own kernel, with where it came from (%1)")
                        .arg(save_->shortcut().toString(QKeySequence::NativeText)));
  fill_ = bar->addAction(QIcon::fromTheme(QStringLiteral("tools-wizard")), tr("Fill holes"));
  fill_->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_H));
  fill_->setShortcutContext(Qt::WidgetWithChildrenShortcut);
  fill_->setToolTip(tr("Put [HOLE] anywhere in the kernel, then let the model fill it (%1)")
                        .arg(fill_->shortcut().toString(QKeySequence::NativeText)));
  steer_ = bar->addAction(QIcon::fromTheme(QStringLiteral("go-jump")), tr("Steer from here"));
  steer_->setToolTip(tr("Start a steering run toward the target from this kernel"));
  header_ = new QLabel(tr("No kernel selected: click a point on the plot, or type a kernel and Evaluate."), this);
  header_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  bar->addSeparator();
  bar->addWidget(header_);
  layout->addWidget(bar);

  edit_ = new QsciScintilla(this);
  edit_->setUtf8(true);
  auto* lexer = new OpenCLLexer(edit_);
  edit_->setLexer(lexer);
  edit_->setMarginType(0, QsciScintilla::NumberMargin);
  edit_->setMarginWidth(0, QStringLiteral("00000"));
  edit_->setMarginLineNumbers(0, true);
  edit_->setMarginType(1, QsciScintilla::SymbolMargin);
  edit_->setMarginWidth(1, 14);
  edit_->setMarginSensitivity(1, false);
  edit_->setFolding(QsciScintilla::BoxedTreeFoldStyle, 2);
  edit_->setAutoIndent(true);
  edit_->setIndentationsUseTabs(false);
  edit_->setTabWidth(2);
  edit_->setBraceMatching(QsciScintilla::SloppyBraceMatch);
  edit_->setAnnotationDisplay(QsciScintilla::AnnotationBoxed);
  errorMarker_ = edit_->markerDefine(QsciScintilla::Circle, 0);
  warningMarker_ = edit_->markerDefine(QsciScintilla::Circle, 1);
  edit_->setMarkerBackgroundColor(QColor(220, 40, 40), errorMarker_);
  edit_->setMarkerBackgroundColor(QColor(230, 170, 0), warningMarker_);
  edit_->setMarginMarkerMask(1, (1 << errorMarker_) | (1 << warningMarker_));
  edit_->SendScintilla(QsciScintillaBase::SCI_ANNOTATIONSETSTYLEOFFSET, kStyleOffset);
  edit_->SendScintilla(QsciScintillaBase::SCI_ALLOCATEEXTENDEDSTYLES, 8);
  setDarkTheme(false);
  layout->addWidget(edit_, 1);

  status_ = new QLabel(this);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  layout->addWidget(status_);

  connect(evaluate_, &QAction::triggered, this, [this] { emit evaluateRequested(text()); });
  connect(save_, &QAction::triggered, this, [this] { emit saveRequested(text()); });
  connect(fill_, &QAction::triggered, this, [this] { emit fillRequested(text()); });
  connect(steer_, &QAction::triggered, this, [this] { emit steerRequested(text()); });
  edit_->indicatorDefine(QsciScintilla::StraightBoxIndicator, kInfillIndicator);
  edit_->setIndicatorForegroundColor(QColor(40, 200, 90, 110), kInfillIndicator);
}

void KernelEditor::highlight(int start, int length) {
  const QString t = text();
  start = std::clamp(start, 0, int(t.size()));
  length = std::clamp(length, 0, int(t.size()) - start);
  edit_->SendScintilla(QsciScintillaBase::SCI_SETINDICATORCURRENT, kInfillIndicator);
  edit_->SendScintilla(QsciScintillaBase::SCI_INDICATORCLEARRANGE, 0, edit_->length());
  highlight_ = {start, length};
  if (length == 0) return;
  const long from = long(t.left(start).toUtf8().size());
  const long bytes = long(t.mid(start, length).toUtf8().size());
  edit_->SendScintilla(QsciScintillaBase::SCI_INDICATORFILLRANGE, from, bytes);
  int line = 0, index = 0;
  edit_->lineIndexFromPosition(int(from), &line, &index);
  edit_->ensureLineVisible(line);
}

void KernelEditor::setDarkTheme(bool dark) {
  dark_ = dark;
  if (auto* lexer = qobject_cast<OpenCLLexer*>(edit_->lexer())) lexer->setDarkTheme(dark);
  edit_->setMarginsBackgroundColor(dark ? QColor(45, 45, 50) : QColor(235, 235, 235));
  edit_->setMarginsForegroundColor(dark ? QColor(170, 170, 170) : QColor(90, 90, 90));
  edit_->setCaretForegroundColor(dark ? Qt::white : Qt::black);
  edit_->setFoldMarginColors(dark ? QColor(45, 45, 50) : QColor(235, 235, 235), dark ? QColor(45, 45, 50) : Qt::white);
  const struct {
    int style;
    QColor back, fore;
  } styles[] = {{kErrorStyle, dark ? QColor(90, 30, 30) : QColor(255, 225, 225), dark ? QColor(255, 190, 190) : QColor(150, 0, 0)},
                {kWarningStyle, dark ? QColor(80, 70, 20) : QColor(255, 245, 200), dark ? QColor(255, 230, 150) : QColor(120, 80, 0)},
                {kNoteStyle, dark ? QColor(40, 50, 70) : QColor(230, 238, 255), dark ? QColor(190, 210, 255) : QColor(0, 40, 120)}};
  for (const auto& s : styles) {
    edit_->SendScintilla(QsciScintillaBase::SCI_STYLESETBACK, kStyleOffset + s.style, s.back);
    edit_->SendScintilla(QsciScintillaBase::SCI_STYLESETFORE, kStyleOffset + s.style, s.fore);
  }
}

void KernelEditor::setKernel(std::int64_t id, const QString& title, const QString& source) {
  id_ = id;
  title_ = title;
  header_->setText(title);
  edit_->setText(source);
  edit_->setModified(false);
  highlight_ = {0, 0};
  setDiagnostics({}, QString());
}

QString KernelEditor::text() const { return edit_->text(); }
bool KernelEditor::modified() const { return edit_->isModified(); }

void KernelEditor::setDiagnostics(const QVector<EditorDiagnostic>& diagnostics, const QString& summary) {
  diagnostics_ = diagnostics;
  edit_->clearAnnotations();
  edit_->markerDeleteAll();
  QMap<int, QStringList> byLine;
  QMap<int, int> worst; // line -> style
  for (const auto& d : diagnostics) {
    const int line = std::max(0, d.line - 1);
    byLine[line] << QStringLiteral("%1: %2").arg(d.severity, d.message);
    const int style = (d.severity == QLatin1String("error") || d.severity == QLatin1String("fatal")) ? kErrorStyle
                      : d.severity == QLatin1String("warning")                                       ? kWarningStyle
                                                                                                     : kNoteStyle;
    worst[line] = worst.contains(line) ? std::min(worst[line], style) : style;
  }
  for (auto it = byLine.begin(); it != byLine.end(); ++it) {
    // QScintilla subtracts the annotation style offset itself: pass the full style number.
    edit_->annotate(it.key(), it.value().join(QLatin1Char('\n')), kStyleOffset + worst[it.key()]);
    if (worst[it.key()] == kErrorStyle) edit_->markerAdd(it.key(), errorMarker_);
    if (worst[it.key()] == kWarningStyle) edit_->markerAdd(it.key(), warningMarker_);
  }
  status_->setText(summary);
}

QString KernelEditor::annotationAt(int line) const { return edit_->annotation(line - 1); }

QString KernelEditor::annotationSeverityAt(int line) const {
  const long style = edit_->SendScintilla(QsciScintillaBase::SCI_ANNOTATIONGETSTYLE, line - 1) +
                     edit_->SendScintilla(QsciScintillaBase::SCI_ANNOTATIONGETSTYLEOFFSET);
  switch (style - kStyleOffset) {
  case kErrorStyle: return QStringLiteral("error");
  case kWarningStyle: return QStringLiteral("warning");
  case kNoteStyle: return QStringLiteral("note");
  default: return {};
  }
}
QString KernelEditor::summary() const { return status_->text(); }

} // namespace steerbench::ui
