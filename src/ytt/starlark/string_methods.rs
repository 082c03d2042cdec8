//! Methods of strings, as the starlark-go fork in ytt defines them (no `zfill`,
//! `removeprefix`, ...). Offsets and lengths count bytes, like Go strings.

use super::unicode15::newer_than_go;
use unicode_general_category::{GeneralCategory, get_general_category};

use super::error::{Error, Result, bail};
use super::format::{repr, to_str};
use super::iteration::iterate;
use super::value::*;

/// Method names, sorted (for `dir("")`).
pub const NAMES: &[&str] = &[
    "capitalize",
    "codepoint_ords",
    "codepoints",
    "count",
    "elem_ords",
    "elems",
    "endswith",
    "find",
    "format",
    "index",
    "isalnum",
    "isalpha",
    "isdigit",
    "islower",
    "isspace",
    "istitle",
    "isupper",
    "join",
    "lower",
    "lstrip",
    "partition",
    "replace",
    "rfind",
    "rindex",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "startswith",
    "strip",
    "title",
    "upper",
];

pub fn lookup(name: &str) -> Option<MethodFn> {
    Some(match name {
        "capitalize" => capitalize,
        "codepoint_ords" | "codepoints" | "elem_ords" | "elems" => iterable,
        "count" => count,
        "endswith" | "startswith" => startswith,
        "find" | "index" | "rfind" | "rindex" => find,
        "format" => format,
        "isalnum" | "isalpha" | "isdigit" | "isspace" => predicate,
        "islower" | "isupper" => case_predicate,
        "istitle" => istitle,
        "join" => join,
        "lower" => lower,
        "upper" => upper,
        "lstrip" | "rstrip" | "strip" => strip,
        "partition" | "rpartition" => partition,
        "replace" => replace,
        "split" | "rsplit" => split,
        "splitlines" => splitlines,
        "title" => title,
        _ => return None,
    })
}

fn recv_str(v: &Value) -> &str {
    v.as_str().expect("string receiver")
}

fn no_args(name: &str, a: &Args) -> Result<()> {
    a.positional(name, 0, 0).map(|_| ())
}

/// A string argument; the error names the parameter by position, as
/// starlark-go's `UnpackPositionalArgs`.
fn want_str<'a>(name: &str, v: &'a Value, position: usize) -> Result<&'a str> {
    v.as_str().ok_or_else(|| {
        Error::new(format!(
            "{name}: for parameter {position}: got {}, want string",
            v.type_name()
        ))
    })
}

/// Greek letters with ypogegrammeni (U+1F80..U+1FFC): their simple upper and title case
/// is the titlecase form (Unicode maps them to one code point; Rust's full mapping gives two).
fn greek_title(c: char) -> Option<char> {
    let u = c as u32;
    let t = match u {
        0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => u + 8,
        0x1F88..=0x1F8F | 0x1F98..=0x1F9F | 0x1FA8..=0x1FAF => u,
        0x1FB3 => 0x1FBC,
        0x1FC3 => 0x1FCC,
        0x1FF3 => 0x1FFC,
        0x1FBC | 0x1FCC | 0x1FFC => u,
        _ => return None,
    };
    char::from_u32(t)
}

/// The rune Go decodes for `c`: U+FFFD for a byte that is no UTF-8, which the case
/// mappings (Go's `strings.Map`, or writing the decoded runes back) put in its place.
fn go_rune(c: char) -> char {
    if crate::go_bytes::raw_byte(c).is_some() {
        '\u{FFFD}'
    } else {
        c
    }
}

/// Go's `unicode.ToUpper`: the simple (one code point) uppercase mapping.
fn upper_char(c: char) -> char {
    let c = go_rune(c);
    if newer_than_go(c) {
        return c;
    }
    if let Some(t) = greek_title(c) {
        return t;
    }
    let mut u = c.to_uppercase();
    match (u.next(), u.next()) {
        (Some(x), None) => x,
        _ => c,
    }
}

