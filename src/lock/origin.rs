//! kbld image origins (`config/image_origin.go`): where a locked reference came from. They
//! are kept as YAML values (maps with one key: `resolved`, `preresolved`,
//! `platformSelected`, or any other kind read back from an existing lock) and printed in
//! the `kbld.k14s.io/images` and `kbld.carvel.dev/origins` annotations.

use crate::yaml::Value;

/// One origin, e.g. `{resolved: {tag: v1, url: reg/app:v1}}`.
pub type Origin = Value;

fn single(kind: &str, fields: Vec<(&str, String)>) -> Origin {
    Value::Map(vec![(
        Value::str(kind),
        Value::Map(
            fields
                .into_iter()
                .map(|(k, v)| (Value::str(k), Value::String(v)))
                .collect(),
        ),
    )])
}

/// `resolved{url, tag}`: a tag was resolved to a digest. `url` is the reference as given.
pub fn resolved(url: &str, tag: &str) -> Origin {
    single(
        "resolved",
        vec![("url", url.to_string()), ("tag", tag.to_string())],
    )
}

/// `preresolved{url}`: taken from an override or lock without any lookup.
pub fn preresolved(url: &str) -> Origin {
    single("preresolved", vec![("url", url.to_string())])
}

/// `platformSelected{index, os, architecture[, variant]}`: a child of an index was picked.
pub fn platform_selected(index: &str, os: &str, architecture: &str, variant: &str) -> Origin {
    let mut fields = vec![
        ("index", index.to_string()),
        ("os", os.to_string()),
        ("architecture", architecture.to_string()),
    ];
    if !variant.is_empty() {
        fields.push(("variant", variant.to_string()));
    }
    single("platformSelected", fields)
}
