// The grammar guard (model::SyntaxGuard) on sequences written by hand: which
// tokens it bans at the hole, and which closing bracket it asks for.
#include "model/SyntaxGuard.h"
#include "model/BuiltinSignatures.h"
#include "model/Tokenizer.h"

#include <QtTest>

#include <set>

using namespace steerbench::model;

namespace {

const Tokenizer& tokenizer() {
  static const Tokenizer t = [] {
    Tokenizer::Options o;
    o.minCount = 1;
    return Tokenizer::build({"kernel void A(global int* a, global float4* b) { int c = a[0]; b[c].x = (float)c; }\n"
                             "kernel void B(global int* a) { for (int b = 0; b < 4; ++b) { a[b] = b * 2; } }\n"},
                            o);
  }();
  return t;
}

int id(const char* word) {
  const auto ids = tokenizer().encode(word);
  if (ids.size() != 1) qFatal("fixture: \"%s\" is not one token", word);
  return ids[0];
}

struct Verdict {
  std::set<int> banned;
  int redirect = -1;     ///< the token that gets a banned one's probability
  int redirectFrom = -1; ///< the banned token
  bool bans(const char* word) const { return banned.count(id(word)) > 0; }
  bool bansEnd() const { return banned.count(Tokenizer::kEndHole) > 0; }
};

/// The guard's verdict at the first [HOLE] of `text`, read with `tok`.
Verdict judgeWith(const Tokenizer& tok, const std::string& text, bool hasStart = true, bool hasEnd = true) {
  std::vector<int> seq;
  if (hasStart) seq.push_back(Tokenizer::kStart);
  const auto ids = tok.encode(text);
  seq.insert(seq.end(), ids.begin(), ids.end());
  if (hasEnd) seq.push_back(Tokenizer::kEnd);
  std::vector<std::uint8_t> banned(std::size_t(tok.size()), 0);
  Verdict v;
  const auto redirect = SyntaxGuard(tok).ban(seq, hasStart, hasEnd, banned.data());
  v.redirect = redirect.to;
  v.redirectFrom = redirect.from;
  for (int t = 0; t < tok.size(); ++t)
    if (banned[std::size_t(t)]) v.banned.insert(t);
  return v;
}

/// The guard's verdict at the first [HOLE] of `text`.
Verdict judge(const std::string& text, bool hasStart = true, bool hasEnd = true) {
  return judgeWith(tokenizer(), text, hasStart, hasEnd);
}

/// A tokenizer whose words include the types, qualifiers, operators and
/// literals rules 5 and 6 read. Its kernels declare, in order:
/// a `global const float*`, b `global float*`, c `constant int*`, d
/// `const int`, e `float`, f `global float4*`, g `int`.
const Tokenizer& typeTokenizer() {
  static const Tokenizer t = [] {
    Tokenizer::Options o;
    o.minCount = 1;
    return Tokenizer::build(
        {"kernel void A(global const float* a, global float* b, constant int* c, const int d, float e, "
         "global float4* f, int g) {\n"
         "  int h = g % 2 << 1 & 3 | 4 ^ 5; float i = e * 1.0f / 2.0f; h += 1; h++; --h; b[h] = a[h] + i;\n"
         "  for (int j = 0; j < 4; ++j) { b[j] -= f[j].x; } { int k = c[0]; } int l = d; h = (int)e;\n"
         "  if (g > 0 && g != 1 || !g) h = g == 2 ? 1 : 0; }\n"
         "struct S { int m; }; kernel void B(global struct S* n) { n->m = 0; }\n"},
        o);
  }();
  return t;
}

/// The verdict at the first [HOLE] of `body`, in a kernel that declares a to g as typeTokenizer() says.
Verdict judgeTyped(const std::string& body) {
  return judgeWith(typeTokenizer(),
                   "kernel void A ( global const float * a , global float * b , constant int * c , const int d , "
                   "float e , global float4 * f , int g ) { " + body + " }");
}

bool bansIn(const Verdict& v, const char* word) {
  const auto ids = typeTokenizer().encode(word);
  if (ids.size() != 1) qFatal("fixture: \"%s\" is not one token", word);
  return v.banned.count(ids[0]) > 0;
}

/// A tokenizer whose words include the builtins rule 4 is tested on.
const Tokenizer& callTokenizer() {
  static const Tokenizer t = [] {
    Tokenizer::Options o;
    o.minCount = 1;
    return Tokenizer::build({"kernel void A(global float* a, int b, float4 c, float e[4], global float4* f) {\n"
                             "  float4 d = vload4(b, a) + clamp(c, 0.0f, 1.0f) + mad(c, c, c);\n"
                             "  a[get_global_id(0)] = 2 + e[0] + (float)get_local_id(1);\n"
                             "  vstore4(d - c * b, b, a + 1 - (int)b); float8 h = vload8(b, (global float*)a); e[0] = *a;\n"
                             "}\n"},
                            o);
  }();
  return t;
}

/// Rule 4's verdict on `,` and `)` at the first [HOLE] of a kernel that
/// starts `kernel void A(global float* a, int b, float4 c, float e[4], global float4* f) {`.
struct CallVerdict {
  bool comma = false, close = false, end = false; ///< banned (end: [ENDHOLE])
};
CallVerdict judgeCall(const std::string& body, bool withBuiltins = true) {
  const auto& tok = callTokenizer();
  std::vector<int> seq{Tokenizer::kStart};
  const auto ids = tok.encode("kernel void A(global float* a, int b, float4 c, float e[4], global float4* f) { " + body +
                              " }");
  seq.insert(seq.end(), ids.begin(), ids.end());
  seq.push_back(Tokenizer::kEnd);
  std::vector<std::uint8_t> banned(std::size_t(tok.size()), 0);
  SyntaxGuard(tok, withBuiltins ? &BuiltinSignatures::opencl() : nullptr).ban(seq, true, true, banned.data());
  return {banned[std::size_t(tok.encode(",")[0])] != 0, banned[std::size_t(tok.encode(")")[0])] != 0,
          banned[Tokenizer::kEndHole] != 0};
}

} // namespace

