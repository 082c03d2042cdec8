//! `strake lock --render`: render a deploy directory (ytt templates, schema and values)
//! with the template engine first, then lock the rendered documents. Each document is
//! named after the template that produced it, so warnings point at the file to edit.

use std::path::Path;

use crate::lock::error::LockError;
use crate::lock::input::InputDoc;
use crate::ytt::{Options, OutputFormat};

/// Renders the templates `options` names (as `strake template` would, from its flags) and
/// returns the rendered documents in output order.
pub fn render_inputs(mut options: Options, cwd: &Path) -> Result<Vec<InputDoc>, LockError> {
    // Asking for output files keeps each template's documents apart (named after the
    // template); nothing is written.
    options.output_files = Some(".".into());
    options.output = OutputFormat::Yaml;
    let paths = &options.files;
    let out = crate::ytt::run(&options, cwd, &mut || {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)?;
        Ok(b)
    })
    .map_err(|e| LockError::Input(format!("rendering {}: {e}", paths.join(", "))))?;
    let fallback = paths.join(", ");
    let mut docs = Vec::new();
    for (rel, bytes) in &out.files {
        // Text templates' output is not YAML to lock.
        if !(rel.ends_with(".yml") || rel.ends_with(".yaml")) {
            continue;
        }
        let name = if rel.is_empty() { &fallback } else { rel };
        let text = String::from_utf8(bytes.clone())
            .map_err(|_| LockError::Input(format!("{name}: rendered output is not UTF-8")))?;
        docs.extend(InputDoc::parse_all(&text, name)?);
    }
    Ok(docs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ytt::DataValueFlag;

    fn options(files: &[&str], data_values: Vec<DataValueFlag>) -> Options {
        Options {
            files: files.iter().map(|f| f.to_string()).collect(),
            data_values,
            ..Options::default()
        }
    }

    #[test]
    fn renders_defaults_and_overrides_naming_templates() {
        let dir = tempfile::tempdir().unwrap();
        let deploy = dir.path().join("deploy");
        std::fs::create_dir(&deploy).unwrap();
        std::fs::write(
            deploy.join("schema.yml"),
            "#@data/values-schema\n---\nimage: registry.test/app:v1\nreplicas: 1\n",
        )
        .unwrap();
        std::fs::write(
            deploy.join("deployment.yml"),
            "#@ load(\"@ytt:data\", \"data\")\n---\nkind: Deployment\nspec:\n  replicas: #@ data.values.replicas\n  image: #@ data.values.image\n",
        )
        .unwrap();
        std::fs::write(deploy.join("notes.txt"), "(@= \"hello\" @)\n").unwrap();
        let docs = render_inputs(options(&["deploy"], vec![]), dir.path()).unwrap();
        assert_eq!(docs.len(), 1, "{docs:?}");
        assert_eq!(docs[0].file, "deployment.yml");
        assert_eq!(docs[0].index, 1);
        let text = crate::yaml::to_yaml_document(&docs[0].value).unwrap();
        assert!(text.contains("image: registry.test/app:v1"), "{text}");

        let docs = render_inputs(
            options(
                &["deploy"],
                vec![DataValueFlag::String("image=registry.test/app:v2".into())],
            ),
            dir.path(),
        )
        .unwrap();
        let text = crate::yaml::to_yaml_document(&docs[0].value).unwrap();
        assert!(text.contains("image: registry.test/app:v2"), "{text}");

        let err = render_inputs(options(&["missing"], vec![]), dir.path())
            .unwrap_err()
            .to_string();
        assert!(err.contains("rendering missing"), "{err}");
    }
}
