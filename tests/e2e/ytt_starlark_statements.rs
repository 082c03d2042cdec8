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

/// `break`/`continue` outside a loop and `return` or `load` outside their place are
/// resolver errors (no stack: nothing ran).
#[test]
fn branch_return_and_load_statements_out_of_place() {
    assert_eq!(
        failure(
            "#@ def f():\n#@   break\n#@ end\n#@ if True:\n#@   return 1\n#@ end\n#@ def g():\n#@   load(\"@ytt:data\", \"data\")\n#@ end\na: 1\n"
        ),
        "strake: error: \n- break not in a loop\n    config.yml:2 | #@   break\n- return statement not within a function\n    config.yml:5 | #@   return 1\n- load statement within a function\n    config.yml:8 | #@   load(\"@ytt:data\", \"data\")\n"
    );
}

/// starlark-go's resolver counts enclosing loops across functions, so a `continue` in
/// a function that has no loop but is defined inside one passes; its compiler then
/// indexes the function's empty loop stack and panics, and ytt's `CompiledTemplate.eval`
/// recovers the panic into an error that has no position.
#[test]
fn a_continue_in_a_function_defined_in_a_loop_fails_the_compiler() {
    assert_eq!(
        failure("#@ for x in [1]:\n#@   def g():\n#@     continue\n#@   end\n#@ end\na: 1\n"),
        "strake: error: \n- runtime error: index out of range [-1]\n"
    );
    assert_eq!(
        output(
            "#@ for x in [1]:\n#@   def g():\n#@     for y in [1, 2]:\n#@       continue\n#@     end\n#@     return x\n#@   end\n#@ end\na: #@ g()\n"
        ),
        "a: 1\n"
    );
}

/// Unpacking in assignments and loops (`UNPACK` in `interp.go`): too many or too few
/// values, a value that cannot be iterated, strings are not iterable; a dict unpacks
/// its keys.
#[test]
fn unpacking_errors_and_forms() {
    let stack = |line: usize, text: &str, msg: &str| {
        format!("strake: error: \n- {msg}\n    in <toplevel>\n      config.yml:{line} | {text}\n")
    };
    assert_eq!(
        failure("#@ a, (b, c) = 1, [2, 3, 4]\nx: 1\n"),
        stack(
            1,
            "#@ a, (b, c) = 1, [2, 3, 4]",
            "too many values to unpack (got 3, want 2)"
        )
    );
    assert_eq!(
        failure("#@ for k, v in [(1, 2), (3,)]:\n#@ end\nx: 1\n"),
        stack(
            1,
            "#@ for k, v in [(1, 2), (3,)]:",
            "too few values to unpack (got 1, want 2)"
        )
    );
    assert_eq!(
        failure("#@ a, b = \"ab\"\nx: 1\n"),
        stack(1, "#@ a, b = \"ab\"", "got string in sequence assignment")
    );
    assert_eq!(
        failure("#@ for x in 1:\n#@ end\nx: 1\n"),
        stack(1, "#@ for x in 1:", "int value is not iterable")
    );
    assert_eq!(
        output("#@ a, b = {\"k\": 1, \"l\": 2}\n#@ [c, d] = (3, 4)\nx: #@ [a, b, c, d]\n"),
        "x:\n- k\n- l\n- 3\n- 4\n"
    );
}

/// Mutating a list or dict while a loop runs over it fails with the verb of
/// starlark-go's `checkMutable` (`cannot assign to element of`, `cannot apply += to`,
/// `cannot insert into hash table`), a method's name in front.
#[test]
fn mutation_during_iteration() {
    let stack = |line: usize, text: &str, msg: &str| {
        format!("strake: error: \n- {msg}\n    in <toplevel>\n      config.yml:{line} | {text}\n")
    };
    assert_eq!(
        failure("#@ xs = [1, 2]\n#@ for x in xs:\n#@   xs[0] = 5\n#@ end\na: 1\n"),
        stack(
            3,
            "#@   xs[0] = 5",
            "cannot assign to element of list during iteration"
        )
    );
    assert_eq!(
        failure("#@ xs = [1, 2]\n#@ for x in xs:\n#@   xs += [3]\n#@ end\na: 1\n"),
        stack(
            3,
            "#@   xs += [3]",
            "cannot apply += to list during iteration"
        )
    );
    assert_eq!(
        failure("#@ d = {1: 2}\n#@ [d.update({5: 6}) for x in d]\na: 1\n"),
        stack(
            2,
            "#@ [d.update({5: 6}) for x in d]",
            "update: cannot insert into hash table during iteration"
        )
    );
}

