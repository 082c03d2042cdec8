//! Tests of the embedding API: natives with keyword arguments, host values, loaders
//! (nested modules, frozen exports, tracebacks across files), host calls of Starlark
//! functions, thread locals, line maps and rewriting the syntax tree before execution.

use std::any::Any;
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

use super::ast::*;
use super::*;

/// A host type: a read-only map with attributes, indexing, iteration and a call.
struct Bag {
    items: Vec<(String, Value)>,
    calls: Cell<u32>,
}

impl HostValue for Bag {
    fn type_name(&self) -> String {
        "bag".into()
    }
    fn repr(&self) -> String {
        format!("bag({})", self.items.len())
    }
    fn truth(&self) -> bool {
        !self.items.is_empty()
    }
    fn attr(&self, name: &str) -> Result<Option<Value>, Error> {
        if name == "size" {
            return Ok(Some(Value::Int(self.items.len() as i128)));
        }
        if name == "broken" {
            return Err(Error::new("bag: broken attribute"));
        }
        Ok(None)
    }
    fn attr_names(&self) -> Vec<String> {
        vec!["size".into(), "broken".into()]
    }
    fn index(&self, key: &Value) -> Result<Value, Error> {
        let k = key
            .as_str()
            .ok_or_else(|| Error::new("bag: want string key"))?;
        self.items
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .ok_or_else(|| Error::new(format!("bag: no key {k}")))
    }
    fn iterate(&self) -> Option<Vec<Value>> {
        Some(self.items.iter().map(|(k, _)| Value::str(k)).collect())
    }
    fn len(&self) -> Option<usize> {
        Some(self.items.len())
    }
    fn contains(&self, key: &Value) -> Option<Result<bool, Error>> {
        Some(Ok(self
            .items
            .iter()
            .any(|(k, _)| Some(k.as_str()) == key.as_str())))
    }
    fn call(
        &self,
        _interpreter: &mut dyn Interpreter,
        args: &Args,
    ) -> Option<Result<Value, Error>> {
        self.calls.set(self.calls.get() + 1);
        Some(Ok(Value::Int(
            args.pos.len() as i128 + args.kwargs.len() as i128,
        )))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

fn bag() -> Value {
    Value::host(Bag {
        items: vec![("a".into(), Value::Int(1)), ("b".into(), Value::str("two"))],
        calls: Cell::new(0),
    })
}

fn env_with(pairs: Vec<(&str, Value)>) -> Rc<Env> {
    Rc::new(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect())
}

#[test]
fn host_values_behave_like_starlark_values() {
    let env = env_with(vec![("b", bag())]);
    let src = "size = b.size\nfirst = b[\"a\"]\nkeys = [k for k in b]\nn = len(b)\nhas = \"a\" in b\nt = type(b)\nr = str([b])\nc = b(1, 2, k=3)\nok = hasattr(b, \"size\")\nnope = hasattr(b, \"nope\")\ntruthy = bool(b)\nd = dir(b)\nsame = b == b\n";
    let m = Thread::new()
        .exec_source("h.star", src, env.clone())
        .unwrap();
    let g = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(g("size"), "2");
    assert_eq!(g("first"), "1");
    assert_eq!(g("keys"), "[\"a\", \"b\"]");
    assert_eq!(g("n"), "2");
    assert_eq!(g("has"), "True");
    assert_eq!(g("t"), "\"bag\"");
    assert_eq!(g("r"), "\"[bag(2)]\"");
    assert_eq!(g("c"), "3");
    assert_eq!(g("ok"), "True");
    assert_eq!(g("nope"), "False");
    assert_eq!(g("truthy"), "True");
    assert_eq!(g("d"), "[\"broken\", \"size\"]");
    assert_eq!(g("same"), "True");
    let Value::Host(h) = env["b"].clone() else {
        panic!("host")
    };
    assert_eq!(h.as_any().downcast_ref::<Bag>().unwrap().calls.get(), 1);

    let e = Thread::new()
        .exec_source("h.star", "x = b.missing", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "bag has no .missing field or method");
    let e = Thread::new()
        .exec_source("h.star", "x = b[\"zz\"]", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "bag: no key zz");
    let e = Thread::new()
        .exec_source("h.star", "x = b.broken", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "bag: broken attribute");
    let e = Thread::new()
        .exec_source("h.star", "x = b + 1", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "unknown binary op: bag + int");
    let e = Thread::new()
        .exec_source("h.star", "b.size = 1", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "can't assign to .size field of bag");
    let e = Thread::new()
        .exec_source("h.star", "x = {b: 1}", env)
        .unwrap_err();
    assert_eq!(e.msg, "unhashable type: bag");
}

#[test]
fn natives_receive_positional_and_keyword_arguments() {
    let join = Value::native("join", |_t, args| {
        let v = args.unpack("join", &["a", "b?", "sep?"])?;
        let sep = v[2]
            .as_ref()
            .and_then(|s| s.as_str().map(String::from))
            .unwrap_or("-".into());
        let b = v[1].as_ref().map(to_str).unwrap_or_default();
        Ok(Value::Str(
            format!("{}{sep}{b}", to_str(v[0].as_ref().unwrap())).into(),
        ))
    });
    let env = env_with(vec![("join", join)]);
    let m = Thread::new()
        .exec_source(
            "n.star",
            "x = join(\"a\", \"b\")\ny = join(\"a\", sep=\"+\", b=2)\nz = join(a=1)\n",
            env.clone(),
        )
        .unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "\"a-b\"");
    assert_eq!(repr(&m.get("y").unwrap()), "\"a+2\"");
    assert_eq!(repr(&m.get("z").unwrap()), "\"1-\"");
    let e = Thread::new()
        .exec_source("n.star", "x = join()", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "join: missing argument for a");
    let e = Thread::new()
        .exec_source("n.star", "x = join(1, c=2)", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "join: unexpected keyword argument \"c\"");
    let e = Thread::new()
        .exec_source("n.star", "x = join(1, 2, 3, 4)", env)
        .unwrap_err();
    assert_eq!(e.msg, "join: got 4 arguments, want at most 3");
}

/// A loader over in-memory files that also offers a native `@ytt:` module.
fn loader_thread(files: &[(&str, &str)]) -> (Thread, Rc<RefCell<Vec<String>>>) {
    let files: HashMap<String, String> = files
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let loaded = Rc::new(RefCell::new(Vec::new()));
    let log = loaded.clone();
    let cache: Rc<RefCell<HashMap<String, Module>>> = Rc::default();
    let mut t = Thread::new();
    t.set_loader(move |t, name| {
        log.borrow_mut().push(name.to_string());
        if name == "@ytt:struct" {
            let make = Value::native("struct.make", |_t, a| {
                Ok(Value::host(Struct::new(
                    a.kwargs
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.clone()))
                        .collect(),
                )))
            });
            return Ok(Module::from_values(
                name,
                vec![(
                    "struct".into(),
                    Value::host(Struct::new(vec![("make".into(), make)])),
                )],
            ));
        }
        if let Some(m) = cache.borrow().get(name) {
            return Ok(m.clone());
        }
        let Some(src) = files.get(name) else {
            return Err(Error::new(format!("file {name} not found")));
        };
        let m = t.exec_source(name, src, Rc::new(Env::default()))?;
        cache.borrow_mut().insert(name.to_string(), m.clone());
        Ok(m)
    });
    (t, loaded)
}

