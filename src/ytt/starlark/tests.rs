//! Interpreter tests: whole programs, mostly transcribed from the ytt conformance
//! corpus (tests/fixtures/ytt/starlark), checked against the values ytt prints.

use std::cell::RefCell;
use std::rc::Rc;

use super::*;

pub(super) fn run(src: &str) -> Result<Module, Error> {
    Thread::new().exec_source("test.star", src, Rc::new(Env::default()))
}

/// Evaluates `expr` and returns `repr` of the result.
pub(super) fn ev(expr: &str) -> String {
    let m = run(&format!("__r = {expr}\n")).unwrap_or_else(|e| panic!("{expr}: {}", e.backtrace()));
    repr(&m.get("__r").unwrap())
}

/// The error message of a failing program.
pub(super) fn err(src: &str) -> String {
    match run(src) {
        Ok(_) => panic!("expected an error from {src}"),
        Err(e) => e.msg.clone(),
    }
}

/// Asserts `expr` evaluates to a value whose repr is `want`.
pub(super) fn check(cases: &[(&str, &str)]) {
    for (expr, want) in cases {
        assert_eq!(ev(expr), *want, "{expr}");
    }
}

#[test]
fn smoke() {
    assert_eq!(ev("1 + 2"), "3");
}

#[test]
fn int_arithmetic() {
    check(&[
        ("7 + 3", "10"),
        ("7 - 10", "-3"),
        ("6 * 7", "42"),
        ("7 // 2", "3"),
        ("-7 // 2", "-4"),
        ("7 // -2", "-4"),
        ("7 % 3", "1"),
        ("-7 % 3", "2"),
        ("7 % -3", "-2"),
        ("2 + 3 * 4 - (1 + 1)", "12"),
        ("-(-5)", "5"),
        ("+5", "5"),
    ]);
}

#[test]
fn division_and_floats() {
    check(&[
        ("7 / 2", "3.5"),
        ("6 / 3", "2"),
        ("type(6 / 3)", "\"float\""),
        ("-1 / 4", "-0.25"),
        ("7.5 // 2", "3"),
        ("0.1 + 0.2", "0.3"),
        ("1 + 0.5", "1.5"),
        ("1.5 * 2", "3"),
        ("str(1.0 / 3)", "\"0.333333\""),
        ("str(4.0)", "\"4\""),
        ("str(2.50)", "\"2.5\""),
        ("float(\"3.25\")", "3.25"),
        ("float(4)", "4"),
        ("float(\"-2.5e2\")", "-250"),
        ("5.5 % 2", "1.5"),
        ("-5.5 % 2", "-1.5"),
        ("1e20 * 10 == 1e21", "True"),
    ]);
    assert_eq!(err("x = 1 / 0"), "real division by zero");
    assert_eq!(err("x = 1 // 0"), "floored division by zero");
    assert_eq!(err("x = 1 % 0"), "integer modulo by zero");
}

#[test]
fn big_integers() {
    check(&[
        ("9223372036854775807 + 1", "9223372036854775808"),
        ("-9223372036854775807 - 1", "-9223372036854775808"),
        (
            "str(12345678901234567890 * 10)",
            "\"123456789012345678900\"",
        ),
        ("str(1 << 70)", "\"1180591620717411303424\""),
        ("(1 << 80) // (1 << 75)", "32"),
    ]);
    assert_eq!(err("x = 1 << 600"), "shift count too large: 600");
}

#[test]
fn bitwise() {
    check(&[
        ("12 & 10", "8"),
        ("12 | 3", "15"),
        ("12 ^ 10", "6"),
        ("~5", "-6"),
        ("1 << 4", "16"),
        ("256 >> 3", "32"),
    ]);
}

#[test]
fn comparisons_and_boolean_operators() {
    check(&[
        ("1 < 2", "True"),
        ("2 >= 3", "False"),
        ("\"a\" == \"a\"", "True"),
        ("[1] != [1]", "False"),
        ("\"apple\" < \"banana\"", "True"),
        ("[1, 2] < [1, 3]", "True"),
        ("(1, 2) < (1, 2, 0)", "True"),
        ("\"x\" and \"y\"", "\"y\""),
        ("\"\" and \"y\"", "\"\""),
        ("\"\" or \"fallback\"", "\"fallback\""),
        ("\"first\" or \"second\"", "\"first\""),
        ("None or 0", "0"),
        ("not []", "True"),
        ("not 1 in [1]", "False"),
        ("1 not in [2]", "True"),
        ("1 == 1.0", "True"),
        ("\"1\" == 1", "False"),
        ("(1, 2) == [1, 2]", "False"),
        ("{\"a\": 1, \"b\": 2} == {\"b\": 2, \"a\": 1}", "True"),
        ("None == None", "True"),
        ("False < True", "True"),
    ]);
    assert_eq!(err("x = 1 < \"a\""), "int < string not implemented");
    assert_eq!(err("x = {} < {}"), "dict < dict not implemented");
}