/// Go's `unicode.ToLower`: the simple lowercase mapping.
fn lower_char(c: char) -> char {
    let c = go_rune(c);
    if newer_than_go(c) {
        return c;
    }
    match c {
        '\u{130}' => 'i',
        '\u{1F88}'..='\u{1F8F}' | '\u{1F98}'..='\u{1F9F}' | '\u{1FA8}'..='\u{1FAF}' => {
            char::from_u32(c as u32 - 8).unwrap_or(c)
        }
        '\u{1FBC}' => '\u{1FB3}',
        '\u{1FCC}' => '\u{1FC3}',
        '\u{1FFC}' => '\u{1FF3}',
        _ => {
            let mut u = c.to_lowercase();
            match (u.next(), u.next()) {
                (Some(x), None) => x,
                _ => c,
            }
        }
    }
}

/// Go's `unicode.ToTitle`: like the uppercase mapping except for the digraphs
/// (DŽ Lj Nj Dz families) and the Greek letters with ypogegrammeni.
fn title_char(c: char) -> char {
    match c {
        '\u{1C4}'..='\u{1C6}' => '\u{1C5}',
        '\u{1C7}'..='\u{1C9}' => '\u{1C8}',
        '\u{1CA}'..='\u{1CC}' => '\u{1CB}',
        '\u{1F1}'..='\u{1F3}' => '\u{1F2}',
        _ => upper_char(c),
    }
}

/// Titlecase letters (category Lt).
fn is_title_case(c: char) -> bool {
    has_category(c, GeneralCategory::TitlecaseLetter)
}

/// Whether `c` is of general category `cat` in Go's tables: Go's `unicode.IsLower`
/// and `IsUpper` mean the categories Ll and Lu alone (so not the circled letters or
/// Roman numerals that Unicode's Lowercase and Uppercase properties add).
fn has_category(c: char, cat: GeneralCategory) -> bool {
    !newer_than_go(c) && get_general_category(c) == cat
}

/// starlark-go's `isCasedRune`: an ASCII letter or a code point with another case form.
fn is_cased(c: char) -> bool {
    let c = go_rune(c);
    c.is_ascii_alphabetic() || c == 'ß' || upper_char(c) != c || lower_char(c) != c
}

/// Go's `unicode.IsDigit` (category Nd).
fn is_decimal_digit(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_digit();
    }
    !newer_than_go(c) && get_general_category(c) == GeneralCategory::DecimalNumber
}

/// Go's `unicode.IsLetter` (categories Lu, Ll, Lt, Lm, Lo).
fn is_letter(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphabetic();
    }
    use GeneralCategory::*;
    !newer_than_go(c)
        && matches!(
            get_general_category(c),
            UppercaseLetter | LowercaseLetter | TitlecaseLetter | ModifierLetter | OtherLetter
        )
}

fn capitalize(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    let s: String = recv_str(r)
        .chars()
        .enumerate()
        .map(|(i, c)| if i == 0 { title_char(c) } else { lower_char(c) })
        .collect();
    Ok(Value::Str(s.into()))
}

fn iterable(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    let kind = match name {
        "elems" => StrIterKind::Elems,
        "elem_ords" => StrIterKind::ElemOrds,
        "codepoints" => StrIterKind::Codepoints,
        _ => StrIterKind::CodepointOrds,
    };
    let Value::Str(s) = r else {
        unreachable!("string receiver")
    };
    Ok(Value::StrIter(s.clone(), kind))
}

/// starlark-go `indices` with the method's name before its error.
fn indices(
    name: &str,
    start: &Option<Value>,
    end: &Option<Value>,
    n: usize,
) -> Result<(usize, usize)> {
    super::int_args::indices(start, end, n).map_err(|e| Error::new(format!("{name}: {}", e.msg)))
}

fn sub_slice(s: &str, start: usize, end: usize) -> &[u8] {
    if start < end {
        &s.as_bytes()[start..end]
    } else {
        &[]
    }
}

fn count(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 3)?;
    let sub = want_str(name, v[0].as_ref().expect("sub"), 1)?;
    let s = recv_str(r);
    let (start, end) = indices(name, &v[1], &v[2], s.len())?;
    let hay = sub_slice(s, start, end);
    let n = if sub.is_empty() {
        String::from_utf8_lossy(hay).chars().count() + 1
    } else {
        let (mut n, mut i) = (0, 0);
        while let Some(p) = find_bytes(&hay[i..], sub.as_bytes()) {
            n += 1;
            i += p + sub.len();
        }
        n
    };
    Ok(Value::Int(n as i128))
}

fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::find(hay, needle)
}

fn rfind_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    memchr::memmem::rfind(hay, needle)
}

fn startswith(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 3)?;
    let s = recv_str(r);
    let (start, end) = indices(name, &v[1], &v[2], s.len())?;
    let sub = sub_slice(s, start, end);
    let test = |p: &str| {
        if name == "endswith" {
            sub.ends_with(p.as_bytes())
        } else {
            sub.starts_with(p.as_bytes())
        }
    };
    match v[0].as_ref().expect("prefix") {
        Value::Str(p) => Ok(Value::Bool(test(p))),
        Value::Tuple(t) => {
            for (i, x) in t.iter().enumerate() {
                let Value::Str(p) = x else {
                    bail!(
                        "{name}: want string, got {}, for element {i}",
                        x.type_name()
                    )
                };
                if test(p) {
                    return Ok(Value::Bool(true));
                }
            }
            Ok(Value::Bool(false))
        }
        o => bail!(
            "{name}: got {}, want string or tuple of string",
            o.type_name()
        ),
    }
}

fn find(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 3)?;
    let sub = want_str(name, v[0].as_ref().expect("sub"), 1)?;
    let s = recv_str(r);
    let (start, end) = indices(name, &v[1], &v[2], s.len())?;
    let hay = sub_slice(s, start, end);
    let found = if name.starts_with('r') {
        rfind_bytes(hay, sub.as_bytes())
    } else {
        find_bytes(hay, sub.as_bytes())
    };
    match found {
        Some(i) => Ok(Value::Int((i + start) as i128)),
        None if name.ends_with("find") => Ok(Value::Int(-1)),
        None => bail!("{name}: substring not found"),
    }
}

fn format(_name: &str, r: &Value, a: &Args) -> Result<Value> {
    let mut fmt = recv_str(r);
    let mut out = String::new();
    let (mut auto, mut manual, mut index) = (false, false, 0usize);
    loop {
        let brace = fmt.find('{');
        let mut literal = match brace {
            Some(i) => &fmt[..i],
            None => fmt,
        };
        while let Some(j) = literal.find('}') {
            if literal.as_bytes().get(j + 1) != Some(&b'}') {
                bail!("format: single '}}' in format");
            }
            out.push_str(&literal[..j + 1]);
            literal = &literal[j + 2..];
        }
        out.push_str(literal);
        let Some(i) = brace else { break };
        if fmt.as_bytes().get(i + 1) == Some(&b'{') {
            out.push('{');
            fmt = &fmt[i + 2..];
            continue;
        }
        fmt = &fmt[i + 1..];
        let Some(close) = fmt.find('}') else {
            bail!("format: unmatched '{{' in format")
        };
        let field = &fmt[..close];
        fmt = &fmt[close + 1..];
        let (name, conv, spec) = match field.split_once('!') {
            None => match field.split_once(':') {
                None => (field, "s", ""),
                Some((n, s)) => (n, "s", s),
            },
            Some((n, rest)) => match rest.split_once(':') {
                None => (n, rest, ""),
                Some((c, s)) => (n, c, s),
            },
        };
        let arg = if name.is_empty() {
            if manual {
                bail!(
                    "format: cannot switch from manual field specification to automatic field numbering"
                );
            }
            auto = true;
            let Some(v) = a.pos.get(index) else {
                bail!("format: tuple index out of range")
            };
            index += 1;
            v.clone()
        } else if name.bytes().all(|b| b.is_ascii_digit()) {
            if auto {
                bail!(
                    "format: cannot switch from automatic field numbering to manual field specification"
                );
            }
            manual = true;
            let n: usize = name
                .parse()
                .map_err(|_| Error::new("format: tuple index out of range"))?;
            let Some(v) = a.pos.get(n) else {
                bail!("format: tuple index out of range")
            };
            v.clone()
        } else {
            match a.kwargs.iter().find(|(k, _)| &**k == name) {
                Some((_, v)) => v.clone(),
                None => {
                    if name.contains('.') {
                        bail!(
                            "format: attribute syntax x.y is not supported in replacement fields: {name}"
                        );
                    }
                    if name.contains('[') {
                        bail!(
                            "format: element syntax a[i] is not supported in replacement fields: {name}"
                        );
                    }
                    if name.contains('{') {
                        bail!("format: nested replacement fields not supported");
                    }
                    bail!("format: keyword {name} not found");
                }
            }
        };
        if !spec.is_empty() {
            bail!("format spec features not supported in replacement fields: {spec}");
        }
        match conv {
            "s" => out.push_str(&to_str(&arg)),
            "r" => out.push_str(&repr(&arg)),
            c => bail!("format: unknown conversion {}", super::strconv::quote(c)),
        }
    }
    Ok(Value::Str(out.into()))
}

