//! Data values schemas (`#@data/values-schema`): types inferred from defaults,
//! `@schema/*` annotations, type checking of every data values source, defaults,
//! validations, and the OpenAPI v3 export (`--data-values-schema-inspect -o openapi-v3`).
//!
//! * [`load_schema`] evaluates a library's schema documents in file order, merges later
//!   ones into the first as overlays (then those its parent gave it), and builds the root
//!   [`types::Type`]; documents marked `#@library/ref` are kept for the library they name.
//! * [`values::ValuesChecker`] is what the data values pipeline calls.
//! * [`openapi`] prints the export like ytt 0.48 (optionally with validation keywords).
//! * [`source::SchemaSource`] is how the schema reads its library (files, parsed YAML,
//!   evaluated schema documents) without calling the evaluator, a layer above it.

pub mod annotations;
pub mod build;
pub mod check;
pub mod error;
pub mod openapi;
pub mod source;
pub mod spell;
pub mod types;
pub mod validation;
pub mod values;

use crate::ytt::error::Error;
use crate::ytt::files::FileKind;
use crate::ytt::node::Doc;
use crate::ytt::overlay::{Defaults, Overlay};
use crate::ytt::starlark::Thread;
use crate::ytt::yaml_docs::has_doc_annotation;

pub use source::SchemaSource;
pub use types::Type;
pub use values::ValuesChecker;

use error::Sources;

/// Annotation marking a schema document.
pub const SCHEMA_ANN: &str = "data/values-schema";

/// Evaluates and merges the schema documents of `lib`; `None` when it has none.
///
/// As ytt's schema pre-processing does, what fails while the documents are gathered and
/// merged (templating a schema file, a document that is not schema, overlaying) is
/// reported as
/// `Overlaying data values schema (in following order: a.yml, b.yml[, additional data
/// value schema]): ...`, naming every file with schema documents.
pub fn load_schema<L: SchemaSource + Clone + 'static>(
    lib: &L,
) -> Result<(Option<types::Type>, Sources), Error> {
    let sources = Sources::of_lib(lib);
    let mut files = Vec::new();
    for f in lib.files() {
        if f.kind != FileKind::YamlTemplate || f.library {
            continue;
        }
        // Cheap pre-filter: only files mentioning the annotation are parsed.
        if !f.mentions_data_values
            || memchr::memmem::find(&f.bytes, SCHEMA_ANN.as_bytes()).is_none()
        {
            continue;
        }
        let ds = lib.parsed_yaml(f, &f.go_text())?;
        crate::ytt::yaml_docs::check_doc_only_annotation(&ds, SCHEMA_ANN)?;
        if has_doc_annotation(&ds, SCHEMA_ANN) {
            files.push(f.clone());
        }
    }
    let extra = lib.extra_schemas();
    let stage = |e: Error| {
        let mut order: Vec<String> = files.iter().map(|f| lib.display(&f.rel)).collect();
        if !extra.is_empty() {
            order.push("additional data value schema".to_string());
        }
        e.without_pos().context(&format!(
            "Overlaying data values schema (in following order: {})",
            order.join(", ")
        ))
    };
    let Some((doc, built)) = merge_schema_files(lib, &files, &extra, &sources).map_err(stage)?
    else {
        return Ok((None, sources));
    };
    // ytt builds schema types while gathering the documents, so a schema problem is
    // reported inside the same "Overlaying data values schema" message, with no position.
    // A schema of one document was built as it was gathered.
    let ty = match built {
        Some(ty) => ty,
        None => build::build_doc(&doc).map_err(|p| stage(Error::msg(p.message(&sources))))?,
    };
    Ok((Some(ty), sources))
}

