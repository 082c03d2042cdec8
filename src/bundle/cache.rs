//! The layer cache: remembers, per uncompressed layer (diff_id) and gzip settings,
//! the compressed blob's digest and size, plus an index from an input fingerprint
//! (paths, sizes, modes, mtimes, ctimes, inodes) to the diff_id it produced.
//!
//! Pushing an unchanged directory to a store that already holds the blob then only
//! re-hashes the tar to confirm the diff_id; it never recompresses. Nothing here is
//! trusted blindly: the diff_id is always recomputed and the destination is asked
//! whether it really has the blob. A damaged or missing cache only costs time.
//!
//! Location: `$STRAKE_CACHE_DIR`, else `$XDG_CACHE_HOME/strake`, else
//! `~/.cache/strake`; layer records live under `layers/`.

use std::path::{Path, PathBuf};

use crate::bundle::gzip::settings_id;
use crate::bundle::tar::{EntryKind, TarOptions, TarPlan};
use crate::oci::Digest;
use crate::oci::digest::Hasher;

/// What the cache knows about one layer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LayerRecord {
    pub diff_id: Digest,
    pub digest: Digest,
    pub size: u64,
    pub settings: String,
}

/// A layer cache rooted at a directory.
#[derive(Clone, Debug)]
pub struct LayerCache {
    root: PathBuf,
}

impl LayerCache {
    pub fn at(root: impl Into<PathBuf>) -> LayerCache {
        LayerCache { root: root.into() }
    }

    /// The default location (see the module docs); `None` when no home is known.
    pub fn default_location() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("STRAKE_CACHE_DIR").filter(|v| !v.is_empty()) {
            return Some(PathBuf::from(dir));
        }
        if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|v| !v.is_empty()) {
            return Some(PathBuf::from(dir).join("strake"));
        }
        std::env::var_os("HOME")
            .filter(|v| !v.is_empty())
            .map(|h| PathBuf::from(h).join(".cache").join("strake"))
    }

    pub fn open_default() -> Option<LayerCache> {
        LayerCache::default_location().map(LayerCache::at)
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    fn settings_key() -> String {
        Digest::of(settings_id().as_bytes()).hex()[..16].to_string()
    }

    fn record_path(&self, diff_id: &Digest) -> PathBuf {
        self.root.join("layers").join(format!(
            "{}-{}.json",
            diff_id.dashed(),
            Self::settings_key()
        ))
    }

    fn fingerprint_path(&self, fingerprint: &Digest) -> PathBuf {
        self.root
            .join("layers")
            .join(format!("fp-{}-{}", fingerprint.hex(), Self::settings_key()))
    }

    /// The record for `diff_id` under the current gzip settings.
    pub fn lookup(&self, diff_id: &Digest) -> Option<LayerRecord> {
        let text = std::fs::read(self.record_path(diff_id)).ok()?;
        let record: LayerRecord = serde_json::from_slice(&text).ok()?;
        (record.diff_id == *diff_id && record.settings == settings_id()).then_some(record)
    }

    /// The record last produced from inputs with this fingerprint.
    pub fn lookup_fingerprint(&self, fingerprint: &Digest) -> Option<LayerRecord> {
        let text = std::fs::read_to_string(self.fingerprint_path(fingerprint)).ok()?;
        let diff_id: Digest = text.trim().parse().ok()?;
        self.lookup(&diff_id)
    }

    /// Remembers a layer (and the fingerprint that produced it). Errors are
    /// reported to the log only: the cache is an optimisation.
    pub fn store(&self, record: &LayerRecord, fingerprint: Option<&Digest>) {
        let json = serde_json::to_vec(record).expect("record serialises");
        if let Err(e) = write_atomic(&self.record_path(&record.diff_id), &json) {
            tracing::warn!("layer cache {}: {e}", self.root.display());
            return;
        }
        if let Some(fp) = fingerprint
            && let Err(e) = write_atomic(
                &self.fingerprint_path(fp),
                record.diff_id.as_str().as_bytes(),
            )
        {
            tracing::warn!("layer cache {}: {e}", self.root.display());
        }
    }
}

fn write_atomic(path: &Path, data: &[u8]) -> std::io::Result<()> {
    let dir = path.parent().expect("cache paths have a parent");
    std::fs::create_dir_all(dir)?;
    crate::oci::atomic::replace_file(path, data, None)
}

/// A digest over everything that could change the layer without us reading file
/// contents: entry names, modes, sizes, source paths and file stamps, the tar
/// options and the gzip settings.
pub fn fingerprint(plan: &TarPlan, options: &TarOptions) -> Digest {
    let mut h = Hasher::new();
    let mut put = |bytes: &[u8]| {
        h.update(&(bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    };
    put(b"strake-layer-fingerprint-v1");
    put(settings_id().as_bytes());
    put(&[options.preserve_permissions as u8]);
    for e in &options.exclusions {
        put(e.as_bytes());
    }
    for entry in &plan.entries {
        put(&entry.name);
        put(&entry.mode.to_le_bytes());
        for s in entry.stamp {
            put(&s.to_le_bytes());
        }
        match &entry.kind {
            EntryKind::Dir => put(b"d"),
            EntryKind::File { source, size } => {
                let abs = std::path::absolute(source).unwrap_or_else(|_| source.clone());
                put(abs.as_os_str().as_encoded_bytes());
                put(&size.to_le_bytes());
            }
            EntryKind::Contents(bytes) => {
                put(b"c");
                put(bytes);
            }
        }
    }
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_are_keyed_by_settings() {
        let dir = tempfile::tempdir().unwrap();
        let cache = LayerCache::at(dir.path());
        let rec = LayerRecord {
            diff_id: Digest::of(b"tar"),
            digest: Digest::of(b"gz"),
            size: 2,
            settings: settings_id(),
        };
        let fp = Digest::of(b"fp");
        assert!(cache.lookup(&rec.diff_id).is_none());
        cache.store(&rec, Some(&fp));
        assert_eq!(cache.lookup(&rec.diff_id), Some(rec.clone()));
        assert_eq!(cache.lookup_fingerprint(&fp), Some(rec.clone()));
        // A record written under other settings is ignored.
        let other = LayerRecord {
            settings: "other".into(),
            ..rec.clone()
        };
        std::fs::write(
            cache.record_path(&rec.diff_id),
            serde_json::to_vec(&other).unwrap(),
        )
        .unwrap();
        assert!(cache.lookup(&rec.diff_id).is_none());
    }
}