class TestSyntaxGuard : public QObject {
  Q_OBJECT
private Q_SLOTS:
  void closingBracketsMustMatch() {
    const auto v = judge("kernel void A ( global int * a ) { a [ [HOLE]");
    QVERIFY(v.bans(")"));
    QVERIFY(v.bans("}"));
    QVERIFY(!v.bans("]"));
    QVERIFY(!v.bans("("));
    QVERIFY(!v.bans("0"));
  }

  void theHoleClosesOnlyWhenBalanced() {
    auto open = judge("kernel void A ( global int * a ) { a [ 0 ] = 1 ; [HOLE]");
    QVERIFY(open.bansEnd());
    QCOMPARE(open.redirectFrom, int(Tokenizer::kEndHole));
    QCOMPARE(open.redirect, id("}")); // [ENDHOLE]'s probability goes to the brace it needs
    auto closed = judge("kernel void A ( global int * a ) { a [ 0 ] = 1 ; } [HOLE]");
    QVERIFY(!closed.bansEnd());
    QCOMPARE(closed.redirect, -1);
    QVERIFY(closed.bans("}")); // nothing is open, and this is the kernel's start
    // The text after the hole counts: it closes the brace.
    QVERIFY(!judge("kernel void A ( global int * a ) { a [ 0 ] = 1 ; [HOLE] }").bansEnd());
    // ... or needs an open one the hole has not made yet.
    const auto needs = judge("kernel void A ( global int * a ) [HOLE] a [ 0 ] = 1 ; }");
    QVERIFY(needs.bansEnd());
    QCOMPARE(needs.redirect, id("{")); // it opens what the rest closes
    // A hole that lost `(` of a call: opened again before anything else.
    const auto call = judge("kernel void A ( global int * a ) { a [ 0 ] = get_global_id [HOLE] 0 ) ; }");
    QVERIFY(call.bansEnd());
    QCOMPARE(call.redirect, id("("));
    // Open the wrong kind: close it first.
    QCOMPARE(judge("kernel void A ( global int * a ) { a [ 0 ] = get_global_id [ [HOLE] 0 ) ; }").redirect, id("]"));
  }

  void theHoleStaysInsideItsFunction() {
    // The only open bracket is the body's, and the text after the hole closes
    // it: `}` would leave the kernel, so it is banned and its probability goes
    // to [ENDHOLE] (the text after the hole ends the kernel).
    const auto body = judge("kernel void A ( global int * a ) { a [ 0 ] = 1 ; [HOLE] a [ 1 ] = 2 ; }");
    QVERIFY(body.bans("}"));
    QVERIFY(!body.bansEnd());
    QCOMPARE(body.redirectFrom, id("}"));
    QCOMPARE(body.redirect, int(Tokenizer::kEndHole));
    // Likewise a parameter list's `)`.
    const auto params = judge("kernel void A ( global int * a , [HOLE] ) { a [ 0 ] = 1 ; }");
    QVERIFY(params.bans(")"));
    QCOMPARE(params.redirectFrom, id(")"));
    QCOMPARE(params.redirect, int(Tokenizer::kEndHole));
    // Inside a nested block the hole may close it and open another.
    const auto nested = judge("kernel void A ( global int * a ) { if ( a [ 0 ] ) { a [ 0 ] = 1 ; [HOLE] } }");
    QVERIFY(!nested.bans("}"));
    QCOMPARE(nested.redirectFrom, -1);
    // While the hole cannot close yet, the outermost bracket still stays open.
    const auto open = judge("kernel void A ( global int * a ) { a [ 0 ] = [HOLE] 1 ) ; }");
    QVERIFY(open.bans("}"));
    QCOMPARE(open.redirectFrom, int(Tokenizer::kEndHole));
    // A window's cut sides say nothing of where the function ends.
    const auto window = judge("a [ 0 ] = 1 ; [HOLE] a [ 1 ] = 2 ; }", /*hasStart=*/false, /*hasEnd=*/true);
    QVERIFY(!window.bans("}"));
    QCOMPARE(window.redirectFrom, -1);
  }

