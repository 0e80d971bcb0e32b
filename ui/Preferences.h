// User preferences, kept in QSettings (never in the workspace), and their dialog.
#pragma once

#include <QDialog>
#include <QString>
#include <QStringList>

namespace steerbench::ui {

struct Preferences {
  QString space = QStringLiteral("grewe"); ///< feature space shown at start
  int nearestK = 10;                       ///< kernels listed by "Nearest kernels"
  bool openGl = true;                      ///< draw the plot with OpenGL when the platform can
  QString theme = QStringLiteral("system"); ///< system, light or dark
  int jobs = 0;                            ///< engine threads for long jobs (0: all cores)
  QString referenceCsv;                    ///< reference layer (empty: DevMap when present)
  QString pcaLayer = QStringLiteral("corpus"); ///< layer PCA-2 is fitted on: corpus, workspace or reference

  static Preferences load();
  void save() const;
  static QStringList recentWorkspaces();
  static void addRecentWorkspace(const QString& path);
};

class PreferencesDialog : public QDialog {
  Q_OBJECT
public:
  explicit PreferencesDialog(const Preferences& current, QWidget* parent = nullptr);
  [[nodiscard]] Preferences preferences() const { return prefs_; }

private:
  Preferences prefs_;
};

} // namespace steerbench::ui
