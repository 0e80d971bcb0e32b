// Error types shared by the core modules: each carries a message a user can act on.
#pragma once

#include <stdexcept>
#include <string>

namespace steerbench {

/// Bad user input (a file, a flag, a value). The message names the input,
/// says what is wrong with it and, where possible, what to do.
class InputError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A workspace that cannot be opened or written. The file is left untouched.
class WorkspaceError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace steerbench
