#include "Workbench.h"

#include "Preferences.h"

#include "engine/ParallelFor.h"

#include <QMainWindow>
#include <QStatusBar>

namespace steerbench::ui {

void Workbench::message(const QString& text, int ms) const { window->statusBar()->showMessage(text, ms); }

unsigned Workbench::jobThreads() const { return prefs->jobs > 0 ? unsigned(prefs->jobs) : engine::hardwareJobs(); }

} // namespace steerbench::ui
