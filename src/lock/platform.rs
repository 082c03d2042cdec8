//! `--platform os/arch[/variant][:osversion]` and kbld's `platformSelection`: picking the
//! one child of an index that matches (`image/platform_selected.go`).

use std::fmt;

use crate::oci::{Digest, ManifestBytes};

/// A platform to select from an index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Platform {
    pub os: String,
    pub architecture: String,
    pub variant: String,
    pub os_version: String,
    pub features: Vec<String>,
    pub os_features: Vec<String>,
}

impl Platform {
    /// Parses `os/arch[/variant][:osversion]`.
    pub fn parse(text: &str) -> Result<Platform, String> {
        let (main, os_version) = match text.split_once(':') {
            Some((m, v)) => (m, v.to_string()),
            None => (text, String::new()),
        };
        let parts: Vec<&str> = main.split('/').collect();
        if parts.len() < 2 || parts.len() > 3 || parts.iter().any(|p| p.is_empty()) {
            return Err(format!(
                "invalid platform {text:?}: expected os/arch[/variant][:osversion], e.g. linux/arm64"
            ));
        }
        Ok(Platform {
            os: parts[0].to_string(),
            architecture: parts[1].to_string(),
            variant: parts.get(2).map(|s| s.to_string()).unwrap_or_default(),
            os_version,
            features: Vec::new(),
            os_features: Vec::new(),
        })
    }

    /// Whether an index entry's `platform` object matches (os and architecture equal;
    /// variant and OS version equal when asked for; features a subset).
    pub fn matches(&self, given: &serde_json::Value) -> bool {
        let s = |k: &str| given[k].as_str().unwrap_or("").to_string();
        let list = |k: &str| -> Vec<String> {
            given[k]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|v| v.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default()
        };
        if s("os") != self.os || s("architecture") != self.architecture {
            return false;
        }
        if !self.os_version.is_empty() && s("os.version") != self.os_version {
            return false;
        }
        if !self.variant.is_empty() && s("variant") != self.variant {
            return false;
        }
        let features = list("features");
        let os_features = list("os.features");
        self.features.iter().all(|f| features.contains(f))
            && self.os_features.iter().all(|f| os_features.contains(f))
    }

    /// The digest of the one child of `index` that matches; an error when none or several do.
    pub fn select(&self, index: &ManifestBytes, index_url: &str) -> Result<Digest, String> {
        let value: serde_json::Value = serde_json::from_slice(&index.bytes)
            .map_err(|e| format!("index {index_url} is not JSON: {e}"))?;
        let mut found: Option<Digest> = None;
        for child in value["manifests"].as_array().into_iter().flatten() {
            let platform = &child["platform"];
            if !platform.is_object() || !self.matches(platform) {
                continue;
            }
            if found.is_some() {
                return Err(format!(
                    "more than one image under index {index_url} matches platform {self}"
                ));
            }
            let digest = child["digest"]
                .as_str()
                .ok_or_else(|| format!("index {index_url} has an entry without digest"))?
                .parse::<Digest>()
                .map_err(|e| format!("index {index_url}: {e}"))?;
            found = Some(digest);
        }
        found.ok_or_else(|| format!("no image under index {index_url} matches platform {self}"))
    }
}

impl fmt::Display for Platform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.os, self.architecture)?;
        if !self.variant.is_empty() {
            write!(f, "/{}", self.variant)?;
        }
        if !self.os_version.is_empty() {
            write!(f, ":{}", self.os_version)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_matches() {
        let p = Platform::parse("linux/arm/v7").unwrap();
        assert_eq!(
            (p.os.as_str(), p.architecture.as_str(), p.variant.as_str()),
            ("linux", "arm", "v7")
        );
        assert!(Platform::parse("linux").unwrap_err().contains("os/arch"));
        let p = Platform::parse("linux/arm64").unwrap();
        assert!(
            p.matches(&serde_json::json!({"os":"linux","architecture":"arm64","variant":"v8"}))
        );
        assert!(!p.matches(&serde_json::json!({"os":"linux","architecture":"amd64"})));
        let index = ManifestBytes::new(
            crate::oci::media_types::OCI_INDEX,
            serde_json::to_vec(&serde_json::json!({"schemaVersion":2,"manifests":[
                {"digest": format!("sha256:{}", "a".repeat(64)), "size": 1, "mediaType": "x", "platform": {"os":"linux","architecture":"amd64"}},
                {"digest": format!("sha256:{}", "b".repeat(64)), "size": 1, "mediaType": "x", "platform": {"os":"linux","architecture":"arm64"}}
            ]})).unwrap(),
        );
        assert_eq!(
            p.select(&index, "r/i@x").unwrap().to_string(),
            format!("sha256:{}", "b".repeat(64))
        );
        let s390 = Platform::parse("linux/s390x").unwrap();
        assert!(
            s390.select(&index, "r/i@x")
                .unwrap_err()
                .contains("no image under index r/i@x")
        );
    }
}
