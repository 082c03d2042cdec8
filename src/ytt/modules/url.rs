//! `@ytt:url`: path segment and query escaping, query strings, and `url.parse`, which
//! splits a URL the way Go's `net/url` does (RFC 3986, no normalisation: `string()`
//! gives back what was parsed, escapes and all) and returns a struct with `user`
//! (`name`, `password`, `string()`), `hostname()`, `string()` and `without_user()`.

use crate::yaml::Value as Y;
use crate::ytt::fragment::{go_value_type, plain_to_starlark, starlark_to_plain};
use crate::ytt::starlark::{Args, Error as SError, Interpreter, Module, Value};

use super::{SResult, module, native, single_string_arg as str_arg, unconvertible_value};

/// `url.<name>(s)`: `s` escaped as a path segment or as a query value.
fn escape_fn(name: &'static str, path_segment: bool) -> (&'static str, Value) {
    let fname = format!("url.{name}");
    let value = native(&fname.clone(), move |_t, a| {
        let mode = if path_segment {
            Mode::PathSegment
        } else {
            Mode::QueryComponent
        };
        Ok(Value::str(&go_escape(str_arg(&fname, a)?, mode)))
    });
    (name, value)
}

/// `url.<name>(s)`: `s` unescaped, `+` read as a space where `plus_space`.
fn unescape_fn(name: &'static str, plus_space: bool) -> (&'static str, Value) {
    let fname = format!("url.{name}");
    let value = native(&fname.clone(), move |_t, a| {
        let mode = if plus_space {
            Mode::QueryComponent
        } else {
            Mode::PathSegment
        };
        let s = go_unescape(str_arg(&fname, a)?, mode)
            .map_err(|e| SError::new(format!("{fname}: {e}")))?;
        Ok(Value::str(&s))
    });
    (name, value)
}

pub fn url_module() -> Module {
    module(
        "@ytt:url",
        vec![
            escape_fn("path_segment_encode", true),
            unescape_fn("path_segment_decode", false),
            escape_fn("query_param_value_encode", false),
            unescape_fn("query_param_value_decode", true),
            (
                "query_params_encode",
                native("url.query_params_encode", query_params_encode),
            ),
            (
                "query_params_decode",
                native("url.query_params_decode", query_params_decode),
            ),
            (
                "parse",
                native("url.parse", |_t, a| {
                    let s = str_arg("url.parse", a)?;
                    let u = GoUrl::parse(s)
                        .map_err(|e| SError::new(format!("url.parse: parse \"{s}\": {e}")))?;
                    Ok(url_value(u))
                }),
            ),
        ],
    )
}

/// The Go type (`%T`) of a value converted from Starlark, as ytt's messages name it.
fn go_type(v: &Y) -> &'static str {
    match v {
        Y::Int(_) => "int64",
        other => crate::ytt::go_type::of_scalar(other),
    }
}

/// `url.query_params_encode(dict)`: Go's `url.Values.Encode` of a map from string keys
/// to lists of strings: keys sorted, each value `key=value`, all joined by `&`.
fn query_params_encode(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    const NAME: &str = "url.query_params_encode";
    let err = |m: String| SError::new(format!("{NAME}: {m}"));
    let [arg] = a.pos.as_slice() else {
        return Err(err("expected exactly one argument".into()));
    };
    let plain = starlark_to_plain(arg).map_err(|mut e| {
        e.msg = format!("{NAME}: {}", e.msg);
        e
    })?;
    let items = match (&plain, go_value_type(arg)) {
        (Y::Map(items), Some("*orderedmap.Map")) => items,
        (_, t) => {
            let t = t.unwrap_or_else(|| go_type(&plain));
            return Err(err(format!("expected argument to be a map, but was {t}")));
        }
    };
    let mut pairs: Vec<(&str, Vec<&str>)> = Vec::new();
    for (k, v) in items {
        let Y::String(k) = k else {
            return Err(err(format!(
                "expected map key to be string, but was {}",
                go_type(k)
            )));
        };
        let Y::Array(vs) = v else {
            return Err(err(format!(
                "expected map value to be array, but was {}",
                go_type(v)
            )));
        };
        let mut strs = Vec::new();
        for item in vs {
            let Y::String(s) = item else {
                return Err(err(format!(
                    "expected array value to be string, but was {}",
                    go_type(item)
                )));
            };
            strs.push(s.as_str());
        }
        pairs.push((k, strs));
    }
    pairs.sort_by(|a, b| a.0.cmp(b.0));
    let mut out = Vec::new();
    for (k, vs) in pairs {
        let k = go_escape(k, Mode::QueryComponent);
        for v in vs {
            out.push(format!("{k}={}", go_escape(v, Mode::QueryComponent)));
        }
    }
    Ok(Value::str(&out.join("&")))
}

