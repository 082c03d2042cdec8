//! The plan of a copy: what the closure holds (bundles, images, signatures,
//! manifests) and the distinct blobs to move, largest first, with their bytes
//! after deduplication and after what the destination already has. It is what
//! `--dry-run` prints, what `--plan-output` writes as JSON, and what
//! `--plan F --shard K/N` splits: [`shard_of`] deals the blobs to N shards
//! deterministically, balancing their bytes.

use std::collections::{BTreeMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::copy::closure::{Closure, Kind, Sources};
use crate::copy::{CopyError, Result};
use crate::oci::{Descriptor, Digest, media_types};

/// The JSON format version of a plan file.
pub const PLAN_VERSION: u32 = 1;

/// Where a copy reads from, as given on the command line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum SourceSpec {
    /// `-b REF` (a registry reference or `oci:DIR[:TAG|@DIGEST]`).
    Bundle(String),
    /// `-i REF`, repeatable.
    Images(Vec<String>),
    /// `--lock FILE` (an ImagesLock or a BundleLock).
    Lock(String),
    /// `--tar FILE` (an imgpkg tarball).
    Tar(String),
}

/// Where a copy writes to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "value")]
pub enum DestinationSpec {
    /// `--to-repo REPO`.
    Repo(String),
    /// `--to-tar FILE` (imgpkg's format).
    Tar(String),
    /// `--to-oci-layout DIR` (or `FILE.tar`, a tar of a layout).
    OciLayout(String),
}

/// One blob to move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedBlob {
    pub digest: Digest,
    pub size: u64,
    pub media_type: String,
    /// The source repository (`registry/repo`), or `""` when the source is one
    /// store (a layout or a tarball).
    pub source: String,
    /// The first image (its original reference) that uses the blob, for messages.
    pub image: String,
}

impl PlannedBlob {
    pub fn descriptor(&self) -> Descriptor {
        Descriptor {
            media_type: self.media_type.clone(),
            digest: self.digest.clone(),
            size: self.size,
        }
    }
}

/// One manifest tree of the closure, summarised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlannedItem {
    pub digest: Digest,
    /// `bundle`, `image` or `signature`.
    pub kind: String,
    pub orig_ref: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tag: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub root: bool,
    pub manifests: usize,
}

/// The plan.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub version: u32,
    pub source: SourceSpec,
    pub destination: DestinationSpec,
    pub bundles: usize,
    pub images: usize,
    pub signatures: usize,
    pub manifests: usize,
    /// Distinct blobs, largest first (ties by digest).
    pub blobs: Vec<PlannedBlob>,
    /// Their bytes, each counted once.
    pub bytes: u64,
    /// Blobs and bytes the destination already has (`None`: not asked).
    pub present_blobs: Option<usize>,
    pub present_bytes: Option<u64>,
    pub items: Vec<PlannedItem>,
}

impl Plan {
    /// Builds the plan of `closure`: every config and layer once, non-distributable
    /// layers only when `include_non_distributable`.
    pub fn new(
        closure: &Closure,
        sources: &Sources,
        source: SourceSpec,
        destination: DestinationSpec,
        include_non_distributable: bool,
    ) -> Plan {
        let mut seen = HashSet::new();
        let mut blobs = Vec::new();
        let (mut bundles, mut images, mut signatures, mut manifests) = (0, 0, 0, 0);
        let mut items = Vec::new();
        for item in &closure.items {
            let kind = match item.kind {
                Kind::Bundle { .. } => {
                    bundles += 1;
                    "bundle"
                }
                Kind::Image => {
                    images += 1;
                    "image"
                }
                Kind::Signature { .. } => {
                    signatures += 1;
                    "signature"
                }
            };
            manifests += item.graph.manifests.len();
            items.push(PlannedItem {
                digest: item.digest.clone(),
                kind: kind.to_string(),
                orig_ref: item.orig_ref.clone(),
                tag: item.tag.clone(),
                root: item.root,
                manifests: item.graph.manifests.len(),
            });
            for blob in &item.graph.blobs {
                if media_types::is_non_distributable(&blob.media_type) && !include_non_distributable
                {
                    continue;
                }
                if !seen.insert(blob.digest.clone()) {
                    continue;
                }
                let source_repo = match sources {
                    Sources::Registry(_) => item
                        .source
                        .registry_repository()
                        .map(|(r, p)| format!("{r}/{p}"))
                        .unwrap_or_default(),
                    Sources::Single(_) => String::new(),
                };
                blobs.push(PlannedBlob {
                    digest: blob.digest.clone(),
                    size: blob.size,
                    media_type: blob.media_type.clone(),
                    source: source_repo,
                    image: item.orig_ref.clone(),
                });
            }
        }
        sort_largest_first(&mut blobs);
        let bytes = blobs.iter().map(|b| b.size).sum();
        Plan {
            version: PLAN_VERSION,
            source,
            destination,
            bundles,
            images,
            signatures,
            manifests,
            blobs,
            bytes,
            present_blobs: None,
            present_bytes: None,
            items,
        }
    }

