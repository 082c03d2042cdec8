//! The ytt-compatible template engine: template compiler, Starlark dialect
//! interpreter, data values, overlays, text templates and the `@ytt:*` modules.
//!
//! [`run`] is what `strake template` calls: it reads the `-f` inputs, computes data
//! values, renders every template, applies overlays and prints like ytt 0.48.
//!
//! # Layers
//!
//! A module uses modules of its own layer and of the layers below, never one above, and
//! outside the interpreter no files import each other in a circle
//! (`cargo test --test e2e ytt_layers` reads this list and the `use` lines and checks
//! both). Bottom to top:
//!
//! 1. `starlark`: the Starlark interpreter (lexer → parser → resolver → evaluator,
//!    values, builtins). It knows nothing of templates; `crate::yaml` sits beside it.
//! 2. `error`, `files`, `http_source`, `file_marks`, `symlinks`, `lookup`, `node`, `yaml_docs`, `fragment`, `go_type`, `pos_printer`, `assertions`, `library_ref`:
//!    engine errors with
//!    positions ([`error::starlark_error`] maps the interpreter's), the input files (and
//!    which symlinked ones may be read), paths looked up inside a library, the node tree,
//!    input YAML before evaluation, and the conversions between nodes, plain values and
//!    Starlark values.
//!    `go_type` names values by the Go types ytt holds them in; `pos_printer` prints
//!    nodes with their positions (`-o pos`); `assertions` are the `@ytt:assert` rules
//!    that validations run too; `library_ref` checks `#@library/ref` paths.
//! 3. `overlay`, `schema`: work on nodes and values. They call Starlark functions
//!    (matchers, `via=`, validations) through the interpreter's `call` (a `Thread`, or
//!    the [`starlark::Interpreter`] a native is handed), and the schema reads its
//!    library through [`schema::SchemaSource`].
//! 4. `compile`, `eval`: templates compiled to Starlark programs and evaluated into
//!    nodes. `load()` goes to the [`eval::ModuleLoader`] each library is handed.
//! 5. `modules`: the `@ytt:*` modules, implementing that loader ([`modules::Modules`]);
//!    `@ytt:library` gets the data values and render steps as [`modules::LibrarySteps`].
//! 6. `datavalues`, `render`, `options`, `user_values` and this module: data values,
//!    rendering (with [`render::RunSteps`] and [`render::module_loader`]), the run's
//!    options, `strake values check`, and [`run`].

pub mod assertions;
pub mod compile;
pub mod datavalues;
pub mod error;
pub mod eval;
pub mod file_marks;
pub mod files;
pub mod fragment;
pub mod go_type;
pub mod http_source;
pub mod library_ref;
pub mod lookup;
pub mod modules;
pub mod node;
pub mod options;
pub mod overlay;
pub mod pos_printer;
pub mod render;
pub mod schema;
pub mod starlark;
pub mod symlinks;
pub mod user_values;
pub mod yaml_docs;

use std::path::Path;

pub use error::Error;
pub use options::{DataValueFlag, Options, OutputFormat};

use crate::yaml::Value;
use eval::{EvalOpts, Lib, LibRef};

/// What a run produces.
#[derive(Debug, Default)]
pub struct Output {
    /// What goes to stdout.
    pub stdout: Vec<u8>,
    /// Files for `--output-files` (relative path, contents).
    pub files: Vec<(String, Vec<u8>)>,
    /// Warnings for stderr.
    pub warnings: Vec<String>,
}

/// Prints rendered documents (the render chose which: see `render::kept`).
fn emit(values: &[Value], format: OutputFormat) -> Result<String, Error> {
    match format {
        OutputFormat::Yaml => crate::yaml::to_yaml_documents(values)
            .map_err(|e| Error::msg(format!("printing YAML: {e}"))),
        OutputFormat::Json => crate::yaml::json::to_json_documents(values)
            .map_err(|e| Error::msg(format!("printing JSON: {e}"))),
        OutputFormat::Pos => {
            let docs: Vec<node::Doc> = values
                .iter()
                .map(|v| node::Doc {
                    value: node::Node::from_value(v, &node::Pos::default()),
                    meta: node::Meta::default(),
                })
                .collect();
            pos_printer::print_docs(&docs)
        }
        OutputFormat::OpenApiV3 => unreachable!("handled by inspect_schema"),
    }
}