  void cutSidesAreNotChecked() {
    // A window from inside a kernel: its prefix may close what began before it.
    const auto v = judge("a [ 0 ] = 1 ; } [HOLE] b", /*hasStart=*/false, /*hasEnd=*/false);
    QVERIFY(!v.bans("}"));
    QVERIFY(!v.bansEnd());
    QVERIFY(!v.bans("c")); // its names may be declared before the window
    // A window that reaches the kernel's end must still leave nothing open.
    QVERIFY(judge("{ a [ 0 ] = 1 ; [HOLE]", false, true).bansEnd());
  }

  void laterHolesMayStillBalance() {
    QVERIFY(!judge("kernel void A ( global int * a ) { [HOLE] a [ 0 ] = 1 ; [HOLE]").bansEnd());
  }

  void aBrokenFixedTextIsLeftAlone() {
    const auto v = judge("kernel void A ( global int * a ] { [HOLE] }");
    QVERIFY(!v.bans(")"));
    QVERIFY(!v.bansEnd());
  }

  void newNamesOnlyInDeclarations() {
    // Used: only names the sequence already has.
    auto use = judge("kernel void A ( global int * a ) { a [ 0 ] = [HOLE] ; }");
    QVERIFY(!use.bans("a"));
    QVERIFY(use.bans("b"));
    QVERIFY(use.bans("c"));
    QVERIFY(use.bans("B")); // an undefined function, too
    QVERIFY(!use.bans("0"));
    // A name the text after the hole uses is not new (the infill may declare it) ...
    QVERIFY(!judge("kernel void A ( global int * a ) { a [ 0 ] = [HOLE] ; c = 1 ; }").bans("c"));
    // ... but one it declares is not used before its declaration.
    QVERIFY(judge("kernel void A ( global int * a ) { a [ 0 ] = [HOLE] ; int c ; }").bans("c"));
    // Declared: after a type or a qualifier, and after the stars of a pointer.
    QVERIFY(!judge("kernel void A ( global int * a ) { int [HOLE] }").bans("c"));
    QVERIFY(!judge("kernel void A ( global int * a , global float4 * [HOLE] ) { }").bans("b"));
    QVERIFY(!judge("kernel void [HOLE]").bans("A"));
    // `x * c` multiplies: a name before the star is not a type.
    QVERIFY(judge("kernel void A ( global int * a ) { a [ 0 ] = a [ 1 ] * [HOLE] ; }").bans("c"));
    // After `return`, a name is used.
    QVERIFY(judge("kernel void A ( global int * a ) { return [HOLE] ; }").bans("c"));
    // Fields keep their names: anything goes after a member access.
    QVERIFY(!judge("kernel void A ( global float4 * b ) { b [ 0 ] . [HOLE] = 1 ; }").bans("x"));
  }

  void variablesAreNotCalledAndScalarsNotSubscripted() {
    // `c` is a plain int: no call, no subscript, no member.
    const auto scalar = judge("kernel void A ( global int * a ) { int c = a [ 0 ] ; a [ 1 ] = c [HOLE] ; }");
    QVERIFY(scalar.bans("("));
    QVERIFY(scalar.bans("["));
    QVERIFY(scalar.bans("."));
    QVERIFY(!scalar.bans("*"));
    QVERIFY(!scalar.bans(";"));
    // `a` is a pointer: subscripted, never called.
    const auto pointer = judge("kernel void A ( global int * a ) { int c = a [HOLE] ; }");
    QVERIFY(pointer.bans("("));
    QVERIFY(!pointer.bans("["));
    // `b` is a vector: a member is fine.
    QVERIFY(!judge("kernel void A ( global int * a , float4 b ) { a [ 0 ] = b [HOLE] ; }").bans("."));
    // A field of that name is not the variable.
    QVERIFY(!judge("kernel void A ( global float4 * b ) { int c = 0 ; b [ 0 ] . x = b [ 1 ] . c [HOLE] ; }").bans("["));
    // Functions are called.
    QVERIFY(!judge("kernel void A ( global int * a ) { B [HOLE] }").bans("("));
  }

