// Grammar-guided infilling: the tokens that can never lead to a kernel that
// compiles, given the text around a row's first [HOLE]. The sampler masks
// them before it samples, so the model's probability goes to the rest.
//
// Two rules, both sound for the corpus's rewritten identifiers (variables are
// named a, b, ..., z, aa, ... and functions A, B, ... in order of first
// declaration, each declaration its own name):
//   1. Brackets: a closing bracket must match the innermost open one, and the
//      hole may close ([ENDHOLE]) only when the whole sequence is balanced;
//      no `;` inside a `(` or `[` but a for loop's header.
//      Sides a window cut off (no [START] or [END]) are not checked. An
//      operator (or a `++` or `--` before its operand) is not followed by a
//      closing bracket, `;` or `,`.
//   2. Names: a rewritten name that appears nowhere in the sequence may only
//      be declared, i.e. follow a type or qualifier word (or `*`s after one),
//      never be used. Only when the sequence starts at the kernel's start.
//   3. Variables: a lowercase rewritten name is a variable, never called, so
//      `(` may not follow it; one declared as a plain scalar (`int c`, no
//      `*` or `[`) is not subscripted or a struct either: no `[`, `.`, `->`.
//   4. Builtin calls (given the builtins' overloads): inside the arguments of
//      a call to an OpenCL builtin, `,` and `)` may only end an argument
//      where some overload takes that many and more (`,`) or exactly that
//      many (`)`), and whose parameters fit the arguments whose shape is
//      known (expressionShape): a variable (its declaration: scalar, vector
//      of N lanes, pointer or array), a nonzero number, an element, a cast, a
//      builtin's result, and arithmetic of those. So `vload4(a, b)` with `b`
//      an int closes only as the model writes a pointer for `b`. And the hole
//      may close ([ENDHOLE]) only where every builtin call open at it (or
//      opened right after it) takes, with the text after the hole, the
//      arguments it then has.
//   5. Types (only when the sequence starts at the kernel's start; from a
//      variable's declaration: the words and `*`s before its name, and a `[`
//      after it): no assignment, `++` or `--` after a read-only variable
//      (`const int e`) or after an element of a read-only pointer or array
//      (`const float* a`, `constant int* a`: `a[i]`); no integer operator
//      (`%`, `<<`, `>>`, `&`, `|`, `^`, and their assignments) after a
//      floating-point variable or element, nor a floating-point variable or
//      literal after one, nor directly on the right of an integer's `=`
//      (nor a float pointer's name: `d = a[f]`); no `*`, `/`, integer
//      operator, comparison, `&&`, `||` or `?` after a pointer or array,
//      and where a number must be (a subscript's start, after `*`, `/`, an
//      integer operator, a comparison, `&&`, `||` or `!`) a pointer or array
//      only with `[` or `->` after it (a buffer's address compared with a
//      number, or tested, is a warning and no benchmark: `i < b` for
//      `b[0]`); and no floating-point variable or literal directly inside a
//      subscript (a cast's or call's parentheses lift this, so `a[(int)f]`
//      may be written; a comparison of floats written straight into a
//      subscript is banned too, which the model can parenthesise).
//   6. Scopes (likewise): a variable declared in a block that has closed
//      (or in a for loop's header, once the loop's block has closed) may not
//      be used, and no name already declared may be declared again (rewritten
//      code gives each declaration its own name); a variable the text after
//      the hole declares (in the hole's function) is neither declared nor
//      used before it.
//   7. Statements that do work (likewise, rules of types): a statement that
//      begins with a variable ends (`;`, or `,` of a comma) only once it
//      assigns, increments or calls something (`c[e];`, `h < i;` do
//      nothing); a store does not end where its right side repeats its left
//      token for token (`a[i] = a[i];`); a variable is not read in its own
//      initialiser (`int h = h + 1;`).
//   8. Names after the hole (likewise): the hole closes ([ENDHOLE]) only
//      when every rewritten name the text after it uses (up to the next
//      hole; not a field) appears before the hole or is declared before
//      its use: after a type word or a type's name, or after a comma (`int
//      h , i`, taken for a declaration wherever it is); right after the
//      hole, by the infill's last words. Rewritten code declares every name
//      before it uses it, so a name the text after the hole needs and
//      nothing declares is one the infill must declare (a parameter or
//      variable whose declaration the hole hid). Not where that text has a
//      preprocessor line.
//   Rule 1 also keeps the hole inside its function: in a whole kernel, the
//   outermost open bracket, when the text after the hole closes it, is not
//   closed by the infill (its probability goes to [ENDHOLE]).
// Rows whose fixed text already breaks a rule are left unconstrained.
// Thread-safety: immutable after construction.
#pragma once

#include "model/BuiltinSignatures.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace steerbench::model {

class Tokenizer;

/// OpenCL C's scalar type names and the sign words (`int`, `uchar`, `size_t`,
/// `unsigned`, ...), without vector widths.
[[nodiscard]] const std::set<std::string>& scalarTypes();