/// Runs a template command: `opts` as parsed from ytt-style flags, relative paths
/// resolved against `cwd`, `stdin` read for `-f -`.
pub fn run(
    opts: &Options,
    cwd: &Path,
    stdin: &mut dyn FnMut() -> std::io::Result<Vec<u8>>,
) -> Result<Output, Error> {
    let mut warnings = Vec::new();
    let mut out = run_warning(opts, cwd, stdin, &mut warnings)?;
    out.warnings = warnings;
    Ok(out)
}

/// [`run`], with ytt's warnings (deprecated data values, the `@ytt:math` module,
/// text templates left out of stdout) put in `warnings` as they arise, so that a run
/// that then fails still shows them before its error, as ytt does.
pub fn run_warning(
    opts: &Options,
    cwd: &Path,
    stdin: &mut dyn FnMut() -> std::io::Result<Vec<u8>>,
    warnings: &mut Vec<String>,
) -> Result<Output, Error> {
    // `-f -` and a `-` data values file each read standard input; as in ytt, only the
    // first one gets it and any later one fails (`files.ReadStdin`).
    eval::begin_template_count();
    let stdin = std::cell::RefCell::new(stdin);
    let stdin_read = std::cell::Cell::new(false);
    let read_stdin = || {
        if stdin_read.replace(true) {
            return Err(std::io::Error::other(files::STDIN_READ_TWICE));
        }
        (*stdin.borrow_mut())()
    };
    let mut files = files::collect_with(&opts.files, cwd, &mut || read_stdin(), &opts.symlinks)?;
    file_marks::apply_marks(&mut files, &opts.file_marks)?;
    if opts.debug {
        for f in &files {
            eprintln!("## file {} ({:?})", f.rel, f.kind);
        }
    }
    let lib = Lib::new(
        "",
        files,
        EvalOpts {
            implicit_map_key_overrides: opts.implicit_map_key_overrides,
            ignore_unknown_comments: opts.ignore_unknown_comments,
            strict: opts.strict,
            dangerous_disable_validation: opts.dangerous_disable_validation,
        },
        render::module_loader(),
    );
    run_lib(opts, cwd, &lib, &read_stdin, warnings).map_err(|e| {
        // What was called before the failure still warns.
        warnings.extend(schema::values::take_warnings());
        warn_if_math_was_called(warnings);
        with_source_line(e, lib.files.iter().chain(&lib.private))
    })
}

/// Fills in the text of the template lines an error points at, when it is missing.
fn with_source_line<'a>(e: Error, files: impl Iterator<Item = &'a files::InputFile>) -> Error {
    let files: Vec<&files::InputFile> = files.collect();
    let source = |file: &str, line: usize| {
        let f = files.iter().find(|f| f.rel == file)?;
        let src = String::from_utf8_lossy(&f.bytes);
        error::Position::in_source(file, line, &src).text
    };
    match e {
        Error::Template {
            message,
            pos: Some(mut p),
        } if p.text.is_none() && p.line > 0 => {
            p.text = source(&p.file, p.line);
            Error::Template {
                message,
                pos: Some(p),
            }
        }
        Error::Eval(mut e) => {
            e.fill_texts(&source);
            e.mark_starlark_frames(&|file: &str| {
                files
                    .iter()
                    .any(|f| f.rel == file && f.kind == files::FileKind::Starlark)
            });
            Error::Eval(e)
        }
        e => e,
    }
}

/// ytt's one warning for a run that called a `@ytt:math` function, given the first time.
fn warn_if_math_was_called(warnings: &mut Vec<String>) {
    let warned = warnings.iter().any(|w| w == modules::math::WARNING);
    if modules::math::take_called() && !warned {
        warnings.push(modules::math::WARNING.to_string());
    }
}

/// `e`, or the error ytt meets before it: as ytt reads the data values flags, then every
/// YAML template of the library (see [`eval::first_read_error`]) before it evaluates
/// anything, a bad flag, then a template that does not parse, is reported over an
/// evaluation error met first here.
fn read_error_first(
    pipeline: &datavalues::Pipeline<'_>,
    flags: &[options::DataValueFlag],
    e: Error,
) -> Error {
    // The flags are read again, standard input (already consumed) as empty. ytt reads
    // every data values flag (`DataValuesFlags.AsOverlays`) before it reads or
    // templates any file, so a bad flag is reported whatever failed in the files:
    // `e` itself when it is that flag's error.
    let no_stdin = || Ok(Vec::new());
    let again = datavalues::Pipeline {
        lib: pipeline.lib,
        cwd: pipeline.cwd,
        stdin: Some(&no_stdin),
        symlinks: pipeline.symlinks,
    };
    if let Err(flag_error) = again.check_flags(flags) {
        return if flag_error.to_string() == e.to_string() {
            e
        } else {
            flag_error
        };
    }
    eval::first_read_error(pipeline.lib).unwrap_or(e)
}