  void anOperatorHasAnOperandAfterIt() {
    for (const char* body : {"g = g + [HOLE]", "g = - [HOLE]", "++ [HOLE]", "g = ( g * [HOLE]", "b [ g % [HOLE]"}) {
      const auto v = judgeTyped(body);
      QVERIFY2(bansIn(v, ")") && bansIn(v, "]") && bansIn(v, ";") && bansIn(v, ","), body);
    }
    // After an operand, or a `++` that follows one, a statement may end.
    QVERIFY(!bansIn(judgeTyped("g = d [HOLE]"), ";"));
    QVERIFY(!bansIn(judgeTyped("g ++ [HOLE]"), ";"));
    // `(float *)` is a cast: a star after a type word declares a pointer.
    QVERIFY(!bansIn(judgeTyped("b = ( float * [HOLE]"), ")"));
  }

  void readOnlyVariablesAndElementsAreNotAssigned() {
    // d is `const int`: no assignment, no increment; g is a plain int.
    const auto d = judgeTyped("d [HOLE]");
    QVERIFY(bansIn(d, "=") && bansIn(d, "+=") && bansIn(d, "++"));
    QVERIFY(!bansIn(d, "+"));
    QVERIFY(!bansIn(judgeTyped("g = d [HOLE]"), ";")); // read, it may end a store
    QVERIFY(!bansIn(judgeTyped("g [HOLE]"), "="));
    // Declaring a const variable initialises it.
    QVERIFY(!bansIn(judgeTyped("const int h [HOLE]"), "="));
    // a points to const floats, c into constant memory: their elements are read-only; b's are not.
    QVERIFY(bansIn(judgeTyped("a [ g ] [HOLE]"), "="));
    QVERIFY(bansIn(judgeTyped("c [ 0 ] [HOLE]"), "-="));
    QVERIFY(!bansIn(judgeTyped("b [ g ] [HOLE]"), "="));
  }

  void floatsAreNotIntegerOperandsOrSubscripts() {
    // e is a float: no integer operator after it; g is an int.
    const auto e = judgeTyped("g = e [HOLE]");
    QVERIFY(bansIn(e, "%") && bansIn(e, "<<") && bansIn(e, "&") && bansIn(e, "^"));
    QVERIFY(!bansIn(e, "*") && !bansIn(e, ";"));
    QVERIFY(!bansIn(judgeTyped("g = g [HOLE]"), "%"));
    // An element of a float pointer is a float too.
    QVERIFY(bansIn(judgeTyped("g = b [ g ] [HOLE]"), "<<"));
    // After an integer operator, no float variable or literal.
    const auto after = judgeTyped("g = g % [HOLE]");
    QVERIFY(bansIn(after, "e"));
    QVERIFY(bansIn(after, "1.0f"));
    QVERIFY(!bansIn(after, "g") && !bansIn(after, "2"));
    // `&` takes an address where no operand comes before it.
    QVERIFY(!bansIn(judgeTyped("b = b + & [HOLE]"), "e"));
    // Directly in a subscript, no float; inside a cast's parentheses, any.
    const auto sub = judgeTyped("b [ [HOLE]");
    QVERIFY(bansIn(sub, "e") && bansIn(sub, "1.0f"));
    QVERIFY(!bansIn(sub, "g"));
    QVERIFY(!bansIn(judgeTyped("b [ ( int ) ( [HOLE]"), "e"));
  }

  void pointersAreNotNumbers() {
    // b is a float pointer: no product, no integer operator, no field.
    const auto b = judgeTyped("b [HOLE]");
    QVERIFY(bansIn(b, "*") && bansIn(b, "/") && bansIn(b, "%") && bansIn(b, ".") && bansIn(b, "->"));
    QVERIFY(!bansIn(b, "[") && !bansIn(b, "+") && !bansIn(b, "="));
    // Where a number must be (a subscript, after `*`), only its element.
    for (const char* body : {"b [ b [HOLE]", "g = g * b [HOLE]"}) {
      const auto v = judgeTyped(body);
      QVERIFY2(bansIn(v, "]") && bansIn(v, ";") && bansIn(v, "+") && bansIn(v, "->") && !bansIn(v, "["), body);
    }
    // Nor compared or tested: `g < b` for `g < b[0]`, `b != 0`, `!b`.
    for (const char* test : {"<", ">", "<=", ">=", "==", "!=", "&&", "||", "?"})
      QVERIFY2(bansIn(b, test), test);
    for (const char* body : {"if ( g < b [HOLE]", "h = g == b [HOLE]", "if ( g > 0 && b [HOLE]", "if ( ! b [HOLE]"}) {
      const auto v = judgeTyped(body);
      QVERIFY2(bansIn(v, ")") && bansIn(v, "+") && !bansIn(v, "["), body);
    }
    // ...where numbers are compared as before, and a pointer moved by one is written.
    QVERIFY(!bansIn(judgeTyped("if ( g < h [HOLE]"), ")"));
    QVERIFY(!bansIn(judgeTyped("if ( g < b [ 0 ] [HOLE]"), ")"));
    QVERIFY(!bansIn(judgeTyped("h = b [HOLE]"), "+"));
    // An element of a float4 pointer has lanes; of a float pointer, none.
    QVERIFY(!bansIn(judgeTyped("g = f [ 0 ] [HOLE]"), "."));
    QVERIFY(bansIn(judgeTyped("g = f [ 0 ] [HOLE]"), "->"));
    QVERIFY(bansIn(judgeTyped("g = b [ 0 ] [HOLE]"), "."));
    // A pointer to a struct has fields.
    QVERIFY(!bansIn(judgeWith(typeTokenizer(), "struct S { int m ; } ; kernel void B ( global struct S * n ) { n [HOLE] }"),
                    "->"));
  }

