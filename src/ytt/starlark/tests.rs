//! Interpreter tests: whole programs, mostly transcribed from the ytt conformance
//! corpus (tests/fixtures/ytt/starlark), checked against the values ytt prints.

use std::cell::RefCell;
use std::rc::Rc;

use super::*;

fn run(src: &str) -> Result<Module, Error> {
    Thread::new().exec_source("test.star", src, Rc::new(Env::new()))
}

/// Evaluates `expr` and returns `repr` of the result.
fn ev(expr: &str) -> String {
    let m = run(&format!("__r = {expr}\n")).unwrap_or_else(|e| panic!("{expr}: {}", e.backtrace()));
    repr(&m.get("__r").unwrap())
}

/// The error message of a failing program.
fn err(src: &str) -> String {
    match run(src) {
        Ok(_) => panic!("expected an error from {src}"),
        Err(e) => e.msg,
    }
}

#[test]
fn smoke() {
    assert_eq!(ev("1 + 2"), "3");
}
