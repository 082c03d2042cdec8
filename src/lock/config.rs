//! kbld configuration found among the input documents (`config/config.go`, `conf.go`):
//! `apiVersion: kbld.k14s.io/v1alpha1` documents of kind `Config`, `ImageOverrides`,
//! `ImageKeys`, `ImageDestinations` or `Sources`, and imgpkg `ImagesLock` documents, which
//! become preresolved overrides (as kapp-controller feeds `.imgpkg/images.yml` to kbld).
//! Configuration documents are consumed, never printed.

use crate::lock::error::LockError;
use crate::lock::origin::Origin;
use crate::lock::platform::Platform;
use crate::oci::Reference;
use crate::yaml::Value;

/// kbld's API group for configuration documents.
pub const KBLD_API_VERSION: &str = "kbld.k14s.io/v1alpha1";
/// imgpkg's API group for ImagesLock documents.
pub const IMGPKG_API_VERSION: &str = "imgpkg.carvel.dev/v1alpha1";
/// The kbld version whose behaviour and lock format strake follows.
pub const KBLD_COMPAT_VERSION: &str = "0.42.0";
/// Annotation holding the literal input string of a lock entry.
pub const ID_ANNOTATION: &str = "kbld.carvel.dev/id";
/// Annotation holding the YAML list of a lock entry's origins.
pub const ORIGINS_ANNOTATION: &str = "kbld.carvel.dev/origins";

const KBLD_KINDS: [&str; 5] = [
    "Config",
    "Sources",
    "ImageOverrides",
    "ImageDestinations",
    "ImageKeys",
];

/// What an override or a value matcher matches: an exact string, or a repository.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImageRef {
    Image(String),
    Repo(String),
}

impl ImageRef {
    /// kbld's `Matcher`: exact comparison, or the approximate repository of the value.
    pub fn matches(&self, url: &str) -> bool {
        match self {
            ImageRef::Image(image) => image == url,
            ImageRef::Repo(repo) => repo == url_repo(url),
        }
    }
}

/// The repository part of a reference as kbld approximates it: the shortest prefix
/// followed by an optional `:tag` (letters, digits, `_-.`) and an optional `@algo:hex`.
pub fn url_repo(url: &str) -> &str {
    let is_tag = |t: &str| {
        !t.is_empty()
            && t.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    let is_digest = |d: &str| match d.split_once(':') {
        Some((a, b)) => !a.is_empty() && !b.is_empty(),
        None => false,
    };
    let rest_ok = |rest: &str| -> bool {
        if rest.is_empty() {
            return true;
        }
        if let Some(d) = rest.strip_prefix('@') {
            return is_digest(d);
        }
        if let Some(t) = rest.strip_prefix(':') {
            return match t.find('@') {
                Some(at) => is_tag(&t[..at]) && is_digest(&t[at + 1..]),
                None => is_tag(t),
            };
        }
        false
    };
    for (i, _) in url.char_indices().skip(1) {
        if rest_ok(&url[i..]) {
            return &url[..i];
        }
    }
    url
}

/// An image override (`overrides[]`, or an ImagesLock entry).
#[derive(Clone, Debug, PartialEq)]
pub struct Override {
    pub image_ref: ImageRef,
    pub new_image: String,
    pub preresolved: bool,
    pub platform: Option<Platform>,
    pub origins: Vec<Origin>,
}

/// One step of a `keyMatcher.path`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathPart {
    Key(String),
    AllIndexes,
    Index(usize),
}

/// `keyMatcher`: a key name anywhere, or an exact path from the document root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyMatcher {
    Name(String),
    Path(Vec<PathPart>),
}

/// `updateStrategy`.
#[derive(Clone, Debug, PartialEq)]
pub enum Strategy {
    /// Found, but neither resolved nor changed.
    None,
    /// The whole string is the reference.
    EntireValue,
    /// The string is a JSON document; search inside it with these rules.
    Json(Vec<SearchRule>),
    /// The string is a YAML document; search inside it with these rules.
    Yaml(Vec<SearchRule>),
}

