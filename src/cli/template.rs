//! `strake template`: ytt-compatible rendering with ytt's flag names. [`TemplateArgs`] is
//! the one definition of the template flags: the command, `strake lock --render` and the
//! conformance tests all turn it into [`Options`] through [`TemplateArgs::to_options`].

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, ValueEnum};

use crate::ytt::files::FileMark;
use crate::ytt::{DataValueFlag, Options, OutputFormat};

// Flags of `strake template` (the same names as `ytt`). A plain comment: clap builds
// subcommands' flags lazily (`defer`), after the subcommand's about text, so a doc
// comment here would replace that text in `--help`.
#[derive(Parser, Debug, Default)]
#[command(name = "template")]
pub struct TemplateArgs {
    /// Files or directories to template (`-` reads standard input); may be repeated.
    #[arg(short = 'f', long = "file", required = true)]
    pub files: Vec<String>,
    /// Write each output file into this directory instead of printing to stdout.
    #[arg(long = "output-files")]
    pub output_files: Option<String>,
    /// Output format.
    #[arg(short = 'o', long = "output", value_enum, default_value_t)]
    pub output: Output,
    #[command(flatten)]
    pub values: DataValueArgs,
    /// Print the final data values instead of the templates' output.
    #[arg(long = "data-values-inspect")]
    pub data_values_inspect: bool,
    /// Strict YAML parsing.
    #[arg(short = 's', long = "strict")]
    pub strict: bool,
    /// Allow plain `#` comments in templated files.
    #[arg(long = "ignore-unknown-comments")]
    pub ignore_unknown_comments: bool,
    /// Let later map keys override earlier ones without `#@yaml/map-key-override`.
    #[arg(long = "implicit-map-key-overrides")]
    pub implicit_map_key_overrides: bool,
    /// Mark files (`path:exclude=true`, `path:type=yaml-plain`, ...).
    #[arg(long = "file-mark", value_parser = FileMark::parse)]
    pub file_mark: Vec<FileMark>,
    /// Print the data values schema (needs `-o openapi-v3`).
    #[arg(long = "data-values-schema-inspect")]
    pub data_values_schema_inspect: bool,
    /// With --data-values-schema-inspect: also export validations, `required` and all examples.
    #[arg(long = "openapi-validations")]
    pub openapi_validations: bool,
    /// Skip all data values validations.
    #[arg(long = "dangerous-data-values-disable-validation")]
    pub dangerous_data_values_disable_validation: bool,
}

/// `-o`: how documents are printed.
#[derive(ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Output {
    #[default]
    Yaml,
    Json,
    /// The data values schema as OpenAPI v3 (with --data-values-schema-inspect).
    #[value(name = "openapi-v3")]
    OpenapiV3,
}

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

impl TemplateArgs {
    /// The engine's options for these flags.
    pub fn to_options(&self) -> Options {
        Options {
            files: self.files.clone(),
            output_files: self.output_files.clone(),
            output: match self.output {
                Output::Yaml => OutputFormat::Yaml,
                Output::Json => OutputFormat::Json,
                Output::OpenapiV3 => OutputFormat::OpenApiV3,
            },
            data_values: self.values.flags(),
            data_values_inspect: self.data_values_inspect,
            strict: self.strict,
            ignore_unknown_comments: self.ignore_unknown_comments,
            implicit_map_key_overrides: self.implicit_map_key_overrides,
            file_marks: self.file_mark.clone(),
            data_values_schema_inspect: self.data_values_schema_inspect,
            openapi_validations: self.openapi_validations,
            dangerous_disable_validation: self.dangerous_data_values_disable_validation,
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

/// Writes every output file into `dir`: each goes to a temporary file first and is
/// renamed into place, so no half-written file is left behind.
fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (rel, bytes) in files {
        let target: PathBuf = dir.join(rel);
        let parent = target.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent)?;
        crate::oci::atomic::replace_file(&target, bytes, None)?;
    }
    Ok(())
}

/// Runs `strake template`.
pub fn run(args: &TemplateArgs) -> ExitCode {
    let opts = args.to_options();
    let rendered = std::env::current_dir()
        .map_err(|e| crate::ytt::Error::Io(format!("current directory: {e}")))
        .and_then(|cwd| {
            crate::ytt::run(&opts, &cwd, &mut || {
                let mut b = Vec::new();
                std::io::stdin().read_to_end(&mut b)?;
                Ok(b)
            })
        });
    let out = match rendered {
        Ok(out) => out,
        Err(e @ crate::ytt::Error::Usage(_)) => return crate::cli::print_usage_error(e),
        Err(e) => return crate::cli::print_error(crate::ytt::error::multi_line(&e.to_string())),
    };
    for w in &out.warnings {
        eprintln!("{w}");
    }
    if let Some(dir) = &opts.output_files
        && let Err(e) = write_files(Path::new(dir), &out.files)
    {
        return crate::cli::print_error(format_args!("writing output files to '{dir}': {e}"));
    }
    let mut stdout = std::io::stdout().lock();
    if stdout
        .write_all(&out.stdout)
        .and_then(|_| stdout.flush())
        .is_err()
    {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