#[test]
fn truthiness() {
    check(&[
        ("bool(\"\")", "False"),
        ("bool(\" \")", "True"),
        ("bool(0)", "False"),
        ("bool(0.0)", "False"),
        ("bool(None)", "False"),
        ("bool([])", "False"),
        ("bool({})", "False"),
        ("bool(())", "False"),
        ("bool([0])", "True"),
        ("bool(range(0))", "False"),
        ("bool()", "False"),
    ]);
}

#[test]
fn conditional_expressions() {
    let m = run("n = 5\na = \"big\" if n > 3 else \"small\"\nb = \"neg\" if n < 0 else \"zero\" if n == 0 else \"pos\"\nc = [x if x % 2 else -x for x in range(4)]\n").unwrap();
    assert_eq!(repr(&m.get("a").unwrap()), "\"big\"");
    assert_eq!(repr(&m.get("b").unwrap()), "\"pos\"");
    assert_eq!(repr(&m.get("c").unwrap()), "[0, 1, -2, 3]");
}

#[test]
fn list_item_assignment_and_augmented_assignment() {
    let m = run(
        "xs = [\"a\", \"b\", \"c\"]\nxs[1] = \"B\"\nxs[-1] = \"C\"\nm = [[0, 0], [0, 0]]\nm[1][0] = 7\nn = 10\nn += 5\nn -= 3\nn *= 2\nn //= 5\ns = \"a\"\ns += \"b\"\nl = [1]\nalias = l\nl += [2, 3]\nd = {\"k\": 1}\nd[\"k\"] += 1\nb = 6\nb |= 1\nb <<= 2\n",
    )
    .unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("xs"), "[\"a\", \"B\", \"C\"]");
    assert_eq!(g("m"), "[[0, 0], [7, 0]]");
    assert_eq!(g("n"), "4");
    assert_eq!(g("s"), "\"ab\"");
    assert_eq!(g("alias"), "[1, 2, 3]");
    assert_eq!(g("d"), "{\"k\": 2}");
    assert_eq!(g("b"), "28");
    let m = run("xs = [1, 2]\nxs += xs\nys = [3]\nys.extend(ys)\nt = (1,)\nt += (2,)\n").unwrap();
    assert_eq!(repr(&m.get("xs").unwrap()), "[1, 2, 1, 2]");
    assert_eq!(repr(&m.get("ys").unwrap()), "[3, 3]");
    assert_eq!(repr(&m.get("t").unwrap()), "(1, 2)");
    assert_eq!(err("xs = [1]\nxs += 1"), "unknown binary op: list + int");
    assert_eq!(
        err("t = (1, 2)\nt[0] = 1"),
        "tuple value does not support item assignment"
    );
    assert_eq!(
        err("s = \"ab\"\ns[0] = \"x\""),
        "string value does not support item assignment"
    );
}

#[test]
fn tuples_and_unpacking() {
    let m = run("t = (1, \"two\", 3.0)\ni = t[1]\nc = t + (4,)\ns = (\"solo\",)\na, b = \"left\", \"right\"\nx, (y, z) = 1, (2, 3)\n[p, q] = [5, 6]\nfor k, v in [(1, 2)]:\n  kv = k + v\nend\na2, b2 = 1, 2\na2, b2 = b2, a2\n").unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("t"), "(1, \"two\", 3)");
    assert_eq!(g("i"), "\"two\"");
    assert_eq!(g("c"), "(1, \"two\", 3, 4)");
    assert_eq!(g("s"), "(\"solo\",)");
    assert_eq!((g("a"), g("b")), ("\"left\"".into(), "\"right\"".into()));
    assert_eq!(
        (g("x"), g("y"), g("z")),
        ("1".into(), "2".into(), "3".into())
    );
    assert_eq!((g("p"), g("q")), ("5".into(), "6".into()));
    assert_eq!(g("kv"), "3");
    assert_eq!((g("a2"), g("b2")), ("2".into(), "1".into()));
    assert_eq!(
        err("a, b = 1, 2, 3"),
        "too many values to unpack (got 3, want 2)"
    );
    assert_eq!(
        err("a, b = [1]"),
        "too few values to unpack (got 1, want 2)"
    );
    assert_eq!(err("a, b = 1"), "got int in sequence assignment");
}

