//! Tests from a sweep of the Starlark spec against the starlark-go build that ytt 0.48
//! embeds: builtins, methods, operators and the text of their errors.

use super::tests::{check, err};

#[test]
fn call_errors_quote_keyword_names() {
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(b=1)"),
        "function f got an unexpected keyword argument \"b\""
    );
    assert_eq!(
        err("def f(a):\n  return a\nend\nv = f(1, a=1)"),
        "function f got multiple values for parameter \"a\""
    );
    assert_eq!(
        err("def f(**kw):\n  return kw\nend\nv = f(a=1, **{\"a\": 2})"),
        "function f got multiple values for parameter \"a\""
    );
}
