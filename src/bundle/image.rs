//! The image config and Docker v2 manifest of a bundle, byte for byte as imgpkg
//! writes them (`carvel-formats.md` §1.1): compact JSON, Go struct key order, zero
//! times, labels sorted (Go sorts map keys) and escaped like Go's encoder.

use std::collections::BTreeMap;

use crate::bundle::{BundleError, Result};
use crate::oci::{Descriptor, Digest, ManifestBytes, media_types};

/// The config label that marks an image as a bundle.
pub const BUNDLE_LABEL: &str = "dev.carvel.imgpkg.bundle";

/// Parses `-l key=value` flags into labels; the bundle marker is reserved.
pub fn parse_labels(flags: &[String]) -> Result<BTreeMap<String, String>> {
    let mut labels = BTreeMap::new();
    for flag in flags {
        let (k, v) = flag.split_once('=').ok_or_else(|| {
            BundleError::invalid(format!(
                "Invalid label '{flag}': expected format of key=value"
            ))
        })?;
        if k.is_empty() {
            return Err(BundleError::invalid(format!(
                "Invalid label '{flag}': the key is empty"
            )));
        }
        if k == BUNDLE_LABEL {
            return Err(BundleError::invalid(format!(
                "Label '{BUNDLE_LABEL}' is reserved for imgpkg bundles and cannot be set with -l"
            )));
        }
        labels.insert(k.to_string(), v.to_string());
    }
    Ok(labels)
}

/// The config blob. `labels` empty gives `"config":{}` (a plain image).
pub fn config_json(diff_id: &Digest, labels: &BTreeMap<String, String>) -> Vec<u8> {
    let zero = "0001-01-01T00:00:00Z";
    let mut s = format!(
        "{{\"architecture\":\"\",\"created\":\"{zero}\",\"history\":[{{\"author\":\"imgpkg\",\"created\":\"{zero}\",\"created_by\":\"imgpkg\"}}],\"os\":\"\",\"rootfs\":{{\"type\":\"layers\",\"diff_ids\":[\"{diff_id}\"]}},\"config\":{{"
    );
    if !labels.is_empty() {
        s.push_str("\"Labels\":{");
        let items: Vec<String> = labels
            .iter()
            .map(|(k, v)| {
                format!(
                    "{}:{}",
                    crate::go_json::string(k),
                    crate::go_json::string(v)
                )
            })
            .collect();
        s.push_str(&items.join(","));
        s.push('}');
    }
    s.push_str("}}");
    s.into_bytes()
}

/// Labels of a bundle: the marker plus the user's.
pub fn bundle_labels(extra: &BTreeMap<String, String>) -> BTreeMap<String, String> {
    let mut labels = extra.clone();
    labels.insert(BUNDLE_LABEL.to_string(), "true".to_string());
    labels
}

fn descriptor_json(d: &Descriptor) -> String {
    format!(
        "{{\"mediaType\":{},\"size\":{},\"digest\":\"{}\"}}",
        crate::go_json::string(&d.media_type),
        d.size,
        d.digest
    )
}

/// The Docker schema 2 manifest with one gzip layer.
pub fn manifest(config: &Descriptor, layer: &Descriptor) -> ManifestBytes {
    let s = format!(
        "{{\"schemaVersion\":2,\"mediaType\":\"{}\",\"config\":{},\"layers\":[{}]}}",
        media_types::DOCKER_MANIFEST,
        descriptor_json(config),
        descriptor_json(layer)
    );
    ManifestBytes::new(media_types::DOCKER_MANIFEST, s.into_bytes())
}

/// The parts of an image config a bundle reader needs.
#[derive(Debug, Clone)]
pub struct ConfigInfo {
    pub labels: BTreeMap<String, String>,
    pub diff_ids: Vec<Digest>,
}

impl ConfigInfo {
    pub fn is_bundle(&self) -> bool {
        self.labels.contains_key(BUNDLE_LABEL)
    }
}

/// Reads labels and diff_ids from a config blob.
pub fn parse_config(bytes: &[u8], location: &str) -> Result<ConfigInfo> {
    let v: serde_json::Value = serde_json::from_slice(bytes).map_err(|e| {
        BundleError::invalid(format!("{location}: image config is not valid JSON: {e}"))
    })?;
    let mut labels = BTreeMap::new();
    if let Some(map) = v["config"]["Labels"].as_object() {
        for (k, val) in map {
            labels.insert(k.clone(), val.as_str().unwrap_or_default().to_string());
        }
    }
    let mut diff_ids = Vec::new();
    for d in v["rootfs"]["diff_ids"].as_array().into_iter().flatten() {
        if let Some(s) = d.as_str() {
            diff_ids.push(s.parse::<Digest>()?);
        }
    }
    Ok(ConfigInfo { labels, diff_ids })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_matches_imgpkg_shape() {
        let d: Digest = "sha256:1fa0f0e5f40cd08a940cf2e0385685a1783214bd9f6d533ea68c186c2fab6a09"
            .parse()
            .unwrap();
        let c = config_json(&d, &bundle_labels(&BTreeMap::new()));
        assert_eq!(
            String::from_utf8(c).unwrap(),
            "{\"architecture\":\"\",\"created\":\"0001-01-01T00:00:00Z\",\"history\":[{\"author\":\"imgpkg\",\"created\":\"0001-01-01T00:00:00Z\",\"created_by\":\"imgpkg\"}],\"os\":\"\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":[\"sha256:1fa0f0e5f40cd08a940cf2e0385685a1783214bd9f6d533ea68c186c2fab6a09\"]},\"config\":{\"Labels\":{\"dev.carvel.imgpkg.bundle\":\"true\"}}}"
        );
        let plain = String::from_utf8(config_json(&d, &BTreeMap::new())).unwrap();
        assert!(plain.ends_with("\"config\":{}}"), "{plain}");
    }

    #[test]
    fn labels_are_sorted_escaped_and_the_marker_is_reserved() {
        let labels = parse_labels(&["z=1".into(), "a=<b>&".into()]).unwrap();
        let d = Digest::of(b"");
        let c = String::from_utf8(config_json(&d, &bundle_labels(&labels))).unwrap();
        assert!(
            c.ends_with(
                "{\"Labels\":{\"a\":\"\\u003cb\\u003e\\u0026\",\"dev.carvel.imgpkg.bundle\":\"true\",\"z\":\"1\"}}}"
            ),
            "{c}"
        );
        let err = parse_labels(&[format!("{BUNDLE_LABEL}=x")]).unwrap_err();
        assert!(err.to_string().contains("reserved"), "{err}");
        let err = parse_labels(&["novalue".into()]).unwrap_err();
        assert!(err.to_string().contains("'novalue'"), "{err}");
    }
}