class SyntaxGuard {
public:
  /// `builtins`: the overloads for rule 4 (borrowed; null: no rule 4).
  /// `types`: rules 5 and 6 and rule 1's operands (false: the guard as it
  /// was without them, to measure what they give).
  explicit SyntaxGuard(const Tokenizer& tokenizer, const BuiltinSignatures* builtins = nullptr, bool types = true);

  /// A banned token whose probability the sampler gives to another: the
  /// model's wish is right, but something else must carry it out.
  struct Redirect {
    int from = -1, to = -1; ///< -1: none
  };

  /// Sets banned[v] to 1 (rules 1 to 3 and 8) or 2 (rules 4 to 6 and rule 1's
  /// operands: bans that do not count toward patience) for every token
  /// v that may not come next at the first
  /// [HOLE] of `seq` (the row's tokens, [START]/[END] included when present);
  /// `banned` must hold the vocabulary's size and is left as it is elsewhere.
  /// `hasStart`/`hasEnd`: the sequence reaches the kernel's true start/end.
  /// Returns, when [ENDHOLE] is banned for unbalanced brackets, [ENDHOLE] to
  /// the bracket the hole needs next (the model wants to stop, so it first
  /// closes what it opened, or opens what the text after the hole closes).
  /// In a whole kernel, when the hole's only open bracket is the outermost
  /// one and the text after the hole closes it: its closing bracket, banned
  /// (writing it would leave the function), to [ENDHOLE] (the model wants
  /// the function to end, and the text after the hole ends it).
  Redirect ban(const std::vector<int>& seq, bool hasStart, bool hasEnd, std::uint8_t* banned) const;

  /// For tests and reports: the sequence, holes left out, breaks rule 1.
  [[nodiscard]] bool unbalanced(const std::vector<int>& seq) const;

  /// Compiler-checked statements: when seq[0, end) ends a statement (its
  /// last token a `;` or the `}` of a block, outside any parenthesis,
  /// bracket or initializer), the text that closes its open blocks ("}" for
  /// each, "} while (0);" for a do body), so that the prefix and it make a
  /// unit Clang can check; otherwise false. `seq` may start with [START] and
  /// holds no [HOLE] before `end`.
  bool statementEnd(const std::vector<int>& seq, std::size_t end, std::string& closers) const;