/// `url.query_params_decode(s)`: Go's `url.ParseQuery`, keys sorted, each to the list
/// of its values; the last `;` error or else the first bad escape fails the call.
fn query_params_decode(_t: &mut dyn Interpreter, a: &Args) -> SResult<Value> {
    const NAME: &str = "url.query_params_decode";
    let s = str_arg(NAME, a)?;
    let mut items: Vec<(String, Vec<Y>)> = Vec::new();
    let mut first_err: Option<String> = None;
    for part in s.split('&') {
        if part.contains(';') {
            first_err = Some("invalid semicolon separator in query".into());
            continue;
        }
        if part.is_empty() {
            continue;
        }
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let kv = go_unescape(k, Mode::QueryComponent)
            .and_then(|k| Ok((k, go_unescape(v, Mode::QueryComponent)?)));
        let (k, v) = match kv {
            Ok(kv) => kv,
            Err(e) => {
                first_err.get_or_insert(e);
                continue;
            }
        };
        match items.iter_mut().find(|(x, _)| *x == k) {
            Some((_, vs)) => vs.push(Y::String(v)),
            None => items.push((k, vec![Y::String(v)])),
        }
    }
    if let Some(e) = first_err {
        return Err(SError::new(format!("{NAME}: {e}")));
    }
    items.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(plain_to_starlark(&Y::Map(
        items
            .into_iter()
            .map(|(k, v)| (Y::String(k), Y::Array(v)))
            .collect(),
    )))
}

/// A URL split as Go's `url.Parse` splits it; the raw (escaped) parts are kept so that
/// [`GoUrl::string`] prints them back unchanged.
#[derive(Clone, Debug, PartialEq)]
struct GoUrl {
    scheme: String,
    opaque: String,
    /// Unescaped user name and optional password.
    user: Option<(String, Option<String>)>,
    host: String,
    raw_path: String,
    force_query: bool,
    raw_query: String,
    raw_fragment: Option<String>,
}

/// What a byte is checked or escaped for (Go's `encoding` modes).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Path,
    /// `url.PathEscape`: one segment, so `/`, `;`, `,` and `?` are escaped too.
    PathSegment,
    /// `url.QueryEscape`: every reserved byte escaped, a space written `+`.
    QueryComponent,
    Host,
    UserPassword,
    Fragment,
}

/// Go's `shouldEscape`.
fn should_escape(c: u8, mode: Mode) -> bool {
    if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.' | b'~') {
        return false;
    }
    if mode == Mode::Host
        && matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'['
                | b']'
                | b'<'
                | b'>'
                | b'"'
        )
    {
        return false;
    }
    match c {
        b'$' | b'&' | b'+' | b',' | b'/' | b':' | b';' | b'=' | b'?' | b'@' => match mode {
            Mode::Path => c == b'?',
            Mode::PathSegment => matches!(c, b'/' | b';' | b',' | b'?'),
            Mode::QueryComponent => true,
            Mode::UserPassword => matches!(c, b'@' | b'/' | b'?' | b':'),
            Mode::Fragment => false,
            Mode::Host => true,
        },
        b'!' | b'(' | b')' | b'*' if mode == Mode::Fragment => false,
        _ => true,
    }
}

fn go_escape(s: &str, mode: Mode) -> String {
    let mut out = String::new();
    // The string's Go bytes: a carried byte (no UTF-8) is escaped as itself.
    for &b in crate::go_bytes::to_bytes(s).iter() {
        if b == b' ' && mode == Mode::QueryComponent {
            out.push('+');
        } else if should_escape(b, mode) {
            out.push_str(&format!("%{b:02X}"));
        } else {
            out.push(b as char);
        }
    }
    out
}