  void statementsDoWork() {
    // A statement that begins with a variable ends only once it assigns,
    // increments or calls something.
    for (const char* body : {"h [HOLE]", "b [ h ] [HOLE]", "h < g [HOLE]", "g = 1 ; h + g [HOLE]"}) {
      const auto v = judgeTyped(body);
      QVERIFY2(bansIn(v, ";") && bansIn(v, ","), body);
    }
    for (const char* body : {"h = 1 [HOLE]", "h ++ [HOLE]", "b [ h ] += g [HOLE]", "for ( int j = 0 ; j < 4 [HOLE]",
                             "b [ h ] = g [HOLE]", "int i = 1 [HOLE]", "return [HOLE]"})
      QVERIFY2(!bansIn(judgeTyped(body), ";"), body);
    // A store does not end where its right side repeats its left.
    QVERIFY(bansIn(judgeTyped("b [ h ] = b [ h ] [HOLE]"), ";"));
    QVERIFY(bansIn(judgeTyped("h = h [HOLE]"), ";"));
    QVERIFY(!bansIn(judgeTyped("b [ h ] = b [ h ] [HOLE]"), "+"));
    QVERIFY(!bansIn(judgeTyped("b [ h ] = b [ g ] [HOLE]"), ";"));
    QVERIFY(!bansIn(judgeTyped("b [ h ] = h [HOLE]"), ";"));
    // An integer's store takes no floating-point operand outside brackets:
    // e is a float, a and b float pointers; f a float4 pointer, c an int one.
    for (const char* body : {"g = [HOLE]", "g = d + [HOLE]", "int i = [HOLE]"}) {
      const auto v = judgeTyped(body);
      QVERIFY2(bansIn(v, "e") && bansIn(v, "1.0f") && bansIn(v, "a") && bansIn(v, "b"), body);
      QVERIFY2(!bansIn(v, "c") && !bansIn(v, "d"), body);
    }
    for (const char* body : {"g = ( [HOLE]", "g = ( int ) ( [HOLE]", "float i = [HOLE]", "b [ g ] = [HOLE]"})
      QVERIFY2(!bansIn(judgeTyped(body), "e"), body);
    // A variable is not read in its own initialiser.
    QVERIFY(bansIn(judgeTyped("int i = [HOLE]"), "i"));
    QVERIFY(bansIn(judgeTyped("int i = ( g + [HOLE]"), "i"));
    QVERIFY(bansIn(judgeTyped("for ( int j = [HOLE]"), "j"));
    const auto second = judgeTyped("int i = 1 , j = [HOLE]");
    QVERIFY(bansIn(second, "j") && !bansIn(second, "i"));
    QVERIFY(!bansIn(judgeTyped("int i = 1 ; g = [HOLE]"), "i"));
  }

  void namesFollowTheirScopes() {
    // h's block has closed: h may not be used, though it appears.
    QVERIFY(bansIn(judgeTyped("{ int h = 0 ; } g = [HOLE]"), "h"));
    QVERIFY(!bansIn(judgeTyped("{ int h = 0 ; g = [HOLE]"), "h"));
    // A for loop's variable lives in the loop's block.
    QVERIFY(bansIn(judgeTyped("for ( int j = 0 ; j < 4 ; ++ j ) { b [ j ] = 0 ; } g = [HOLE]"), "j"));
    QVERIFY(!bansIn(judgeTyped("for ( int j = 0 ; j < 4 ; ++ j ) { b [ j ] = [HOLE]"), "j"));
    // No name is declared twice: h, a parameter; i is new.
    const auto redeclared = judgeTyped("int h = 0 ; int [HOLE]");
    QVERIFY(bansIn(redeclared, "h") && bansIn(redeclared, "g"));
    QVERIFY(!bansIn(redeclared, "i"));
    // A name the text after the hole declares is neither declared nor used before it.
    const auto declaredLater = judgeTyped("int h = 0 ; int [HOLE] ; float i = 1.0f ;");
    QVERIFY(bansIn(declaredLater, "i"));
    QVERIFY(!bansIn(declaredLater, "j"));
    QVERIFY(bansIn(judgeTyped("h = [HOLE] ; int i = 0 ;"), "i"));
    QVERIFY(!bansIn(judgeTyped("int i = 0 ; h = [HOLE] ;"), "i"));
  }

