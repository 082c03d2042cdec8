//! Expression grammar tests against the Starlark spec: each expression is parsed and
//! printed fully parenthesised, so that precedence and associativity are visible, and
//! the values of the trickier forms are checked by evaluation.

use super::ast::*;
use super::parser::parse_file;
use super::tests::{check, err};

/// `src` parsed as the right-hand side of an assignment, printed with every operator
/// application in parentheses.
fn shape(src: &str) -> String {
    let file = parse_file("t.star", &format!("x = {src}\n"))
        .unwrap_or_else(|e| panic!("{src}: {}", e.msg));
    match &file.stmts[0].kind {
        StmtKind::Assign { rhs, .. } => show(rhs),
        other => panic!("not an assignment: {other:?}"),
    }
}

fn syntax_error(src: &str) -> String {
    match parse_file("t.star", &format!("x = {src}\n")) {
        Ok(_) => panic!("expected a syntax error from {src}"),
        Err(e) => e.msg.clone(),
    }
}

fn show(e: &Expr) -> String {
    let list = |xs: &[Expr]| xs.iter().map(show).collect::<Vec<_>>().join(", ");
    let opt = |x: &Option<Box<Expr>>| x.as_deref().map(show).unwrap_or_default();
    match &e.kind {
        ExprKind::Ident(id) => id.name.clone(),
        ExprKind::Int(i) => i.to_string(),
        ExprKind::BigInt(i) => i.to_string(),
        ExprKind::Float(f) => f.to_string(),
        ExprKind::Str(s) => format!("{s:?}"),
        ExprKind::List(xs) => format!("[{}]", list(xs)),
        ExprKind::Tuple(xs) => format!("tuple({})", list(xs)),
        ExprKind::Dict(kvs) => {
            let kvs: Vec<String> = kvs
                .iter()
                .map(|(k, v)| format!("{}: {}", show(k), show(v)))
                .collect();
            format!("{{{}}}", kvs.join(", "))
        }
        ExprKind::Unary(op, x) => {
            let op = match op {
                UnaryOp::Neg => "-",
                UnaryOp::Plus => "+",
                UnaryOp::Invert => "~",
                UnaryOp::Not => "not ",
            };
            format!("({op}{})", show(x))
        }
        ExprKind::Binary(op, x, y) => format!("({} {} {})", show(x), op.symbol(), show(y)),
        ExprKind::Cond { cond, then, els } => {
            format!("({} if {} else {})", show(then), show(cond), show(els))
        }
        ExprKind::Index(x, i) => format!("{}[{}]", show(x), show(i)),
        ExprKind::Slice { x, lo, hi, step } => {
            format!("{}[{}:{}:{}]", show(x), opt(lo), opt(hi), opt(step))
        }
        ExprKind::Dot(x, name) => format!("{}.{name}", show(x)),
        ExprKind::Call(f, args) => {
            let args: Vec<String> = args
                .iter()
                .map(|a| match a {
                    Arg::Pos(x) => show(x),
                    Arg::Named(n, x) => format!("{n}={}", show(x)),
                    Arg::Star(x) => format!("*{}", show(x)),
                    Arg::StarStar(x) => format!("**{}", show(x)),
                })
                .collect();
            format!("{}({})", show(f), args.join(", "))
        }
        ExprKind::Lambda(f) => {
            let body = match &f.body[0].kind {
                StmtKind::Return(Some(x)) => show(x),
                other => format!("{other:?}"),
            };
            format!("(lambda {}: {body})", f.params.len())
        }
        ExprKind::Comp { body, clauses } => {
            let clauses: Vec<String> = clauses
                .iter()
                .map(|c| match c {
                    Clause::For { vars, iter } => format!("for {} in {}", show(vars), show(iter)),
                    Clause::If(x) => format!("if {}", show(x)),
                })
                .collect();
            match body {
                CompBody::List(x) => format!("[{} {}]", show(x), clauses.join(" ")),
                CompBody::Dict(k, v) => {
                    format!("{{{}: {} {}}}", show(k), show(v), clauses.join(" "))
                }
            }
        }
    }
}

