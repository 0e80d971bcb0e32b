// Running steerbench-cli from the CLI suites (STEERBENCH_CLI is its path).
#pragma once

#include <QProcess>
#include <QString>
#include <QStringList>

struct Run {
  int exitCode = -1;
  QString out, err;
};

/// Runs the CLI to its end (a run over 3 minutes fails the suite), with
/// `env` (NAME=value entries) added to its environment.
inline Run cli(const QStringList& args, const QStringList& env = {}) {
  QProcess p;
  if (!env.isEmpty()) {
    auto e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env)
      e.insert(kv.section(QLatin1Char('='), 0, 0), kv.section(QLatin1Char('='), 1));
    p.setProcessEnvironment(e);
  }
  p.start(STEERBENCH_CLI, args);
  if (!p.waitForFinished(180000)) qFatal("steerbench-cli timed out: %s", qPrintable(args.join(' ')));
  return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2, QString::fromUtf8(p.readAllStandardOutput()),
          QString::fromUtf8(p.readAllStandardError())};
}