#[test]
fn comprehensions() {
    check(&[
        ("[x * x for x in range(6)]", "[0, 1, 4, 9, 16, 25]"),
        ("[x for x in range(10) if x % 2 == 0]", "[0, 2, 4, 6, 8]"),
        (
            "[[a, b] for a in [1, 2] for b in [\"x\", \"y\"]]",
            "[[1, \"x\"], [1, \"y\"], [2, \"x\"], [2, \"y\"]]",
        ),
        (
            "[a * b for a in range(1, 4) for b in range(1, 4) if a < b]",
            "[2, 3, 6]",
        ),
        (
            "{str(k): k * k for k in range(4)}",
            "{\"0\": 0, \"1\": 1, \"2\": 4, \"3\": 9}",
        ),
        (
            "{v: k for k, v in {\"a\": \"x\", \"b\": \"y\"}.items()}",
            "{\"x\": \"a\", \"y\": \"b\"}",
        ),
        (
            "{k: v for k, v in [(\"keep\", 1), (\"drop\", 2)] if k != \"drop\"}",
            "{\"keep\": 1}",
        ),
        ("[x for x in [1, 2] for x in [x * 10]]", "[10, 20]"),
    ]);
    // The comprehension variable does not leak into the enclosing scope.
    assert_eq!(err("y = [x for x in [1]]\nz = x"), "undefined: x");
}

#[test]
fn lambdas_and_functions() {
    check(&[
        ("(lambda x: x * 2)(21)", "42"),
        ("(lambda a, b=10: a + b)(1)", "11"),
        ("(lambda a, b=10: a + b)(1, 2)", "3"),
        (
            "[(lambda s: s + \"!\")(w) for w in [\"hi\", \"yo\"]]",
            "[\"hi!\", \"yo!\"]",
        ),
        (
            "sorted([\"ccc\", \"a\", \"bb\"], key=lambda s: len(s))",
            "[\"a\", \"bb\", \"ccc\"]",
        ),
        ("type(lambda: 1)", "\"function\""),
        ("[f() for f in [lambda: i for i in range(3)]]", "[2, 2, 2]"),
    ]);
    let src = "def describe(name, kind=\"thing\", *extra, **opts):\n  parts = [name, kind]\n  parts.extend(extra)\n  for k in sorted(opts.keys()):\n    parts.append(k + \"=\" + str(opts[k]))\n  end\n  return \" \".join(parts)\nend\na = describe(\"a\")\nb = describe(\"b\", \"widget\")\nc = describe(kind=\"gizmo\", name=\"c\")\nd = describe(\"d\", \"k\", \"x\", \"y\")\ne = describe(\"e\", size=3, color=\"red\")\nargs = [\"f\", \"spread\"]\nkw = {\"z\": 1}\nf = describe(*args, **kw)\n";
    let m = run(src).unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("a"), "\"a thing\"");
    assert_eq!(g("b"), "\"b widget\"");
    assert_eq!(g("c"), "\"c gizmo\"");
    assert_eq!(g("d"), "\"d k x y\"");
    assert_eq!(g("e"), "\"e thing color=red size=3\"");
    assert_eq!(g("f"), "\"f spread z=1\"");
    assert_eq!(g("describe"), "<function describe>");

    let m = run(
        "def nothing():\n  x = 1\nend\ndef bare():\n  return\nend\na = nothing()\nb = bare()\n",
    )
    .unwrap();
    assert_eq!(repr(&m.get("a").unwrap()), "None");
    assert_eq!(repr(&m.get("b").unwrap()), "None");

    let m =
        run("def f(a, *, flag=False):\n  return [a, flag]\nend\nx = f(1)\ny = f(1, flag=True)\n")
            .unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "[1, False]");
    assert_eq!(repr(&m.get("y").unwrap()), "[1, True]");
}