#[test]
fn load_binds_names_and_aliases_and_freezes_exports() {
    let (mut t, loaded) = loader_thread(&[(
        "lib.star",
        "load(\"@ytt:struct\", \"struct\")\ndef double(x):\n  return x * 2\nend\nitems = [1, 2]\ncfg = struct.make(name=\"svc\", port=80)\n",
    )]);
    let m = t
        .exec_source(
            "main.star",
            "load(\"lib.star\", \"double\", \"items\", c=\"cfg\")\nload(\"lib.star\", \"items\")\nx = double(21)\nport = c.port\nr = repr(c)\nt = type(c)\nd = dir(c)\n",
            Rc::new(Env::default()),
        )
        .unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "42");
    assert_eq!(repr(&m.get("port").unwrap()), "80");
    assert_eq!(repr(&m.get("r").unwrap()), "\"struct(...)\"");
    assert_eq!(repr(&m.get("t").unwrap()), "\"struct\"");
    assert_eq!(repr(&m.get("d").unwrap()), "[\"name\", \"port\"]");
    assert_eq!(
        *loaded.borrow(),
        vec!["lib.star", "@ytt:struct", "lib.star"]
    );
    // Loaded names are local to the file (starlark-go's file block): not globals.
    assert_eq!(m.names(), vec!["x", "port", "r", "t", "d"]);
    assert!(m.get("double").is_none());

    // ytt does not freeze structs, and compares them by identity.
    let m2 = t
        .exec_source(
            "s.star",
            "load(\"lib.star\", \"cfg\")\nsame = cfg == cfg\n",
            Rc::new(Env::default()),
        )
        .unwrap();
    assert_eq!(repr(&m2.get("same").unwrap()), "True");
    let e = t
        .exec_source(
            "m2.star",
            "load(\"lib.star\", \"items\")\nitems.append(3)\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "append: cannot append to frozen list");
    let e = t
        .exec_source(
            "m3.star",
            "load(\"lib.star\", \"nope\")\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "load: name nope not found in module lib.star");
    let e = t
        .exec_source(
            "m4.star",
            "load(\"missing.star\", \"x\")\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(
        e.msg,
        "cannot load missing.star: file missing.star not found"
    );
    let e = t
        .exec_source(
            "m5.star",
            "load(\"lib.star\", \"_private\")\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert!(
        e.msg
            .contains("names with leading underscores are not exported"),
        "{}",
        e.msg
    );
    let e = Thread::new()
        .exec_source(
            "m6.star",
            "load(\"lib.star\", \"x\")\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "load not implemented by this application");
    let e = t
        .exec_source(
            "m7.star",
            "def f():\n  load(\"lib.star\", \"x\")\nend\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(
        (e.kind, e.msg.as_str()),
        (ErrorKind::Resolve, "load statement within a function")
    );
}

#[test]
fn tracebacks_cross_loaded_files() {
    let (mut t, _) = loader_thread(&[("lib.star", "def boom(d):\n  return d[\"k\"]\nend\n")]);
    let e = t
        .exec_source(
            "main.star",
            "load(\"lib.star\", \"boom\")\ndef go():\n  return boom({})\nend\nx = go()\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "key \"k\" not in dict");
    let frames: Vec<String> = e
        .stack
        .iter()
        .map(|f| format!("{}:{} {}", f.pos.file, f.pos.line, f.function))
        .collect();
    assert_eq!(
        frames,
        vec![
            "main.star:5 <toplevel>",
            "main.star:3 go",
            "lib.star:2 boom"
        ]
    );
    assert_eq!(e.source_line.as_deref(), Some("  return d[\"k\"]"));

    // An error while executing the loaded file itself.
    let (mut t, _) = loader_thread(&[("bad.star", "x = 1\ny = x + \"a\"\n")]);
    let e = t
        .exec_source(
            "main.star",
            "load(\"bad.star\", \"x\")\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "unknown binary op: int + string");
    let frames: Vec<String> = e
        .stack
        .iter()
        .map(|f| format!("{}:{} {}", f.pos.file, f.pos.line, f.function))
        .collect();
    assert_eq!(
        frames,
        vec!["main.star:1 <toplevel>", "bad.star:2 <toplevel>"]
    );
}

#[test]
fn host_calls_starlark_functions() {
    let mut t = Thread::new();
    let m = t
        .exec_source("f.star", "def add(a, b=10, *rest, **kw):\n  return a + b + len(rest) + len(kw)\nend\ndef bad():\n  return 1 // 0\nend\n", Rc::new(Env::default()))
        .unwrap();
    let add = m.get("add").unwrap();
    assert_eq!(
        t.call_pos(&add, vec![Value::Int(1)]).unwrap().as_int(),
        Some(11)
    );
    let args = Args {
        pos: vec![Value::Int(1), Value::Int(2), Value::Int(3)],
        kwargs: vec![("x".into(), Value::None)],
    };
    assert_eq!(t.call(&add, args).unwrap().as_int(), Some(5));
    let e = t.call_pos(&m.get("bad").unwrap(), vec![]).unwrap_err();
    assert_eq!(e.msg, "floored division by zero");
    assert_eq!(e.stack.len(), 1);
    assert_eq!(e.stack[0].function, "bad");
    assert_eq!(e.source_line.as_deref(), Some("  return 1 // 0"));
    // Natives can call back into Starlark through the thread.
    let apply = Value::native("apply", |t, a| {
        t.call(&a.pos[0], Args::new(a.pos[1..].to_vec()))
    });
    let m = t
        .exec_source(
            "g.star",
            "x = apply(lambda v: v * 3, 5)\n",
            env_with(vec![("apply", apply)]),
        )
        .unwrap();
    assert_eq!(m.get("x").unwrap().as_int(), Some(15));
}

#[test]
fn thread_locals_reach_natives() {
    let mut t = Thread::new();
    t.set_local("counter", Rc::new(Cell::new(0u32)));
    let bump = Value::native("bump", |t, _a| {
        let c = t.local("counter").unwrap();
        let c = c.downcast_ref::<Cell<u32>>().unwrap();
        c.set(c.get() + 1);
        Ok(Value::Int(c.get() as i128))
    });
    let m = t
        .exec_source(
            "l.star",
            "bump()\nx = bump()\n",
            env_with(vec![("bump", bump)]),
        )
        .unwrap();
    assert_eq!(m.get("x").unwrap().as_int(), Some(2));
}

#[test]
fn line_maps_send_runtime_errors_to_the_template() {
    let tpl: Arc<str> = "tpl.yml".into();
    let origins = vec![
        LineOrigin {
            file: tpl.clone(),
            line: 4,
            text: "#@ def f(x):".into(),
        },
        LineOrigin {
            file: tpl.clone(),
            line: 5,
            text: "#@   return x[\"missing\"]".into(),
        },
        LineOrigin {
            file: tpl.clone(),
            line: 6,
            text: "#@ end".into(),
        },
        LineOrigin {
            file: tpl.clone(),
            line: 9,
            text: "value: #@ f({})".into(),
        },
    ];
    let file = parse_with_origins(
        "tpl.yml (generated)",
        "def f(x):\n  return x[\"missing\"]\nend\nemit(f({}))\n",
        origins,
    )
    .unwrap();
    let env = env_with(vec![(
        "emit",
        Value::native("emit", |_t, _a| Ok(Value::None)),
    )]);
    let e = Thread::new().exec_file(file, env).unwrap_err();
    let p = e.pos.as_ref().unwrap();
    assert_eq!((&*p.file, p.line), ("tpl.yml", 5));
    assert_eq!(e.source_line.as_deref(), Some("#@   return x[\"missing\"]"));
    assert_eq!(e.stack[0].pos.line, 9);
    assert!(
        e.backtrace()
            .starts_with("Traceback (most recent call last):\n  tpl.yml:9:"),
        "{}",
        e.backtrace()
    );
}

/// Rewrites every `return X` inside `def`s into `return wrap(X)`, as ytt's template
/// compiler does for functions whose bodies build YAML.
fn wrap_returns(stmts: &mut [Stmt], in_def: bool) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Def { func, .. } => wrap_returns(&mut Rc::make_mut(func).body, true),
            StmtKind::If { then, els, .. } => {
                wrap_returns(then, in_def);
                wrap_returns(els, in_def);
            }
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => wrap_returns(body, in_def),
            StmtKind::Return(v) if in_def => {
                let pos = s.pos.clone();
                let arg = v.take().unwrap_or_else(|| Expr::ident("None", pos.clone()));
                *v = Some(Expr::call(Expr::ident("wrap", pos), vec![arg]));
            }
            _ => {}
        }
    }
}

