// Undoable edits: the target, and what the kernel editor holds.
#pragma once

#include "SelectionModel.h"

#include <QUndoCommand>

#include <functional>
#include <optional>

namespace steerbench::ui {

class KernelEditor;

class SetTargetCommand : public QUndoCommand {
public:
  SetTargetCommand(SelectionModel* selection, std::optional<Target> after, const QString& text);
  void undo() override;
  void redo() override;

private:
  SelectionModel* selection_;
  std::optional<Target> before_, after_;
};

/// Replaces the editor's kernel and text (the typing inside is QScintilla's
/// own undo); undo brings back the previous text, edits included.
class EditorContentCommand : public QUndoCommand {
public:
  struct Content {
    std::int64_t id = 0;
    QString title, text;
  };
  /// With a selection, undo and redo also make the shown kernel the current one.
  EditorContentCommand(KernelEditor* editor, Content after, const QString& text, SelectionModel* selection = nullptr);
  void undo() override;
  void redo() override;

private:
  KernelEditor* editor_;
  SelectionModel* selection_;
  Content before_, after_;
  void show(const Content& c);
};

} // namespace steerbench::ui
