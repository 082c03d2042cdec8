//! `strake template`: ytt-compatible rendering with ytt's flag names. [`TemplateArgs`] is
//! the one definition of the template flags: the command, `strake lock --render` and the
//! conformance tests all turn it into [`Options`] through [`TemplateArgs::to_options`].

use std::io::{Read, Write};
use std::process::ExitCode;

use clap::{ArgAction, Args, Parser};

use crate::ytt::file_marks::FileMark;
use crate::ytt::{DataValueFlag, Options, OutputFormat};

// Flags of `strake template` (the same names as `ytt`). A plain comment: clap builds
// subcommands' flags lazily (`defer`), after the subcommand's about text, so a doc
// comment here would replace that text in `--help`.
#[derive(Parser, Debug, Default)]
#[command(name = "template", args_override_self = true)]
pub struct TemplateArgs {
    /// Files or directories to template (`-` reads standard input); may be repeated.
    #[arg(short = 'f', long = "file")]
    pub files: Vec<String>,
    /// Write each output file into this directory instead of printing to stdout.
    #[arg(long = "output-files")]
    pub output_files: Option<String>,
    /// Delete this directory, then create it with the output files.
    #[arg(long = "dangerous-emptied-output-directory", value_name = "DIR")]
    pub dangerous_emptied_output_directory: Option<String>,
    /// Take the input files from this JSON (ytt's bulk format) instead of `-f`.
    #[arg(long = "bulk-in", value_name = "JSON", default_value = "")]
    pub bulk_in: String,
    /// Print the output files (or the error) as JSON in ytt's bulk format.
    #[arg(long = "bulk-out", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub bulk_out: bool,
    /// Print the paths of the input files (after --file-mark) instead of templating.
    #[arg(long = "files-inspect", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub files_inspect: bool,
    /// Report the files read and the run's duration on stderr.
    #[arg(long = "debug", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub debug: bool,
    /// Let symlinked input files point anywhere.
    #[arg(long = "dangerous-allow-all-symlink-destinations", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub dangerous_allow_all_symlink_destinations: bool,
    /// Paths symlinked input files may point into (comma-separated; may be repeated).
    #[arg(long = "allow-symlink-destination", value_delimiter = ',')]
    pub allow_symlink_destination: Vec<String>,
    /// Output types: a file format (yaml, json, pos) and/or a schema type (openapi-v3);
    /// comma-separated, may be repeated.
    #[arg(
        short = 'o',
        long = "output",
        value_delimiter = ',',
        default_value = "yaml"
    )]
    pub output: Vec<String>,
    #[command(flatten)]
    pub values: DataValueArgs,
    /// Print the final data values instead of the templates' output.
    #[arg(long = "data-values-inspect", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub data_values_inspect: bool,
    /// Strict YAML parsing.
    #[arg(short = 's', long = "strict", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub strict: bool,
    /// Allow plain `#` comments in templated files.
    #[arg(long = "ignore-unknown-comments", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub ignore_unknown_comments: bool,
    /// Let later map keys override earlier ones without `#@yaml/map-key-override`.
    #[arg(long = "implicit-map-key-overrides", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub implicit_map_key_overrides: bool,
    /// Mark files (`path:exclude=true`, `path:type=yaml-plain`, ...).
    #[arg(long = "file-mark", value_parser = FileMark::parse)]
    pub file_mark: Vec<FileMark>,
    /// Print the data values schema (needs `-o openapi-v3`).
    #[arg(long = "data-values-schema-inspect", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub data_values_schema_inspect: bool,
    /// With --data-values-schema-inspect: also export validations, `required` and all examples.
    #[arg(long = "openapi-validations", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub openapi_validations: bool,
    /// Skip all data values validations.
    #[arg(long = "dangerous-data-values-disable-validation", action = ArgAction::Set, num_args = 0..=1, require_equals = true, default_value = "false", default_missing_value = "true", value_parser = go_bool)]
    pub dangerous_data_values_disable_validation: bool,
}

/// A boolean flag's value as ytt's flag library (`pflag`, with Go's `strconv.ParseBool`)
/// takes it: the flag alone is true, and `--flag=false` (or `0`, `f`, `F`, `FALSE`,
/// `False`; `1`, `t`, `T`, `TRUE`, `True` for true) sets it as given.
fn go_bool(s: &str) -> Result<bool, String> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Ok(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Ok(false),
        _ => Err(format!(
            "strconv.ParseBool: parsing \"{s}\": invalid syntax"
        )),
    }
}

