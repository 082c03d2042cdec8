//! Data values schemas (`#@data/values-schema`): types inferred from defaults,
//! `@schema/*` annotations, type checking of every data values source, defaults,
//! validations, and the OpenAPI v3 export (`--data-values-schema-inspect -o openapi-v3`).
//!
//! * [`load_schema`] evaluates a library's schema documents in file order, merges later
//!   ones into the first as overlays, and builds the root [`types::Type`].
//! * [`values::ValuesChecker`] is what the data values pipeline calls.
//! * [`openapi`] prints the export like ytt 0.48 (optionally with validation keywords).
//! * [`user_values`] checks a user's values file against an exported schema with the
//!   `jsonschema` crate (`strake values check`).

pub mod annotations;
pub mod check;
pub mod error;
pub mod openapi;
pub mod types;
pub mod user_values;
pub mod validation;
pub mod values;

use crate::ytt::error::{Error, Position};
use crate::ytt::eval::{LibRef, eval_yaml, has_doc_annotation, parse_yaml};
use crate::ytt::files::FileKind;
use crate::ytt::node::Doc;
use crate::ytt::overlay::{Defaults, Overlay};
use crate::ytt::starlark::Thread;

pub use values::ValuesChecker;

use error::{Sources, to_error};

/// Annotation marking a schema document.
pub const SCHEMA_ANN: &str = "data/values-schema";

/// The texts of a library's files, for quoting lines in reports.
fn lib_sources(lib: &LibRef) -> Sources {
    let mut s = Sources::default();
    for f in &lib.files {
        if let Ok(t) = std::str::from_utf8(&f.bytes) {
            s.add(&lib.display(&f.rel), t);
        }
    }
    s
}

/// Evaluates and merges the schema documents of `lib`; `None` when it has none.
pub fn load_schema(lib: &LibRef) -> Result<(Option<types::Type>, Sources), Error> {
    let sources = lib_sources(lib);
    let mut merged: Option<Doc> = None;
    for f in lib.files.clone() {
        if f.kind != FileKind::YamlTemplate || f.library {
            continue;
        }
        let src = String::from_utf8_lossy(&f.bytes);
        let name = lib.display(&f.rel);
        let ds = parse_yaml(&src, &name)?;
        if !has_doc_annotation(&ds, SCHEMA_ANN) {
            continue;
        }
        let ev = eval_yaml(lib, &f).map_err(|e| e.context(&format!("Templating file '{name}'")))?;
        for d in ev.docs {
            if !d.meta.has(SCHEMA_ANN) {
                if d.value.is_empty_doc() {
                    continue;
                }
                return Err(Error::at(
                    format!("Expected schema file '{name}' to only have schema documents"),
                    Position {
                        file: name.clone(),
                        line: d.meta.pos.line,
                        text: None,
                    },
                ));
            }
            match &mut merged {
                None => merged = Some(d),
                Some(base) => {
                    let mut thread = Thread::new();
                    let mut o = Overlay {
                        thread: &mut thread,
                    };
                    o.merge_node(&mut base.value, &d.value, &Defaults::default())
                        .map_err(|e| e.context("Overlaying data values schema"))?;
                }
            }
        }
    }
    let Some(doc) = merged else {
        return Ok((None, sources));
    };
    let ty = types::build_doc(&doc).map_err(|p| to_error("Invalid schema", &[p.0], &sources))?;
    Ok((Some(ty), sources))
}

/// `--data-values-schema-inspect -o openapi-v3`: the OpenAPI document of the root
/// library's schema (with `--openapi-validations`: the extended form).
pub fn inspect(opts: &crate::ytt::Options, lib: &LibRef) -> Result<String, Error> {
    use crate::ytt::OutputFormat;
    if !opts.data_values_schema_inspect {
        return Err(Error::Usage(
            "Output type currently only supported for Data Values Schema (i.e. include --data-values-schema-inspect)".into(),
        ));
    }
    if opts.output != OutputFormat::OpenApiV3 {
        return Err(Error::Usage(
            "Data Values Schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag".into(),
        ));
    }
    let (root, _) = load_schema(lib)?;
    let mode = if opts.openapi_validations {
        openapi::Mode::Extended
    } else {
        openapi::Mode::Ytt048
    };
    let doc = openapi::document(root.as_ref(), mode);
    crate::yaml::to_yaml_document(&doc).map_err(|e| Error::msg(format!("printing YAML: {e}")))
}