/// The schema documents of `files` (then `extra`, the schema documents given to the
/// library) merged into one: see [`load_schema`]. When that is a single document of the
/// files, its type (built as it was gathered) comes with it.
fn merge_schema_files<L: SchemaSource + Clone + 'static>(
    lib: &L,
    files: &[crate::ytt::files::InputFile],
    extra: &[Doc],
    sources: &Sources,
) -> Result<Option<(Doc, Option<Type>)>, Error> {
    // As ytt's `collectSchemaDocs` does, every schema file is templated (and each
    // document's library ref read, then the document built as a schema of its own:
    // `NewSchemaEnvelope`) before any document is overlaid. A document that is no
    // valid schema alone is refused at its own lines, even where the merge would hide it.
    let mut own = Vec::new();
    for f in files {
        let name = lib.display(&f.rel);
        let docs = lib
            .eval_schema_file(f)
            .map_err(|e| e.context(&format!("Templating file '{name}'")))?;
        // ytt's `extractSchemaDocs` refuses the file with no position, and
        // `collectSchemaDocs` names the file being templated.
        if docs
            .iter()
            .any(|d| !d.meta.has(SCHEMA_ANN) && !d.value.is_empty_doc())
        {
            return Err(Error::msg(format!(
                "Templating file '{name}': Expected schema file '{name}' to only have schema documents"
            )));
        }
        for d in docs.into_iter().filter(|d| d.meta.has(SCHEMA_ANN)) {
            let lib_ref = match d.meta.ann("library/ref") {
                Some(r) => Some(crate::ytt::library_ref::library_ref(r)?),
                None => None,
            };
            let ty = build::build_doc(&d).map_err(|p| Error::msg(p.message(sources)))?;
            match lib_ref {
                // Meant for a private library: `library.get` overlays it on that
                // library's schema.
                Some(path) => lib.keep_schema_ref(path, d),
                None => own.push((d, ty)),
            }
        }
    }
    if own.len() == 1 && extra.is_empty() {
        return Ok(own.pop().map(|(d, ty)| (d, Some(ty))));
    }
    let mut merged: Option<Doc> = None;
    for (d, _) in own {
        merge_schema_doc(&mut merged, d)?;
    }
    for d in extra {
        merge_schema_doc(&mut merged, d.clone())?;
    }
    Ok(merged.map(|d| (d, None)))
}

