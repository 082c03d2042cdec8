//! ytt's Starlark dialect: our own interpreter, matching the starlark-go fork ytt runs.
//!
//! Dialect: blocks (`if/elif/else/for/while/def`) opened by `:` at the end of a line are
//! closed by `end`, and indentation is not significant (a `:` followed by a statement on
//! the same line is a one-line block without `end`); `pass` is an error; `while`,
//! recursion, top-level control flow, global reassignment, lambdas, nested `def`, floats
//! and sets are on. `str(float)` uses Go's `%g` with 6 digits (`str(1.0/3)` is
//! `0.333333`); unknown string escapes such as `\u00e9` keep their backslash; `assert` is
//! an ordinary name. Integers have arbitrary precision (`i128`, then
//! [`bigint::BigInt`]). A deliberate difference from starlark-go: strings are UTF-8
//! (indexing and slicing count bytes like Go, but a slice that splits a character is
//! decoded lossily).
//!
//! # Embedding
//!
//! * Parse: [`parse_file`] for plain files, [`parse_with_origins`] for generated code
//!   whose line `i + 1` came from `origins[i]` (template file, line, text); every position
//!   in the tree and in errors is then a template position. The tree ([`ast`]) is public:
//!   rewrite it before execution (see [`visit`]; function bodies are `Rc<FuncDef>`, use
//!   `Rc::make_mut`).
//! * Natives: [`Value::native`] wraps a closure
//!   `Fn(&mut dyn Interpreter, &Args) -> Result<Value>` (the [`Thread`] that runs it, as
//!   an [`Interpreter`]: call back into Starlark, call depth, print, host state);
//!   [`Args::unpack`] binds positional/keyword arguments by name (`"x"`, `"opt?"`).
//! * Host values: implement [`HostValue`] (type name, str/repr, truth, attr, index,
//!   iteration, mapping items, equality, ordering, hash, binary ops, call, freeze) and wrap
//!   with [`Value::host`]; downcast with `as_any()`. [`Struct`] is ytt's `struct`.
//! * Loads: [`Thread::set_loader`] gets `load("name", ...)` module names and returns a
//!   [`Module`], usually by executing another file with the same thread (cache it; the
//!   loader sees `@ytt:...`, relative paths and `@lib:path` as written). Modules made of
//!   host values: [`Module::from_values`].
//! * Run: [`Thread::exec_file`] / [`Thread::exec_source`] with predeclared names
//!   ([`Env`], e.g. the template compiler's `__ytt_tpl*` natives) return the module;
//!   its globals are frozen afterwards, as in ytt. [`Thread::call`] calls a function
//!   value; [`Thread::eval_expr`] evaluates one expression. `print()` goes to stderr or to
//!   [`Thread::set_print`]; [`Thread::set_local`] carries host state to natives.
//! * Errors: [`Error`] has the bare message (`undefined: x`, `key "a" not in dict`,
//!   `fail: ...`), its kind, the innermost position, the source line and the call stack;
//!   [`Error::backtrace`] prints starlark-go's "Traceback (most recent call last)".
//! * Values to YAML: ints that fit i64 or u64 print (ytt: "not sure how to get int"
//!   beyond); floats print with [`strconv::go_float`]`(f, 'g', None)` like go-yaml.
//! * Deep recursion: [`Thread::max_depth`] (default [`eval::DEFAULT_MAX_DEPTH`] calls,
//!   about 6 KiB of stack each in debug builds; [`eval::with_max_depth`] raises it for a
//!   thread with a larger stack) fails with "Starlark stack overflow" instead of crashing.
//! * Endless loops: [`Thread::max_steps`] (default [`eval::DEFAULT_MAX_STEPS`] loop
//!   iterations and calls) fails with "Starlark computation cancelled: too many steps" at
//!   the loop.
//!
//! ```
//! use std::rc::Rc;
//! use strake::ytt::starlark::{Env, Error, Module, Thread, Value};
//! let mut env = Env::default();
//! env.insert("twice".into(), Value::native("twice", |_t, args| {
//!     let v = args.unpack("twice", &["x"])?;
//!     match &v[0] {
//!         Some(Value::Int(i)) => Ok(Value::Int(i * 2)),
//!         _ => Err(Error::new("twice: want int")),
//!     }
//! }));
//! let mut thread = Thread::new();
//! thread.set_loader(|_t, name| match name {
//!     "@my:consts" => Ok(Module::from_values(name, vec![("answer".into(), Value::Int(21))])),
//!     other => Err(Error::new(format!("unknown module {other}"))),
//! });
//! let src = "load(\"@my:consts\", \"answer\")\ndef f(n):\n  return twice(n)\nend\nx = f(answer)\n";
//! let m = thread.exec_source("a.star", src, Rc::new(env)).unwrap();
//! assert_eq!(m.get("x").unwrap().as_int(), Some(42));
//! let y = thread.call(&m.get("f").unwrap(), strake::ytt::starlark::Args::new(vec![Value::Int(1)])).unwrap();
//! assert_eq!(y.as_int(), Some(2));
//! ```

pub mod ast;
pub mod bigint;
pub mod builtins;
mod call;
pub mod deep;
pub mod equality;
pub mod error;
pub mod eval;
mod expr_parser;
pub mod fast_hash;
mod flat_drop;
pub mod format;
pub mod go_sort;
pub mod int_args;
pub mod iteration;
pub mod lexer;
mod limits;
pub mod methods;
pub mod number_cmp;
pub mod ops;
pub mod orderedmap;
pub mod parser;
pub mod resolve;
mod resolve_blocks;
mod spell;
pub mod strconv;
pub mod string_methods;
pub mod struct_value;
mod unicode15;
pub mod value;
pub mod visit;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_embed;
#[cfg(test)]
mod tests_grammar;
#[cfg(test)]
mod tests_lib;
#[cfg(test)]
mod tests_limits;
#[cfg(test)]
mod tests_spec;

pub use error::{Error, ErrorData, ErrorKind, Position, TraceFrame};
pub use eval::{LoaderFn, Module, Thread, prepare_expr, resolve_names};
pub use format::{repr, to_str};
pub use orderedmap::OrderedMap;
pub use parser::{parse_expr, parse_file, parse_with_origins};
pub use struct_value::Struct;
pub use value::{Args, Env, HostValue, Interpreter, Value};
