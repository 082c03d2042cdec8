//! `#@ if/end` and `#@ for/end` (a block around the next node only, closed without
//! `#@ end`) and one-line blocks (`#@ def f(): return 1`, `#@ if c: x = 1`), as ytt
//! takes them, and the errors ytt gives for their misuse, at file:line.

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

#[test]
fn if_end_and_for_end_act_on_the_next_map_item_array_item_or_document() {
    let src = "\
#@ on = True
#@ for/end ns in [\"a\", \"b\"]:
---
ns: #@ ns
#@ if/end on:
tls: true
#@ if/end not on:
plain: true
list:
#@ for/end i in range(3):
- #@ i * 10
#@ if/end False:
- dropped
- kept
#@ if/end False:
---
never: true
";
    assert_eq!(
        render(&[("config.yml", src)]).unwrap(),
        "ns: a\ntls: true\nlist:\n- 0\n- 10\n- 20\n- kept\n---\nns: b\ntls: true\nlist:\n- 0\n- 10\n- 20\n- kept\n"
    );
}

#[test]
fn node_sugar_works_inside_block_if_and_yaml_functions() {
    let src = "\
#@ def item(name, debug=False):
name: #@ name
#@ if/end debug:
debug: true
#@ end
#@ if True:
a: #@ item(\"x\")
#@ if/end True:
b: #@ item(\"w\", debug=True)
#@ else:
c: 1
#@ end
";
    assert_eq!(
        render(&[("config.yml", src)]).unwrap(),
        "a:\n  name: x\nb:\n  name: w\n  debug: true\n"
    );
}

#[test]
fn code_after_a_node_sugar_line_is_an_error_at_its_line() {
    let err = render(&[(
        "config.yml",
        "pairs:\n#@ for/end a in [1, 2]:\n#@ for/end b in [3]:\n- #@ a + b\n",
    )])
    .unwrap_err();
    assert!(
        err.contains(
            "Unexpected code at line config.yml:3 after use of '*/end', expected YAML node"
        ),
        "{err}"
    );
    let err = render(&[(
        "config.yml",
        "a:\n  #@ if/end True:\n  b: 1\n  #@ else:\n  c: 2\n",
    )])
    .unwrap_err();
    assert!(
        err.contains("unexpected end") && err.contains("config.yml:4"),
        "{err}"
    );
}

#[test]
fn one_line_def_if_and_for_need_no_end() {
    let src = "\
#@ def double(x): return x * 2
#@ def area(w, h): a = w * h; return a
#@ def outer(items):
#@   def fmt(i): return \"<\" + str(i) + \">\"
#@   return \",\".join([fmt(i) for i in items])
#@ end
#@ xs = []
#@ for i in range(3): xs.append(double(i))
#@ if len(xs) == 3: xs.append(area(2, 3))
a: #@ xs
b: #@ outer([1, 2])
";
    assert_eq!(
        render(&[("config.yml", src)]).unwrap(),
        "a:\n- 0\n- 2\n- 4\n- 6\nb: <1>,<2>\n"
    );
}

#[test]
fn one_line_blocks_reject_end_and_else() {
    let err = render(&[("config.yml", "#@ def f(x): return x\n#@ end\na: #@ f(1)\n")]).unwrap_err();
    assert!(err.contains("config.yml:2"), "{err}");
    let err =
        render(&[("config.yml", "#@ if True: y = 1\n#@ else: y = 2\na: #@ y\n")]).unwrap_err();
    assert!(
        err.contains("unexpected end") && err.contains("config.yml:2"),
        "{err}"
    );
}
