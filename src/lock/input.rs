//! Reading the documents to lock: `-f` files, directories (recursively, `.yml`, `.yaml` and
//! `.json` files in sorted order, as kbld does) and `-` for stdin. Empty documents are
//! skipped; duplicate keys keep their last value (as the JSON round trip in kbld does).

use std::io::Read;
use std::path::{Path, PathBuf};

use crate::lock::error::LockError;
use crate::yaml::{Value, parse_document_set};

/// One document to lock, with where it came from (for messages).
#[derive(Clone, Debug, PartialEq)]
pub struct InputDoc {
    /// File name as given (`-` for stdin), or the template that rendered the document.
    pub file: String,
    /// 1-based position of the document in its file.
    pub index: usize,
    pub value: Value,
}

impl InputDoc {
    /// Documents from YAML text (one file's content).
    pub fn parse_all(text: &str, file: &str) -> Result<Vec<InputDoc>, LockError> {
        let set = parse_document_set(text, file).map_err(|e| LockError::Input(e.to_string()))?;
        Ok(set
            .into_plain_values()
            .into_iter()
            .enumerate()
            .map(|(i, value)| InputDoc {
                file: file.to_string(),
                index: i + 1,
                value,
            })
            .collect())
    }
}

/// Reads every `-f` argument in order.
pub fn read_inputs(paths: &[String]) -> Result<Vec<InputDoc>, LockError> {
    let mut docs = Vec::new();
    for p in paths {
        if p == "-" {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| LockError::Input(format!("reading stdin: {e}")))?;
            docs.extend(InputDoc::parse_all(&text, "stdin")?);
            continue;
        }
        let path = Path::new(p);
        let meta = std::fs::metadata(path).map_err(|e| LockError::Input(format!("{p}: {e}")))?;
        let files = if meta.is_dir() {
            dir_files(path)?
        } else {
            vec![path.to_path_buf()]
        };
        for f in files {
            let name = f.display().to_string();
            let text = std::fs::read_to_string(&f)
                .map_err(|e| LockError::Input(format!("{name}: {e}")))?;
            docs.extend(InputDoc::parse_all(&text, &name)?);
        }
    }
    Ok(docs)
}

fn dir_files(dir: &Path) -> Result<Vec<PathBuf>, LockError> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new(dir).follow_links(true) {
        let entry = entry.map_err(|e| LockError::Input(format!("{}: {e}", dir.display())))?;
        let ext = entry
            .path()
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if entry.file_type().is_file() && matches!(ext, "yml" | "yaml" | "json") {
            out.push(entry.into_path());
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_directories_sorted_and_skips_empty_documents() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("sub")).unwrap();
        std::fs::write(dir.path().join("b.yml"), "---\n---\nb: 1\n").unwrap();
        std::fs::write(dir.path().join("sub/a.yaml"), "a: 1\n").unwrap();
        std::fs::write(dir.path().join("c.json"), "{\"c\": 1, \"c\": 2}").unwrap();
        std::fs::write(dir.path().join("notes.txt"), "x: 1").unwrap();
        let docs = read_inputs(&[dir.path().display().to_string()]).unwrap();
        let keys: Vec<String> = docs
            .iter()
            .map(|d| crate::yaml::to_yaml_document(&d.value).unwrap())
            .collect();
        assert_eq!(keys, vec!["b: 1\n", "c: 2\n", "a: 1\n"]);
        assert!(docs[2].file.ends_with("sub/a.yaml"));
        let err = read_inputs(&["/nonexistent/x.yml".into()]).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.yml"), "{err}");
    }
}
