//! Options of a `template` run, mirroring ytt's flags. The CLI fills this in; tests
//! build it from an argument list with [`Options::from_args`].

use super::error::Error;
use super::files::FileMark;

/// Output format of documents on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    #[default]
    Yaml,
    Json,
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

/// Everything a `template` run needs besides the working directory.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub files: Vec<String>,
    pub output_files: Option<String>,
    pub output: OutputFormat,
    pub data_values: Vec<DataValueFlag>,
    pub data_values_inspect: bool,
    pub strict: bool,
    pub ignore_unknown_comments: bool,
    pub implicit_map_key_overrides: bool,
    pub file_marks: Vec<FileMark>,
    /// Schema options (helper "schema"): `--data-values-schema-inspect`,
    /// `--openapi-validations`, `--dangerous-data-values-disable-validation`.
    pub data_values_schema_inspect: bool,
    pub openapi_validations: bool,
    pub dangerous_disable_validation: bool,
    /// Whether YAML files are parsed on helper threads (not a ytt flag: library callers
    /// and tests choose; the command line uses the default, `Auto`).
    pub parse_ahead: crate::ytt::eval::parse_ahead::ParseAheadMode,
}

impl Options {
    /// Parses ytt-style arguments (without the program and subcommand names).
    pub fn from_args<S: AsRef<str>>(args: &[S]) -> Result<Options, Error> {
        let mut o = Options::default();
        let mut i = 0;
        while i < args.len() {
            let a = args[i].as_ref();
            let (flag, inline) = match a.split_once('=') {
                Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
                _ => (a, None),
            };
            let takes_value = !matches!(
                flag,
                "--data-values-inspect"
                    | "--data-values-schema-inspect"
                    | "--openapi-validations"
                    | "--dangerous-data-values-disable-validation"
                    | "--strict"
                    | "--ignore-unknown-comments"
                    | "--implicit-map-key-overrides"
            );
            let value = if takes_value {
                match inline {
                    Some(v) => v,
                    None => {
                        i += 1;
                        args.get(i)
                            .map(|s| s.as_ref().to_string())
                            .ok_or_else(|| Error::Usage(format!("flag {flag} needs a value")))?
                    }
                }
            } else {
                String::new()
            };
            match flag {
                "-f" | "--file" => o.files.push(value),
                "--output-files" => o.output_files = Some(value),
                "-o" | "--output" => {
                    o.output = match value.as_str() {
                        "yaml" => OutputFormat::Yaml,
                        "json" => OutputFormat::Json,
                        "openapi-v3" => OutputFormat::OpenApiV3,
                        v => return Err(Error::Usage(format!("unknown output format '{v}'"))),
                    }
                }
                "-v" | "--data-value" => o.data_values.push(DataValueFlag::String(value)),
                "--data-value-yaml" => o.data_values.push(DataValueFlag::Yaml(value)),
                "--data-value-file" => o.data_values.push(DataValueFlag::File(value)),
                "--data-values-file" => o.data_values.push(DataValueFlag::ValuesFile(value)),
                "--data-values-env" => o.data_values.push(DataValueFlag::Env(value)),
                "--data-values-env-yaml" => o.data_values.push(DataValueFlag::EnvYaml(value)),
                "--data-values-inspect" => o.data_values_inspect = true,
                "--data-values-schema-inspect" => o.data_values_schema_inspect = true,
                "--openapi-validations" => o.openapi_validations = true,
                "--dangerous-data-values-disable-validation" => {
                    o.dangerous_disable_validation = true
                }
                "--strict" | "-s" => o.strict = true,
                "--ignore-unknown-comments" => o.ignore_unknown_comments = true,
                "--implicit-map-key-overrides" => o.implicit_map_key_overrides = true,
                "--file-mark" => o.file_marks.push(FileMark::parse(&value)?),
                _ => return Err(Error::Usage(format!("unknown flag '{a}'"))),
            }
            i += 1;
        }
        if o.files.is_empty() {
            return Err(Error::Usage("expected at least one file (-f)".into()));
        }
        Ok(o)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_flags_in_order() {
        let o = Options::from_args(&[
            "-f",
            ".",
            "--data-value",
            "a=b=c",
            "--data-value-yaml",
            "n=1",
            "--file-mark",
            "x.yml:exclude=true",
            "-o",
            "json",
        ])
        .unwrap();
        assert_eq!(o.files, vec!["."]);
        assert_eq!(
            o.data_values,
            vec![
                DataValueFlag::String("a=b=c".into()),
                DataValueFlag::Yaml("n=1".into())
            ]
        );
        assert_eq!(o.output, OutputFormat::Json);
        assert_eq!(o.file_marks[0].path, "x.yml");
        assert!(Options::from_args(&["--nope"]).is_err());
    }
}