#[test]
fn argument_errors() {
    assert_eq!(
        err("def two(a, b):\n  return a + b\nend\nv = two(1)"),
        "function two missing 1 argument (b)"
    );
    assert_eq!(
        err("def two(a, b):\n  return a\nend\nv = two()"),
        "function two missing 2 arguments (a, b)"
    );
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(1, 2)"),
        "function f accepts 1 positional argument (2 given)"
    );
    assert_eq!(
        err("def f(a, b=1):\n  return a\nend\nv = f(1, 2, 3)"),
        "function f accepts at most 2 positional arguments (3 given)"
    );
    assert_eq!(
        err("def f():\n  return 1\nend\nv = f(1, k=2)"),
        "function f accepts no arguments (2 given)"
    );
    assert_eq!(
        err("def f():\n  return 1\nend\nv = f(1)"),
        "function f accepts no arguments (1 given)"
    );
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(b=1)"),
        "function f got an unexpected keyword argument \"b\""
    );
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(1, a=1)"),
        "function f got multiple values for parameter \"a\""
    );
    assert_eq!(
        err("def f(a, *, k):\n  return a\nend\nv = f(1)"),
        "function f missing 1 argument (k)"
    );
    assert_eq!(err("x = len()"), "len: got 0 arguments, want 1");
    assert_eq!(err("x = 1()"), "invalid call of non-function (int)");
    assert_eq!(err("f(*1)"), "undefined: f");
    assert_eq!(
        err("x = len(*1)"),
        "argument after * must be iterable, not int"
    );
}

#[test]
fn recursion_and_control_flow() {
    let m = run("def fact(n):\n  if n <= 1:\n    return 1\n  end\n  return n * fact(n - 1)\nend\ndef fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\nend\nf = fact(10)\nfibs = [fib(i) for i in range(10)]\n").unwrap();
    assert_eq!(repr(&m.get("f").unwrap()), "3628800");
    assert_eq!(
        repr(&m.get("fibs").unwrap()),
        "[0, 1, 1, 2, 3, 5, 8, 13, 21, 34]"
    );

    let m = run("def classify(n):\n  if n < 0:\n    return \"negative\"\n  elif n == 0:\n    return \"zero\"\n  elif n < 10:\n    return \"small\"\n  else:\n    return \"large\"\n  end\nend\nr = [classify(v) for v in [-3, 0, 4, 100]]\n").unwrap();
    assert_eq!(
        repr(&m.get("r").unwrap()),
        "[\"negative\", \"zero\", \"small\", \"large\"]"
    );

    let m = run("collected = []\nfor i in range(20):\n  if i % 3 == 0:\n    continue\n  end\n  if i > 10:\n    break\n  end\n  collected.append(i)\nend\n").unwrap();
    assert_eq!(repr(&m.get("collected").unwrap()), "[1, 2, 4, 5, 7, 8, 10]");

    let m = run("cells = []\nfor r in [\"a\", \"b\"]:\n  for c in [1, 2]:\n    if r == \"b\" and c == 1:\n      continue\n    end\n    cells.append(r + str(c))\n  end\nend\n").unwrap();
    assert_eq!(repr(&m.get("cells").unwrap()), "[\"a1\", \"a2\", \"b2\"]");

    let m = run("i = 0\nwhile i < 3:\n  i += 1\nend\nj = 0\nwhile True:\n  j += 1\n  if j == 5: break\nend\n").unwrap();
    assert_eq!(repr(&m.get("i").unwrap()), "3");
    assert_eq!(repr(&m.get("j").unwrap()), "5");

    let e = run("def f(n):\n  return f(n + 1)\nend\nf(0)\n").unwrap_err();
    assert_eq!(e.msg, "Starlark stack overflow");
}