/// A function defined in a template or `.star` file runs with the module's values
/// frozen once the module is done: a loaded function appending to its module's list
/// fails in the function's frame, while the same template's function may still change
/// its own globals before the end.
#[test]
fn functions_see_their_module_frozen_after_it_ran() {
    let files = [
        ("config.yml", "#@ load(\"f.star\", \"add\")\na: #@ add(1)\n"),
        (
            "f.star",
            "items = []\ndef add(x):\n  items.append(x)\n  return items\nend\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- append: cannot append to frozen list\n    in add\n      3 |   items.append(x)\n    in <toplevel>\n      config.yml:2 | a: #@ add(1)\n"
    );
    assert_eq!(
        output("#@ x = [1]\n#@ def f():\n#@   x.append(2)\n#@   return x\n#@ end\na: #@ f()\n"),
        "a:\n- 1\n- 2\n"
    );
}

/// Parameters as `setArgs` in `function.go` binds them: defaults, `*args` after
/// positional ones, keyword-only parameters after `*args` or a bare `*`, `**kwargs`
/// collecting the rest; its errors count only the positional parameters.
#[test]
fn parameter_binding_forms_and_errors() {
    let def = "#@ def f(a, b=2, *args, c, d=4, **kw):\n#@   return [a, b, list(args), c, d, kw]\n#@ end\n";
    assert_eq!(
        output(&format!(
            "{def}x: #@ f(1, c=3)\nz: #@ f(1, 2, 3, 4, c=5, e=6)\n"
        )),
        "x:\n- 1\n- 2\n- []\n- 3\n- 4\n- {}\nz:\n- 1\n- 2\n- - 3\n  - 4\n- 5\n- 4\n- e: 6\n"
    );
    let kw = "#@ def g(a, *, c):\n#@   return [a, c]\n#@ end\n";
    let stack = |line: &str, msg: &str| {
        format!("strake: error: \n- {msg}\n    in <toplevel>\n      config.yml:4 | {line}\n")
    };
    assert_eq!(
        failure(&format!("{kw}x: #@ g(1, 2)\n")),
        stack(
            "x: #@ g(1, 2)",
            "function g accepts 1 positional argument (2 given)"
        )
    );
    assert_eq!(
        failure(&format!("{kw}x: #@ g(1)\n")),
        stack("x: #@ g(1)", "function g missing 1 argument (c)")
    );
    assert_eq!(
        failure(&format!("{kw}x: #@ g(1, c=2, **{{\"a\": 3}})\n")),
        stack(
            "x: #@ g(1, c=2, **{\"a\": 3})",
            "function g got multiple values for parameter \"a\""
        )
    );
    assert_eq!(
        failure(&format!("{kw}x: #@ g(1, **{{1: 2}})\n")),
        stack("x: #@ g(1, **{1: 2})", "keywords must be strings, not int")
    );
    assert_eq!(
        failure(&format!("{kw}x: #@ g(1, **[1])\n")),
        stack(
            "x: #@ g(1, **[1])",
            "argument after ** must be a mapping, not list"
        )
    );
}

/// The order of the resolver's errors: those met while walking the statements (the
/// top level's undefined names among them) first, then the deferred uses, bottom-up:
/// a module comprehension's block and each function's (inner functions before outer
/// ones) in the order they were opened, the module's own comprehension uses last.
#[test]
fn deferred_resolver_errors_come_bottom_up_after_the_others() {
    assert_eq!(
        failure(
            "#@ x = [q for _ in [1]]\n#@ def outer():\n#@   def inner():\n#@     return a\n#@   end\n#@   return b\n#@ end\n#@ y = z\na: 1\n"
        ),
        "strake: error: \n- undefined: z\n    config.yml:8 | #@ y = z\n- undefined: a\n    config.yml:4 | #@     return a\n- undefined: b\n    config.yml:6 | #@   return b\n- undefined: q\n    config.yml:1 | #@ x = [q for _ in [1]]\n"
    );
}

/// A default value is resolved where the `def` is, so at top level it sees only the
/// names bound before; the name of the function is bound before its defaults are read.
#[test]
fn default_values_resolve_in_the_enclosing_block() {
    assert_eq!(
        failure("#@ def f(a=b):\n#@   return a\n#@ end\n#@ b = 1\nx: #@ f()\n"),
        "strake: error: \n- undefined: b\n    config.yml:1 | #@ def f(a=b):\n"
    );
    assert_eq!(
        output("#@ b = 1\n#@ def f(a=b):\n#@   return a\n#@ end\n#@ b = 2\nx: #@ f()\n"),
        "x: 1\n"
    );
}

/// Comprehension variables belong to the comprehension's block from its start: the
/// first iterable is read outside it, later clauses inside, so a later clause's
/// iterable naming a variable bound by itself reads an unassigned local.
#[test]
fn comprehension_variables_and_their_block() {
    assert_eq!(
        output("#@ x = [1, 2]\na: #@ [x for x in x]\nb: #@ [y for x in [[3, 4]] for y in x]\n"),
        "a:\n- 1\n- 2\nb:\n- 3\n- 4\n"
    );
    assert_eq!(
        failure("a: #@ [1 for a in [1] for b in b]\n"),
        "strake: error: \n- local variable b referenced before assignment\n    in <toplevel>\n      config.yml:1 | a: #@ [1 for a in [1] for b in b]\n"
    );
}

/// `if`/`elif`/`else` chains and `for` loops with `continue` and `break` around YAML
/// nodes (ytt's block scanner turns `elif`/`else` into an implicit end of the block
/// before).
#[test]
fn if_chains_and_loops_around_nodes() {
    assert_eq!(
        output(
            "#@ x = 2\n#@ if x == 1:\na: 1\n#@ elif x == 2:\na: 2\n#@ else:\na: 3\n#@ end\nlist:\n#@ for i in range(10):\n#@   if i % 2 == 0:\n#@     continue\n#@   elif i > 6:\n#@     break\n#@   end\n- #@ i\n#@ end\n"
        ),
        "a: 2\nlist:\n- 1\n- 3\n- 5\n"
    );
}

/// ytt's block scanner finds a block left open only when the parser reaches the end
/// of the program, so a syntax error before it is reported instead; the open block is
/// named by the line break after its `:` (the innermost one still open), in a template
/// as in a `.star` file.
#[test]
fn an_unclosed_block_is_reported_after_earlier_syntax_errors() {
    assert_eq!(
        failure("#@ def f(a b):\na: 1\n"),
        "strake: error: \n- got identifier, want ','\n    config.yml:1 | #@ def f(a b):\n"
    );
    assert_eq!(
        failure("#@ if True:\na: 1\n#@ x = $\n"),
        "strake: error: \n- unexpected input character '$'\n    config.yml:3 | #@ x = $\n"
    );
    assert_eq!(
        failure("#@ if True:\na: 1\n"),
        "strake: error: \n- mismatched set of block openings (if/else/elif/for/def) and closing (end)\n    config.yml:1 | #@ if True:\n"
    );
    let files = [
        ("config.yml", "#@ load(\"f.star\", \"x\")\na: 1\n"),
        (
            "f.star",
            "x = 1\ndef f(a,\n   b):\n  if x:\n    return 1\n  end\n\n\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&files, &["-f", "."]),
        "strake: error: \n- cannot load f.star: Evaluating starlark template: \n    in <toplevel>\n      config.yml:1 | #@ load(\"f.star\", \"x\")\n\n    reason:\n     - mismatched set of block openings (if/else/elif/for/def) and closing (end)\n         3 |    b):\n"
    );
}

/// ytt turns `resolve.AllowRecursion` on and starlark-go then puts no bound on the call
/// depth (Go grows a goroutine's stack as needed), so a template may recurse thousands
/// of calls deep; `strake template` renders on a large stack that allows as much.
#[test]
fn recursion_runs_thousands_of_calls_deep() {
    let template = "#@ def count(n):\n#@   return 0 if n == 0 else 1 + count(n - 1)\n#@ end\na: #@ count(5000)\n";
    let (code, stdout, stderr) = ytt::run_binary(&[("config.yml", template)], &["-f", "."]);
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (0, "a: 5000\n", "")
    );
}

/// The deep recursion works whatever the template's source: a template read from
/// standard input, whose recursion is first refused on the main thread's stack and
/// caught there by `assert.try_to`, still renders as one run on a deep stack would (the
/// rerun sees the same input, and the caught refusal does not leak into the output).
#[test]
fn deep_recursion_from_standard_input_and_under_try_to_gives_the_deep_result() {
    let template = "#@ load(\"@ytt:assert\", \"assert\")\n#@ def count(n):\n#@   return 0 if n == 0 else 1 + count(n - 1)\n#@ end\na: #@ assert.try_to(lambda: count(3000))[0]\n";
    let dir = tempfile::tempdir().unwrap();
    let (code, stdout, stderr) = ytt::run_in(dir.path(), &["-f", "-"], template);
    assert_eq!(
        (code, stdout.as_str(), stderr.as_str()),
        (0, "a: 3000\n", "")
    );
}

/// A top-level `load` binds its names in starlark-go's file block (`LoadBindsGlobally`
/// is off, ytt does not turn it on): the file and its functions use them, but they are
/// no globals of the module, so another file cannot load them from it; assigning the
/// value to a global re-exports it.
#[test]
fn loaded_names_are_local_to_the_file() {
    let failing = [
        ("config.yml", "#@ load(\"f.star\", \"struct\")\na: 1\n"),
        (
            "f.star",
            "load(\"@ytt:struct\", \"struct\")\ndef make():\n  return struct.make(a=1)\nend\n",
        ),
    ];
    assert_eq!(
        ytt::failure_of(&failing, &["-f", "."]),
        "strake: error: \n- load: name struct not found in module f.star\n    in <toplevel>\n      config.yml:1 | #@ load(\"f.star\", \"struct\")\n"
    );
    let passing = [
        (
            "config.yml",
            "#@ load(\"f.star\", \"make\", \"s\")\na: #@ make().a\nb: #@ s.make(b=2).b\n",
        ),
        (
            "f.star",
            "load(\"@ytt:struct\", \"struct\")\ndef make():\n  return struct.make(a=1)\nend\ns = struct\n",
        ),
    ];
    assert_eq!(ytt::render(&passing, &["-f", "."]).unwrap(), "a: 1\nb: 2\n");
}

/// starlark-go's resolver refuses a call with 256 or more positional (or keyword)
/// arguments, the limit of its compiler's encoding, at the line the call starts.
#[test]
fn a_call_takes_at_most_255_positional_arguments() {
    let row = format!("#@   {}\n", "1, ".repeat(16));
    let call = |rows: usize| format!("#@ x = len(\n{}#@ )\na: #@ x\n", row.repeat(rows));
    assert_eq!(
        failure(&call(16)),
        "strake: error: \n- 256 positional arguments in call, limit is 255\n    config.yml:1 | #@ x = len(\n"
    );
    let kwargs: String = (0..16)
        .map(|r| {
            let row: String = (0..16).map(|c| format!("k{}=1, ", r * 16 + c)).collect();
            format!("#@   {row}\n")
        })
        .collect();
    assert_eq!(
        failure(&format!("#@ x = dict(\n{kwargs}#@ )\na: #@ len(x)\n")),
        "strake: error: \n- 256 keyword arguments in call, limit is 255\n    config.yml:1 | #@ x = dict(\n"
    );
}