fn predicate(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    let s = recv_str(r);
    let f: fn(char) -> bool = match name {
        "isalnum" => |c| is_letter(c) || is_decimal_digit(c),
        "isalpha" => is_letter,
        "isdigit" => is_decimal_digit,
        _ => char::is_whitespace,
    };
    Ok(Value::Bool(!s.is_empty() && s.chars().all(f)))
}

fn case_predicate(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    let s = recv_str(r);
    let conv: String = if name == "islower" {
        s.chars().map(lower_char).collect()
    } else {
        s.chars().map(upper_char).collect()
    };
    Ok(Value::Bool(s.chars().any(is_cased) && conv == s))
}

fn istitle(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    let (mut cased, mut prev) = (false, false);
    for c in recv_str(r).chars() {
        if c.is_ascii_uppercase() || is_title_case(c) {
            if prev {
                return Ok(Value::Bool(false));
            }
            prev = true;
            cased = true;
        } else if has_category(c, GeneralCategory::LowercaseLetter) {
            if !prev {
                return Ok(Value::Bool(false));
            }
            prev = true;
            cased = true;
        } else if has_category(c, GeneralCategory::UppercaseLetter) {
            // As in starlark-go, a non-ASCII uppercase letter is never title case.
            return Ok(Value::Bool(false));
        } else {
            prev = false;
        }
    }
    Ok(Value::Bool(cased))
}

fn join(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 1)?;
    let x = v[0].as_ref().expect("iterable");
    let Some((items, _)) = iterate(x) else {
        bail!(
            "join: for parameter 1: got {}, want iterable",
            x.type_name()
        )
    };
    let mut parts = Vec::with_capacity(items.len());
    for it in &items {
        let Value::Str(s) = it else {
            bail!("join: in list, want string, got {}", it.type_name())
        };
        parts.push(&**s);
    }
    Ok(Value::Str(parts.join(recv_str(r)).into()))
}

fn lower(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    Ok(Value::Str(
        recv_str(r)
            .chars()
            .map(lower_char)
            .collect::<String>()
            .into(),
    ))
}

fn upper(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    Ok(Value::Str(
        recv_str(r)
            .chars()
            .map(upper_char)
            .collect::<String>()
            .into(),
    ))
}

fn strip(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 0, 1)?;
    let s = recv_str(r);
    // As in starlark-go, `chars` must be a string when given (None is refused).
    let chars: Option<Vec<char>> = match &v[0] {
        None => None,
        Some(x) => {
            Some(want_str(name, x, 1)?.chars().collect()).filter(|c: &Vec<char>| !c.is_empty())
        }
    };
    let out = match (&chars, name) {
        (None, "strip") => s.trim(),
        (None, "lstrip") => s.trim_start(),
        (None, _) => s.trim_end(),
        (Some(cs), "strip") => s.trim_matches(|c| cs.contains(&c)),
        (Some(cs), "lstrip") => s.trim_start_matches(|c| cs.contains(&c)),
        (Some(cs), _) => s.trim_end_matches(|c| cs.contains(&c)),
    };
    Ok(Value::str(out))
}