/// One search rule.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchRule {
    pub key: Option<KeyMatcher>,
    pub value: Option<ImageRef>,
    pub strategy: Strategy,
    /// The rule as written, for `--lock-output`.
    pub raw: Value,
}

impl SearchRule {
    /// kbld's rule for a key name (the default rule uses `image`).
    pub fn for_key(name: &str) -> SearchRule {
        SearchRule {
            key: Some(KeyMatcher::Name(name.to_string())),
            value: None,
            strategy: Strategy::EntireValue,
            raw: Value::Map(vec![(
                Value::str("keyMatcher"),
                Value::Map(vec![(Value::str("name"), Value::str(name))]),
            )]),
        }
    }
}

/// The configuration gathered from all configuration documents.
#[derive(Clone, Debug, Default)]
pub struct Conf {
    pub overrides: Vec<Override>,
    /// User search rules (from `searchRules` and `keys`), without the default rule.
    pub rules: Vec<SearchRule>,
}

impl Conf {
    /// The rules to search with: the user's rules first, kbld's default `image` rule last.
    pub fn search_rules(&self) -> Vec<SearchRule> {
        let mut rules = self.rules.clone();
        rules.push(SearchRule::for_key("image"));
        rules
    }

    /// The first override matching `url`.
    pub fn find_override(&self, url: &str) -> Option<&Override> {
        self.overrides.iter().find(|o| o.image_ref.matches(url))
    }

    /// Consumes `doc` when it is configuration (returns `true`); `false` for a resource.
    pub fn add_document(&mut self, doc: &Value, file: &str) -> Result<bool, LockError> {
        let api = doc.get_str("apiVersion").and_then(as_str);
        let kind = doc.get_str("kind").and_then(as_str);
        match (api, kind) {
            (Some(KBLD_API_VERSION), Some(k)) if KBLD_KINDS.contains(&k) => {
                self.add_kbld_config(doc, &format!("{file}: kbld {k}"))?;
                Ok(true)
            }
            (Some(IMGPKG_API_VERSION), Some("ImagesLock")) => {
                let overrides = parse_images_lock(doc, &format!("{file}: ImagesLock"))?;
                self.overrides.extend(overrides);
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn add_kbld_config(&mut self, doc: &Value, ctx: &str) -> Result<(), LockError> {
        let map = as_map(doc, ctx, "document")?;
        for (k, v) in map {
            let key = as_str(k).unwrap_or("");
            match key {
                "apiVersion" | "kind" | "metadata" => {}
                "minimumRequiredVersion" => check_version(v, ctx)?,
                "overrides" => {
                    for (i, item) in as_list(v, ctx, "overrides")?.iter().enumerate() {
                        self.overrides
                            .push(parse_override(item, &format!("{ctx}: overrides[{i}]"))?);
                    }
                }
                "searchRules" => {
                    for (i, item) in as_list(v, ctx, "searchRules")?.iter().enumerate() {
                        self.rules
                            .push(parse_rule(item, &format!("{ctx}: searchRules[{i}]"))?);
                    }
                }
                "keys" => {
                    for (i, item) in as_list(v, ctx, "keys")?.iter().enumerate() {
                        let name = as_str(item).filter(|s| !s.is_empty()).ok_or_else(|| {
                            LockError::Input(format!("{ctx}: keys[{i}]: expected a key name"))
                        })?;
                        self.rules.push(SearchRule::for_key(name));
                    }
                }
                "sources" | "destinations" => {
                    if !as_list(v, ctx, key)?.is_empty() {
                        return Err(LockError::Input(format!(
                            "{ctx}: {key}: building and pushing images is not supported by strake lock; build them first and lock the pushed references"
                        )));
                    }
                }
                other => {
                    return Err(LockError::Input(format!("{ctx}: unknown field {other:?}")));
                }
            }
        }
        Ok(())
    }
}

fn as_str(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) => Some(s),
        _ => None,
    }
}

fn as_map<'a>(v: &'a Value, ctx: &str, what: &str) -> Result<&'a [(Value, Value)], LockError> {
    match v {
        Value::Map(items) => Ok(items),
        Value::Null => Ok(&[]),
        other => Err(LockError::Input(format!(
            "{ctx}: {what}: expected a map, got {}",
            other.type_name()
        ))),
    }
}