#[test]
fn closures_and_scoping() {
    let m = run("def make_prefixer(prefix):\n  def apply(name):\n    return prefix + \"-\" + name\n  end\n  return apply\nend\nweb = make_prefixer(\"web\")\ndb = make_prefixer(\"db\")\nnames = [web(\"a\"), db(\"b\"), web(\"c\")]\ndef counter():\n  state = {\"n\": 0}\n  def inc():\n    state[\"n\"] += 1\n    return state[\"n\"]\n  end\n  return inc\nend\nc = counter()\nc()\nc()\ncount = c()\n").unwrap();
    assert_eq!(
        repr(&m.get("names").unwrap()),
        "[\"web-a\", \"db-b\", \"web-c\"]"
    );
    assert_eq!(repr(&m.get("count").unwrap()), "3");

    // Cells: the inner function sees later assignments of the outer one.
    let m = run(
        "def f():\n  x = 1\n  def g():\n    return x\n  end\n  x = 2\n  return g()\nend\nr = f()\n",
    )
    .unwrap();
    assert_eq!(repr(&m.get("r").unwrap()), "2");
    // Three levels deep.
    let m = run("def a():\n  v = \"deep\"\n  def b():\n    def c():\n      return v\n    end\n    return c()\n  end\n  return b()\nend\nr = a()\n").unwrap();
    assert_eq!(repr(&m.get("r").unwrap()), "\"deep\"");

    let m = run(
        "x = 1\nfirst = x\nx = x + 1\nsecond = x\ndef bump():\n  return x * 10\nend\nf = bump()\n",
    )
    .unwrap();
    assert_eq!(repr(&m.get("first").unwrap()), "1");
    assert_eq!(repr(&m.get("second").unwrap()), "2");
    assert_eq!(repr(&m.get("f").unwrap()), "20");

    assert_eq!(
        err("x = 1\ndef f():\n  x += 1\n  return x\nend\nf()"),
        "local variable x referenced before assignment"
    );
    assert_eq!(err("y = z\nz = 1"), "undefined: z");
    assert_eq!(
        err("value = not_defined_anywhere + 1"),
        "undefined: not_defined_anywhere"
    );
    assert_eq!(err("value = abs(-3)"), "undefined: abs");
    assert_eq!(err("return 1"), "return statement not within a function");
    assert_eq!(err("break"), "break not in a loop");
}

#[test]
fn type_errors() {
    assert_eq!(
        err("value = \"count: \" + 3"),
        "unknown binary op: string + int"
    );
    assert_eq!(err("value = [1] + (2,)"), "unknown binary op: list + tuple");
    assert_eq!(err("value = -\"a\""), "unknown unary op: - string");
    assert_eq!(err("value = {}[1:2]"), "invalid slice operand dict");
    assert_eq!(err("value = 1[0]"), "unhandled index operation int[int]");
    assert_eq!(err("value = 1 in 2"), "unknown binary op: int in int");
    assert_eq!(err("value = None.x"), "NoneType has no .x field or method");
}

#[test]
fn mutation_during_iteration_and_frozen_values() {
    assert_eq!(
        err("xs = [1, 2, 3]\nfor x in xs:\n  xs.append(x)\nend"),
        "append: cannot append to list during iteration"
    );
    assert_eq!(
        err("d = {\"a\": 1}\nfor k in d:\n  d[\"b\"] = 2\nend"),
        "cannot insert into hash table during iteration"
    );
    // After the loop the list is mutable again.
    let m = run("xs = [1]\nfor x in xs:\n  y = x\nend\nxs.append(2)\n").unwrap();
    assert_eq!(repr(&m.get("xs").unwrap()), "[1, 2]");

    // Values of an executed module are frozen.
    let m = run("xs = [1]\nd = {\"a\": [2]}\n").unwrap();
    let mut t = Thread::new();
    let mut env = Env::default();
    env.insert("xs".into(), m.get("xs").unwrap());
    env.insert("d".into(), m.get("d").unwrap());
    let e = t
        .exec_source("b.star", "xs.append(3)\n", Rc::new(env.clone()))
        .unwrap_err();
    assert_eq!(e.msg, "append: cannot append to frozen list");
    let e = t
        .exec_source("c.star", "d[\"a\"].append(3)\n", Rc::new(env.clone()))
        .unwrap_err();
    assert_eq!(e.msg, "append: cannot append to frozen list");
    let e = t
        .exec_source("d.star", "d[\"b\"] = 1\n", Rc::new(env))
        .unwrap_err();
    assert_eq!(e.msg, "cannot insert into frozen hash table");
}

#[test]
fn comments_docstrings_continuations_and_brackets() {
    let m = run("def greet(who):\n  \"\"\"Returns a greeting.\n\n  Docstrings are allowed.\n  \"\"\"\n  # a comment\n  return \"hi \" + who  # trailing\nend\ng = greet(\"there\")\ntotal = 1 + \\\n  2 + \\\n  3\nmsg = \"part one, \\\npart two\"\nitems = [\n  \"one\",\n  \"two\",\n]\ncfg = {\n  \"k\": 1,\n  \"nested\": {\"j\": [1,\n    2]},\n}\na = 1; b = 2\n").unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("g"), "\"hi there\"");
    assert_eq!(g("total"), "6");
    assert_eq!(g("msg"), "\"part one, part two\"");
    assert_eq!(g("items"), "[\"one\", \"two\"]");
    assert_eq!(g("cfg"), "{\"k\": 1, \"nested\": {\"j\": [1, 2]}}");
    assert_eq!((g("a"), g("b")), ("1".into(), "2".into()));
}

