//! The version rules kapp-controller's Package validation applies, with its messages:
//! strict semver as `github.com/carvel-dev/semver/v4`'s `Parse` reads it (`MAJOR.MINOR.PATCH`,
//! no `v`, no leading zeros, optional `-prerelease` and `+build`), and whether a
//! `*VersionSelection.constraints` string parses as that library's range
//! (`ParseRange`: tokenising, `||`, wildcard expansion, comparators).
//!
//! This is syntax only: which version a range selects is not decided here.

/// A strictly parsed version's parts (only what the rules here need).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StrictVersion {
    pub major: u64,
    pub minor: u64,
    pub patch: u64,
    pub pre: Vec<String>,
    pub build: Vec<String>,
}

impl std::fmt::Display for StrictVersion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        if !self.pre.is_empty() {
            write!(f, "-{}", self.pre.join("."))?;
        }
        if !self.build.is_empty() {
            write!(f, "+{}", self.build.join("."))?;
        }
        Ok(())
    }
}

/// Go's `%q` for the ASCII strings these messages quote.
pub(crate) fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn only_digits(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit())
}

fn only_alphanum(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

fn leading_zero(s: &str) -> bool {
    s.len() > 1 && s.starts_with('0')
}

fn number(part: &str, what: &str, capital: &str) -> Result<u64, String> {
    if !only_digits(part) {
        return Err(format!(
            "Invalid character(s) found in {what} number {}",
            go_quote(part)
        ));
    }
    if leading_zero(part) {
        return Err(format!(
            "{capital} number must not contain leading zeroes {}",
            go_quote(part)
        ));
    }
    part.parse::<u64>().map_err(|_| {
        format!(
            "strconv.ParseUint: parsing {}: invalid syntax",
            go_quote(part)
        )
    })
}

/// `semver.Parse`: strict semantic version, with the library's error messages.
pub fn parse_strict(s: &str) -> Result<StrictVersion, String> {
    if s.is_empty() {
        return Err("Version string empty".into());
    }
    let parts: Vec<&str> = s.splitn(3, '.').collect();
    if parts.len() != 3 {
        return Err("No Major.Minor.Patch elements found".into());
    }
    let major = number(parts[0], "major", "Major")?;
    let minor = number(parts[1], "minor", "Minor")?;
    let mut patch_str = parts[2];
    let mut build = Vec::new();
    let mut pre = Vec::new();
    if let Some(i) = patch_str.find('+') {
        build = patch_str[i + 1..].split('.').map(str::to_string).collect();
        patch_str = &patch_str[..i];
    }
    if let Some(i) = patch_str.find('-') {
        pre = patch_str[i + 1..].split('.').map(str::to_string).collect();
        patch_str = &patch_str[..i];
    }
    let patch = number(patch_str, "patch", "Patch")?;
    for p in &pre {
        if p.is_empty() {
            return Err("Prerelease is empty".into());
        }
        if only_digits(p) {
            if leading_zero(p) {
                return Err(format!(
                    "Numeric PreRelease version must not contain leading zeroes {}",
                    go_quote(p)
                ));
            }
        } else if !only_alphanum(p) {
            return Err(format!(
                "Invalid character(s) found in PreRelease {}",
                go_quote(p)
            ));
        }
    }
    for b in &build {
        if b.is_empty() {
            return Err("BuildMeta is empty".into());
        }
        if !only_alphanum(b) {
            return Err(format!(
                "Invalid character(s) found in build meta data {}",
                go_quote(b)
            ));
        }
    }
    Ok(StrictVersion {
        major,
        minor,
        patch,
        pre,
        build,
    })
}

/// The range tokeniser: split at spaces, except a space right after `<`, `>` or `=`;
/// one-character tokens are dropped; spaces inside tokens removed.
fn split_and_trim(s: &str) -> Vec<String> {
    let bytes = s.as_bytes();
    let mut result = Vec::new();
    let mut last = 0usize;
    let mut last_char = 0u8;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b' ' && !matches!(last_char, b'>' | b'<' | b'=') {
            if (last as isize) < i as isize - 1 {
                result.push(s[last..i].to_string());
            }
            last = i + 1;
        } else if b != b' ' {
            last_char = b;
        }
    }
    if (last as isize) < bytes.len() as isize - 1 {
        result.push(s[last..].to_string());
    }
    result.into_iter().map(|t| t.replace(' ', "")).collect()
}

fn split_comparator_version(s: &str) -> Result<(String, String), String> {
    match s.find(|c: char| c.is_ascii_digit()) {
        Some(i) => Ok((s[..i].trim().to_string(), s[i..].to_string())),
        None => Err(format!(
            "Could not get version from string: {}",
            go_quote(s)
        )),
    }
}