fn as_list<'a>(v: &'a Value, ctx: &str, what: &str) -> Result<&'a [Value], LockError> {
    match v {
        Value::Array(items) => Ok(items),
        Value::Null => Ok(&[]),
        other => Err(LockError::Input(format!(
            "{ctx}: {what}: expected a list, got {}",
            other.type_name()
        ))),
    }
}

fn string_field(map: &[(Value, Value)], key: &str, ctx: &str) -> Result<Option<String>, LockError> {
    match map.iter().find(|(k, _)| as_str(k) == Some(key)) {
        None | Some((_, Value::Null)) => Ok(None),
        Some((_, Value::String(s))) => Ok(Some(s.clone())),
        Some((_, other)) => Err(LockError::Input(format!(
            "{ctx}: {key}: expected a string, got {}",
            other.type_name()
        ))),
    }
}

fn check_unknown(map: &[(Value, Value)], allowed: &[&str], ctx: &str) -> Result<(), LockError> {
    for (k, _) in map {
        let name = as_str(k).unwrap_or("");
        if !allowed.contains(&name) {
            return Err(LockError::Input(format!("{ctx}: unknown field {k:?}")));
        }
    }
    Ok(())
}

fn check_version(v: &Value, ctx: &str) -> Result<(), LockError> {
    let text = match v {
        Value::String(s) => s.clone(),
        Value::Null => return Ok(()),
        other => other.to_display_string(),
    };
    let bad = |e: String| {
        LockError::Input(format!(
            "{ctx}: minimumRequiredVersion {text:?} is not a version: {e}"
        ))
    };
    let wanted =
        semver::Version::parse(text.trim_start_matches('v')).map_err(|e| bad(e.to_string()))?;
    let have = semver::Version::parse(KBLD_COMPAT_VERSION).expect("static version");
    if wanted > have {
        return Err(LockError::Input(format!(
            "{ctx}: requires kbld {text} or later; strake lock is compatible with kbld {KBLD_COMPAT_VERSION}"
        )));
    }
    Ok(())
}

fn image_ref(map: &[(Value, Value)], ctx: &str) -> Result<Option<ImageRef>, LockError> {
    let image = string_field(map, "image", ctx)?.filter(|s| !s.is_empty());
    let repo = string_field(map, "imageRepo", ctx)?.filter(|s| !s.is_empty());
    Ok(match (image, repo) {
        (Some(i), _) => Some(ImageRef::Image(i)),
        (None, Some(r)) => Some(ImageRef::Repo(r)),
        (None, None) => None,
    })
}

fn parse_override(item: &Value, ctx: &str) -> Result<Override, LockError> {
    let map = as_map(item, ctx, "override")?;
    check_unknown(
        map,
        &[
            "image",
            "imageRepo",
            "newImage",
            "preresolved",
            "tagSelection",
            "platformSelection",
            "origins",
        ],
        ctx,
    )?;
    let image_ref = image_ref(map, ctx)?.ok_or_else(|| {
        LockError::Input(format!(
            "{ctx}: expected image or imageRepo to be non-empty"
        ))
    })?;
    let new_image = string_field(map, "newImage", ctx)?
        .filter(|s| !s.is_empty())
        .ok_or_else(|| LockError::Input(format!("{ctx}: expected newImage to be non-empty")))?;
    let preresolved = match item.get_str("preresolved") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => {
            return Err(LockError::Input(format!(
                "{ctx}: preresolved: expected a boolean, got {}",
                other.type_name()
            )));
        }
    };
    if item
        .get_str("tagSelection")
        .is_some_and(|v| *v != Value::Null)
    {
        return Err(LockError::Input(format!(
            "{ctx}: tagSelection is not supported by strake lock; pin the tag in newImage"
        )));
    }
    let platform = match item.get_str("platformSelection") {
        None | Some(Value::Null) => None,
        Some(sel) => Some(parse_platform(sel, &format!("{ctx}: platformSelection"))?),
    };
    let origins = match item.get_str("origins") {
        None | Some(Value::Null) => Vec::new(),
        Some(v) => as_list(v, ctx, "origins")?.to_vec(),
    };
    Ok(Override {
        image_ref,
        new_image,
        preresolved,
        platform,
        origins,
    })
}