#[test]
fn the_syntax_tree_can_be_rewritten_before_execution() {
    let mut file = parse_file(
        "r.star",
        "def f(n):\n  if n:\n    return n\n  end\n  return\nend\na = f(3)\nb = f(0)\n",
    )
    .unwrap();
    wrap_returns(&mut file.stmts, false);
    let wrap = Value::native("wrap", |_t, a| {
        Ok(Value::tuple(vec![Value::str("wrapped"), a.pos[0].clone()]))
    });
    let m = Thread::new()
        .exec_file(file, env_with(vec![("wrap", wrap)]))
        .unwrap();
    assert_eq!(repr(&m.get("a").unwrap()), "(\"wrapped\", 3)");
    assert_eq!(repr(&m.get("b").unwrap()), "(\"wrapped\", None)");
}

#[test]
fn predeclared_names_shadow_builtins_and_globals_shadow_predeclared() {
    let env = env_with(vec![("x", Value::Int(1)), ("len", Value::Int(7))]);
    let m = Thread::new()
        .exec_source("p.star", "a = x\nb = len\n", env.clone())
        .unwrap();
    assert_eq!(repr(&m.get("a").unwrap()), "1");
    assert_eq!(repr(&m.get("b").unwrap()), "7");
    // With global reassignment on (as ytt has it), starlark-go resolves a top-level use
    // against the names bound so far: before `x = 2`, `x` is the predeclared one.
    let m = Thread::new()
        .exec_source("p.star", "a = x\nx = 2\n", env)
        .unwrap();
    assert_eq!(repr(&m.get("a").unwrap()), "1");
    assert_eq!(repr(&m.get("x").unwrap()), "2");
}

