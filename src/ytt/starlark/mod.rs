//! ytt's Starlark dialect: our own interpreter, matching the starlark-go fork ytt runs.
//!
//! Dialect: blocks (`if/elif/else/for/while/def`) are closed by `end` and indentation
//! is not significant; `pass` is an error; `while`, recursion, top-level control flow,
//! global reassignment, floats and sets are on. Integers are `i128` (overflow is an
//! error); strings are UTF-8 and indexed by byte like Go strings.
//!
//! Embedding, in short:
//! ```
//! use std::rc::Rc;
//! use strake::ytt::starlark::{Env, Thread, Value, Module, Struct};
//! let mut env = Env::new();
//! env.insert("twice".into(), Value::native("twice", |_t, args| {
//!     let v = args.unpack("twice", &["x"])?;
//!     strake::ytt::starlark::ops::binary(
//!         strake::ytt::starlark::ast::BinOp::Mul, v[0].as_ref().unwrap(), &Value::Int(2))
//! }));
//! let mut thread = Thread::new();
//! thread.set_loader(|_t, name| match name {
//!     "@ytt:struct" => Ok(Module::from_values(name, vec![("answer".into(), Value::Int(42))])),
//!     other => Err(strake::ytt::starlark::Error::new(format!("unknown module {other}"))),
//! });
//! let m = thread
//!     .exec_source("a.star", "load(\"@ytt:struct\", \"answer\")\nx = twice(answer)\n", Rc::new(env))
//!     .unwrap();
//! assert_eq!(m.get("x").unwrap().as_int(), Some(84));
//! ```

pub mod ast;
pub mod builtins;
mod call;
pub mod error;
pub mod eval;
mod expr_parser;
pub mod format;
pub mod host;
pub mod lexer;
pub mod methods;
pub mod ops;
pub mod orderedmap;
pub mod parser;
pub mod resolve;
pub mod string_methods;
pub mod value;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_embed;
#[cfg(test)]
mod tests_lib;

pub use error::{Error, ErrorData, ErrorKind, Position, TraceFrame};
pub use eval::{Env, LoaderFn, Module, Thread};
pub use format::{repr, to_str};
pub use host::{HostValue, Struct};
pub use orderedmap::OrderedMap;
pub use parser::{parse_expr, parse_file, parse_with_origins};
pub use value::{Args, Value};
