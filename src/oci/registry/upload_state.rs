//! The upload session of each blob in flight, recorded in a small state file so
//! that a rerun of a copy stopped half-way (killed, crashed, cut off) can ask the
//! registry how much of the blob it holds and send only the rest (see
//! `upload_resume`).
//!
//! One file per registry, repository and blob, under
//! [`RegistryOptions::upload_state_dir`](crate::oci::registry::RegistryOptions):
//! `<dir>/<first 32 hex of sha256("registry/repository")>-<blob hex>.json`, holding
//! `{"registry", "repository", "digest", "location"}`. It is written through a
//! temporary file and a rename (never half written; not synced: a state file lost
//! with the machine only means the blob is sent again whole), rewritten with the
//! session's newest location after every `PATCH` whose answer arrived, and
//! removed once the blob is committed or its session cancelled.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use reqwest::Url;
use serde::{Deserialize, Serialize};

use crate::oci::Digest;
use crate::oci::atomic::TEMP_PREFIX;

/// The state file of one blob's upload to one repository.
#[derive(Clone, Debug)]
pub struct UploadState {
    path: PathBuf,
    registry: String,
    repository: String,
    digest: Digest,
}

#[derive(Serialize, Deserialize)]
struct Record {
    registry: String,
    repository: String,
    digest: String,
    location: String,
}

impl UploadState {
    /// The state file of `digest`'s upload to `registry/repository` in `dir`.
    pub fn new(dir: &Path, registry: &str, repository: &str, digest: &Digest) -> UploadState {
        let key = Digest::of(format!("{registry}/{repository}").as_bytes());
        let name = format!("{}-{}.json", &key.hex()[..32], digest.hex());
        UploadState {
            path: dir.join(name),
            registry: registry.to_string(),
            repository: repository.to_string(),
            digest: digest.clone(),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records `location` as the session to continue. A failure is only
    /// logged: the upload goes on, it just cannot be continued after a crash.
    pub async fn record(&self, location: &Url) {
        let (path, text) = (self.path.clone(), self.record_json(location));
        let written = tokio::task::spawn_blocking(move || write_unsynced(&path, text.as_bytes()))
            .await
            .unwrap_or_else(|e| Err(std::io::Error::other(e)));
        if let Err(e) = written {
            tracing::debug!(path = %self.path.display(), %e, "cannot record the upload session");
        }
    }

    fn record_json(&self, location: &Url) -> String {
        serde_json::to_string(&Record {
            registry: self.registry.clone(),
            repository: self.repository.clone(),
            digest: self.digest.to_string(),
            location: location.to_string(),
        })
        .expect("plain strings")
    }

    /// The recorded session, when there is one for this very blob and
    /// repository (a file that does not parse or names another blob is ignored).
    pub fn load(&self) -> Option<Url> {
        let text = std::fs::read_to_string(&self.path).ok()?;
        let record: Record = serde_json::from_str(&text).ok()?;
        if record.registry != self.registry
            || record.repository != self.repository
            || record.digest != self.digest.as_str()
        {
            return None;
        }
        Url::parse(&record.location).ok()
    }

    /// Removes the record (the blob is committed, or its session is gone).
    pub fn forget(&self) {
        match std::fs::remove_file(&self.path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => tracing::debug!(path = %self.path.display(), %e, "cannot remove"),
        }
    }
}

/// Writes `bytes` to `dest` through a temporary file and a rename, creating the
/// directory; not synced (see the module comment).
fn write_unsynced(dest: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let dir = crate::oci::atomic::parent_dir(dest);
    std::fs::create_dir_all(&dir)?;
    let mut temp = tempfile::Builder::new()
        .prefix(TEMP_PREFIX)
        .tempfile_in(&dir)?;
    temp.write_all(bytes)?;
    temp.persist(dest).map(drop).map_err(|e| e.error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn records_loads_and_forgets_one_session_per_repository_and_blob() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("state/uploads");
        let digest = Digest::of(b"blob");
        let state = UploadState::new(&dir, "reg:5000", "team/app", &digest);
        assert_eq!(state.load(), None);
        let first = Url::parse("http://reg:5000/v2/team/app/blobs/uploads/u1?_state=a").unwrap();
        state.record(&first).await;
        assert_eq!(state.load(), Some(first));
        let next = Url::parse("http://reg:5000/v2/team/app/blobs/uploads/u1?_state=b").unwrap();
        state.record(&next).await;
        assert_eq!(state.load(), Some(next.clone()));
        // Another repository or blob has its own file.
        let other_repo = UploadState::new(&dir, "reg:5000", "team/other", &digest);
        let other_blob = UploadState::new(&dir, "reg:5000", "team/app", &Digest::of(b"x"));
        assert_ne!(other_repo.path(), state.path());
        assert_ne!(other_blob.path(), state.path());
        assert_eq!(other_repo.load(), None);
        // A file naming another blob (copied, or a hash clash) is not used.
        std::fs::copy(state.path(), other_blob.path()).unwrap();
        assert_eq!(other_blob.load(), None);
        // No temporary file is left behind.
        let names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(names.iter().all(|n| n.ends_with(".json")), "{names:?}");
        state.forget();
        state.forget();
        assert_eq!(state.load(), None);
        std::fs::write(state.path(), "not json").unwrap();
        assert_eq!(state.load(), None);
    }
}
