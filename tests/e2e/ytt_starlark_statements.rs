//! Statements, name resolution and the interpreter's statement errors of the Starlark
//! that ytt 0.48 embeds (k14s/starlark-go of July 2020): `resolve/resolve.go` with the
//! options ytt's `NewCompiledTemplate` turns on (global reassignment, nested `def`,
//! lambda, recursion, floats, sets), `starlark/interp.go` and `eval.go` for the run-time
//! errors, and ytt's `CompiledTemplateMultiError`, which lists every resolver error.

use crate::support::ytt;

/// The stderr of `strake template -f .` over `config.yml` holding `template`.
fn failure(template: &str) -> String {
    ytt::failure_of(&[("config.yml", template)], &["-f", "."])
}

/// The stdout of `strake template -f .` over `config.yml` holding `template`.
fn output(template: &str) -> String {
    ytt::render(&[("config.yml", template)], &["-f", "."]).unwrap()
}

/// starlark-go's resolver does not stop at the first error: it collects them all
/// (`resolve.ErrorList`), and ytt's `NewCompiledTemplateMultiError` prints each one as
/// its own `- message` with its line, ytt's hint included.
#[test]
fn every_resolver_error_of_a_template_is_listed() {
    assert_eq!(
        failure("a: #@ foo\nb: #@ true\n"),
        "strake: error: \n- undefined: foo\n    config.yml:1 | a: #@ foo\n- undefined: true (hint: use 'True' instead of 'true' for boolean assignment)\n    config.yml:2 | b: #@ true\n"
    );
}

/// With `AllowGlobalReassign` on, starlark-go's `resolver.use` resolves a name used at
/// top level at once: a global bound earlier, else the predeclared or built-in name.
/// So `len("a")` before `len = 1` calls the built-in, and a name bound only further
/// down is undefined (not a run-time "referenced before assignment").
#[test]
fn a_top_level_use_means_what_is_bound_so_far() {
    assert_eq!(
        output("#@ x = len(\"abc\")\n#@ len = 1\na: #@ x\nb: #@ len\n"),
        "a: 3\nb: 1\n"
    );
    assert_eq!(
        failure("a: #@ later\n#@ later = 1\n"),
        "strake: error: \n- undefined: later\n    config.yml:1 | a: #@ later\n"
    );
}

/// Uses inside a function are resolved at the end of the module, so a function may use
/// a global bound after it; their errors come after those of the top level, and
/// starlark-go's `lookupLexical` remembers each name it looked up in the function's
/// block: a misspelled name is reported once per function, and names looked up before
/// it (here the built-in `len`) are candidates of the spelling hint.
#[test]
fn names_in_functions_are_resolved_once_the_module_is_read() {
    assert_eq!(
        output("#@ def f():\n#@   return later\n#@ end\n#@ later = 2\na: #@ f()\n"),
        "a: 2\n"
    );
    assert_eq!(
        failure("#@ def f():\n#@   return foo\n#@ end\na: #@ bar\n"),
        "strake: error: \n- undefined: bar\n    config.yml:4 | a: #@ bar\n- undefined: foo\n    config.yml:2 | #@   return foo\n"
    );
    assert_eq!(
        failure(
            "#@ def f():\n#@   return len(\"b\") + lenn(\"a\") + lenn(\"c\")\n#@ end\n#@ def g():\n#@   return lenn\n#@ end\na: #@ f()\n"
        ),
        "strake: error: \n- undefined: lenn (did you mean len?)\n    config.yml:2 | #@   return len(\"b\") + lenn(\"a\") + lenn(\"c\")\n- undefined: lenn\n    config.yml:5 | #@   return lenn\n"
    );
}

/// starlark-go's `resolver.function` checks a parameter list in its own words, naming
/// the `**` parameter, and goes on after an error; a bare `*` needs keyword-only
/// parameters after it, and `*args` is bound after the others (so a duplicate is found
/// there).
#[test]
fn parameter_list_errors_are_the_resolver_s() {
    assert_eq!(
        failure(
            "#@ def f(a, *):\n#@   return 1\n#@ end\n#@ def g(a=1, b, **kw, c=2):\n#@   return 1\n#@ end\n#@ h = lambda x, *x: x\na: 1\n"
        ),
        "strake: error: \n- bare * must be followed by keyword-only parameters\n    config.yml:1 | #@ def f(a, *):\n- required parameter may not follow optional\n    config.yml:4 | #@ def g(a=1, b, **kw, c=2):\n- optional parameter may not follow **kw\n    config.yml:4 | #@ def g(a=1, b, **kw, c=2):\n- duplicate parameter: x\n    config.yml:7 | #@ h = lambda x, *x: x\n"
    );
    assert_eq!(
        failure("#@ def f(**kw, a, *b):\n#@   return 1\n#@ end\na: 1\n"),
        "strake: error: \n- required parameter may not follow **kw\n    config.yml:1 | #@ def f(**kw, a, *b):\n- * parameter may not follow **kw\n    config.yml:1 | #@ def f(**kw, a, *b):\n"
    );
}

/// Assignment targets are checked by starlark-go's `resolver.assign`: an empty tuple
/// or list, a tuple or list in an augmented assignment, and anything else than a name,
/// index, field or tuple/list of those, named by its syntax type in lower case (a `for`
/// loop's variables included).
#[test]
fn assignment_target_errors_are_the_resolver_s() {
    assert_eq!(
        failure(
            "#@ () = []\n#@ [] = ()\n#@ x, [y] += 1\n#@ \"a\" = 1\n#@ for f() in []:\n#@   z = 1\n#@ end\n#@ x + 1 = 2\na: 1\n"
        ),
        "strake: error: \n- can't assign to ()\n    config.yml:1 | #@ () = []\n- can't assign to []\n    config.yml:2 | #@ [] = ()\n- can't use tuple expression in augmented assignment\n    config.yml:3 | #@ x, [y] += 1\n- can't use list expression in augmented assignment\n    config.yml:3 | #@ x, [y] += 1\n- can't assign to literal\n    config.yml:4 | #@ \"a\" = 1\n- can't assign to callexpr\n    config.yml:5 | #@ for f() in []:\n- can't assign to binaryexpr\n    config.yml:8 | #@ x + 1 = 2\n"
    );
}

/// `load` names are checked by the resolver: an empty name is "load: empty identifier"
/// (not a failed lookup in the module), and only the original name must not start with
/// `_` (the local one may).
#[test]
fn load_names_are_checked_by_the_resolver() {
    assert_eq!(
        failure("#@ load(\"@ytt:data\", \"\", _d=\"data\")\na: 1\n"),
        "strake: error: \n- load: empty identifier\n    config.yml:1 | #@ load(\"@ytt:data\", \"\", _d=\"data\")\n"
    );
    assert_eq!(
        output("#@ load(\"@ytt:data\", _d=\"data\")\na: #@ type(_d)\n"),
        "a: module\n"
    );
}
