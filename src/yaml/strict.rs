//! ytt's strict YAML subset (`--strict`): a plain (unquoted, untagged) scalar may only
//! be empty (null), `true`/`false`, a basic decimal int or float, or a string that
//! cannot be read any other way and has no whitespace, colon or `---` in it. Anything
//! ambiguous must be quoted or tagged.

use super::resolve::{Resolved, resolve_core};
use super::value::Value;

/// Why the plain scalar `s` is not allowed in strict mode (`None` when it is).
pub fn strict_plain_error(s: &str) -> Option<String> {
    if s.is_empty() {
        return None;
    }
    let ambiguous = |kind: &str| {
        Some(format!(
            "Found '{s}' ambigious (could be !!str or !!{kind})"
        ))
    };
    match resolve_core(s) {
        Resolved::Value(Value::Null) => ambiguous("null"),
        Resolved::Value(Value::Bool(_)) => match s {
            "true" | "false" => None,
            _ => ambiguous("bool"),
        },
        Resolved::Value(Value::Int(_)) if !is_basic_int(s) => ambiguous("int"),
        Resolved::Value(Value::Float(_)) if !is_basic_float(s) => ambiguous("float"),
        Resolved::Value(_) => None,
        Resolved::Timestamp => ambiguous("timestamp"),
        Resolved::Merge | Resolved::Str => {
            let what = if s.chars().any(char::is_whitespace) {
                "whitespace"
            } else if s.contains(':') {
                "colon"
            } else if s.contains("---") {
                "triple-dash"
            } else {
                return None;
            };
            Some(format!(
                "Strings with {what} must be explicitly quoted: '{s}'"
            ))
        }
    }
}

/// `-?(0|[1-9][0-9]*)`, ytt's strict int: no sign `+`, base prefixes, leading zeros or
/// `_` separators.
fn is_basic_int(s: &str) -> bool {
    is_basic_digits(s.strip_prefix('-').unwrap_or(s))
}

/// `0` or digits without a leading zero.
fn is_basic_digits(d: &str) -> bool {
    !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) && (d == "0" || !d.starts_with('0'))
}

/// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, ytt's strict float: an integer part
/// as a strict int, digits after any point; no sign `+`, `.5`, `2.`, `.inf` or `.nan`.
fn is_basic_float(s: &str) -> bool {
    let body = s.strip_prefix('-').unwrap_or(s);
    let (mantissa, exponent) = match body.find(['e', 'E']) {
        Some(i) => (&body[..i], Some(&body[i + 1..])),
        None => (body, None),
    };
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let mantissa_ok = match mantissa.split_once('.') {
        Some((int, frac)) => is_basic_digits(int) && digits(frac),
        None => is_basic_digits(mantissa),
    };
    let exponent_ok = exponent.is_none_or(|e| digits(e.strip_prefix(['-', '+']).unwrap_or(e)));
    mantissa_ok && exponent_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unambiguous_plain_scalars_pass() {
        for s in [
            "",
            "true",
            "false",
            "12",
            "-3",
            "0",
            "-3.5",
            "1e3",
            "1.5E-3",
            "-0.25",
            "some-word",
            "a_b",
        ] {
            assert_eq!(strict_plain_error(s), None, "{s}");
        }
    }

    #[test]
    fn ambiguous_plain_scalars_are_named() {
        let e = |s| strict_plain_error(s).unwrap();
        assert_eq!(e("yes"), "Found 'yes' ambigious (could be !!str or !!bool)");
        assert_eq!(
            e("True"),
            "Found 'True' ambigious (could be !!str or !!bool)"
        );
        assert_eq!(
            e("null"),
            "Found 'null' ambigious (could be !!str or !!null)"
        );
        assert_eq!(e("~"), "Found '~' ambigious (could be !!str or !!null)");
        assert_eq!(
            e("0x10"),
            "Found '0x10' ambigious (could be !!str or !!int)"
        );
        assert_eq!(e("010"), "Found '010' ambigious (could be !!str or !!int)");
        assert_eq!(
            e("1_000"),
            "Found '1_000' ambigious (could be !!str or !!int)"
        );
        assert_eq!(
            e(".inf"),
            "Found '.inf' ambigious (could be !!str or !!float)"
        );
        for (s, kind) in [
            ("+1", "int"),
            ("2.", "float"),
            (".5", "float"),
            ("01.5", "float"),
            ("+1.5", "float"),
        ] {
            assert_eq!(
                e(s),
                format!("Found '{s}' ambigious (could be !!str or !!{kind})")
            );
        }
        assert_eq!(
            e("2001-01-01"),
            "Found '2001-01-01' ambigious (could be !!str or !!timestamp)"
        );
        assert_eq!(
            e("hello world"),
            "Strings with whitespace must be explicitly quoted: 'hello world'"
        );
        assert_eq!(
            e("a:b"),
            "Strings with colon must be explicitly quoted: 'a:b'"
        );
        assert_eq!(
            e("---x"),
            "Strings with triple-dash must be explicitly quoted: '---x'"
        );
    }
}