fn partition(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 1, 1)?;
    let sep = want_str(name, v[0].as_ref().expect("sep"), 1)?;
    if sep.is_empty() {
        bail!("{name}: empty separator");
    }
    let s = recv_str(r);
    let found = if name == "partition" {
        s.find(sep)
    } else {
        s.rfind(sep)
    };
    let parts = match found {
        Some(i) => [&s[..i], sep, &s[i + sep.len()..]],
        None if name == "partition" => [s, "", ""],
        None => ["", "", s],
    };
    Ok(Value::tuple(parts.iter().map(|p| Value::str(p)).collect()))
}

fn replace(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 2, 3)?;
    let old = want_str(name, v[0].as_ref().expect("old"), 1)?;
    let new = want_str(name, v[1].as_ref().expect("new"), 2)?;
    let s = recv_str(r);
    let count = match &v[2] {
        Some(x) => super::int_args::int_param(name, 3, x)?,
        None => -1,
    };
    let out = if count >= 0 {
        s.replacen(old, new, count as usize)
    } else {
        s.replace(old, new)
    };
    Ok(Value::Str(out.into()))
}

fn split(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 0, 2)?;
    let s = recv_str(r);
    let max = match &v[1] {
        None => -1,
        Some(x) => i128::from(super::int_args::int_param(name, 2, x)?),
    };
    let parts: Vec<String> = match &v[0] {
        None | Some(Value::None) => {
            if max < 0 {
                s.split_whitespace().map(String::from).collect()
            } else if name == "split" {
                split_space(s, max as usize)
            } else {
                rsplit_space(s, max as usize)
            }
        }
        Some(Value::Str(sep)) => {
            if sep.is_empty() {
                bail!("split: empty separator");
            }
            let all: Vec<String> = s.split(&**sep).map(String::from).collect();
            if max < 0 {
                all
            } else if name == "split" {
                s.splitn(max as usize + 1, &**sep)
                    .map(String::from)
                    .collect()
            } else {
                let excess = all.len() as i128 - max;
                if excess > 0 {
                    let e = excess as usize;
                    let mut out = vec![all[..e].join(sep)];
                    out.extend_from_slice(&all[e..]);
                    out
                } else {
                    all
                }
            }
        }
        Some(o) => bail!("split: got {} for separator, want string", o.type_name()),
    };
    Ok(Value::list(
        parts.into_iter().map(|p| Value::Str(p.into())).collect(),
    ))
}

fn split_space(s: &str, max: usize) -> Vec<String> {
    let mut res = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in s.char_indices() {
        if c.is_whitespace() {
            if let Some(st) = start {
                if res.len() == max {
                    break;
                }
                res.push(s[st..i].to_string());
                start = None;
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(st) = start {
        res.push(s[st..].to_string());
    }
    res
}

fn rsplit_space(s: &str, max: usize) -> Vec<String> {
    let mut res = Vec::new();
    let mut end: Option<usize> = None;
    for (i, c) in s.char_indices().rev() {
        let after = i + c.len_utf8();
        if c.is_whitespace() {
            if let Some(e) = end {
                if res.len() == max {
                    break;
                }
                res.push(s[after..e].to_string());
                end = None;
            }
        } else if end.is_none() {
            end = Some(after);
        }
    }
    if let Some(e) = end {
        res.push(s[..e].to_string());
    }
    res.reverse();
    res
}

fn splitlines(name: &str, r: &Value, a: &Args) -> Result<Value> {
    let v = a.positional(name, 0, 1)?;
    let keep = match &v[0] {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(o) => bail!("{name}: for parameter 1: got {}, want bool", o.type_name()),
    };
    let s = recv_str(r);
    let mut lines: Vec<&str> = Vec::new();
    if !s.is_empty() {
        lines = if keep {
            s.split_inclusive('\n').collect()
        } else {
            s.split('\n').collect()
        };
        if s.ends_with('\n') && !keep {
            lines.pop();
        }
    }
    Ok(Value::list(lines.into_iter().map(Value::str).collect()))
}

fn title(name: &str, r: &Value, a: &Args) -> Result<Value> {
    no_args(name, a)?;
    let mut prev = false;
    let mut out = String::new();
    for c in recv_str(r).chars() {
        let c = if prev { lower_char(c) } else { title_char(c) };
        prev = is_cased(c);
        out.push(c);
    }
    Ok(Value::Str(out.into()))
}