fn run_lib(
    opts: &Options,
    cwd: &Path,
    lib: &LibRef,
    read_stdin: &dyn Fn() -> std::io::Result<Vec<u8>>,
    warnings: &mut Vec<String>,
) -> Result<Output, Error> {
    if opts.files_inspect {
        // ytt's `--files-inspect`: the root library's files (not those of `_ytt_lib/`).
        let paths = lib
            .files
            .iter()
            .map(|f| Value::String(f.rel.clone()))
            .collect();
        // ytt checks `-o` only when it prints to stdout.
        if let (Some(t), None) = (&opts.unknown_output, &opts.output_files) {
            return Err(unknown_output(t));
        }
        let list = Value::Array(paths);
        // Printed in the file format `-o` names, whatever schema type it also names.
        let s = match opts.file_format {
            OutputFormat::Json => emit(&[list], OutputFormat::Json)?,
            // A list built in memory: its nodes have no position to show.
            OutputFormat::Pos => pos_printer::print_docs(&[node::Doc {
                value: node::Node::from_value(&list, &node::Pos::default()),
                meta: node::Meta::default(),
            }])?,
            _ => emit(&[list], OutputFormat::Yaml)?,
        };
        return Ok(inspected(opts, s));
    }
    // As in ytt, the schema is read before the data values: `-o` and
    // `--data-values-schema-inspect` are settled with it alone.
    if opts.unknown_output.is_some()
        || opts.data_values_schema_inspect
        || opts.output == OutputFormat::OpenApiV3
    {
        datavalues::Pipeline {
            lib,
            cwd,
            stdin: Some(read_stdin),
            symlinks: &opts.symlinks,
        }
        .check_flags(&opts.data_values)?;
        // ytt's schema stage reads every YAML template first.
        if let Some(e) = eval::first_read_error(lib) {
            return Err(e);
        }
        let schema = schema::ValuesChecker::load(lib)?.root;
        if opts.data_values_schema_inspect {
            let mut out = Output::default();
            warnings.extend(schema::values::take_warnings());
            let s = inspect_schema(opts, schema.as_ref())?;
            out.stdout = inspected(opts, s).stdout;
            return Ok(out);
        }
        if let Some(t) = &opts.unknown_output {
            return Err(unknown_output(t));
        }
        return Err(Error::Usage(
            "--output openapi-v3: Output type currently only supported for data values schema (i.e. include --data-values-schema-inspect)".into(),
        ));
    }
    schema::values::take_warnings();
    modules::math::take_called();
    let pipeline = datavalues::Pipeline {
        lib,
        cwd,
        stdin: Some(read_stdin),
        symlinks: &opts.symlinks,
    };
    pipeline
        .run(&opts.data_values, &[], &[])
        .map_err(|e| read_error_first(&pipeline, &opts.data_values, e))?;
    let mut out = Output::default();
    // Schema hook: deprecated data values that were given a value.
    warnings.extend(schema::values::take_warnings());
    warn_if_math_was_called(warnings);
    if opts.data_values_inspect {
        // What ytt's schema stage would have refused first (every YAML template read),
        // even though no template is evaluated here.
        if let Some(e) = eval::first_read_error(lib) {
            return Err(e);
        }
        let v = match lib.values.borrow().clone() {
            Value::Null => Value::Map(vec![]),
            v => v,
        };
        let s = match opts.output {
            OutputFormat::Yaml => crate::yaml::to_yaml_document(&v)
                .map_err(|e| Error::msg(format!("printing YAML: {e}")))?,
            OutputFormat::Json => crate::yaml::json::to_json(&v)
                .map_err(|e| Error::msg(format!("printing JSON: {e}")))?,
            // Each node beside the place it was last given, as ytt keeps them.
            OutputFormat::Pos => {
                let doc = lib.values_doc.borrow().clone().map(|mut d| {
                    if matches!(d.value, node::Node::Scalar(Value::Null)) {
                        d.value = node::Node::Map(Vec::new());
                    }
                    d
                });
                pos_printer::print_docs(&[doc.unwrap_or_else(|| node::Doc {
                    value: node::Node::Map(Vec::new()),
                    meta: node::Meta::default(),
                })])?
            }
            OutputFormat::OpenApiV3 => unreachable!("handled by inspect_schema"),
        };
        out.stdout = inspected(opts, s).stdout;
        return Ok(out);
    }
    let r = render::render(lib).map_err(|e| read_error_first(&pipeline, &opts.data_values, e))?;
    warn_if_math_was_called(warnings);
    match &opts.output_files {
        None => {
            out.stdout = if opts.output == OutputFormat::Pos {
                pos_printer::print_docs(&r.docs)?
            } else {
                let values: Vec<Value> = r.docs.into_iter().map(|d| d.value.into_value()).collect();
                emit(&values, opts.output)?
            }
            .into_bytes();
            if !r.texts.is_empty() {
                warnings.push(
                    "\nWarning: Found Non-YAML templates in input. Non-YAML templates are not rendered to standard output.\nIf you want to include those results, use the --output-files or --dangerous-emptied-output-directory flag."
                        .to_string(),
                );
            }
        }
        Some(_) => {
            // As in ytt: the text templates' files first, then the YAML files.
            for (rel, text) in r.texts {
                // Bytes that are no UTF-8 are written as the bytes they are.
                let bytes = crate::go_bytes::to_bytes(&text).into_owned();
                out.files.push((rel, bytes));
            }
            for name in &r.yaml_files {
                let vals: Vec<Value> = r
                    .docs
                    .iter()
                    .filter(|d| render::is_from(d, name))
                    .map(|d| d.value.to_value())
                    .collect();
                // ytt writes output files as YAML whatever `-o` says.
                out.files.push((
                    name.to_string(),
                    emit(&vals, OutputFormat::Yaml)?.into_bytes(),
                ));
            }
        }
    }
    Ok(out)
}

