//! The `@ytt:*` modules and `load()` resolution: `@ytt:name` built-ins, `@lib:path`
//! files of private libraries, and relative or `/`-rooted paths within a library.
//! [`Modules`] is the evaluator's [`ModuleLoader`]; what `@ytt:library` does with a
//! private library's data values and output comes from the run, as [`LibrarySteps`].

mod assert;
mod codecs;
pub use codecs::yaml_module;
mod data;
mod go_base64;
mod go_regexp;
mod hashing;
mod json_decode;
pub(crate) mod json_syntax;
pub mod library;
pub mod math;
mod misc;
mod overlay;
mod toml;
mod toml_scalar;
mod url;

use std::rc::Rc;

use crate::ytt::eval::{LibRef, ModuleLoader, load_file};
use crate::ytt::starlark::{Args, Error as SError, Interpreter, Module, Struct, Thread, Value};

pub use library::{LibraryResult, LibrarySteps};

pub(crate) type SResult<T> = std::result::Result<T, SError>;

/// A module of native functions: `load("@ytt:name", "name")` binds the module value
/// (type `module`, printed `<module "name">`).
pub(crate) fn module(name: &str, fields: Vec<(&str, Value)>) -> Module {
    let short = name.trim_start_matches("@ytt:");
    Module::from_values(
        name,
        vec![(
            short.to_string(),
            Value::host(Struct::module(short, owned_fields(fields))),
        )],
    )
}

/// A value of ytt's own type `type_name`, built on a struct of `fields`, that refuses
/// conversion to YAML with `hint` (ytt's "use .string()" values).
pub(crate) fn unconvertible_value(
    type_name: &str,
    hint: &str,
    fields: Vec<(&str, Value)>,
) -> Value {
    Value::host(Struct::typed(
        type_name,
        Some(hint.to_string()),
        owned_fields(fields),
    ))
}

/// Argument `v` of built-in `name` as a string, refused as ytt words it otherwise.
pub(crate) fn string_arg<'a>(name: &str, v: &'a Value) -> SResult<&'a str> {
    v.as_str().ok_or_else(|| {
        SError::new(format!(
            "{name}: expected a string, but was {}",
            v.type_name()
        ))
    })
}

/// The one positional string argument of built-in `name`: ytt's built-ins check the
/// count first ("expected exactly one argument"), then the type.
pub(crate) fn single_string_arg<'a>(name: &str, args: &'a Args) -> SResult<&'a str> {
    match args.pos.as_slice() {
        [v] => string_arg(name, v),
        _ => Err(SError::new(format!(
            "{name}: expected exactly one argument"
        ))),
    }
}

fn owned_fields(fields: Vec<(&str, Value)>) -> Vec<(String, Value)> {
    fields
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// A native function value.
pub(crate) fn native(
    name: &str,
    f: impl Fn(&mut dyn Interpreter, &Args) -> SResult<Value> + 'static,
) -> Value {
    Value::native(name, f)
}

/// The `@ytt:*` modules and `load()` resolution, handed to every library as its
/// [`ModuleLoader`].
pub struct Modules {
    /// What `@ytt:library` puts a private library through.
    steps: Rc<dyn LibrarySteps>,
}

impl Modules {
    pub fn new(steps: Rc<dyn LibrarySteps>) -> Modules {
        Modules { steps }
    }
}

impl ModuleLoader for Modules {
    fn load(&self, lib: &LibRef, thread: &mut Thread, name: &str) -> SResult<Module> {
        load(lib, thread, name, &self.steps)
    }
}

/// Resolves `load(name)` for a file of `lib`.
fn load(
    lib: &LibRef,
    thread: &mut Thread,
    name: &str,
    steps: &Rc<dyn LibrarySteps>,
) -> SResult<Module> {
    if let Some(m) = name.strip_prefix("@ytt:") {
        return Ok(match m {
            "data" => data::module(lib)?,
            "template" => misc::template_module(thread.local(crate::ytt::fragment::REPLACE_HOOK)),
            "struct" => misc::struct_module(),
            "module" => misc::module_module(),
            "yaml" => codecs::yaml_module(),
            "json" => codecs::json_module(),
            "toml" => codecs::toml_module(),
            "base64" => codecs::base64_module(),
            "url" => url::url_module(),
            "sha256" => hashing::sha256_module(),
            "md5" => hashing::md5_module(),
            "regexp" => misc::regexp_module(),
            "assert" => assert::assert_module(),
            "version" => misc::version_module(),
            "math" => math::math_module(),
            "ip" => misc::ip_module(),
            "overlay" => overlay::module(),
            "library" => library::module(lib, steps),
            other => {
                return Err(SError::new(format!(
                    "builtin ytt library does not have module '{other}' (hint: is it available in newer version of ytt?)"
                )));
            }
        });
    }
    if let Some(rest) = name.strip_prefix('@') {
        let (libname, path) = rest.split_once(':').ok_or_else(|| {
            SError::new(
                "Expected library path to be in format '@name:path' e.g. '@github.com/vmware-tanzu/test:test.star' or '@ytt:base64'",
            )
        })?;
        let l = library::private_lib(lib, libname, steps)?;
        return load_file(&l, path);
    }
    load_file(lib, name)
}
