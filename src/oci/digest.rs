//! Content digests (`sha256:<64 hex>`): parsing, computing, and streaming hashers.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest as _, Sha256};

use crate::oci::OciError;

/// A validated `algorithm:hex` content digest. Only sha256 is produced; sha512 is
/// accepted when parsing so that foreign content can be named.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest(String);

impl Digest {
    /// The digest of `data`.
    pub fn of(data: &[u8]) -> Digest {
        let mut hasher = Hasher::new();
        hasher.update(data);
        hasher.finish()
    }

    /// `sha256` (the part before the colon).
    pub fn algorithm(&self) -> &str {
        self.0.split_once(':').map(|(a, _)| a).unwrap_or("")
    }

    /// The hex part after the colon.
    pub fn hex(&self) -> &str {
        self.0.split_once(':').map(|(_, h)| h).unwrap_or("")
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// `sha256-<hex>`: the form used in imgpkg tags and tarball entry names.
    pub fn dashed(&self) -> String {
        format!("{}-{}", self.algorithm(), self.hex())
    }
}

impl FromStr for Digest {
    type Err = OciError;

    fn from_str(input: &str) -> Result<Self, Self::Err> {
        let invalid = |reason: &str| OciError::InvalidDigest {
            input: input.to_string(),
            reason: reason.to_string(),
        };
        let (algorithm, hex) = input
            .split_once(':')
            .ok_or_else(|| invalid("expected <algorithm>:<hex>"))?;
        let expected_len = match algorithm {
            "sha256" => 64,
            "sha512" => 128,
            _ => return Err(invalid("unsupported algorithm (expected sha256 or sha512)")),
        };
        if hex.len() != expected_len {
            return Err(invalid(&format!(
                "{algorithm} digests have {expected_len} hex characters, found {}",
                hex.len()
            )));
        }
        if !hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(invalid("hex part must be lower-case 0-9a-f"));
        }
        Ok(Digest(input.to_string()))
    }
}

impl fmt::Display for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Digest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digest({})", self.0)
    }
}

impl serde::Serialize for Digest {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> serde::Deserialize<'de> for Digest {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Incremental sha256 over a stream, counting bytes as it goes.
#[derive(Clone, Default)]
pub struct Hasher {
    inner: Sha256,
    size: u64,
}

impl Hasher {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn update(&mut self, data: &[u8]) {
        self.inner.update(data);
        self.size += data.len() as u64;
    }

    /// Bytes hashed so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    pub fn finish(self) -> Digest {
        Digest(format!("sha256:{}", hex::encode(self.inner.finalize())))
    }
}

impl std::io::Write for Hasher {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_of_empty_input() {
        assert_eq!(
            Digest::of(b"").as_str(),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn rejects_bad_digests() {
        for bad in [
            "sha256:abc",
            "md5:00",
            "sha256",
            "sha256:E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855",
        ] {
            assert!(bad.parse::<Digest>().is_err(), "{bad}");
        }
    }

    #[test]
    fn dashed_form() {
        let d = Digest::of(b"");
        assert!(d.dashed().starts_with("sha256-e3b0"));
    }
}