#[test]
fn not_is_an_operand_of_and_or_and_of_itself() {
    for (src, want) in [
        ("a and not b", "(a and (not b))"),
        ("a or not b", "(a or (not b))"),
        ("not a and b", "((not a) and b)"),
        (
            "not a or not b and not c",
            "((not a) or ((not b) and (not c)))",
        ),
        ("not not a", "(not (not a))"),
        ("a and not not b", "(a and (not (not b)))"),
        ("not a == b", "(not (a == b))"),
        ("not a in b", "(not (a in b))"),
        ("a and not b in c", "(a and (not (b in c)))"),
        ("not a not in b", "(not (a not in b))"),
        ("not a + b", "(not (a + b))"),
        ("a or b and c", "(a or (b and c))"),
        ("a and b or c and d", "((a and b) or (c and d))"),
        ("x if not a else y", "(x if (not a) else y)"),
        ("not a if b else c", "((not a) if b else c)"),
        ("[x for x in xs if not x]", "[x for x in xs if (not x)]"),
        ("f(not a, k=not b)", "f((not a), k=(not b))"),
        ("[not a, not b]", "[(not a), (not b)]"),
        ("(not a)", "(not a)"),
        ("{not a: not b}", "{(not a): (not b)}"),
    ] {
        assert_eq!(shape(src), want, "{src}");
    }
}

#[test]
fn binary_operator_precedence_follows_the_spec() {
    for (src, want) in [
        ("a | b ^ c & d", "(a | (b ^ (c & d)))"),
        ("a & b << c", "(a & (b << c))"),
        ("a << b + c", "(a << (b + c))"),
        ("a + b * c", "(a + (b * c))"),
        ("a - b - c", "((a - b) - c)"),
        ("a // b % c * d / e", "((((a // b) % c) * d) / e)"),
        ("a == b | c", "(a == (b | c))"),
        ("a < b and b < c", "((a < b) and (b < c))"),
        ("a in b or c not in d", "((a in b) or (c not in d))"),
        ("a + b in c", "((a + b) in c)"),
        ("-a * b", "((-a) * b)"),
        ("-a.b", "(-a.b)"),
        ("--a", "(-(-a))"),
        ("-+~a", "(-(+(~a)))"),
        ("~a & b", "((~a) & b)"),
        ("a - -b", "(a - (-b))"),
    ] {
        assert_eq!(shape(src), want, "{src}");
    }
    // Starlark has no `**` power operator.
    assert!(parse_file("t.star", "x = a ** 2\n").is_err());
}

#[test]
fn comparisons_do_not_associate() {
    assert_eq!(
        syntax_error("a < b < c"),
        "< does not associate with < (use parens)"
    );
    assert_eq!(
        syntax_error("a == b in c"),
        "== does not associate with in (use parens)"
    );
    assert_eq!(
        syntax_error("a in b not in c"),
        "in does not associate with not in (use parens)"
    );
    assert_eq!(shape("(a < b) < c"), "((a < b) < c)");
    assert!(syntax_error("a < b == (c)").contains("does not associate"));
}

