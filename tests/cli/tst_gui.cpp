// The GUI's entry point, run as a user would: options, translation by locale,
// an unattended screenshot, and a bad workspace (offscreen platform).
#include "engine/FeatureJob.h"
#include "store/Workspace.h"

#include <QDir>

#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

namespace {

struct Run {
  int code;
  QString out, err;
};

Run gui(const QStringList& args, const QString& lang, const QTemporaryDir& home) {
  QProcess p;
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
  env.insert(QStringLiteral("LANG"), lang);
  env.insert(QStringLiteral("LC_ALL"), lang);
  env.insert(QStringLiteral("LANGUAGE"), QString());
  env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
  env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
  env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
  env.insert(QStringLiteral("STEERBENCH_DEVMAP_DIR"), home.filePath(QStringLiteral("no-devmap")));
  p.setProcessEnvironment(env);
  p.start(QStringLiteral(STEERBENCH_GUI), args);
  if (!p.waitForFinished(120000)) {
    p.kill();
    p.waitForFinished();
    return {-3, {}, QStringLiteral("timed out")};
  }
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}

} // namespace

class TestGui : public QObject {
  Q_OBJECT
  QTemporaryDir home_;
private slots:
  void helpFollowsTheLocale() {
    const Run en = gui({QStringLiteral("--help")}, QStringLiteral("C.UTF-8"), home_);
    QCOMPARE(en.code, 0);
    QVERIFY2(en.out.contains(QLatin1String("explore a feature space")), qPrintable(en.out));
    QVERIFY(en.out.contains(QLatin1String("--screenshot")));
    const Run de = gui({QStringLiteral("--help")}, QStringLiteral("de_DE.UTF-8"), home_);
    QCOMPARE(de.code, 0);
    QVERIFY2(de.out.contains(QLatin1String("Merkmalsraum")), qPrintable(de.out));
  }

  void version() {
    const Run r = gui({QStringLiteral("--version")}, QStringLiteral("C.UTF-8"), home_);
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains(QLatin1String("steerbench 0.")));
  }

  void screenshotOfAWorkspace() {
    const QString ws = home_.filePath(QStringLiteral("w.sbw"));
    {
      auto w = steerbench::store::Workspace::open(ws.toStdString());
      steerbench::engine::FeatureJobOptions o;
      for (const auto& space : steerbench::features::featureSpaces())
        o.measure.spaces.push_back(&space);
      o.workspace = &w;
      std::vector<std::string> files;
      for (const QFileInfo& f : QDir(QStringLiteral(STEERBENCH_EXAMPLES)).entryInfoList({QStringLiteral("*.cl")}))
        files.push_back(f.filePath().toStdString());
      QVERIFY(files.size() >= 3);
      for (const auto& r : steerbench::engine::runFeatureJob(files, o))
        QVERIFY2(r.ok(), r.error.c_str());
    }
    const QString shot = home_.filePath(QStringLiteral("shot.png"));
    const Run r = gui({ws, QStringLiteral("--kernel"), QStringLiteral("1"), QStringLiteral("--screenshot"), shot},
                      QStringLiteral("C.UTF-8"), home_);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QImage image(shot);
    QVERIFY(!image.isNull());
    QVERIFY(image.width() > 400 && image.height() > 300);
    // The plot was drawn before the shot: the kernels' markers (your kernels: orange) are in it.
    int orange = 0;
    for (int y = 0; y < image.height(); ++y)
      for (int x = 0; x < image.width(); ++x) {
        const QColor c = image.pixelColor(x, y);
        orange += c.red() == 240 && c.green() == 150 && c.blue() == 30;
      }
    QVERIFY2(orange > 20, qPrintable(QString::number(orange)));
  }

  void aCorruptWorkspaceEndsAnUnattendedRunWithItsReason() {
    const QString bad = home_.filePath(QStringLiteral("bad.sbw"));
    {
      QFile f(bad);
      QVERIFY(f.open(QIODevice::WriteOnly));
      f.write(QByteArray(3000, '\x01'));
    }
    const Run r = gui({bad, QStringLiteral("--screenshot"), home_.filePath(QStringLiteral("never.png"))},
                      QStringLiteral("C.UTF-8"), home_);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains(QLatin1String("Cannot open the workspace")), qPrintable(r.err));
    QVERIFY(!QFile::exists(home_.filePath(QStringLiteral("never.png"))));
    QCOMPARE(QFileInfo(bad).size(), qint64(3000));
  }

  void anUnknownDockIsAUsageError() {
    const Run r = gui({home_.filePath(QStringLiteral("w.sbw")), QStringLiteral("--dock"), QStringLiteral("nope"),
                       QStringLiteral("--screenshot"), home_.filePath(QStringLiteral("never2.png"))},
                      QStringLiteral("C.UTF-8"), home_);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains(QLatin1String("no dock named 'nope'")), qPrintable(r.err));
    QVERIFY(!QFile::exists(home_.filePath(QStringLiteral("never2.png"))));
  }
};

QTEST_GUILESS_MAIN(TestGui)
#include "tst_gui.moc"
