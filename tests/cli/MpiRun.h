// Running steerbench-cli under a real mpirun (Open MPI) from the CLI suites.
#pragma once

#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <unistd.h>

/// Open MPI as the suites run it: as root in a container too, over shared
/// memory without cross-memory attach, two ranks on two cores or fewer.
inline QProcessEnvironment mpiEnvironment() {
  auto env = QProcessEnvironment::systemEnvironment();
  env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
  env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
  env.insert(QStringLiteral("OMPI_MCA_btl_vader_single_copy_mechanism"), QStringLiteral("none"));
  env.insert(QStringLiteral("OMPI_MCA_rmaps_base_oversubscribe"), QStringLiteral("1"));
  return env;
}

/// A TCP port for one suite's ranks to meet on: suites that run at once get different ones.
inline QString rendezvousPort(int offset = 0) { return QString::number(20000 + (getpid() * 7 + offset) % 20000); }