  void theHoleClosesOnceTheNamesAfterItAreDeclared() {
    const auto& tok = typeTokenizer();
    // The hole hid a's parameter, and the body uses a: the infill must declare it.
    const auto hidden = judgeWith(tok, "kernel void A ( [HOLE] global float * b ) { b [ 0 ] = a [ 0 ] ; }");
    QVERIFY(hidden.bansEnd());
    QVERIFY(!judgeWith(tok, "kernel void A ( global const float * a , [HOLE] global float * b ) { b [ 0 ] = a [ 0 ] ; }")
                 .bansEnd());
    // A variable's declaration hidden: the hole stays open until one is written.
    QVERIFY(judgeTyped("[HOLE] b [ 0 ] = h ;").bansEnd());
    QVERIFY(!judgeTyped("int h = 1 ; [HOLE] b [ 0 ] = h ;").bansEnd());
    // Names the text after the hole declares before it uses them, and fields, need nothing.
    QVERIFY(!judgeTyped("[HOLE] int h = 1 ; b [ 0 ] = h ;").bansEnd());
    QVERIFY(!judgeWith(tok, "struct S { int m ; } ; kernel void B ( global struct S * n ) { [HOLE] n -> m = 0 ; }")
                 .bansEnd());
    QVERIFY(!judgeWith(tok, "struct S { int m ; } ; kernel void B ( [HOLE] ) { } void C ( S * n ) { n -> m = 0 ; }")
                 .bansEnd());
    QVERIFY(!judgeTyped("[HOLE] int h = 1 , i = 2 ; b [ 0 ] = h + i ;").bansEnd());
    // Only up to the next hole: the text after it may be declared by that hole.
    QVERIFY(!judgeTyped("[HOLE] int i = 0 ; [HOLE] b [ 0 ] = h ;").bansEnd());
    // A window without the kernel's start: its declarations may be cut off.
    QVERIFY(!judgeWith(tok, "{ [HOLE] b [ 0 ] = h ; }", false, false).bansEnd());
  }

  void statementEndsAndWhatClosesThem() {
    // Whether the text, written so far, ends a statement; and the closers.
    auto ends = [](const std::string& text, std::string* closers = nullptr) {
      std::vector<int> seq{Tokenizer::kStart};
      const auto ids = tokenizer().encode(text);
      seq.insert(seq.end(), ids.begin(), ids.end());
      std::string c = "unset";
      const bool e = SyntaxGuard(tokenizer()).statementEnd(seq, seq.size(), c);
      if (closers) *closers = c;
      return e;
    };
    std::string c;
    QVERIFY(ends("kernel void A ( global int * a ) { int c = a [ 0 ] ;", &c));
    QCOMPARE(c, std::string("\n}"));
    QVERIFY(!ends("kernel void A ( global int * a ) { int c = a [ 0 ]"));
    // A `;` inside parentheses is not the end of a statement.
    QVERIFY(!ends("kernel void A ( global int * a ) { for ( int b = 0 ;"));
    QVERIFY(ends("kernel void A ( global int * a ) { for ( int b = 0 ; b < 4 ; ++ b ) { a [ b ] = 0 ;", &c));
    QCOMPARE(c, std::string("\n}\n}"));
    QVERIFY(ends("kernel void A ( global int * a ) { for ( int b = 0 ; b < 4 ; ++ b ) { a [ b ] = 0 ; }", &c));
    QCOMPARE(c, std::string("\n}"));
    // The kernel's own closing brace: nothing left to close.
    QVERIFY(ends("kernel void A ( global int * a ) { a [ 0 ] = 1 ; }", &c));
    QCOMPARE(c, std::string());
    // A do body closes with its while; its `}` alone ends nothing.
    QVERIFY(ends("kernel void A ( global int * a ) { do { a [ 0 ] = 1 ;", &c));
    QCOMPARE(c, std::string("\n} while (0);\n}"));
    QVERIFY(!ends("kernel void A ( global int * a ) { do { a [ 0 ] = 1 ; }"));
    QVERIFY(ends("kernel void A ( global int * a ) { do { a [ 0 ] = 1 ; } while ( a [ 0 ] ) ;"));
    // Struct bodies and initializers are not blocks of statements.
    QVERIFY(!ends("typedef struct { int a ;"));
    QVERIFY(!ends("typedef struct { int a ; }"));
    QVERIFY(ends("typedef struct { int a ; } B ;", &c));
    QCOMPARE(c, std::string());
    QVERIFY(!ends("kernel void A ( global int * a ) { int b [ 2 ] = { 1 , 2 }"));
    QVERIFY(ends("kernel void A ( global int * a ) { int b [ 2 ] = { 1 , 2 } ;"));
    // Mismatched brackets: nothing to check.
    QVERIFY(!ends("kernel void A ( global int * a ) { a [ 0 ) ;"));
  }

