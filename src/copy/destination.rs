//! Opening where a copy writes: a registry repository or an OCI layout as a
//! [`Store`]; `--to-oci-layout FILE.tar` builds the layout in a hidden directory
//! beside the file (kept between runs, so a rerun resumes) and tars it at the end.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::copy::plan::DestinationSpec;
use crate::copy::{CopyError, Result};
use crate::oci::layout::LayoutStore;
use crate::oci::registry::RegistryClient;
use crate::oci::{Reference, Store};

/// The destination as a store, for registries and layout directories; `create`
/// makes a missing layout.
pub fn open_destination_store(
    spec: &DestinationSpec,
    client: &RegistryClient,
    create: bool,
) -> Result<Arc<dyn Store>> {
    match spec {
        DestinationSpec::Repo(repo) => Ok(Arc::new(client.store(&Reference::parse(repo)?))),
        DestinationSpec::OciLayout(dir) => {
            let dir = layout_dir_for(dir);
            Ok(if create {
                Arc::new(LayoutStore::create(&dir)?)
            } else {
                Arc::new(LayoutStore::open(&dir)?)
            })
        }
        DestinationSpec::Tar(t) => Err(CopyError::invalid(format!("tar:{t} is not a store"))),
    }
}

/// `--to-oci-layout X.tar` builds the layout in a hidden directory beside it
/// (kept between runs, so a rerun resumes), then tars it.
pub fn layout_dir_for(dest: &str) -> PathBuf {
    let path = Path::new(dest);
    if dest.ends_with(".tar") {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        crate::oci::atomic::parent_dir(path).join(format!(".{name}.strake-layout"))
    } else {
        path.to_path_buf()
    }
}

#[allow(clippy::type_complexity)]
pub fn open_writable_destination(
    spec: &DestinationSpec,
    client: &RegistryClient,
) -> Result<(Arc<dyn Store>, Option<(PathBuf, PathBuf)>)> {
    let store = open_destination_store(spec, client, true)?;
    let tar = match spec {
        DestinationSpec::OciLayout(dest) if dest.ends_with(".tar") => {
            Some((layout_dir_for(dest), PathBuf::from(dest)))
        }
        _ => None,
    };
    Ok((store, tar))
}

/// Tars the layout directory `dir` into `dest` (temporary name, then rename) and
/// removes the directory.
pub async fn tar_layout_dir(dir: &Path, dest: &Path) -> Result<()> {
    let dir = dir.to_path_buf();
    let dest = dest.to_path_buf();
    tokio::task::spawn_blocking(move || -> Result<()> {
        let context =
            |e: std::io::Error| CopyError::invalid(format!("writing {}: {e}", dest.display()));
        let parent = crate::oci::atomic::parent_dir(&dest);
        let temp = tempfile::Builder::new()
            .prefix(crate::oci::atomic::TEMP_PREFIX)
            .tempfile_in(&parent)
            .map_err(context)?;
        let mut builder =
            tar::Builder::new(std::io::BufWriter::new(temp.reopen().map_err(context)?));
        builder.mode(tar::HeaderMode::Deterministic);
        let mut paths: Vec<PathBuf> = walkdir::WalkDir::new(&dir)
            .sort_by_file_name()
            .into_iter()
            .filter_map(|e| e.ok())
            .map(|e| e.path().to_path_buf())
            .collect();
        paths.sort();
        for path in paths {
            let rel = path.strip_prefix(&dir).expect("under the layout");
            if rel.as_os_str().is_empty()
                || rel.file_name().is_some_and(|n| {
                    n.to_string_lossy()
                        .starts_with(crate::oci::atomic::TEMP_PREFIX)
                })
            {
                continue;
            }
            builder.append_path_with_name(&path, rel).map_err(context)?;
        }
        let out = builder.into_inner().map_err(context)?;
        out.into_inner()
            .map_err(|e| context(e.into_error()))?
            .sync_all()
            .map_err(context)?;
        temp.persist(&dest).map_err(|e| context(e.error))?;
        std::fs::remove_dir_all(&dir).map_err(context)?;
        Ok(())
    })
    .await
    .map_err(|e| CopyError::invalid(format!("internal error: {e}")))?
}