/// Replaces a term with an `x` wildcard by the terms it stands for.
fn expand_wildcard(term: &str, out: &mut Vec<String>) -> Result<(), String> {
    let (op, version) = split_comparator_version(term)?;
    let segments: Vec<&str> = version.split('.').collect();
    // 1.x (two parts) widens the minor, 1.2.x (three) the patch.
    let wildcard = if segments.last() == Some(&"x") {
        match segments.len() {
            2 => Some(Wildcard::Minor),
            3 => Some(Wildcard::Patch),
            _ => None,
        }
    } else {
        None
    };
    let flat = {
        let v = version.replacen(".x.x", ".x", 1).replacen(".x", ".0", 1);
        if v.split('.').count() == 2 {
            format!("{v}.0")
        } else {
            v
        }
    };
    let (result_op, increment) = match op.as_str() {
        ">" => (">=", true),
        ">=" => (">=", false),
        "<" => ("<", false),
        "<=" => ("<", true),
        "" | "=" | "==" => {
            out.push(format!(">={flat}"));
            ("<", true)
        }
        "!=" | "!" => {
            out.push(format!("<{flat}"));
            (">=", true)
        }
        _ => ("", false),
    };
    let result_version = if increment {
        let bumped = parse_strict(&flat).ok().and_then(|mut v| {
            match wildcard? {
                Wildcard::Patch => {
                    v.minor += 1;
                    v.patch = 0;
                }
                Wildcard::Minor => {
                    v.major += 1;
                    v.minor = 0;
                    v.patch = 0;
                }
            }
            Some(format!("{}.{}.{}", v.major, v.minor, v.patch))
        });
        bumped.unwrap_or_default()
    } else {
        flat
    };
    out.push(format!("{result_op}{result_version}"));
    Ok(())
}

enum Wildcard {
    Minor,
    Patch,
}

/// `semver.ParseRange`: whether `s` is a valid range, with the library's error message.
pub fn check_range(s: &str) -> Result<(), String> {
    let parts = split_and_trim(s);
    let mut or_parts: Vec<Vec<String>> = Vec::new();
    let mut last = 0usize;
    for (i, p) in parts.iter().enumerate() {
        if p == "||" {
            if i == 0 {
                return Err("First element in range is '||'".into());
            }
            or_parts.push(parts[last..i].to_vec());
            last = i + 1;
        }
    }
    if last == parts.len() {
        return Err("Last element in range is '||'".into());
    }
    or_parts.push(parts[last..].to_vec());
    for and_part in or_parts {
        let mut expanded = Vec::new();
        for term in &and_part {
            if term.contains('x') {
                expand_wildcard(term, &mut expanded)?;
            } else {
                expanded.push(term.clone());
            }
        }
        for term in &expanded {
            let (op, version) = split_comparator_version(term)?;
            if !matches!(
                op.as_str(),
                "" | "=" | "==" | ">" | ">=" | "<" | "<=" | "!" | "!="
            ) {
                return Err(format!(
                    "Could not parse Range {}: Could not parse comparator {} in {}",
                    go_quote(s),
                    go_quote(&op),
                    go_quote(term)
                ));
            }
            if let Err(e) = parse_strict(&version) {
                return Err(format!(
                    "Could not parse Range {}: Could not parse version {} in {}: {e}",
                    go_quote(s),
                    go_quote(&version),
                    go_quote(term)
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_parse_accepts_semver_and_names_what_is_wrong() {
        for ok in [
            "1.0.0",
            "0.0.0+build.123",
            "1.0.0-rc.1",
            "1.0.0-alpha1",
            "1.0.0-RC.1",
        ] {
            assert_eq!(parse_strict(ok).unwrap().to_string(), ok);
        }
        let err = |s: &str| parse_strict(s).unwrap_err();
        assert_eq!(
            err("v1.0.0"),
            "Invalid character(s) found in major number \"v1\""
        );
        assert_eq!(err("1.0"), "No Major.Minor.Patch elements found");
        assert_eq!(
            err("01.0.0"),
            "Major number must not contain leading zeroes \"01\""
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
        assert_eq!(err(""), "Version string empty");
    }

    #[test]
    fn ranges_follow_the_library_quirks() {
        for ok in [
            ">=1.0.0",
            ">= 1.0.0 <2.0.0",
            "1.x",
            ">=0.50.0 x",
            "<1.0.0 || >=2.0.0",
            "1.2.x",
        ] {
            assert_eq!(check_range(ok), Ok(()), "{ok}");
        }
        assert_eq!(
            check_range("").unwrap_err(),
            "Last element in range is '||'"
        );
        assert_eq!(
            check_range("*").unwrap_err(),
            "Last element in range is '||'"
        );
        assert_eq!(
            check_range("~1.20").unwrap_err(),
            "Could not parse Range \"~1.20\": Could not parse comparator \"~\" in \"~1.20\""
        );
        assert_eq!(
            check_range(">=0.50").unwrap_err(),
            "Could not parse Range \">=0.50\": Could not parse version \"0.50\" in \">=0.50\": No Major.Minor.Patch elements found"
        );
        assert_eq!(
            check_range("2.0.0-next.1").unwrap_err(),
            "Could not get version from string: \"<\""
        );
    }
}