/// The file formats `-o` takes; the first one given is in effect (yaml by default).
const FORMATS: [(&str, OutputFormat); 3] = [
    ("yaml", OutputFormat::Yaml),
    ("json", OutputFormat::Json),
    ("pos", OutputFormat::Pos),
];

/// The schema type `-o` takes.
const OPENAPI: &str = "openapi-v3";

// The data value flags, shared by `strake template` and `strake lock --render` (a plain
// comment for the same reason as on `TemplateArgs`).
#[derive(Args, Debug, Default, Clone)]
pub struct DataValueArgs {
    /// Set a data value to a string (`key.sub=value`).
    #[arg(short = 'v', long = "data-value", value_name = "KEY=VALUE")]
    pub data_value: Vec<String>,
    /// Set a data value from YAML (`key=yaml`).
    #[arg(long = "data-value-yaml", value_name = "KEY=YAML")]
    pub data_value_yaml: Vec<String>,
    /// Set a data value to a file's contents (`key=path`).
    #[arg(long = "data-value-file", value_name = "KEY=PATH")]
    pub data_value_file: Vec<String>,
    /// Merge a plain YAML file of data values (arrays replace).
    #[arg(long = "data-values-file", value_name = "FILE")]
    pub data_values_file: Vec<String>,
    /// Take data values from environment variables `PREFIX_key__sub=value`.
    #[arg(long = "data-values-env", value_name = "PREFIX")]
    pub data_values_env: Vec<String>,
    /// Like --data-values-env, with values parsed as YAML.
    #[arg(long = "data-values-env-yaml", value_name = "PREFIX")]
    pub data_values_env_yaml: Vec<String>,
}

impl DataValueArgs {
    /// The flags in the order ytt applies them: values files, environment, then the
    /// single values (strings, YAML, file contents).
    pub fn flags(&self) -> Vec<DataValueFlag> {
        let each = |list: &[String], make: fn(String) -> DataValueFlag| {
            list.iter().cloned().map(make).collect::<Vec<_>>()
        };
        [
            each(&self.data_values_file, DataValueFlag::ValuesFile),
            each(&self.data_values_env, DataValueFlag::Env),
            each(&self.data_values_env_yaml, DataValueFlag::EnvYaml),
            each(&self.data_value, DataValueFlag::String),
            each(&self.data_value_yaml, DataValueFlag::Yaml),
            each(&self.data_value_file, DataValueFlag::File),
        ]
        .concat()
    }

    /// Whether no data value flag was given.
    pub fn is_empty(&self) -> bool {
        self.flags().is_empty()
    }
}

/// A directory flag's value, unless it is empty: ytt takes an empty one as not given.
fn non_empty(dir: &Option<String>) -> Option<String> {
    dir.clone().filter(|d| !d.is_empty())
}

impl TemplateArgs {
    /// `--dangerous-emptied-output-directory`, when given a directory.
    fn emptied_output_directory(&self) -> Option<String> {
        non_empty(&self.dangerous_emptied_output_directory)
    }

    /// The engine's options for these flags.
    pub fn to_options(&self) -> Options {
        let file_format = self
            .output
            .iter()
            .find_map(|t| FORMATS.iter().find(|(n, _)| n == t).map(|(_, f)| *f))
            .unwrap_or_default();
        Options {
            files: self.files.clone(),
            output_files: self
                .emptied_output_directory()
                .or_else(|| non_empty(&self.output_files)),
            output: if self.output.iter().any(|t| t == OPENAPI) {
                OutputFormat::OpenApiV3
            } else {
                file_format
            },
            file_format,
            unknown_output: self
                .output
                .iter()
                .find(|t| *t != OPENAPI && !FORMATS.iter().any(|(n, _)| n == t))
                .cloned(),
            data_values: self.values.flags(),
            data_values_inspect: self.data_values_inspect,
            strict: self.strict,
            ignore_unknown_comments: self.ignore_unknown_comments,
            implicit_map_key_overrides: self.implicit_map_key_overrides,
            file_marks: self.file_mark.clone(),
            data_values_schema_inspect: self.data_values_schema_inspect,
            openapi_validations: self.openapi_validations,
            dangerous_disable_validation: self.dangerous_data_values_disable_validation,
            files_inspect: self.files_inspect,
            debug: self.debug,
            symlinks: crate::ytt::symlinks::SymlinkPolicy {
                allow_all: self.dangerous_allow_all_symlink_destinations,
                allowed_destinations: self.allow_symlink_destination.clone(),
            },
        }
    }
}

