//! `WWW-Authenticate` challenges (RFC 7235 syntax as registries send it):
//! `Basic realm="…"` or `Bearer realm="…",service="…",scope="…"`.

/// What a registry asked for in its 401 answer.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Challenge {
    /// `/v2/` answered 200: no authentication.
    #[default]
    None,
    Basic,
    Bearer {
        realm: String,
        service: Option<String>,
        /// Scopes the registry named (space-separated in the header).
        scopes: Vec<String>,
    },
}

impl Challenge {
    /// Parses one header value; `None` for schemes we do not speak or a Bearer
    /// challenge without a realm.
    pub fn parse(header: &str) -> Option<Challenge> {
        let header = header.trim();
        let (scheme, rest) = header
            .split_once(|c: char| c.is_ascii_whitespace())
            .unwrap_or((header, ""));
        let params = parse_params(rest);
        let get = |key: &str| {
            params
                .iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(key))
                .map(|(_, v)| v.clone())
        };
        match scheme.to_ascii_lowercase().as_str() {
            "basic" => Some(Challenge::Basic),
            "bearer" => Some(Challenge::Bearer {
                realm: get("realm").filter(|r| !r.is_empty())?,
                service: get("service"),
                scopes: get("scope")
                    .map(|s| s.split_whitespace().map(str::to_string).collect())
                    .unwrap_or_default(),
            }),
            _ => None,
        }
    }
}

/// `key=value` or `key="quoted, value"` pairs separated by commas.
fn parse_params(input: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut chars = input.chars().peekable();
    loop {
        while chars
            .peek()
            .is_some_and(|c| c.is_ascii_whitespace() || *c == ',')
        {
            chars.next();
        }
        let mut key = String::new();
        while let Some(&c) = chars.peek() {
            if c == '=' || c == ',' {
                break;
            }
            key.push(c);
            chars.next();
        }
        if key.is_empty() && chars.peek().is_none() {
            break;
        }
        let mut value = String::new();
        if chars.peek() == Some(&'=') {
            chars.next();
            if chars.peek() == Some(&'"') {
                chars.next();
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            if let Some(n) = chars.next() {
                                value.push(n);
                            }
                        }
                        '"' => break,
                        _ => value.push(c),
                    }
                }
            } else {
                while let Some(&c) = chars.peek() {
                    if c == ',' {
                        break;
                    }
                    value.push(c);
                    chars.next();
                }
                value = value.trim().to_string();
            }
        }
        let key = key.trim().to_string();
        if !key.is_empty() {
            out.push((key, value));
        }
        if chars.peek().is_none() {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_docker_hub_bearer_challenge() {
        let c = Challenge::parse(
            r#"Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:samalba/my-app:pull,push""#,
        )
        .unwrap();
        assert_eq!(
            c,
            Challenge::Bearer {
                realm: "https://auth.docker.io/token".into(),
                service: Some("registry.docker.io".into()),
                scopes: vec!["repository:samalba/my-app:pull,push".into()],
            }
        );
    }

    #[test]
    fn parses_basic_unquoted_and_rejects_unknown() {
        assert_eq!(
            Challenge::parse(r#"Basic realm="Registry Realm""#),
            Some(Challenge::Basic)
        );
        assert_eq!(
            Challenge::parse("bearer realm=http://x/token, service=svc"),
            Some(Challenge::Bearer {
                realm: "http://x/token".into(),
                service: Some("svc".into()),
                scopes: vec![],
            })
        );
        assert_eq!(Challenge::parse("Negotiate abc"), None);
        assert_eq!(Challenge::parse(r#"Bearer service="x""#), None);
    }

    #[test]
    fn splits_several_scopes() {
        let c = Challenge::parse(r#"Bearer realm="r",scope="repository:a:pull repository:b:pull""#)
            .unwrap();
        let Challenge::Bearer { scopes, .. } = c else {
            panic!()
        };
        assert_eq!(scopes, vec!["repository:a:pull", "repository:b:pull"]);
    }
}