  void noStatementEndsInsideBrackets() {
    QVERIFY(judge("kernel void A ( global int * a ) { a [ [HOLE]").bans(";"));
    QVERIFY(judge("kernel void A ( global int * a ) { a [ 0 ] = ( a [ 1 ] [HOLE]").bans(";"));
    QVERIFY(!judge("kernel void A ( global int * a ) { a [ 0 ] = 1 [HOLE]").bans(";"));
    QVERIFY(!judge("kernel void B ( global int * a ) { for ( int b = 0 [HOLE]").bans(";"));
    QVERIFY(judge("kernel void B ( global int * a ) { for ( int b = ( 0 [HOLE]").bans(";"));
  }

  void theBuiltinsComeFromClang() {
    const auto& b = BuiltinSignatures::opencl().overloads;
    QVERIFY(b.size() > 500);
    QVERIFY(!b.count("printf")); // variadic
    const auto& gid = b.at("get_global_id");
    QCOMPARE(gid.size(), std::size_t(1));
    QCOMPARE(gid[0].params.size(), std::size_t(1));
    QCOMPARE(int(gid[0].params[0].kind), int(ArgShape::Scalar));
    QCOMPARE(int(gid[0].result.kind), int(ArgShape::Scalar)); // size_t
    for (const auto& o : b.at("vload4")) { // float4 vload4(size_t offset, const T* p), in every address space
      QCOMPARE(o.params.size(), std::size_t(2));
      QCOMPARE(int(o.params[0].kind), int(ArgShape::Scalar));
      QCOMPARE(int(o.params[1].kind), int(ArgShape::Pointer));
      QVERIFY(o.result == (ArgShape{ArgShape::Vector, 4}));
    }
    for (const auto& o : b.at("vstore4")) // void: no shape
      QCOMPARE(int(o.result.kind), int(ArgShape::Other));
    bool vector3 = false; // clamp(float4, float4, float4) among them
    for (const auto& o : b.at("clamp"))
      vector3 = vector3 || (o.params.size() == 3 && o.params[0] == ArgShape{ArgShape::Vector, 4} &&
                            o.params[2] == ArgShape{ArgShape::Vector, 4});
    QVERIFY(vector3);
    // What may be passed where, by shape.
    QVERIFY(fits({ArgShape::Scalar, 1}, {ArgShape::Vector, 4})); // Clang splats a scalar
    QVERIFY(!fits({ArgShape::Vector, 4}, {ArgShape::Scalar, 1}));
    QVERIFY(!fits({ArgShape::Vector, 4}, {ArgShape::Vector, 2}));
    QVERIFY(!fits({ArgShape::Pointer, 1}, {ArgShape::Scalar, 1}));
    QVERIFY(!fits({ArgShape::Scalar, 1}, {ArgShape::Pointer, 1}));
    QVERIFY(fits({}, {ArgShape::Pointer, 1}));
  }

  void builtinCallsEndWhereAnOverloadFits() {
    // vload4 takes (size_t, pointer): nothing can end its empty first argument.
    auto v = judgeCall("float4 d = vload4( [HOLE]");
    QVERIFY(v.comma && v.close);
    // b (an int) is a fine offset; the call needs one more argument.
    v = judgeCall("float4 d = vload4( b [HOLE]");
    QVERIFY(!v.comma && v.close);
    // b is no pointer: the second argument may not end as b...
    v = judgeCall("float4 d = vload4( b , b [HOLE]");
    QVERIFY(v.comma && v.close);
    // ...but a, a pointer, or e, an array, may, and close the call.
    v = judgeCall("float4 d = vload4( b , a [HOLE]");
    QVERIFY(v.comma && !v.close);
    v = judgeCall("float4 d = vload4( b , e [HOLE]");
    QVERIFY(v.comma && !v.close);
    // A pointer moved by a number is a pointer.
    v = judgeCall("float4 d = vload4( b , a + b [HOLE]");
    QVERIFY(v.comma && !v.close);
    // clamp(float4, float4 or float, float4 or float): b fits the middle.
    v = judgeCall("float4 d = clamp( c , b [HOLE]");
    QVERIFY(!v.comma && v.close);
    // mad takes no pointer anywhere.
    v = judgeCall("float x = mad( a [HOLE]");
    QVERIFY(v.comma && v.close);
    // A zero may be a null pointer as well as a number; get_global_id takes one argument.
    v = judgeCall("int i = get_global_id( 0 [HOLE]");
    QVERIFY(v.comma && !v.close);
    // Inside a nested bracket the call's rule waits: a[ ... ] is the argument's own.
    v = judgeCall("float x = mad( a [ [HOLE]");
    QVERIFY(!v.comma);
    // Without the builtins' table the rule is off.
    v = judgeCall("float4 d = vload4( b , b [HOLE]", false);
    QVERIFY(!v.comma && !v.close);
  }