#[test]
fn argument_and_parameter_order_rules() {
    assert_eq!(
        err("f = len\nx = f(a=1, 2)"),
        "positional argument may not follow named"
    );
    assert_eq!(
        err("f = len\nx = f(*[1], 2)"),
        "argument may not follow *args"
    );
    assert_eq!(
        err("f = len\nx = f(**{}, a=2)"),
        "argument may not follow **kwargs"
    );
    assert_eq!(
        err("f = len\nx = f(*[1], *[2])"),
        "multiple *args not allowed"
    );
    assert_eq!(
        err("f = len\nx = f(a=1, a=2)"),
        "keyword argument a repeated"
    );
    assert_eq!(
        err("def f(a=1, b):\n  return 1\nend"),
        "required parameter may not follow optional"
    );
    assert_eq!(
        err("def f(**kw, a):\n  return 1\nend"),
        "required parameter may not follow **kw"
    );
    assert_eq!(
        err("def f(*a, *b):\n  return 1\nend"),
        "multiple * parameters not allowed"
    );
    assert_eq!(
        err("def f(a, a):\n  return 1\nend"),
        "duplicate parameter: a"
    );
    let m =
        run("def f(a=1, *, b):\n  return [a, b]\nend\nx = f(b=2)\ny = len(*[[1, 2]])\n").unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "[1, 2]");
    assert_eq!(repr(&m.get("y").unwrap()), "2");
}

#[test]
fn assert_is_an_identifier_as_in_ytt() {
    let m = run("assert = {\"ok\": True}\nx = assert[\"ok\"]\n").unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "True");
}

#[test]
fn syntax_errors() {
    assert_eq!(
        err("def noop():\n  pass\nend\n"),
        "use of reserved keyword 'pass' is not allowed"
    );
    let e = run("def f():\n  return 1\n").unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.msg.contains("mismatched set of block openings"));
    // ytt's message for a comment inside a wrapped value expression.
    assert_eq!(err("__x((v  # explaining v))\n"), "got newline, want ')'");
    assert_eq!(err("x = [1, 2"), "got newline, want ']'");
    assert_eq!(err("if x\n  y = 1\nend\n"), "got newline, want ':'");
    assert_eq!(
        err("x = (1 if 2)"),
        "conditional expression without else clause"
    );
}

#[test]
fn fail_and_print() {
    let e = run("def check(v):\n  if v > 5:\n    fail(\"something went wrong: code\", v)\n  end\n  return v\nend\nok = check(1)\nbad = check(7)\n").unwrap_err();
    assert_eq!(e.msg, "fail: something went wrong: code 7");
    assert_eq!(
        e.backtrace(),
        "Traceback (most recent call last):\n  test.star:8:12: in <toplevel>\n  test.star:3:9: in check\n    fail(\"something went wrong: code\", v)\nError: fail: something went wrong: code 7"
    );
    assert_eq!(e.pos.as_ref().unwrap().line, 3);
    assert_eq!(
        e.source_line.as_deref(),
        Some("    fail(\"something went wrong: code\", v)")
    );
    assert_eq!(err("fail(\"a\", [1], sep=\"|\")"), "fail: a|[1]");

    let out = Rc::new(RefCell::new(Vec::<String>::new()));
    let mut t = Thread::new();
    let o = out.clone();
    t.set_print(move |s| o.borrow_mut().push(s.to_string()));
    t.exec_source(
        "p.star",
        "print(\"this goes\", 1, [\"x\"])\nprint()\n",
        Rc::new(Env::default()),
    )
    .unwrap();
    assert_eq!(
        *out.borrow(),
        vec!["this goes 1 [\"x\"]".to_string(), String::new()]
    );
}