fn parse_platform(v: &Value, ctx: &str) -> Result<Platform, LockError> {
    let map = as_map(v, ctx, "platformSelection")?;
    check_unknown(
        map,
        &[
            "os",
            "architecture",
            "variant",
            "os.version",
            "features",
            "os.features",
        ],
        ctx,
    )?;
    let list = |key: &str| -> Result<Vec<String>, LockError> {
        match v.get_str(key) {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(l) => as_list(l, ctx, key)?
                .iter()
                .map(|x| {
                    as_str(x)
                        .map(str::to_string)
                        .ok_or_else(|| LockError::Input(format!("{ctx}: {key}: expected strings")))
                })
                .collect(),
        }
    };
    let p = Platform {
        os: string_field(map, "os", ctx)?.unwrap_or_default(),
        architecture: string_field(map, "architecture", ctx)?.unwrap_or_default(),
        variant: string_field(map, "variant", ctx)?.unwrap_or_default(),
        os_version: string_field(map, "os.version", ctx)?.unwrap_or_default(),
        features: list("features")?,
        os_features: list("os.features")?,
    };
    if p.os.is_empty() || p.architecture.is_empty() {
        return Err(LockError::Input(format!(
            "{ctx}: expected os and architecture"
        )));
    }
    Ok(p)
}

fn parse_rule(item: &Value, ctx: &str) -> Result<SearchRule, LockError> {
    let map = as_map(item, ctx, "search rule")?;
    check_unknown(map, &["keyMatcher", "valueMatcher", "updateStrategy"], ctx)?;
    let key = match item.get_str("keyMatcher") {
        None | Some(Value::Null) => None,
        Some(km) => {
            let kctx = format!("{ctx}: keyMatcher");
            let kmap = as_map(km, &kctx, "keyMatcher")?;
            check_unknown(kmap, &["name", "path"], &kctx)?;
            if let Some(name) = string_field(kmap, "name", &kctx)?.filter(|s| !s.is_empty()) {
                Some(KeyMatcher::Name(name))
            } else if let Some(path) = km.get_str("path").filter(|p| **p != Value::Null) {
                let mut parts = Vec::new();
                for (i, part) in as_list(path, &kctx, "path")?.iter().enumerate() {
                    parts.push(match part {
                        Value::String(s) => PathPart::Key(s.clone()),
                        Value::Map(_) if part.get_str("allIndexes") == Some(&Value::Bool(true)) => {
                            PathPart::AllIndexes
                        }
                        Value::Map(_) => match part.get_str("index") {
                            Some(Value::Int(n)) if *n >= 0 => PathPart::Index(*n as usize),
                            _ => {
                                return Err(LockError::Input(format!(
                                    "{kctx}: path[{i}]: expected a key, {{allIndexes: true}} or {{index: N}}"
                                )));
                            }
                        },
                        _ => {
                            return Err(LockError::Input(format!(
                                "{kctx}: path[{i}]: expected a key, {{allIndexes: true}} or {{index: N}}"
                            )));
                        }
                    });
                }
                Some(KeyMatcher::Path(parts))
            } else {
                return Err(LockError::Input(format!("{kctx}: expected name or path")));
            }
        }
    };
    let value =
        match item.get_str("valueMatcher") {
            None | Some(Value::Null) => None,
            Some(vm) => {
                let vctx = format!("{ctx}: valueMatcher");
                let vmap = as_map(vm, &vctx, "valueMatcher")?;
                check_unknown(vmap, &["image", "imageRepo"], &vctx)?;
                Some(image_ref(vmap, &vctx)?.ok_or_else(|| {
                    LockError::Input(format!("{vctx}: expected image or imageRepo"))
                })?)
            }
        };
    if key.is_none() && value.is_none() {
        return Err(LockError::Input(format!(
            "{ctx}: expected keyMatcher or valueMatcher"
        )));
    }
    let strategy = match item.get_str("updateStrategy") {
        None | Some(Value::Null) => Strategy::EntireValue,
        Some(us) => {
            let sctx = format!("{ctx}: updateStrategy");
            let smap = as_map(us, &sctx, "updateStrategy")?;
            check_unknown(smap, &["none", "entireValue", "json", "yaml"], &sctx)?;
            let nested = |key: &str| -> Result<Vec<SearchRule>, LockError> {
                let inner = us.get_str(key).unwrap_or(&Value::Null);
                let rules = inner.get_str("searchRules").unwrap_or(&Value::Null);
                as_list(rules, &sctx, &format!("{key}.searchRules"))?
                    .iter()
                    .enumerate()
                    .map(|(i, r)| parse_rule(r, &format!("{sctx}: {key}.searchRules[{i}]")))
                    .collect()
            };
            let set = |key: &str| us.get_str(key).is_some();
            if set("none") {
                Strategy::None
            } else if set("json") {
                Strategy::Json(nested("json")?)
            } else if set("yaml") {
                Strategy::Yaml(nested("yaml")?)
            } else {
                Strategy::EntireValue
            }
        }
    };
    Ok(SearchRule {
        key,
        value,
        strategy,
        raw: item.clone(),
    })
}