  void anArgumentsShapeIsReadFromItsExpression() {
    // vstore4(float4 data, size_t offset, float* p). An element is no pointer...
    auto v = judgeCall("vstore4( c , b , a [ b ] [HOLE]");
    QVERIFY(v.comma && v.close);
    // ...but a pointer moved by a number, or in brackets, is.
    v = judgeCall("vstore4( c , b , a + 1 - ( int ) b [HOLE]");
    QVERIFY(v.comma && !v.close);
    v = judgeCall("vstore4( c , b , ( a ) [HOLE]");
    QVERIFY(v.comma && !v.close);
    v = judgeCall("vstore4( c , b , ( a [ 0 ] ) [HOLE]");
    QVERIFY(v.comma && v.close);
    // A builtin's result: get_global_id's is a number, fine as the offset, not as the pointer.
    v = judgeCall("vstore4( c , get_global_id ( 0 ) [HOLE]");
    QVERIFY(!v.comma && v.close);
    v = judgeCall("vstore4( c , b , get_global_id ( 0 ) [HOLE]");
    QVERIFY(v.comma && v.close);
    // A pointer is no offset.
    v = judgeCall("vstore4( c , a + 1 [HOLE]");
    QVERIFY(v.comma && v.close);
    // vload8's result has 8 lanes: no data for vstore4; vload4's has 4.
    v = judgeCall("vstore4( vload8 ( b , a ) [HOLE]");
    QVERIFY(v.comma && v.close);
    v = judgeCall("vstore4( vload4 ( b , a ) [HOLE]");
    QVERIFY(!v.comma && v.close);
    // Arithmetic keeps the vector's lanes; an element of a float4 pointer is a
    // float4, a lane of a float4 or an element of a float array a number.
    v = judgeCall("vstore4( c * b - f [ 0 ] [HOLE]");
    QVERIFY(!v.comma && v.close);
    v = judgeCall("vstore4( c - c , e [ 0 ] + c [ 1 ] [HOLE]");
    QVERIFY(!v.comma && v.close);
    // Casts: to a vector, a number, a pointer.
    v = judgeCall("vstore4( ( float8 ) b [HOLE]");
    QVERIFY(v.comma && v.close);
    v = judgeCall("vstore4( c , ( int ) e [ 0 ] [HOLE]");
    QVERIFY(!v.comma && v.close);
    v = judgeCall("vstore4( c , b , ( global float * ) a [HOLE]");
    QVERIFY(v.comma && !v.close);
    // What the rule cannot read fits anything: a dereference, two pointers' difference.
    v = judgeCall("vstore4( c , b , * a [HOLE]");
    QVERIFY(v.comma && !v.close);
    v = judgeCall("vstore4( c , a - a [HOLE]");
    QVERIFY(!v.comma && v.close);
  }

  void aHoleInsideACallClosesOnlyWhereAnOverloadFits() {
    // The text after the hole holds the call's other arguments.
    QVERIFY(!judgeCall("vstore4( c , b [HOLE] , a ) ;").end);
    QVERIFY(judgeCall("vstore4( c [HOLE] , a ) ;").end); // two arguments: no overload
    QVERIFY(judgeCall("vstore4( c , [HOLE] b , b ) ;").end); // b is no pointer
    // Every call open at the hole is judged, the inner one too.
    QVERIFY(!judgeCall("vstore4( vload4 ( b , [HOLE] a ) , b , a ) ;").end);
    QVERIFY(judgeCall("vstore4( vload4 ( b [HOLE] ) , b , a ) ;").end);
    QVERIFY(judgeCall("vstore4( vload8 ( b , a [HOLE] ) , b , a ) ;").end); // 8 lanes for vstore4
    // A call the text after the hole opens, right after a builtin's name.
    QVERIFY(judgeCall("float4 d = vload4 [HOLE] ( b , b ) ;").end);
    QVERIFY(!judgeCall("float4 d = vload4 [HOLE] ( b , a ) ;").end);
    // Without the builtins' table the rule is off.
    QVERIFY(!judgeCall("vstore4( c [HOLE] , a ) ;", false).end);
  }
};

QTEST_APPLESS_MAIN(TestSyntaxGuard)
#include "tst_syntaxguard.moc"
