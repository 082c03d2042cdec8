//! Runs the ytt conformance cases of the `starlark` area (tests/fixtures/ytt/starlark,
//! copied from the corpus) through the Starlark interpreter. The cases are flat YAML
//! templates, so this harness stands in for the template compiler: every `#@ code` line
//! becomes a program line and every `key: #@ expr` line appends `(key, expr)` to the
//! output, one generated line per template line (the line map sends positions back
//! to config.yml). The output is compared with expected.yml as data (parsed YAML), and
//! error cases must fail with ytt's message as a substring.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

use serde_json::Value as Json;
use strake::ytt::starlark::{
    Env, Error, Module, Struct, Thread, Value, ast::LineOrigin, parse_with_origins,
};

/// Compiles a flat template into (source, origins).
fn compile(path: &str, text: &str) -> (String, Vec<LineOrigin>) {
    let file: Arc<str> = path.into();
    let mut src = String::new();
    let mut origins = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let code_line = if let Some(code) = line.strip_prefix("#@ ") {
            code.to_string()
        } else if line == "#@" {
            String::new()
        } else if let Some((key, expr)) = line.split_once(": #@ ") {
            format!("__out.append(({key:?}, {expr}))")
        } else if let Some((key, lit)) = line.split_once(": ") {
            let lit = if lit.parse::<i64>().is_ok() {
                lit.to_string()
            } else {
                format!("{lit:?}")
            };
            format!("__out.append(({key:?}, {lit}))")
        } else {
            String::new()
        };
        src.push_str(&code_line);
        src.push('\n');
        origins.push(LineOrigin {
            file: file.clone(),
            line: i as u32 + 1,
            text: line.into(),
        });
    }
    (src, origins)
}

/// What ytt does with a Starlark value when it becomes YAML.
fn to_json(v: &Value) -> Result<Json, String> {
    Ok(match v {
        Value::None => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        // ytt takes ints that fit int64, then uint64 (9223372036854775808 prints).
        Value::Int(i) => match (i64::try_from(*i), u64::try_from(*i)) {
            (Ok(i), _) => Json::from(i),
            (_, Ok(u)) => Json::from(u),
            _ => return Err(format!("not sure how to get int from {i}")),
        },
        Value::Float(f) => Json::from(*f),
        Value::Str(s) => Json::String(s.to_string()),
        Value::List(_) | Value::Tuple(_) | Value::Set(_) => {
            let (items, _) = strake::ytt::starlark::value::iterate(v).expect("iterable");
            Json::Array(items.iter().map(to_json).collect::<Result<_, _>>()?)
        }
        Value::Dict(d) => {
            let mut m = serde_json::Map::new();
            for (k, x) in d.map.borrow().entries() {
                let key = match k {
                    Value::Str(s) => s.to_string(),
                    other => strake::ytt::starlark::to_str(other),
                };
                m.insert(key, to_json(x)?);
            }
            Json::Object(m)
        }
        Value::Host(h) => match h.as_any().downcast_ref::<Struct>() {
            Some(s) => Json::Object(
                s.fields
                    .iter()
                    .map(|(k, x)| Ok((k.clone(), to_json(x)?)))
                    .collect::<Result<_, String>>()?,
            ),
            None => return Err(format!("unsupported host value {}", h.type_name())),
        },
        other => Json::String(strake::ytt::starlark::to_str(other)),
    })
}

/// Data equality as YAML sees it: numbers by value (ytt prints 3.0 as 3), maps in order.
fn same(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((k1, v1), (k2, v2))| k1 == k2 && same(v1, v2))
        }
        _ => a == b,
    }
}

fn struct_module() -> Module {
    let make = Value::native("struct.make", |_t, args| {
        if !args.pos.is_empty() {
            return Err(Error::new("make: unexpected positional arguments"));
        }
        Ok(Value::host(Struct::new(
            args.kwargs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )))
    });
    let module = Value::host(Struct::new(vec![("make".into(), make)]));
    Module::from_values("@ytt:struct", vec![("struct".into(), module)])
}

/// Runs one case; returns the rendered output or the error text (message and backtrace).
fn run_case(dir: &Path) -> (Result<Json, String>, Vec<String>) {
    let text = std::fs::read_to_string(dir.join("config.yml")).expect("config.yml");
    let (src, origins) = compile("config.yml", &text);
    let printed = Rc::new(RefCell::new(Vec::new()));
    let mut thread = Thread::new();
    let p = printed.clone();
    thread.set_print(move |s| p.borrow_mut().push(s.to_string()));
    thread.set_loader(|_t, name| match name {
        "@ytt:struct" => Ok(struct_module()),
        other => Err(Error::new(format!("unknown module {other}"))),
    });
    let out = Value::list(Vec::new());
    let mut env = Env::new();
    env.insert("__out".into(), out.clone());
    let result = parse_with_origins("config.yml", &src, origins)
        .and_then(|file| thread.exec_file(file, Rc::new(env)))
        .map_err(|e| format!("{}\n{}", e, e.backtrace()))
        .and_then(|_| {
            let Json::Array(pairs) = to_json(&out)? else {
                unreachable!("list")
            };
            let mut m = serde_json::Map::new();
            for pair in pairs {
                let Json::Array(kv) = pair else {
                    unreachable!("pair")
                };
                let Json::String(k) = &kv[0] else {
                    unreachable!("key")
                };
                m.insert(k.clone(), kv[1].clone());
            }
            Ok(Json::Object(m))
        });
    let printed = printed.borrow().clone();
    (result, printed)
}

#[test]
fn starlark_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ytt/starlark");
    let mut dirs: Vec<_> = std::fs::read_dir(&root)
        .expect("fixtures")
        .map(|e| e.expect("entry").path())
        .collect();
    dirs.sort();
    assert_eq!(dirs.len(), 72, "the starlark area has 72 cases");
    let mut failures = Vec::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let (result, _) = run_case(dir);
        if let Ok(expected) = std::fs::read_to_string(dir.join("expected.yml")) {
            let want: Json = serde_saphyr::from_str(&expected)
                .unwrap_or_else(|e| panic!("{name}: expected.yml: {e}"));
            match result {
                Ok(got) if same(&got, &want) => {}
                Ok(got) => failures.push(format!("{name}: got {got}, want {want}")),
                Err(e) => failures.push(format!("{name}: unexpected error {e}")),
            }
        } else {
            let want = std::fs::read_to_string(dir.join("expected-error.txt"))
                .expect("expected-error.txt");
            let want = want.trim_end_matches('\n');
            match result {
                Ok(got) => failures.push(format!("{name}: expected error {want:?}, got {got}")),
                Err(e) if e.contains(want) => {}
                Err(e) => failures.push(format!("{name}: error {e:?} does not contain {want:?}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        dirs.len(),
        failures.join("\n")
    );
}

#[test]
fn errors_point_into_the_template() {
    let dir =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/ytt/starlark/051-fail-builtin");
    let (result, _) = run_case(&dir);
    let e = result.unwrap_err();
    assert!(e.contains("config.yml:3:"), "{e}");
    assert!(e.contains("fail(\"something went wrong: code\", v)"), "{e}");
    assert!(e.contains("config.yml:8:"), "{e}");
}

#[test]
fn print_goes_to_the_print_hook() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/ytt/starlark/053-print-goes-to-stderr");
    let (result, printed) = run_case(&dir);
    assert!(result.is_ok());
    assert_eq!(
        printed,
        vec!["this goes to stderr, not to the output".to_string()]
    );
}
