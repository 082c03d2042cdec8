//! The `manifest.json` of an imgpkg tarball: a JSON array of
//! `{"ImageIndex": …, "Image": …}` objects with Go field names
//! (`imgpkg:pkg/imgpkg/imagedesc/types.go`). Parsing uses serde; writing uses a
//! small encoder that reproduces Go's `encoding/json` byte for byte (field order,
//! `null` for empty lists and maps, sorted map keys, HTML-safe string escapes), so a
//! tarball we write is identical to the one imgpkg writes from the same content.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::go_json::{GoRelease, write_string};

/// A string as imgpkg's Go writes it.
fn go_string(out: &mut String, s: &str) {
    write_string(out, s, GoRelease::Since1_22);
}

/// One top-level element of `manifest.json`.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase")]
pub struct ImageOrIndex {
    #[serde(default)]
    pub image_index: Option<IndexDescriptor>,
    #[serde(default)]
    pub image: Option<ImageDescriptor>,
}

/// An image index and, recursively, its children.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct IndexDescriptor {
    #[serde(deserialize_with = "null_as_default")]
    pub refs: Vec<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub images: Vec<ImageDescriptor>,
    #[serde(deserialize_with = "null_as_default")]
    pub indexes: Vec<IndexDescriptor>,
    pub media_type: String,
    pub digest: String,
    pub raw: String,
    pub tag: String,
    pub orig_ref: String,
    pub labels: Option<BTreeMap<String, String>>,
}

/// An image: its manifest and config inline, its layers by descriptor.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct ImageDescriptor {
    #[serde(deserialize_with = "null_as_default")]
    pub refs: Vec<String>,
    #[serde(deserialize_with = "null_as_default")]
    pub layers: Vec<LayerDescriptor>,
    pub config: ConfigDescriptor,
    pub manifest: ManifestDescriptor,
    pub tag: String,
    pub orig_ref: String,
    pub labels: Option<BTreeMap<String, String>>,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(default)]
pub struct LayerDescriptor {
    #[serde(rename = "MediaType")]
    pub media_type: String,
    #[serde(rename = "Digest")]
    pub digest: String,
    #[serde(rename = "DiffID")]
    pub diff_id: String,
    #[serde(rename = "Size")]
    pub size: i64,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct ConfigDescriptor {
    pub digest: String,
    pub raw: String,
}

#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "PascalCase", default)]
pub struct ManifestDescriptor {
    pub media_type: String,
    pub digest: String,
    pub raw: String,
}

fn null_as_default<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Default + Deserialize<'de>,
{
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

impl ImageOrIndex {
    /// imgpkg's sort key: the index digest, or `manifest digest/config digest`.
    pub fn sort_key(&self) -> String {
        match (&self.image_index, &self.image) {
            (Some(index), _) => index.digest.clone(),
            (None, Some(image)) => format!("{}/{}", image.manifest.digest, image.config.digest),
            (None, None) => String::new(),
        }
    }
}

/// Serialises the elements exactly as Go's `json.Marshal` would (compact, no
/// trailing newline). Callers sort the elements by [`ImageOrIndex::sort_key`].
pub fn encode_manifest_json(elements: &[ImageOrIndex]) -> Vec<u8> {
    let mut out = String::new();
    out.push('[');
    for (i, element) in elements.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"ImageIndex\":");
        match &element.image_index {
            Some(index) => encode_index(&mut out, index),
            None => out.push_str("null"),
        }
        out.push_str(",\"Image\":");
        match &element.image {
            Some(image) => encode_image(&mut out, image),
            None => out.push_str("null"),
        }
        out.push('}');
    }
    out.push(']');
    out.into_bytes()
}

fn encode_index(out: &mut String, index: &IndexDescriptor) {
    out.push_str("{\"Refs\":");
    encode_list(out, &index.refs, |out, r| go_string(out, r));
    out.push_str(",\"Images\":");
    encode_list(out, &index.images, encode_image);
    out.push_str(",\"Indexes\":");
    encode_list(out, &index.indexes, encode_index);
    field(out, "MediaType", &index.media_type);
    field(out, "Digest", &index.digest);
    field(out, "Raw", &index.raw);
    field(out, "Tag", &index.tag);
    field(out, "OrigRef", &index.orig_ref);
    out.push_str(",\"Labels\":");
    encode_labels(out, &index.labels);
    out.push('}');
}

fn encode_image(out: &mut String, image: &ImageDescriptor) {
    out.push_str("{\"Refs\":");
    encode_list(out, &image.refs, |out, r| go_string(out, r));
    out.push_str(",\"Layers\":");
    encode_list(out, &image.layers, |out, layer| {
        out.push_str("{\"MediaType\":");
        go_string(out, &layer.media_type);
        field(out, "Digest", &layer.digest);
        field(out, "DiffID", &layer.diff_id);
        out.push_str(",\"Size\":");
        out.push_str(&layer.size.to_string());
        out.push('}');
    });
    out.push_str(",\"Config\":{\"Digest\":");
    go_string(out, &image.config.digest);
    field(out, "Raw", &image.config.raw);
    out.push_str("},\"Manifest\":{\"MediaType\":");
    go_string(out, &image.manifest.media_type);
    field(out, "Digest", &image.manifest.digest);
    field(out, "Raw", &image.manifest.raw);
    out.push('}');
    field(out, "Tag", &image.tag);
    field(out, "OrigRef", &image.orig_ref);
    out.push_str(",\"Labels\":");
    encode_labels(out, &image.labels);
    out.push('}');
}

/// `,"name":"value"`.
fn field(out: &mut String, name: &str, value: &str) {
    out.push_str(",\"");
    out.push_str(name);
    out.push_str("\":");
    go_string(out, value);
}

/// A Go slice: `null` when empty (imgpkg's slices are nil until appended to).
fn encode_list<T>(out: &mut String, items: &[T], mut encode: impl FnMut(&mut String, &T)) {
    if items.is_empty() {
        out.push_str("null");
        return;
    }
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        encode(out, item);
    }
    out.push(']');
}

/// A Go map: `null` when nil, else keys in sorted order.
fn encode_labels(out: &mut String, labels: &Option<BTreeMap<String, String>>) {
    let Some(labels) = labels else {
        out.push_str("null");
        return;
    };
    out.push('{');
    for (i, (k, v)) in labels.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        go_string(out, k);
        out.push(':');
        go_string(out, v);
    }
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_reencodes_identically() {
        let text = r#"[{"ImageIndex":{"Refs":["r@sha256:1"],"Images":[{"Refs":["r@sha256:2"],"Layers":null,"Config":{"Digest":"c","Raw":"{}"},"Manifest":{"MediaType":"m","Digest":"sha256:2","Raw":"{\"a\":1}"},"Tag":"v1","OrigRef":"o","Labels":{"b":"","a":"x"}}],"Indexes":null,"MediaType":"i","Digest":"sha256:1","Raw":"\u003c","Tag":"v1","OrigRef":"o","Labels":null},"Image":null}]"#;
        let parsed: Vec<ImageOrIndex> = serde_json::from_str(text).unwrap();
        let again = String::from_utf8(encode_manifest_json(&parsed)).unwrap();
        // Labels come back sorted, as Go's encoder sorts map keys.
        assert_eq!(
            again,
            text.replace(r#"{"b":"","a":"x"}"#, r#"{"a":"x","b":""}"#)
        );
        assert_eq!(parsed[0].sort_key(), "sha256:1");
    }
}