#[test]
fn huge_ranges_are_iterated_lazily() {
    let m = run("n = 0\nfor i in range(2147483647):\n  n += 1\n  if n == 3: break\nend\nr = range(2147483647)\nbig = len(r)\nlast = r[-1]\nhas = 2147483646 in r\n")
        .unwrap_or_else(|e| panic!("{}", e.backtrace()));
    assert_eq!(repr(&m.get("n").unwrap()), "3");
    assert_eq!(repr(&m.get("big").unwrap()), "2147483647");
    assert_eq!(repr(&m.get("last").unwrap()), "2147483646");
    assert_eq!(repr(&m.get("has").unwrap()), "True");
    // Range arguments are read by starlark-go's AsInt32.
    assert_eq!(
        err("r = range(1000000000000)"),
        "range: for parameter 1: 1000000000000 out of range"
    );
}

#[test]
fn loops_and_calls_run_at_a_reasonable_speed() {
    let start = std::time::Instant::now();
    let m = run("def fib(n):\n  return n if n < 2 else fib(n - 1) + fib(n - 2)\nend\nx = fib(18)\nd = {}\nfor i in range(20000):\n  d[str(i)] = i * 2\nend\ns = 0\nfor k, v in d.items():\n  s += v\nend\n").unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "2584");
    assert_eq!(repr(&m.get("s").unwrap()), "399980000");
    assert!(start.elapsed().as_secs() < 20, "took {:?}", start.elapsed());
}

/// Programs nested `levels` deep in each way the parser counts (see
/// `parser::MAX_DEPTH`): brackets, calls, indexing, unary and binary operators,
/// conditionals and blocks. The top-level statement adds one level and so does each
/// nesting, except a call, which adds two (the call and its argument); the index inside
/// the last `[0]` adds one more.
fn nested_programs(levels: usize) -> Vec<(&'static str, String)> {
    let n = levels - 1;
    vec![
        (
            "parens",
            format!("x = {}1{}\n", "(".repeat(n), ")".repeat(n)),
        ),
        (
            "lists",
            format!("x = {}1{}\n", "[".repeat(n), "]".repeat(n)),
        ),
        (
            "dicts",
            format!("x = {}1{}\n", "{1: ".repeat(n), "}".repeat(n)),
        ),
        ("negations", format!("x = {}1\n", "-".repeat(n))),
        ("nots", format!("x = {}1\n", "not ".repeat(n))),
        ("sums", format!("x = 1{}\n", "+1".repeat(n))),
        ("indexes", format!("x = \"s\"{}\n", "[0]".repeat(n - 1))),
        (
            "calls",
            format!("x = {}1{}\n", "str(".repeat(n / 2), ")".repeat(n / 2)),
        ),
        (
            "conditionals",
            format!("x = {}1\n", "1 if False else ".repeat(n)),
        ),
        (
            "ifs",
            format!(
                "{}x = 1\n{}",
                "if True:\n".repeat(levels - 1),
                "end\n".repeat(levels - 1)
            ),
        ),
    ]
}

#[test]
fn nesting_past_the_parser_limit_is_a_syntax_error_not_a_stack_overflow() {
    // Debug builds take about 20 KiB of stack per level; release builds under 3 KiB.
    let checks = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(|| {
            for (what, src) in nested_programs(1000) {
                // The deepest tree allowed parses and runs.
                run(&src).unwrap_or_else(|e| panic!("{what} at 1000 levels: {}", e.msg));
            }
            for (what, src) in nested_programs(1002) {
                let e = run(&src).expect_err(what);
                assert_eq!(
                    e.msg,
                    "nesting too deep: more than 1000 levels of brackets, operators or blocks",
                    "{what}"
                );
                let line = e.pos.as_ref().map(|p| p.line);
                let want = if what == "ifs" { 1001 } else { 1 };
                assert_eq!(line, Some(want), "{what}");
            }
            // 100,000 levels: the parser stops at the limit instead of recursing on.
            for (what, src) in nested_programs(100_000) {
                assert!(run(&src).is_err(), "{what}");
            }
        })
        .unwrap();
    checks.join().unwrap();
}

#[test]
fn int_and_float_keys_are_the_same_map_key() {
    let mut m = OrderedMap::new();
    m.insert(Value::Int(1), Value::str("a")).unwrap();
    assert_eq!(
        m.get(&Value::Float(1.0)).unwrap().unwrap().as_str(),
        Some("a")
    );
}

#[test]
fn unhashable_map_keys_fail() {
    let mut m = OrderedMap::new();
    let e = m.insert(Value::list(vec![]), Value::None).unwrap_err();
    assert_eq!(e.msg, "unhashable type: list");
}