/// Go's `unescape`: `%XX` sequences decoded, bad ones an error.
fn go_unescape(s: &str, mode: Mode) -> Result<String, String> {
    let bytes = crate::go_bytes::to_bytes(s);
    let b: &[u8] = &bytes;
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' => {
                let hex = b
                    .get(i + 1..i + 3)
                    .filter(|h| h.iter().all(u8::is_ascii_hexdigit))
                    .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
                let Some(v) = hex else {
                    let end = (i + 3).min(b.len());
                    return Err(format!(
                        "invalid URL escape \"{}\"",
                        String::from_utf8_lossy(&b[i..end])
                    ));
                };
                out.push(v);
                i += 3;
            }
            b'+' if mode == Mode::QueryComponent => {
                out.push(b' ');
                i += 1;
            }
            c => {
                if mode == Mode::Host && c < 0x80 && should_escape(c, mode) {
                    return Err(format!("invalid character \"{}\" in host name", c as char));
                }
                out.push(c);
                i += 1;
            }
        }
    }
    // Decoded bytes that are no UTF-8 (`%FF`) stay bytes, as in Go's string.
    Ok(crate::go_bytes::from_bytes(&out))
}

/// Go's `validEncoded`: the raw text may be printed as it is.
fn valid_encoded(s: &str, mode: Mode) -> bool {
    s.bytes().all(|c| {
        matches!(
            c,
            b'!' | b'$'
                | b'&'
                | b'\''
                | b'('
                | b')'
                | b'*'
                | b'+'
                | b','
                | b';'
                | b'='
                | b':'
                | b'@'
                | b'['
                | b']'
                | b'%'
        ) || !should_escape(c, mode)
    })
}

fn valid_port(p: &str) -> bool {
    p.is_empty() || (p.starts_with(':') && p[1..].bytes().all(|c| c.is_ascii_digit()))
}

