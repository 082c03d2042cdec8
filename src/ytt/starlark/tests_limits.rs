//! Tests of the interpreter's limits: steps (endless loops), call depth and the depth of
//! values that printing, comparing, hashing and freezing walk.

use std::rc::Rc;

use super::*;

fn run_with(thread: &mut Thread, src: &str) -> Result<Module, Error> {
    thread.exec_source("limits.star", src, Rc::new(Env::default()))
}

#[test]
fn endless_while_loop_is_stopped_at_the_loop() {
    let mut thread = Thread::new();
    thread.max_steps = 10_000;
    let src = "def spin():\n  i = 0\n  while True:\n    i += 1\n  end\nend\nspin()\n";
    let e = run_with(&mut thread, src).unwrap_err();
    assert!(
        e.msg
            .starts_with("Starlark computation cancelled: too many steps (more than 10000"),
        "{}",
        e.msg
    );
    let pos = e.pos.as_ref().unwrap();
    assert_eq!((pos.file.as_ref(), pos.line), ("limits.star", 3));
}

#[test]
fn step_limit_of_new_threads_is_scoped() {
    assert_eq!(Thread::new().max_steps, eval::DEFAULT_MAX_STEPS);
    let e = eval::with_max_steps(500, || {
        assert_eq!(Thread::new().max_steps, 500);
        run_with(&mut Thread::new(), "while True:\n  x = 1\nend\n").unwrap_err()
    });
    assert!(e.msg.contains("more than 500 loop iterations"), "{}", e.msg);
    assert_eq!(Thread::new().max_steps, eval::DEFAULT_MAX_STEPS);
}

#[test]
fn loops_comprehensions_and_calls_count_as_steps() {
    let mut thread = Thread::new();
    thread.max_steps = 1000;
    for src in [
        "for i in range(2000):\n  x = i\nend\n",
        "x = [i for i in range(2000)]\n",
        "def f():\n  return 1\nend\nfor i in range(600):\n  f()\nend\n",
    ] {
        thread.steps = 0;
        let e = run_with(&mut thread, src).unwrap_err();
        assert!(e.msg.contains("too many steps"), "{src}: {}", e.msg);
    }
    thread.steps = 0;
    run_with(&mut thread, "for i in range(900):\n  x = i\nend\n").unwrap();
}
