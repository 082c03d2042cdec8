//! Go's `%q` quoting, for the messages that must read exactly as kapp-controller's
//! (field errors, semver and range parse errors).

/// `s` quoted as Go's `%q` quotes the ASCII strings these messages carry: `\"`, `\\`,
/// `\n`, `\t`, `\r`, other control characters as `\xNN`, the escaping a Starlark string
/// literal uses too.
pub(crate) fn go_quote(s: &str) -> String {
    crate::ytt::compile::text::starlark_string(s)
}

#[cfg(test)]
mod tests {
    use super::go_quote;

    #[test]
    fn quotes_like_go() {
        assert_eq!(go_quote("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(go_quote("\u{1}\n"), "\"\\x01\\n\"");
    }
}