/// What an inspection (`--files-inspect`, `--data-values-inspect`,
/// `--data-values-schema-inspect`) gives: its document on stdout; with `--output-files`
/// (or `--dangerous-emptied-output-directory`) nothing at all, as ytt hands such a result
/// (a document set, no output files) to the output directory, which then gets no file.
fn inspected(opts: &Options, printed: String) -> Output {
    Output {
        stdout: if opts.output_files.is_some() {
            Vec::new()
        } else {
            printed.into_bytes()
        },
        ..Output::default()
    }
}

/// ytt's refusal of an `-o` type it does not know (named by its flag, as strake names
/// the flag of every flag error).
fn unknown_output(t: &str) -> Error {
    Error::Usage(format!("--output: Unknown output type '{t}'"))
}

/// `--data-values-schema-inspect -o openapi-v3`: the OpenAPI document of the root
/// library's schema (with `--openapi-validations`: the extended form). `schema` is the
/// one the data values pipeline loaded and checked the values against.
fn inspect_schema(opts: &Options, schema: Option<&schema::Type>) -> Result<String, Error> {
    if let Some(t) = &opts.unknown_output {
        return Err(unknown_output(t));
    }
    if opts.output != OutputFormat::OpenApiV3 {
        return Err(Error::Usage(
            "--data-values-schema-inspect: Data values schema export only supported in OpenAPI v3 format; specify format with --output=openapi-v3 flag".into(),
        ));
    }
    let mode = if opts.openapi_validations {
        schema::openapi::Mode::Extended
    } else {
        schema::openapi::Mode::Ytt048
    };
    let doc = schema::openapi::document(schema, mode);
    // Printed in the file format `-o` also names, as any output document is.
    match opts.file_format {
        OutputFormat::Json => emit(&[doc], OutputFormat::Json),
        // A document built in memory: its nodes have no position to show.
        OutputFormat::Pos => pos_printer::print_docs(&[node::Doc {
            value: node::Node::from_value(&doc, &node::Pos::default()),
            meta: node::Meta::default(),
        }]),
        _ => crate::yaml::to_yaml_document(&doc)
            .map_err(|e| Error::msg(format!("printing YAML: {e}"))),
    }
}