/// Overlays schema document `d` on the schema merged so far (or starts it), with the
/// overlay defaults of `d`'s annotations, as ytt merges schema documents (an error names
/// the overlaid document, as ytt's overlay of a document set of one does).
fn merge_schema_doc(merged: &mut Option<Doc>, d: Doc) -> Result<(), Error> {
    match merged {
        None => *merged = Some(d),
        Some(base) => {
            let mut thread = Thread::new();
            let mut o = Overlay {
                thread: &mut thread,
            };
            o.merge_node(
                &mut base.value,
                &d.value,
                &Defaults::of_node(&d.meta, &Defaults::default()),
            )
            // `line ?` for a document `with_data_values_schema` made in memory.
            .map_err(|e| e.context(&format!("Document on line {}", d.meta.pos)))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::ytt::run;

    fn render(files: &[(&str, &str)], args: &[&str]) -> Result<String, String> {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            std::fs::write(dir.path().join(name), text).unwrap();
        }
        let opts = crate::cli::template::parse_options(args).map_err(|e| e.to_string())?;
        run(&opts, dir.path(), &mut || Ok(Vec::new()))
            .map(|o| String::from_utf8(o.stdout).unwrap())
            .map_err(|e| e.to_string())
    }

    const TPL: &str = "#@ load(\"@ytt:data\", \"data\")\nv: #@ data.values\n";

    #[test]
    fn nullable_values_are_set_by_values_documents() {
        let schema = "#@data/values-schema\n---\n#@schema/type any=True\n#@schema/nullable\nendpoints: {}\n#@schema/nullable\ntls:\n  cert: \"\"\n  on_: false\n";
        let values = "#@data/values\n---\nendpoints:\n  https: disabled\ntls:\n  cert: c\n";
        let out = render(
            &[
                ("a.yml", TPL),
                ("schema.yml", schema),
                ("values.yml", values),
            ],
            &["-f", "."],
        )
        .unwrap();
        assert_eq!(
            out,
            "v:\n  endpoints:\n    https: disabled\n  tls:\n    cert: c\n    on_: false\n"
        );
    }

    #[test]
    fn array_items_get_defaults_and_are_type_checked() {
        let schema = "#@data/values-schema\n---\nsrv:\n- host: h\n  port: 80\n";
        let values = "#@data/values\n---\nsrv:\n- port: 1\n- host: x\n";
        let out = render(
            &[
                ("a.yml", TPL),
                ("schema.yml", schema),
                ("values.yml", values),
            ],
            &["-f", "."],
        )
        .unwrap();
        assert_eq!(
            out,
            "v:\n  srv:\n  - port: 1\n    host: h\n  - host: x\n    port: 80\n"
        );
        let bad = "#@data/values\n---\nsrv:\n- port: one\n  other: 1\n";
        let e = render(
            &[("a.yml", TPL), ("schema.yml", schema), ("values.yml", bad)],
            &["-f", "."],
        )
        .unwrap_err();
        assert!(e.contains("  4 | - port: one\n"), "{e}");
        assert!(e.contains("= expected: integer (by schema.yml:5)"), "{e}");
        assert!(
            e.contains("Given data value is not declared in schema"),
            "{e}"
        );
        assert!(
            e.contains("= expected: one of { host, port } (from schema.yml:4)"),
            "{e}"
        );
    }

    #[test]
    fn later_schema_files_extend_earlier_ones() {
        let a = "#@data/values-schema\n---\nname: a\n";
        let b = "#@ load(\"@ytt:overlay\", \"overlay\")\n#@data/values-schema\n---\n#@overlay/match missing_ok=True\n#@schema/validation min=1\nsize: 2\n";
        let out = render(
            &[("s1.yml", a), ("s2.yml", b)],
            &["-f", ".", "--data-values-inspect"],
        )
        .unwrap();
        assert_eq!(out, "name: a\nsize: 2\n");
        let e = render(
            &[("s1.yml", a), ("s2.yml", b)],
            &[
                "-f",
                ".",
                "--data-values-inspect",
                "--data-value-yaml",
                "size=0",
            ],
        )
        .unwrap_err();
        assert!(e.contains("a value >= 1 (by: s2.yml:5)"), "{e}");
    }

    #[test]
    fn schema_files_hold_only_schema_documents() {
        let s = "#@data/values-schema\n---\na: 1\n---\nb: 2\n";
        let e = render(&[("schema.yml", s)], &["-f", "."]).unwrap_err();
        assert!(
            e.contains("Expected schema file 'schema.yml' to only have schema documents"),
            "{e}"
        );
    }

    #[test]
    fn bad_validation_arguments_are_refused() {
        for (ann, want) in [
            (
                "#@schema/validation min_len=\"x\"",
                "Invalid @schema/validation annotation - expected keyword argument \"min_len\" to be a number, but was string (at schema.yml:3)",
            ),
            (
                "#@schema/validation (\"m\",)",
                "expected 2-tuple, but found tuple with length 1 (by schema.yml:3)",
            ),
            (
                "#@schema/validation (\"m\", 3)",
                "expected second item in the 2-tuple to be an assertion function, but was int (at schema.yml:3)",
            ),
            (
                "#@schema/validation when=1, min=1",
                "expected keyword argument \"when\" to be a function, but was int (at schema.yml:3)",
            ),
            (
                "#@schema/validation",
                "expected annotation to have 2-tuple as argument(s), but found no arguments (by schema.yml:3)",
            ),
        ] {
            let s = format!("#@data/values-schema\n---\n{ann}\nx: 1\n");
            let e = render(&[("schema.yml", &s)], &["-f", "."]).unwrap_err();
            assert!(e.contains(want), "{ann}: {e}");
        }
    }

    #[test]
    fn schema_annotations_ytt_does_not_read_are_ignored() {
        let schema = "#@data/values-schema\n---\n#@schema/example 3\n#@schema/desc \"d\"\nx: 1\n#@schema/typo\nother: a\n";
        let out = render(&[("a.yml", TPL), ("schema.yml", schema)], &["-f", "."]).unwrap();
        assert!(out.contains("x: 1") && out.contains("other: a"), "{out}");
    }

    #[test]
    fn one_not_null_and_not_null_on_a_null_value() {
        let schema = "#@data/values-schema\n---\n#@schema/validation one_not_null=[\"a\", \"b\"]\nopt:\n  #@schema/nullable\n  a: \"\"\n  #@schema/nullable\n  b: \"\"\n#@schema/nullable\n#@schema/validation min_len=1, not_null=True\nc: \"\"\n";
        let e = render(&[("a.yml", TPL), ("schema.yml", schema)], &["-f", "."]).unwrap_err();
        assert!(
            e.contains("exactly one of [\"a\", \"b\"] to be not null"),
            "{e}"
        );
        assert!(e.contains("found: all values are null"), "{e}");
        assert!(e.contains("  c\n"), "{e}");
        assert!(
            e.contains("found: value is null") && !e.contains("length"),
            "{e}"
        );
        let ok = render(
            &[("a.yml", TPL), ("schema.yml", schema)],
            &["-f", ".", "--data-value", "opt.a=x", "--data-value", "c=y"],
        )
        .unwrap();
        assert_eq!(ok, "v:\n  opt:\n    a: x\n    b: null\n  c: \"y\"\n");
    }
}
