#include "UndoCommands.h"

#include "KernelEditor.h"

namespace steerbench::ui {

SetTargetCommand::SetTargetCommand(SelectionModel* selection, std::optional<Target> after, const QString& text)
    : QUndoCommand(text), selection_(selection), before_(selection->target()), after_(std::move(after)) {}

void SetTargetCommand::undo() { selection_->setTarget(before_); }
void SetTargetCommand::redo() { selection_->setTarget(after_); }

EditorContentCommand::EditorContentCommand(KernelEditor* editor, Content after, const QString& text,
                                           SelectionModel* selection)
    : QUndoCommand(text), editor_(editor), selection_(selection),
      before_{editor->kernelId(), editor->title(), editor->text()}, after_(std::move(after)) {}

void EditorContentCommand::show(const Content& c) {
  editor_->setKernel(c.id, c.title, c.text);
  if (selection_) selection_->setCurrentKernel(c.id);
}

void EditorContentCommand::undo() { show(before_); }
void EditorContentCommand::redo() { show(after_); }

} // namespace steerbench::ui
