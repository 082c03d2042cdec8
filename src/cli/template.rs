//! `strake template`: ytt-compatible rendering with ytt's flag names.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use crate::ytt::eval::parse_ahead::ParseAheadMode;
use crate::ytt::files::FileMark;
use crate::ytt::{DataValueFlag, Options, OutputFormat};

// Flags of `strake template` (the same names as `ytt`). A plain comment: clap builds
// subcommands' flags lazily (`defer`), after the subcommand's about text, so a doc
// comment here would replace that text in `--help`.
#[derive(Args, Debug)]
pub struct TemplateArgs {
    /// Files or directories to template (`-` reads standard input); may be repeated.
    #[arg(short = 'f', long = "file", required = true)]
    pub files: Vec<String>,
    /// Write each output file into this directory instead of printing to stdout.
    #[arg(long = "output-files")]
    pub output_files: Option<String>,
    /// Output format: yaml or json.
    #[arg(short = 'o', long = "output", default_value = "yaml")]
    pub output: String,
    /// Set a data value to a string (`key.sub=value`).
    #[arg(short = 'v', long = "data-value")]
    pub data_value: Vec<String>,
    /// Set a data value from YAML (`key=yaml`).
    #[arg(long = "data-value-yaml")]
    pub data_value_yaml: Vec<String>,
    /// Set a data value to a file's contents (`key=path`).
    #[arg(long = "data-value-file")]
    pub data_value_file: Vec<String>,
    /// Merge a plain YAML file of data values (arrays replace).
    #[arg(long = "data-values-file")]
    pub data_values_file: Vec<String>,
    /// Take data values from environment variables `PREFIX_key__sub=value`.
    #[arg(long = "data-values-env")]
    pub data_values_env: Vec<String>,
    /// Like --data-values-env, with values parsed as YAML.
    #[arg(long = "data-values-env-yaml")]
    pub data_values_env_yaml: Vec<String>,
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
    #[arg(long = "file-mark")]
    pub file_mark: Vec<String>,
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

impl TemplateArgs {
    fn to_options(&self) -> Result<Options, crate::ytt::Error> {
        let mut dv = Vec::new();
        dv.extend(
            self.data_values_file
                .iter()
                .cloned()
                .map(DataValueFlag::ValuesFile),
        );
        dv.extend(self.data_values_env.iter().cloned().map(DataValueFlag::Env));
        dv.extend(
            self.data_values_env_yaml
                .iter()
                .cloned()
                .map(DataValueFlag::EnvYaml),
        );
        dv.extend(self.data_value.iter().cloned().map(DataValueFlag::String));
        dv.extend(
            self.data_value_yaml
                .iter()
                .cloned()
                .map(DataValueFlag::Yaml),
        );
        dv.extend(
            self.data_value_file
                .iter()
                .cloned()
                .map(DataValueFlag::File),
        );
        let output = match self.output.as_str() {
            "yaml" => OutputFormat::Yaml,
            "json" => OutputFormat::Json,
            "openapi-v3" => OutputFormat::OpenApiV3,
            o => {
                return Err(crate::ytt::Error::Usage(format!(
                    "unknown output format '{o}' (expected yaml, json or openapi-v3)"
                )));
            }
        };
        let marks: Result<Vec<FileMark>, _> =
            self.file_mark.iter().map(|m| FileMark::parse(m)).collect();
        Ok(Options {
            files: self.files.clone(),
            output_files: self.output_files.clone(),
            output,
            data_values: dv,
            data_values_inspect: self.data_values_inspect,
            strict: self.strict,
            ignore_unknown_comments: self.ignore_unknown_comments,
            implicit_map_key_overrides: self.implicit_map_key_overrides,
            file_marks: marks?,
            data_values_schema_inspect: self.data_values_schema_inspect,
            openapi_validations: self.openapi_validations,
            dangerous_disable_validation: self.dangerous_data_values_disable_validation,
            parse_ahead: ParseAheadMode::from_env().map_err(crate::ytt::Error::Usage)?,
        })
    }
}

/// Writes every output file into `dir`: each goes to a temporary file first and is
/// renamed into place, so no half-written file is left behind.
fn write_files(dir: &Path, files: &[(String, Vec<u8>)]) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    for (rel, bytes) in files {
        let target: PathBuf = dir.join(rel);
        let parent = target.parent().unwrap_or(dir);
        std::fs::create_dir_all(parent)?;
        let mut tmp = tempfile::NamedTempFile::new_in(parent)?;
        tmp.write_all(bytes)?;
        tmp.persist(&target).map_err(|e| e.error)?;
    }
    Ok(())
}

/// Runs `strake template`.
pub fn run(args: &TemplateArgs) -> ExitCode {
    let result = args.to_options().and_then(|opts| {
        let cwd = std::env::current_dir()
            .map_err(|e| crate::ytt::Error::Io(format!("current directory: {e}")))?;
        let out = crate::ytt::run(&opts, &cwd, &mut || {
            let mut b = Vec::new();
            std::io::stdin().read_to_end(&mut b)?;
            Ok(b)
        })?;
        Ok((opts, out))
    });
    match result {
        Ok((opts, out)) => {
            for w in &out.warnings {
                eprintln!("{w}");
            }
            if let Some(dir) = &opts.output_files
                && let Err(e) = write_files(Path::new(dir), &out.files)
            {
                eprintln!("strake: Error: writing output files to '{dir}': {e}");
                return ExitCode::FAILURE;
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
        Err(e) => {
            eprintln!("strake: Error: {e}");
            ExitCode::FAILURE
        }
    }
}
