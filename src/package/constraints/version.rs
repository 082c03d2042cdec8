//! Version parsing as carvel-dev/semver v4 does it: strict (`Parse`, used for Package
//! versions and constraint terms), relaxed (a leading `v` tolerated, vendir's
//! `NewRelaxedSemver`) and tolerant (`ParseTolerant`, for cluster and controller
//! versions). Parsed values are `semver::Version`s, whose ordering (build metadata
//! included) is the fork's.

use semver::{BuildMetadata, Prerelease, Version};

use crate::package::go_quote::go_quote;

/// Why a version string is not strict semver; the texts are the upstream ones.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("Version string empty")]
    Empty,
    #[error("No Major.Minor.Patch elements found")]
    NotThreeParts,
    #[error("Invalid character(s) found in {} number {}", .0, go_quote(.1))]
    InvalidNumber(&'static str, String),
    #[error("{} number must not contain leading zeroes {}", .0, go_quote(.1))]
    LeadingZero(&'static str, String),
    #[error("strconv.ParseUint: parsing {}: {}", go_quote(.0), .1)]
    Number(String, &'static str),
    #[error("Prerelease is empty")]
    EmptyPrerelease,
    #[error("Numeric PreRelease version must not contain leading zeroes {}", go_quote(.0))]
    PrereleaseLeadingZero(String),
    #[error("Invalid character(s) found in PreRelease {}", go_quote(.0))]
    InvalidPrerelease(String),
    #[error("BuildMeta is empty")]
    EmptyBuild,
    #[error("Invalid character(s) found in build meta data {}", go_quote(.0))]
    InvalidBuild(String),
    #[error("Short version cannot contain PreRelease/Build meta data")]
    ShortWithSuffix,
}

fn is_digits(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_digit())
}

fn is_alphanumeric(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn has_leading_zero(text: &str) -> bool {
    text.len() > 1 && text.starts_with('0')
}

fn number(text: &str, what: &'static str, capital: &'static str) -> Result<u64, ParseError> {
    if !is_digits(text) {
        return Err(ParseError::InvalidNumber(what, text.to_string()));
    }
    if has_leading_zero(text) {
        return Err(ParseError::LeadingZero(capital, text.to_string()));
    }
    if text.is_empty() {
        return Err(ParseError::Number(String::new(), "invalid syntax"));
    }
    text.parse::<u64>()
        .map_err(|_| ParseError::Number(text.to_string(), "value out of range"))
}

/// Strict semver: `MAJOR.MINOR.PATCH[-PRE][+BUILD]`, no `v`, no leading zeros.
pub fn parse_strict(text: &str) -> Result<Version, ParseError> {
    if text.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut parts = text.splitn(3, '.');
    let (Some(major), Some(minor), Some(rest)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(ParseError::NotThreeParts);
    };
    let major = number(major, "major", "Major")?;
    let minor = number(minor, "minor", "Minor")?;
    let (rest, build) = match rest.find('+') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let (patch, pre) = match rest.find('-') {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let patch = number(patch, "patch", "Patch")?;
    if let Some(pre) = pre {
        for part in pre.split('.') {
            if part.is_empty() {
                return Err(ParseError::EmptyPrerelease);
            }
            if is_digits(part) {
                if has_leading_zero(part) {
                    return Err(ParseError::PrereleaseLeadingZero(part.to_string()));
                }
                if part.parse::<u64>().is_err() {
                    return Err(ParseError::Number(part.to_string(), "value out of range"));
                }
            } else if !is_alphanumeric(part) {
                return Err(ParseError::InvalidPrerelease(part.to_string()));
            }
        }
    }
    if let Some(build) = build {
        for part in build.split('.') {
            if part.is_empty() {
                return Err(ParseError::EmptyBuild);
            }
            if !is_alphanumeric(part) {
                return Err(ParseError::InvalidBuild(part.to_string()));
            }
        }
    }
    let mut version = Version::new(major, minor, patch);
    if let Some(pre) = pre {
        version.pre =
            Prerelease::new(pre).map_err(|_| ParseError::InvalidPrerelease(pre.into()))?;
    }
    if let Some(build) = build {
        version.build =
            BuildMetadata::new(build).map_err(|_| ParseError::InvalidBuild(build.into()))?;
    }
    Ok(version)
}

/// vendir's relaxed parse: one leading lowercase `v` is tolerated.
pub fn parse_relaxed(text: &str) -> Result<Version, ParseError> {
    parse_strict(text.strip_prefix('v').unwrap_or(text))
}

/// `ParseTolerant`: trims spaces and a `v`, drops leading zeros, fills `1.27` up to
/// `1.27.0`.
pub fn parse_tolerant(text: &str) -> Result<Version, ParseError> {
    let text = text.trim();
    let text = text.strip_prefix('v').unwrap_or(text);
    let mut parts: Vec<String> = text
        .splitn(3, '.')
        .map(|part| {
            if part.len() > 1 {
                let trimmed = part.trim_start_matches('0');
                if trimmed.is_empty() || !trimmed.as_bytes()[0].is_ascii_digit() {
                    format!("0{trimmed}")
                } else {
                    trimmed.to_string()
                }
            } else {
                part.to_string()
            }
        })
        .collect();
    if parts.len() < 3 {
        if parts
            .last()
            .is_some_and(|p| p.contains('+') || p.contains('-'))
        {
            return Err(ParseError::ShortWithSuffix);
        }
        parts.resize(3, "0".to_string());
    }
    parse_strict(&parts.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_rejects_what_upstream_rejects() {
        assert_eq!(
            parse_strict("01.0.0").unwrap_err().to_string(),
            "Major number must not contain leading zeroes \"01\""
        );
        assert_eq!(parse_strict("1.0").unwrap_err(), ParseError::NotThreeParts);
        assert!(parse_strict("1.0.0-01").is_err());
        assert!(parse_strict("1.0.0-01a").is_ok());
        assert!(parse_strict("1.0.0+001").is_ok());
        assert!(parse_strict("v1.0.0").is_err());
        assert!(parse_relaxed("v1.0.0").is_ok());
        assert!(parse_strict("18446744073709551616.0.0").is_err());
    }

    #[test]
    fn strict_errors_read_as_kapp_controller_prints_them() {
        for ok in [
            "0.0.0+build.123",
            "1.0.0-rc.1",
            "1.0.0-alpha1",
            "1.0.0-RC.1",
        ] {
            assert_eq!(parse_strict(ok).unwrap().to_string(), ok);
        }
        let err = |s: &str| parse_strict(s).unwrap_err().to_string();
        assert_eq!(
            err("v1.0.0"),
            "Invalid character(s) found in major number \"v1\""
        );
        assert_eq!(err("1.0.0+"), "BuildMeta is empty");
        assert_eq!(
            err("1.0.0 "),
            "Invalid character(s) found in patch number \"0 \""
        );
        assert_eq!(
            err("1.0.0-alpha.01"),
            "Numeric PreRelease version must not contain leading zeroes \"01\""
        );
        assert_eq!(
            err("1.0.0-rc_1"),
            "Invalid character(s) found in PreRelease \"rc_1\""
        );
        assert_eq!(err(""), "Version string empty");
    }

    #[test]
    fn tolerant_strips_and_fills() {
        assert_eq!(
            parse_tolerant("v1.28.0-rc.1+k3s1").unwrap().to_string(),
            "1.28.0-rc.1+k3s1"
        );
        assert_eq!(parse_tolerant("1.27").unwrap(), Version::new(1, 27, 0));
        assert!(parse_tolerant("develop").is_err());
    }
}