/// Parses `strake template`'s flags (without the program and subcommand names) into the
/// engine's options, as the command does; a bad flag is a usage error with clap's message.
pub fn parse_options<S: AsRef<str>>(args: &[S]) -> Result<Options, crate::ytt::Error> {
    let argv = std::iter::once("template").chain(args.iter().map(AsRef::as_ref));
    TemplateArgs::try_parse_from(argv)
        .map(|args| args.to_options())
        .map_err(|e| crate::ytt::Error::Usage(e.render().to_string().trim_end().to_string()))
}

/// Runs `strake template`.
pub fn run(args: &TemplateArgs) -> ExitCode {
    let started = std::time::Instant::now();
    let code = run_timed(args);
    if args.debug {
        eprintln!("total: {:?}", started.elapsed());
    }
    code
}

/// Standard input's bytes, read on the first call and kept for later ones (a render
/// that is run again must see what the first one read).
fn read_stdin_once(
    cache: &std::sync::OnceLock<Result<Vec<u8>, (std::io::ErrorKind, String)>>,
) -> std::io::Result<Vec<u8>> {
    cache
        .get_or_init(|| {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map(|_| b)
                .map_err(|e| (e.kind(), e.to_string()))
        })
        .clone()
        .map_err(|(kind, message)| std::io::Error::new(kind, message))
}

fn run_timed(args: &TemplateArgs) -> ExitCode {
    let mut opts = args.to_options();
    // As ytt picks its sources: bulk input (when given) instead of `-f`, bulk output
    // (when asked for) instead of stdout and output directories.
    let _bulk_dir = if args.bulk_in.is_empty() {
        None
    } else {
        match super::template_bulk::materialize(&args.bulk_in) {
            Ok(dir) => {
                opts.files = vec![dir.path().display().to_string()];
                Some(dir)
            }
            Err(e) => return crate::cli::print_error(e),
        }
    };
    if args.bulk_out {
        // Collect the output files as `--output-files` does; they are printed below.
        opts.output_files = Some(String::new());
    }
    // Standard input is read once, whichever render asks for it first.
    let stdin_bytes = std::sync::OnceLock::new();
    let render = || {
        let mut warnings = Vec::new();
        let rendered = std::env::current_dir()
            .map_err(|e| crate::ytt::Error::Io(format!("current directory: {e}")))
            .and_then(|cwd| {
                crate::ytt::run_warning(
                    &opts,
                    &cwd,
                    &mut || read_stdin_once(&stdin_bytes),
                    &mut warnings,
                )
            });
        (rendered, warnings)
    };
    // The render runs here, on the main thread. When its Starlark recursed past the
    // depth this stack allows, it runs again, whole, on a thread whose stack fits the
    // recursion ytt allows; a render has no effects of its own, so the second one
    // gives what a single deep run would.
    let (mut rendered, mut warnings) = render();
    if crate::ytt::starlark::eval::take_depth_limit_hit() {
        (rendered, warnings) = super::on_deep_stack(&render);
    }
    // ytt's warnings come before its output or its error.
    for w in &warnings {
        eprintln!("{w}");
    }
    if args.bulk_out {
        let json = match &rendered {
            Ok(out) => super::template_bulk::encode(&out.files, None),
            Err(e) => super::template_bulk::encode(&[], Some(&e.to_string())),
        };
        print!("{json}");
        return ExitCode::SUCCESS;
    }
    let out = match rendered {
        Ok(out) => out,
        // A flag's value the engine refuses (a data value, an output type) is an error
        // like any other: ytt exits 1 for every error; clap's own usage errors exit 2.
        Err(e @ crate::ytt::Error::Usage(_)) => return crate::cli::print_error(e),
        Err(e) => return crate::cli::print_error(crate::ytt::error::multi_line(&e.to_string())),
    };
    let mut stdout = std::io::stdout().lock();
    if let Some(dir) = args.emptied_output_directory()
        && let Err(e) = super::template_output::empty_output_directory(&dir, &out.files)
    {
        return crate::cli::print_error(crate::ytt::error::multi_line(&e));
    }
    if let Some(dir) = &opts.output_files
        && let Err(e) = super::template_output::write_files(dir, &out.files, &mut stdout)
    {
        return crate::cli::print_error(crate::ytt::error::multi_line(&e));
    }
    if stdout
        .write_all(&out.stdout)
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