#[test]
fn conditional_lambda_and_comprehension_forms() {
    for (src, want) in [
        ("a if b else c if d else e", "(a if b else (c if d else e))"),
        ("a or b if c and d else e", "((a or b) if (c and d) else e)"),
        ("lambda: 1", "(lambda 0: 1)"),
        (
            "lambda a, b=2, *c, **d: a if b else c",
            "(lambda 4: (a if b else c))",
        ),
        (
            "lambda x: lambda y: x + y",
            "(lambda 1: (lambda 1: (x + y)))",
        ),
        ("[lambda: 1, 2]", "[(lambda 0: 1), 2]"),
        (
            "[x + y for x in a for y in b if x if y != x]",
            "[(x + y) for x in a for y in b if x if (y != x)]",
        ),
        (
            "[x for x in a if x for y in x if not y]",
            "[x for x in a if x for y in x if (not y)]",
        ),
        (
            "{k: v for k, v in d.items()}",
            "{k: v for tuple(k, v) in d.items()}",
        ),
        ("[a for (a, b) in c]", "[a for tuple(a, b) in c]"),
        ("[x for x in a or b]", "[x for x in (a or b)]"),
        ("[x if c else y for x in z]", "[(x if c else y) for x in z]"),
    ] {
        assert_eq!(shape(src), want, "{src}");
    }
    assert!(syntax_error("a if b").contains("else"));
}

#[test]
fn slices_indexes_calls_and_literals() {
    for (src, want) in [
        ("s[1:2]", "s[1:2:]"),
        ("s[::2]", "s[::2]"),
        ("s[:-1]", "s[:(-1):]"),
        ("s[a:b:c]", "s[a:b:c]"),
        ("s[:]", "s[::]"),
        ("s[1:][0]", "s[1::][0]"),
        ("d[a, b]", "d[tuple(a, b)]"),
        ("f(a)(b).c[d]", "f(a)(b).c[d]"),
        ("f(*a, **b)", "f(*a, **b)"),
        ("f(a, b=1, *c, **d)", "f(a, b=1, *c, **d)"),
        ("f(a,)", "f(a)"),
        ("(a,)", "tuple(a)"),
        ("()", "tuple()"),
        ("[1, 2,]", "[1, 2]"),
        ("{1: 2,}", "{1: 2}"),
        ("(a)", "a"),
        ("a, b", "tuple(a, b)"),
        ("-1 if a else -2", "((-1) if a else (-2))"),
    ] {
        assert_eq!(shape(src), want, "{src}");
    }
    assert!(parse_file("t.star", "x = s[1:2:3:4]\n").is_err());
    assert!(parse_file("t.star", "x = s[]\n").is_err());
}

#[test]
fn not_and_friends_evaluate_as_ytt_does() {
    check(&[
        ("True and not False", "True"),
        ("False or not False", "True"),
        ("not True or True", "True"),
        ("not (True or True)", "False"),
        ("1 and not 0", "True"),
        ("not not 3", "True"),
        ("not 1 == 2", "True"),
        ("2 not in [1] and not 2 in [3]", "True"),
        ("[x for x in range(6) if not x % 2 if x]", "[2, 4]"),
        (
            "[x * y for x in [1, 2] for y in [10, 20]]",
            "[10, 20, 20, 40]",
        ),
        ("-2 * 3 + ~1", "-8"),
        ("(lambda a, b=1: a - b)(5)", "4"),
        ("\"yes\" if not [] else \"no\"", "\"yes\""),
        ("[1, 2, 3, 4][-3:][::2]", "[2, 4]"),
    ]);
    assert_eq!(err("x = not\n"), "got newline, want primary expression");
}

#[test]
fn statement_forms_with_bare_tuples() {
    check(&[
        ("[x for x in (1, 2)]", "[1, 2]"),
        ("(lambda: (1, 2))()", "(1, 2)"),
    ]);
    let m = super::tests::run(
        "s = []\nfor x in 1, 2:\n  s.append(x)\nend\ndef f():\n  return 1, 2\nend\n(a,) = [7]\nb, c = f()\nd = 1 if s else 2, 3\n",
    )
    .unwrap_or_else(|e| panic!("{}", e.msg));
    let get = |n: &str| super::format::repr(&m.get(n).unwrap());
    assert_eq!(get("s"), "[1, 2]");
    assert_eq!(get("a"), "7");
    assert_eq!(get("c"), "2");
    assert_eq!(get("d"), "(1, 3)");
}
