#include "UndoCommands.h"

#include "KernelEditor.h"

namespace steerbench::ui {

SetTargetCommand::SetTargetCommand(SelectionModel* selection, std::optional<Target> after, const QString& text)
    : QUndoCommand(text), selection_(selection), before_(selection->target()), after_(std::move(after)) {}

void SetTargetCommand::undo() { selection_->setTarget(before_); }
void SetTargetCommand::redo() { selection_->setTarget(after_); }

EditorContentCommand::EditorContentCommand(KernelEditor* editor, Content after, const QString& text)
    : QUndoCommand(text), editor_(editor), before_{editor->kernelId(), editor->title(), editor->text()},
      after_(std::move(after)) {}

void EditorContentCommand::undo() { editor_->setKernel(before_.id, before_.title, before_.text); }
void EditorContentCommand::redo() { editor_->setKernel(after_.id, after_.title, after_.text); }

} // namespace steerbench::ui
