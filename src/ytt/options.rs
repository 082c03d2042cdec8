//! Options of a `template` run, mirroring ytt's flags. `strake template`'s flags
//! (`crate::cli::template::TemplateArgs`) are turned into them.

use super::file_marks::FileMark;

/// Output format of documents on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Yaml,
    Json,
    /// `-o pos`: every node beside its template position.
    Pos,
    /// `-o openapi-v3`: only with `--data-values-schema-inspect` (helper "schema").
    OpenApiV3,
}

/// One `--data-value*` flag, in command-line order.
#[derive(Debug, Clone, PartialEq)]
pub enum DataValueFlag {
    /// `--data-value k=v`: a string.
    String(String),
    /// `--data-value-yaml k=v`: a YAML value.
    Yaml(String),
    /// `--data-value-file k=path`: the file's contents as a string.
    File(String),
    /// `--data-values-file path`: a plain YAML document of values (arrays replace).
    ValuesFile(String),
    /// `--data-values-env PREFIX`: `PREFIX_k__sub=v` environment variables.
    Env(String),
    /// `--data-values-env-yaml PREFIX`.
    EnvYaml(String),
}

impl DataValueFlag {
    /// Whether the flag gives values to a private library (`@name:...`) rather than to
    /// the root library.
    pub fn targets_library(&self) -> bool {
        match self {
            DataValueFlag::String(a)
            | DataValueFlag::Yaml(a)
            | DataValueFlag::File(a)
            | DataValueFlag::ValuesFile(a)
            | DataValueFlag::Env(a)
            | DataValueFlag::EnvYaml(a) => a.starts_with('@') && a.contains(':'),
        }
    }
}

/// Everything a `template` run needs besides the working directory.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub files: Vec<String>,
    pub output_files: Option<String>,
    pub output: OutputFormat,
    /// The file format `-o` names (yaml, json or pos; yaml when none is named), which an
    /// exported schema (`-o openapi-v3`) is printed in.
    pub file_format: OutputFormat,
    pub data_values: Vec<DataValueFlag>,
    pub data_values_inspect: bool,
    pub strict: bool,
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub file_marks: Vec<FileMark>,
    /// The first `-o` type that is none of ytt's (`yaml`, `json`, `pos`, `openapi-v3`):
    /// refused as ytt refuses it, once the schema is read.
    pub unknown_output: Option<String>,
    /// Schema options (helper "schema"): `--data-values-schema-inspect`,
    /// `--openapi-validations`, `--dangerous-data-values-disable-validation`.
    pub data_values_schema_inspect: bool,
    pub openapi_validations: bool,
    pub dangerous_disable_validation: bool,
    /// `--files-inspect`: print the root library's file paths instead of templating.
    pub files_inspect: bool,
    /// `--debug`: report on stderr which files were read and how long the run took.
    pub debug: bool,
    /// `--dangerous-allow-all-symlink-destinations`, `--allow-symlink-destination`.
    pub symlinks: crate::ytt::symlinks::SymlinkPolicy,
}