    /// Reads a plan file.
    pub fn read(path: &std::path::Path) -> Result<Plan> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CopyError::invalid(format!("reading plan {}: {e}", path.display())))?;
        let plan: Plan = serde_json::from_str(&text)
            .map_err(|e| CopyError::invalid(format!("plan {}: {e}", path.display())))?;
        if plan.version != PLAN_VERSION {
            return Err(CopyError::invalid(format!(
                "plan {}: version {} (this strake reads version {PLAN_VERSION})",
                path.display(),
                plan.version
            )));
        }
        Ok(plan)
    }

    /// The plan as pretty JSON with a final newline.
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).expect("a plan serialises");
        text.push('\n');
        text
    }

    /// The bytes still to move once what the destination has is known.
    pub fn missing_bytes(&self) -> u64 {
        self.bytes - self.present_bytes.unwrap_or(0)
    }

    /// A few lines for people: what will move.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} bundles, {} images, {} signatures, {} manifests\n{} blobs, {} after dedupe\n",
            self.bundles,
            self.images,
            self.signatures,
            self.manifests,
            self.blobs.len(),
            crate::bundle::describe::human_size(self.bytes)
        );
        if let (Some(blobs), Some(bytes)) = (self.present_blobs, self.present_bytes) {
            out.push_str(&format!(
                "destination has {blobs} of them ({}); {} blobs, {} to move\n",
                crate::bundle::describe::human_size(bytes),
                self.blobs.len() - blobs,
                crate::bundle::describe::human_size(self.bytes - bytes)
            ));
        }
        out
    }
}

/// Largest first; equal sizes by digest, so the order is the same everywhere.
pub fn sort_largest_first(blobs: &mut [PlannedBlob]) {
    blobs.sort_by(|a, b| b.size.cmp(&a.size).then_with(|| a.digest.cmp(&b.digest)));
}

/// A shard `K/N` (K counts from 0, as Kubernetes' `JOB_COMPLETION_INDEX`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Shard, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("--shard {s:?}: expected K/N, e.g. 0/4"))?;
        let index: usize = k
            .trim()
            .parse()
            .map_err(|_| format!("--shard {s:?}: K is not a number"))?;
        let count: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("--shard {s:?}: N is not a number"))?;
        if count == 0 || index >= count {
            return Err(format!("--shard {s:?}: need 0 <= K < N"));
        }
        Ok(Shard { index, count })
    }
}

/// Deals the plan's blobs to `count` shards: largest first, each to the shard
/// with the fewest bytes so far (the lowest index on ties). The same plan gives
/// the same answer in every process. Returns the shard index of each blob, in
/// plan order.
pub fn assign_shards(blobs: &[PlannedBlob], count: usize) -> Vec<usize> {
    let mut ordered: Vec<usize> = (0..blobs.len()).collect();
    ordered.sort_by(|&a, &b| {
        blobs[b]
            .size
            .cmp(&blobs[a].size)
            .then_with(|| blobs[a].digest.cmp(&blobs[b].digest))
    });
    let mut load = vec![0u64; count.max(1)];
    let mut out = vec![0; blobs.len()];
    for i in ordered {
        let (shard, _) = load
            .iter()
            .enumerate()
            .min_by_key(|&(k, bytes)| (*bytes, k))
            .expect("at least one shard");
        out[i] = shard;
        load[shard] += blobs[i].size;
    }
    out
}

/// The blobs of `shard`.
pub fn shard_of(plan: &Plan, shard: Shard) -> Vec<PlannedBlob> {
    let assignment = assign_shards(&plan.blobs, shard.count);
    plan.blobs
        .iter()
        .zip(assignment)
        .filter(|(_, k)| *k == shard.index)
        .map(|(b, _)| b.clone())
        .collect()
}

/// Bytes per shard, for messages and tests.
pub fn shard_loads(plan: &Plan, count: usize) -> BTreeMap<usize, u64> {
    let mut loads = BTreeMap::new();
    for (blob, k) in plan.blobs.iter().zip(assign_shards(&plan.blobs, count)) {
        *loads.entry(k).or_insert(0) += blob.size;
    }
    loads
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blob(n: u8, size: u64) -> PlannedBlob {
        PlannedBlob {
            digest: Digest::of(&[n]),
            size,
            media_type: "x".into(),
            source: String::new(),
            image: String::new(),
        }
    }

    #[test]
    fn shards_are_balanced_disjoint_and_complete() {
        let blobs: Vec<PlannedBlob> = (0..40u8)
            .map(|n| blob(n, 1 + (n as u64 * 37) % 100))
            .collect();
        let assignment = assign_shards(&blobs, 4);
        assert_eq!(assignment, assign_shards(&blobs, 4), "deterministic");
        let mut loads = [0u64; 4];
        for (b, k) in blobs.iter().zip(&assignment) {
            loads[*k] += b.size;
        }
        let (min, max) = (loads.iter().min().unwrap(), loads.iter().max().unwrap());
        assert!(max - min <= 100, "{loads:?}");
        assert_eq!(
            loads.iter().sum::<u64>(),
            blobs.iter().map(|b| b.size).sum::<u64>()
        );
    }

    #[test]
    fn shard_flag_parses() {
        assert_eq!(
            "1/4".parse::<Shard>().unwrap(),
            Shard { index: 1, count: 4 }
        );
        assert!("4/4".parse::<Shard>().is_err());
        assert!("x".parse::<Shard>().is_err());
        assert!("0/0".parse::<Shard>().is_err());
    }
}
