// Syntax highlighting for OpenCL C: C keywords, address spaces and
// qualifiers (set 1), and OpenCL types and builtin functions (set 2).
#pragma once

#include <Qsci/qscilexercpp.h>

namespace steerbench::ui {

class OpenCLLexer : public QsciLexerCPP {
  Q_OBJECT
public:
  explicit OpenCLLexer(QObject* parent = nullptr);
  const char* language() const override { return "OpenCL C"; }
  const char* keywords(int set) const override;
  void setDarkTheme(bool dark);
};

} // namespace steerbench::ui
