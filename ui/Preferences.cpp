#include "Preferences.h"

#include "features/FeatureSpace.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QSettings>
#include <QSpinBox>
#include <QThread>

namespace steerbench::ui {

Preferences Preferences::load() {
  QSettings s;
  Preferences p;
  p.space = s.value(QStringLiteral("plot/space"), p.space).toString();
  p.nearestK = s.value(QStringLiteral("plot/nearestK"), p.nearestK).toInt();
  p.openGl = s.value(QStringLiteral("plot/openGl"), p.openGl).toBool();
  p.theme = s.value(QStringLiteral("appearance/theme"), p.theme).toString();
  p.jobs = s.value(QStringLiteral("engine/jobs"), p.jobs).toInt();
  p.referenceCsv = s.value(QStringLiteral("plot/referenceCsv")).toString();
  p.pcaLayer = s.value(QStringLiteral("plot/pcaLayer"), p.pcaLayer).toString();
  return p;
}

void Preferences::save() const {
  QSettings s;
  s.setValue(QStringLiteral("plot/space"), space);
  s.setValue(QStringLiteral("plot/nearestK"), nearestK);
  s.setValue(QStringLiteral("plot/openGl"), openGl);
  s.setValue(QStringLiteral("appearance/theme"), theme);
  s.setValue(QStringLiteral("engine/jobs"), jobs);
  s.setValue(QStringLiteral("plot/referenceCsv"), referenceCsv);
  s.setValue(QStringLiteral("plot/pcaLayer"), pcaLayer);
}

QStringList Preferences::recentWorkspaces() { return QSettings().value(QStringLiteral("recentWorkspaces")).toStringList(); }

void Preferences::addRecentWorkspace(const QString& path) {
  QStringList list = recentWorkspaces();
  list.removeAll(path);
  list.prepend(path);
  while (list.size() > 8)
    list.removeLast();
  QSettings().setValue(QStringLiteral("recentWorkspaces"), list);
}

PreferencesDialog::PreferencesDialog(const Preferences& current, QWidget* parent) : QDialog(parent), prefs_(current) {
  setWindowTitle(tr("Preferences"));
  auto* form = new QFormLayout(this);
  auto* space = new QComboBox(this);
  for (const auto& s : features::featureSpaces())
    space->addItem(QString::fromStdString(s.name));
  space->setCurrentText(current.space);
  form->addRow(tr("Feature space at start"), space);
  auto* k = new QSpinBox(this);
  k->setRange(1, 1000);
  k->setValue(current.nearestK);
  form->addRow(tr("Nearest kernels to list"), k);
  auto* gl = new QCheckBox(tr("Draw the plot with OpenGL when the platform supports it"), this);
  gl->setChecked(current.openGl);
  form->addRow(tr("Plot"), gl);
  auto* theme = new QComboBox(this);
  theme->addItem(tr("Follow the system"), QStringLiteral("system"));
  theme->addItem(tr("Light"), QStringLiteral("light"));
  theme->addItem(tr("Dark"), QStringLiteral("dark"));
  theme->setCurrentIndex(std::max(0, theme->findData(current.theme)));
  form->addRow(tr("Palette"), theme);
  auto* jobs = new QSpinBox(this);
  jobs->setRange(0, 256);
  jobs->setSpecialValueText(tr("all cores (%1)").arg(QThread::idealThreadCount()));
  jobs->setValue(current.jobs);
  form->addRow(tr("Threads for long jobs"), jobs);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  form->addRow(buttons);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(buttons, &QDialogButtonBox::accepted, this, [=] {
    prefs_.space = space->currentText();
    prefs_.nearestK = k->value();
    prefs_.openGl = gl->isChecked();
    prefs_.theme = theme->currentData().toString();
    prefs_.jobs = jobs->value();
    accept();
  });
}

} // namespace steerbench::ui
