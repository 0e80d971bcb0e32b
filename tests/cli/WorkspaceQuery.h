// Reading a workspace's SQLite file from the CLI suites, as any tool would.
#pragma once

#include <QString>

#include <sqlite3.h>

/// The first column of the first row `sql` gives on the workspace, as text
/// (empty when there is no row or the query fails).
inline QString scalar(const QString& workspace, const char* sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(workspace.toUtf8().constData(), &db, SQLITE_OPEN_READONLY, nullptr);
  sqlite3_stmt* st = nullptr;
  QString out;
  if (sqlite3_prepare_v2(db, sql, -1, &st, nullptr) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
    out = QString::fromUtf8(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)));
  sqlite3_finalize(st);
  sqlite3_close(db);
  return out;
}