impl GoUrl {
    fn parse(raw: &str) -> Result<GoUrl, String> {
        let (rest, frag) = match raw.split_once('#') {
            Some((r, f)) => (r, Some(f)),
            None => (raw, None),
        };
        if let Some(f) = frag {
            go_unescape(f, Mode::Fragment)?;
        }
        if raw.bytes().any(|c| c < 0x20 || c == 0x7f) {
            return Err("net/url: invalid control character in URL".into());
        }
        let mut u = GoUrl {
            scheme: String::new(),
            opaque: String::new(),
            user: None,
            host: String::new(),
            raw_path: String::new(),
            force_query: false,
            raw_query: String::new(),
            raw_fragment: frag.map(str::to_string),
        };
        if rest.is_empty() {
            return Ok(u);
        }
        let mut rest = rest;
        // Scheme: a letter, then letters, digits, '+', '-', '.', up to ':'.
        for (i, c) in rest.bytes().enumerate() {
            if c.is_ascii_alphabetic() {
                continue;
            }
            if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') {
                if i == 0 {
                    break;
                }
                continue;
            }
            if c == b':' {
                if i == 0 {
                    return Err("missing protocol scheme".into());
                }
                u.scheme = rest[..i].to_ascii_lowercase();
                rest = &rest[i + 1..];
            }
            break;
        }
        if rest.ends_with('?') && rest.matches('?').count() == 1 {
            u.force_query = true;
            rest = &rest[..rest.len() - 1];
        } else if let Some((r, q)) = rest.split_once('?') {
            u.raw_query = q.to_string();
            rest = r;
        }
        if !rest.starts_with('/') {
            if !u.scheme.is_empty() {
                u.opaque = rest.to_string();
                return Ok(u);
            }
            let first = rest.split('/').next().unwrap_or("");
            if first.contains(':') {
                return Err("first path segment in URL cannot contain colon".into());
            }
        }
        if (!u.scheme.is_empty() || !rest.starts_with("///")) && rest.starts_with("//") {
            let after = &rest[2..];
            let (authority, path) = match after.find('/') {
                Some(i) => (&after[..i], &after[i..]),
                None => (after, ""),
            };
            u.parse_authority(authority)?;
            rest = path;
        }
        go_unescape(rest, Mode::Path)?;
        u.raw_path = rest.to_string();
        Ok(u)
    }

    fn parse_authority(&mut self, authority: &str) -> Result<(), String> {
        let (userinfo, host) = match authority.rfind('@') {
            Some(i) => (Some(&authority[..i]), &authority[i + 1..]),
            None => (None, authority),
        };
        self.host = parse_host(host)?;
        if let Some(info) = userinfo {
            let valid = info.bytes().all(|c| {
                c.is_ascii_alphanumeric()
                    || matches!(
                        c,
                        b'-' | b'.'
                            | b'_'
                            | b':'
                            | b'~'
                            | b'!'
                            | b'$'
                            | b'&'
                            | b'\''
                            | b'('
                            | b')'
                            | b'*'
                            | b'+'
                            | b','
                            | b';'
                            | b'='
                            | b'%'
                            | b'@'
                    )
            });
            if !valid {
                return Err("net/url: invalid userinfo".into());
            }
            self.user = Some(match info.split_once(':') {
                None => (go_unescape(info, Mode::UserPassword)?, None),
                Some((name, pw)) => (
                    go_unescape(name, Mode::UserPassword)?,
                    Some(go_unescape(pw, Mode::UserPassword)?),
                ),
            });
        }
        Ok(())
    }

    /// Go's `Userinfo.String()`.
    fn user_string(&self) -> Option<String> {
        self.user.as_ref().map(|(name, pw)| {
            let mut s = go_escape(name, Mode::UserPassword);
            if let Some(pw) = pw {
                s.push(':');
                s.push_str(&go_escape(pw, Mode::UserPassword));
            }
            s
        })
    }

    fn escaped_path(&self) -> String {
        if valid_encoded(&self.raw_path, Mode::Path) {
            return self.raw_path.clone();
        }
        let plain = go_unescape(&self.raw_path, Mode::Path).unwrap_or_default();
        go_escape(&plain, Mode::Path)
    }

    /// Go's `URL.String()`.
    fn string(&self) -> String {
        let mut out = String::new();
        if !self.scheme.is_empty() {
            out.push_str(&self.scheme);
            out.push(':');
        }
        if !self.opaque.is_empty() {
            out.push_str(&self.opaque);
        } else {
            let path = self.escaped_path();
            if !self.scheme.is_empty() || !self.host.is_empty() || self.user.is_some() {
                if !self.host.is_empty() || !path.is_empty() || self.user.is_some() {
                    out.push_str("//");
                }
                if let Some(u) = self.user_string() {
                    out.push_str(&u);
                    out.push('@');
                }
                out.push_str(&go_escape(&self.host, Mode::Host));
            }
            if !path.is_empty() && !path.starts_with('/') && !self.host.is_empty() {
                out.push('/');
            }
            if out.is_empty() && path.split('/').next().is_some_and(|seg| seg.contains(':')) {
                out.push_str("./");
            }
            out.push_str(&path);
        }
        if self.force_query || !self.raw_query.is_empty() {
            out.push('?');
            out.push_str(&self.raw_query);
        }
        if let Some(f) = &self.raw_fragment
            && !f.is_empty()
        {
            out.push('#');
            if valid_encoded(f, Mode::Fragment) {
                out.push_str(f);
            } else {
                let plain = go_unescape(f, Mode::Fragment).unwrap_or_default();
                out.push_str(&go_escape(&plain, Mode::Fragment));
            }
        }
        out
    }

    /// Go's `URL.Hostname()`: the host without port and IPv6 brackets.
    fn hostname(&self) -> String {
        let h = self.host.as_str();
        let h = match h.rfind(':') {
            Some(i) if !h[i..].contains(']') => &h[..i],
            _ => h,
        };
        h.strip_prefix('[')
            .and_then(|h| h.strip_suffix(']'))
            .unwrap_or(h)
            .to_string()
    }
}

/// Go's `parseHost`: a bracketed IPv6 literal or a name, each with an optional port.
fn parse_host(host: &str) -> Result<String, String> {
    if host.starts_with('[') {
        let Some(i) = host.rfind(']') else {
            return Err("missing ']' in host".into());
        };
        let port = &host[i + 1..];
        if !valid_port(port) {
            return Err(format!("invalid port \"{port}\" after host"));
        }
    } else if let Some(i) = host.rfind(':') {
        let port = &host[i..];
        if !valid_port(port) {
            return Err(format!("invalid port \"{port}\" after host"));
        }
    }
    go_unescape(host, Mode::Host)
}

/// The methods of a parsed URL take no positional argument (keyword ones are ignored).
fn no_args(fname: &str, args: &Args) -> SResult<()> {
    if args.pos.is_empty() {
        Ok(())
    } else {
        Err(SError::new(format!("{fname}: expected no argument")))
    }
}