#[test]
fn errors_are_send_and_sync() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<Error>();
    let e: anyhow::Error = Error::new("x").into();
    assert_eq!(e.to_string(), "x");
}

/// A host mapping (like a YAML map fragment).
struct Pairs(Vec<(Value, Value)>);

impl HostValue for Pairs {
    fn type_name(&self) -> String {
        "pairs".into()
    }
    fn items(&self) -> Option<Vec<(Value, Value)>> {
        Some(self.0.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[test]
fn host_mappings_spread_into_calls_and_dicts() {
    let p = Value::host(Pairs(vec![
        (Value::str("a"), Value::Int(1)),
        (Value::str("b"), Value::Int(2)),
    ]));
    let env = env_with(vec![("p", p)]);
    let src = "def f(**kw):\n  return kw\nend\nx = f(**p)\ny = dict(p)\nz = {}\nz.update(p)\n";
    let m = Thread::new()
        .exec_source("m.star", src, env.clone())
        .unwrap();
    for n in ["x", "y", "z"] {
        assert_eq!(repr(&m.get(n).unwrap()), "{\"a\": 1, \"b\": 2}", "{n}");
    }
    let e = Thread::new()
        .exec_source(
            "m.star",
            "def f(**kw):\n  return kw\nend\nx = f(**[1])\n",
            env,
        )
        .unwrap_err();
    assert_eq!(e.msg, "argument after ** must be a mapping, not list");
}

/// ytt's ProgramAST pass, written with the visitor helpers: a `def` whose own body (not
/// nested defs) mentions `__node` gets `__start()` first, every `return X` becomes
/// `return __end(X)`, and a final `return __end()`.
fn insert_ctxs(stmts: &mut [Stmt]) {
    for func in super::visit::defs_mut(stmts) {
        insert_ctxs(&mut func.body);
        let mut uses = false;
        super::visit::for_each_expr(&func.body, false, &mut |e| {
            if let ExprKind::Ident(id) = &e.kind {
                uses |= id.name == "__node";
            }
        });
        if !uses {
            continue;
        }
        super::visit::for_each_stmt_mut(&mut func.body, false, &mut |s| {
            let pos = s.pos.clone();
            if let StmtKind::Return(v) = &mut s.kind {
                let args = v.take().into_iter().collect();
                *v = Some(Expr::call(Expr::ident("__end", pos), args));
            }
        });
        let pos = func.pos.clone();
        func.body.insert(
            0,
            Stmt::new(
                StmtKind::Expr(Expr::call(Expr::ident("__start", pos.clone()), vec![])),
                pos.clone(),
            ),
        );
        func.body.push(Stmt::new(
            StmtKind::Return(Some(Expr::call(Expr::ident("__end", pos.clone()), vec![]))),
            pos,
        ));
    }
}

#[test]
fn template_functions_can_be_rewritten_like_ytt_program_ast() {
    let src = "def frag(n):\n  if n > 1:\n    return \"early\"\n  end\n  __node(n)\n  def inner():\n    return 1\n  end\n  __node(inner())\nend\ndef plain():\n  return 5\nend\na = frag(2)\nb = frag(0)\nc = plain()\n";
    let mut file = parse_file("t.star", src).unwrap();
    insert_ctxs(&mut file.stmts);
    let nodes = Rc::new(RefCell::new(Vec::<Vec<Value>>::new()));
    let (n1, n2, n3) = (nodes.clone(), nodes.clone(), nodes.clone());
    let env = env_with(vec![
        (
            "__start",
            Value::native("__start", move |_t, _a| {
                n1.borrow_mut().push(Vec::new());
                Ok(Value::None)
            }),
        ),
        (
            "__node",
            Value::native("__node", move |_t, a| {
                n2.borrow_mut()
                    .last_mut()
                    .expect("ctx")
                    .push(a.pos[0].clone());
                Ok(Value::None)
            }),
        ),
        (
            "__end",
            Value::native("__end", move |_t, a| {
                let collected = n3.borrow_mut().pop().expect("ctx");
                Ok(a.pos
                    .first()
                    .cloned()
                    .unwrap_or_else(|| Value::list(collected)))
            }),
        ),
    ]);
    let m = Thread::new().exec_file(file, env).unwrap();
    assert_eq!(repr(&m.get("a").unwrap()), "\"early\"");
    assert_eq!(repr(&m.get("b").unwrap()), "[0, 1]");
    assert_eq!(repr(&m.get("c").unwrap()), "5");
    assert!(nodes.borrow().is_empty());
}

#[test]
fn single_expressions_evaluate() {
    let env = env_with(vec![("x", Value::Int(20))]);
    let v = Thread::new()
        .eval_expr("expr", "x * 2 + 2", env.clone())
        .unwrap();
    assert_eq!(v.as_int(), Some(42));
    let v = Thread::new()
        .eval_expr("expr", "[y for y in range(x) if y > 17]", env.clone())
        .unwrap();
    assert_eq!(repr(&v), "[18, 19]");
    let e = Thread::new()
        .eval_expr("expr", "x = 1", env.clone())
        .unwrap_err();
    assert_eq!(e.msg, "expected a single expression");
    let e = Thread::new().eval_expr("expr", "nope", env).unwrap_err();
    assert_eq!(e.msg, "undefined: nope");
}

/// A host value whose method needs its receiver.
struct Counter(Cell<i128>);

impl HostValue for Counter {
    fn type_name(&self) -> String {
        "counter".into()
    }
    fn attr_of(&self, this: &Value, name: &str) -> Result<Option<Value>, Error> {
        if name != "bump" {
            return Ok(None);
        }
        let this = this.clone();
        Ok(Some(Value::native("bump", move |_t, a| {
            let Value::Host(h) = &this else {
                unreachable!("host")
            };
            let c = h.as_any().downcast_ref::<Counter>().expect("counter");
            let by = a.unpack("bump", &["by?"])?[0]
                .as_ref()
                .and_then(Value::as_int)
                .unwrap_or(1);
            c.0.set(c.0.get() + by);
            Ok(Value::Int(c.0.get()))
        })))
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

#[test]
fn host_methods_can_hold_their_receiver() {
    let env = env_with(vec![("c", Value::host(Counter(Cell::new(0))))]);
    let m = Thread::new()
        .exec_source(
            "c.star",
            "c.bump()\nf = c.bump\nf(by=5)\nx = c.bump()\n",
            env,
        )
        .unwrap();
    assert_eq!(m.get("x").unwrap().as_int(), Some(7));
}

#[test]
fn structs_are_read_only_mappings_of_their_fields() {
    let (mut t, _) = loader_thread(&[]);
    let m = t
        .exec_source(
            "main.star",
            "load(\"@ytt:struct\", \"struct\")\ns = struct.make(zeta=1, alpha=2)\nk = \"alpha\"\nby_index = s[k]\nkeys = [n for n in s]\nn = len(s)\nhas = [\"zeta\" in s, \"nope\" in s, \"zeta\" not in s]\nd = dict(s)\ndef f(alpha, zeta):\n  return alpha - zeta\nend\nsplat = f(**s)\nitems = [(a, b) for a, b in dict(s).items()]\nd2 = dir(s)\n",
            Rc::new(Env::default()),
        )
        .unwrap();
    let get = |n: &str| repr(&m.get(n).unwrap());
    assert_eq!(get("by_index"), "2");
    assert_eq!(get("keys"), "[\"zeta\", \"alpha\"]");
    assert_eq!(get("n"), "2");
    assert_eq!(get("has"), "[True, False, False]");
    assert_eq!(get("d"), "{\"zeta\": 1, \"alpha\": 2}");
    assert_eq!(get("splat"), "1");
    assert_eq!(get("d2"), "[\"alpha\", \"zeta\"]");
    let e = t
        .exec_source(
            "bad.star",
            "load(\"@ytt:struct\", \"struct\")\nx = struct.make(port=80)[\"prot\"]\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "key \"prot\" not in struct");
    // `in` ignores the error of a mapping's lookup: a key that is no string is absent.
    let m = t
        .exec_source(
            "in.star",
            "load(\"@ytt:struct\", \"struct\")\nx = 1 in struct.make(port=80)\n",
            Rc::new(Env::default()),
        )
        .unwrap();
    assert_eq!(repr(&m.get("x").unwrap()), "False");
    let e = t
        .exec_source(
            "bad2.star",
            "load(\"@ytt:struct\", \"struct\")\ns = struct.make(port=80)\ns[\"port\"] = 1\n",
            Rc::new(Env::default()),
        )
        .unwrap_err();
    assert_eq!(e.msg, "struct value does not support item assignment");
}