  /// How many `{` are open in seq[0, end) (unmatched closes ignored), and
  /// the id of `}` (-1 if the vocabulary has no braces).
  [[nodiscard]] int openBraces(const std::vector<int>& seq, std::size_t end) const;
  [[nodiscard]] int closeBrace() const { return closeBrace_; }

private:
  /// Whether token v can end an operand (a name, a closing bracket, a number).
  [[nodiscard]] bool endsOperand(int v) const;
  /// Where the innermost bracket still open before seq[end] is, or npos.
  [[nodiscard]] std::size_t innermostOpen(const std::vector<int>& seq, std::size_t end) const;
  /// Rule 4 at the hole (`hole` indexes `seq`).
  void banArguments(const std::vector<int>& seq, std::size_t hole, bool hasStart, std::uint8_t* banned) const;
  /// Rule 4 at [ENDHOLE]: with the hole closed, each builtin call open at it
  /// (or opened by the text after it, right after a builtin's name) has its
  /// arguments in the text after the hole; when no overload takes them, the
  /// hole may not close.
  void banEndInCalls(const std::vector<int>& seq, std::size_t hole, bool hasStart, std::uint8_t* banned) const;
  /// The shapes of the arguments of the call whose `(` is seq[open] and `)` seq[close].
  [[nodiscard]] std::vector<ArgShape> callArguments(const std::vector<int>& seq, std::size_t open, std::size_t close,
                                                    bool hasStart, int depth) const;
  /// Rule 4's shape of the expression seq[from, to), where it is sure of it
  /// (Other otherwise): a nonzero number; a variable (by its declaration,
  /// `hasStart` only); an element `a[i]` of a pointer, an array or a vector;
  /// a cast to a scalar, vector or pointer type; a builtin's call, whose
  /// overloads that fit its arguments agree on the result; a bracketed
  /// expression; and `+ - * / % << >> & | ^` of those, a unary `+ - ~`
  /// before them.
  [[nodiscard]] ArgShape expressionShape(const std::vector<int>& seq, std::size_t from, std::size_t to, bool hasStart,
                                         int depth = 0) const;
  /// One operand of expressionShape (no binary operator outside brackets).
  [[nodiscard]] ArgShape operandShape(const std::vector<int>& seq, std::size_t from, std::size_t to, bool hasStart,
                                      int depth) const;
  /// A variable's shape and its element's (`a[i]`), from its declaration in seq[0, before).
  void declaredShapes(const std::vector<int>& seq, std::size_t before, int name, ArgShape& self,
                      ArgShape& element) const;
  /// The close that matches the open bracket at seq[open] before `to`, or npos.
  [[nodiscard]] std::size_t matchingClose(const std::vector<int>& seq, std::size_t open, std::size_t to) const;
  /// A variable's declaration in a sequence that starts at the kernel's start.
  struct Declared {
    int name = -1;
    bool pointer = false, array = false, floating = false;
    bool scalarBase = false; ///< its type word is a number's or a vector's (not a struct's)
    bool vectorBase = false; ///< its type word is a vector's (float4)
    bool readOnly = false;        ///< the variable itself (`const int e`)
    bool readOnlyElements = false; ///< what it points to or holds (`const float* a`)
    int stars = 0;
    bool visible = true; ///< in a block still open at the hole
  };
  /// A name's declaration among `declared` (the first; rewritten code declares each name once), or null.
  [[nodiscard]] static const Declared* declaredAs(const std::vector<Declared>& declared, int name);
  /// The variables the prefix seq[0, hole) declares (rules 5 and 6).
  [[nodiscard]] std::vector<Declared> declarations(const std::vector<int>& seq, std::size_t hole) const;
  /// Rule 8: whether the text after the hole (`hole` indexes `seq`) uses a
  /// name that nothing before the hole has and that it does not declare first.
  [[nodiscard]] bool usesUndeclared(const std::vector<int>& seq, std::size_t hole) const;
  /// Rules 2 and 6 at the hole, given the prefix's declarations.
  void banNames(const std::vector<int>& seq, std::size_t hole, const std::vector<Declared>& declared,
                std::uint8_t* banned) const;
  /// Rule 7 at the hole, and rule 5's integer stores (both read the statement the hole is in).
  void banByStatement(const std::vector<int>& seq, std::size_t hole, const std::vector<Declared>& declared,
                         std::uint8_t* banned) const;
  /// Rule 5 at the hole, given the prefix's declarations.
  void banByType(const std::vector<int>& seq, std::size_t hole, const std::vector<Declared>& declared,
                 std::uint8_t* banned) const;
  enum Kind : std::uint8_t { Other, Open, Close, Name, Declarer, Star, Member, Hole };
  /// A token's kind (Other for an id outside the vocabulary).
  [[nodiscard]] Kind kindOf(int v) const { return v >= 0 && v < vocab_ ? kind_[std::size_t(v)] : Other; }
  /// Where a builtin's overloads are in calls_ when seq[open] is the `(` of a
  /// call to a builtin (not a field of that name), else -1.
  [[nodiscard]] int builtinCallAt(const std::vector<int>& seq, std::size_t open) const;
  /// The arguments of the call whose `(` is seq[open], up to `end` (its `)`,
  /// or the hole): each's [from, to), split at the commas outside brackets;
  /// the last may be empty. `statementEnd`, when given, says whether a `;`
  /// outside brackets came on the way (text that is no argument list).
  [[nodiscard]] std::vector<std::pair<std::size_t, std::size_t>>
  argumentRanges(const std::vector<int>& seq, std::size_t open, std::size_t end, bool* statementEnd = nullptr) const;
  std::vector<Kind> kind_;
  std::vector<std::uint8_t> lowerName_, scalarType_; ///< per token id
  std::vector<std::uint8_t> vectorWidth_;            ///< per token id: N of a vector type word (float4: 4), else 0
  std::vector<std::uint8_t> number_;                 ///< per token id: 1 a nonzero number, 2 a zero (a null pointer too)
  std::vector<std::uint8_t> constWord_;              ///< per token id: `const`, `constant` and their `__` forms
  std::vector<std::uint8_t> floatType_;              ///< per token id: float, double, half and their vectors
  std::vector<int> floatLiterals_;                   ///< floating-point literals (1.0f, 2e3)
  std::vector<int> assignments_;                     ///< `=`, `+=`, ..., `++`, `--`
  std::vector<int> integerOperators_;                ///< `%`, `<<`, `>>`, `&`, `|`, `^` and their assignments
  std::vector<int> multiplicative_;                  ///< `*`, `/`, `*=`, `/=`
  std::vector<int> tests_;                           ///< comparisons, `&&`, `||`, `?`
  int not_ = -1;                                     ///< `!`
  int ampersand_ = -1, tilde_ = -1;
  std::vector<int> operators_;  ///< operators that take an operand after them
  std::vector<int> increments_; ///< `++`, `--`
  std::vector<int> builtin_;                         ///< per token id: its overloads in calls_, or -1
  std::vector<std::vector<Overload>> calls_;
  std::vector<std::uint8_t> qualifier_;  ///< per token id: const, volatile, restrict (and `__` forms)
  std::vector<std::uint8_t> arithmetic_; ///< per token id: 1 `+` `-`, 2 `*` `/` `%` `<<` `>>` `&` `|` `^`
  int comma_ = -1, assign_ = -1;
  int paren_ = -1, bracket_ = -1, dot_ = -1, arrow_ = -1;
  int for_ = -1;
  int semi_ = -1, brace_ = -1, closeBrace_ = -1, closeParen_ = -1, do_ = -1, else_ = -1;
  int hash_ = -1; ///< `#`, which starts a preprocessor line
  std::vector<int> partner_; ///< for brackets: the matching bracket's id
  std::vector<int> names_;   ///< ids of the rewritten names
  std::vector<int> closes_;  ///< ids of the closing brackets that have a partner
  int vocab_ = 0;
  bool types_ = true;
};

} // namespace steerbench::model