/// ytt's type names for a parsed URL and its user info (`URLValue.Type`,
/// `URLUser.Type` in url.go); each refuses YAML conversion naming its type.
const URL_VALUE_TYPE: &str = "@ytt:url.value";
const URL_USER_TYPE: &str = "@ytt:url.user";

fn conversion_hint(type_name: &str) -> String {
    format!("{type_name} does not automatically encode (hint: use .string())")
}

/// A parsed URL as ytt's `URLValue.AsStarlarkValue` builds it: fields `user`,
/// `without_user`, `string` and `hostname`, the methods named `url.value.<name>`.
fn url_value(u: GoUrl) -> Value {
    let user = match &u.user {
        None => Value::None,
        Some((name, pw)) => {
            let s = u.user_string().unwrap_or_default();
            unconvertible_value(
                URL_USER_TYPE,
                &conversion_hint(URL_USER_TYPE),
                vec![
                    ("name", Value::str(name)),
                    (
                        "password",
                        pw.as_deref().map(Value::str).unwrap_or(Value::None),
                    ),
                    (
                        "string",
                        native("string", move |_t, a| {
                            no_args("string", a)?;
                            Ok(Value::str(&s))
                        }),
                    ),
                ],
            )
        }
    };
    let (u1, u2, u3) = (u.clone(), u.clone(), u);
    unconvertible_value(
        URL_VALUE_TYPE,
        &conversion_hint(URL_VALUE_TYPE),
        vec![
            ("user", user),
            (
                "without_user",
                native("url.value.without_user", move |_t, a| {
                    no_args("url.value.without_user", a)?;
                    let mut v = u3.clone();
                    v.user = None;
                    Ok(url_value(v))
                }),
            ),
            (
                "string",
                native("url.value.string", move |_t, a| {
                    no_args("url.value.string", a)?;
                    Ok(Value::str(&u2.string()))
                }),
            ),
            (
                "hostname",
                native("url.value.hostname", move |_t, a| {
                    no_args("url.value.hostname", a)?;
                    Ok(Value::str(&u1.hostname()))
                }),
            ),
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(s: &str) -> String {
        GoUrl::parse(s)
            .unwrap_or_else(|e| panic!("{s}: {e}"))
            .string()
    }

    #[test]
    fn string_gives_back_what_was_parsed() {
        for s in [
            "https://bob:hunter2@git.example.org/repo",
            "https://example.com/a%20b?x=1",
            "http://example.com",
            "https://user:pw@example.com:8443/a/b?x=1&y=two#frag",
            "http://[::1]:8080/x",
            "mailto:someone@example.com",
            "/relative/path?q",
            "file:///etc/hosts",
            "HTTP://Example.COM/Path",
            "http://host/a?",
        ] {
            let want = if s.starts_with("HTTP") {
                "http://Example.COM/Path"
            } else {
                s
            };
            assert_eq!(round_trip(s), want);
        }
        assert_eq!(round_trip("http://h/a b"), "http://h/a%20b");
    }

    #[test]
    fn user_parts_hostname_and_errors() {
        let u = GoUrl::parse("https://a%40b:p%3Aw@h.example:99/x").unwrap();
        assert_eq!(u.user, Some(("a@b".into(), Some("p:w".into()))));
        assert_eq!(u.user_string().unwrap(), "a%40b:p%3Aw");
        assert_eq!(u.hostname(), "h.example");
        assert_eq!(GoUrl::parse("http://[::1]:80").unwrap().hostname(), "::1");
        let u = GoUrl::parse("http://alice@example.com").unwrap();
        assert_eq!(u.user, Some(("alice".into(), None)));
        assert_eq!(
            GoUrl::parse("http://[::1").unwrap_err(),
            "missing ']' in host"
        );
        assert_eq!(
            GoUrl::parse("http://h:abc/").unwrap_err(),
            "invalid port \":abc\" after host"
        );
        assert_eq!(GoUrl::parse(":x").unwrap_err(), "missing protocol scheme");
        assert_eq!(
            GoUrl::parse("a:b/c:d").map(|u| u.string()).unwrap(),
            "a:b/c:d"
        );
        assert_eq!(
            GoUrl::parse("http://h/%zz").unwrap_err(),
            "invalid URL escape \"%zz\""
        );
        assert_eq!(
            GoUrl::parse("http://a b/").unwrap_err(),
            "invalid character \" \" in host name"
        );
    }
}