/// Turns an ImagesLock document into preresolved overrides, as
/// `config.NewConfigFromImagesLock` does (strict fields, digest references only).
pub fn parse_images_lock(doc: &Value, ctx: &str) -> Result<Vec<Override>, LockError> {
    let map = as_map(doc, ctx, "document")?;
    check_unknown(map, &["apiVersion", "kind", "images"], ctx)?;
    let images = doc.get_str("images").unwrap_or(&Value::Null);
    let mut out = Vec::new();
    for (i, entry) in as_list(images, ctx, "images")?.iter().enumerate() {
        let ectx = format!("{ctx}: images[{i}]");
        let emap = as_map(entry, &ectx, "entry")?;
        check_unknown(emap, &["image", "annotations"], &ectx)?;
        let image = string_field(emap, "image", &ectx)?.unwrap_or_default();
        let reference = Reference::parse(&image)
            .map_err(|e| LockError::Input(format!("{ectx}: image: {e}")))?;
        if reference.digest().is_none() {
            return Err(LockError::Input(format!(
                "{ectx}: image {image:?}: expected ref to be in digest form"
            )));
        }
        let annotations = entry.get_str("annotations").unwrap_or(&Value::Null);
        let amap = as_map(annotations, &ectx, "annotations")?;
        let id = string_field(amap, ID_ANNOTATION, &ectx)?
            .filter(|s| !s.is_empty())
            .ok_or_else(|| {
                LockError::Input(format!(
                    "{ectx}: annotation {ID_ANNOTATION} is missing (expected Image or ImageRepo to be non-empty)"
                ))
            })?;
        let origins = match string_field(amap, ORIGINS_ANNOTATION, &ectx)? {
            None => Vec::new(),
            Some(text) => {
                let set = crate::yaml::parse_document_set(&text, &ectx).map_err(|e| {
                    LockError::Input(format!("{ectx}: annotation {ORIGINS_ANNOTATION}: {e}"))
                })?;
                match set.printable_values().into_iter().next() {
                    None => Vec::new(),
                    Some(Value::Array(items)) => items,
                    Some(other) => {
                        return Err(LockError::Input(format!(
                            "{ectx}: annotation {ORIGINS_ANNOTATION}: expected a list, got {}",
                            other.type_name()
                        )));
                    }
                }
            }
        };
        out.push(Override {
            image_ref: ImageRef::Image(id),
            new_image: reference.to_string(),
            preresolved: true,
            platform: None,
            origins,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn approximate_repo() {
        assert_eq!(url_repo("127.0.0.1:5000/a/b:v1"), "127.0.0.1:5000/a/b");
        assert_eq!(url_repo("127.0.0.1:5000/a/b"), "127.0.0.1:5000/a/b");
        assert_eq!(url_repo("nginx@sha256:abc"), "nginx");
        assert_eq!(url_repo("nginx:1.2@sha256:abc"), "nginx");
        assert!(ImageRef::Repo("nginx".into()).matches("nginx:1.25"));
        assert!(!ImageRef::Image("nginx".into()).matches("nginx:1.25"));
    }

    fn parse(text: &str) -> Value {
        crate::yaml::parse_document_set(text, "t.yml")
            .unwrap()
            .printable_values()
            .remove(0)
    }

    #[test]
    fn config_documents_are_consumed() {
        let mut conf = Conf::default();
        let doc = parse(
            "apiVersion: kbld.k14s.io/v1alpha1\nkind: Config\nminimumRequiredVersion: 0.31.0\nsearchRules:\n- keyMatcher:\n    path: [spec, images, {allIndexes: true}]\noverrides:\n- image: a\n  newImage: b@sha256:0000000000000000000000000000000000000000000000000000000000000001\n  preresolved: true\n",
        );
        assert!(conf.add_document(&doc, "c.yml").unwrap());
        assert_eq!(conf.rules.len(), 1);
        assert_eq!(
            conf.rules[0].key,
            Some(KeyMatcher::Path(vec![
                PathPart::Key("spec".into()),
                PathPart::Key("images".into()),
                PathPart::AllIndexes
            ]))
        );
        assert!(conf.find_override("a").unwrap().preresolved);
        let too_new = parse(
            "apiVersion: kbld.k14s.io/v1alpha1\nkind: Config\nminimumRequiredVersion: 9.0.0\n",
        );
        let err = conf
            .add_document(&too_new, "c.yml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("c.yml: kbld Config: requires kbld 9.0.0"),
            "{err}"
        );
        let unknown = parse("apiVersion: kbld.k14s.io/v1alpha1\nkind: Config\nbogus: 1\n");
        let err = conf
            .add_document(&unknown, "c.yml")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("unknown field") && err.contains("bogus"),
            "{err}"
        );
        let resource = parse("apiVersion: v1\nkind: Pod\n");
        assert!(!conf.add_document(&resource, "p.yml").unwrap());
    }

    #[test]
    fn images_lock_becomes_preresolved_overrides() {
        let doc = parse(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- annotations:\n    kbld.carvel.dev/id: nginx:1\n    kbld.carvel.dev/origins: |\n      - resolved:\n          tag: \"1\"\n          url: nginx:1\n  image: nginx@sha256:0000000000000000000000000000000000000000000000000000000000000001\n",
        );
        let o = parse_images_lock(&doc, "l.yml").unwrap();
        assert_eq!(o[0].image_ref, ImageRef::Image("nginx:1".into()));
        assert_eq!(
            o[0].new_image,
            "index.docker.io/library/nginx@sha256:0000000000000000000000000000000000000000000000000000000000000001"
        );
        assert_eq!(o[0].origins.len(), 1);
        let tagged = parse(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: nginx:1\n  annotations: {kbld.carvel.dev/id: x}\n",
        );
        let err = parse_images_lock(&tagged, "l.yml").unwrap_err().to_string();
        assert!(
            err.contains("l.yml: images[0]: image \"nginx:1\": expected ref to be in digest form"),
            "{err}"
        );
    }
}
