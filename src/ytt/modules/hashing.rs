//! `@ytt:sha256` and `@ytt:md5`: hex digests of strings (of their Go bytes, so a string
//! holding bytes that are no UTF-8 is hashed as those bytes).

use sha2::Digest;

use crate::go_bytes::to_bytes;

use crate::ytt::starlark::{Module, Value};

use super::{module, native, single_string_arg};

pub fn sha256_module() -> Module {
    module(
        "@ytt:sha256",
        vec![(
            "sum",
            native("sha256.sum", |_t, a| {
                let s = single_string_arg("sha256.sum", a)?;
                Ok(Value::str(&hex::encode(sha2::Sha256::digest(to_bytes(s)))))
            }),
        )],
    )
}

pub fn md5_module() -> Module {
    module(
        "@ytt:md5",
        vec![(
            "sum",
            native("md5.sum", |_t, a| {
                let s = single_string_arg("md5.sum", a)?;
                Ok(Value::str(&hex::encode(md5(&to_bytes(s)))))
            }),
        )],
    )
}

/// MD5 (RFC 1321).
fn md5(input: &[u8]) -> [u8; 16] {
    md5::Md5::digest(input).into()
}

#[cfg(test)]
mod tests {
    #[test]
    fn md5_known() {
        assert_eq!(
            hex::encode(super::md5(b"")),
            "d41d8cd98f00b204e9800998ecf8427e"
        );
    }
}
