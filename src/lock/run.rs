//! The lock pipeline: split configuration from resources, find references, resolve them
//! all at once, then rewrite and print. [`lock_documents`] is the entry point for callers
//! that already hold rendered documents (the template engine's output, or `-f` inputs read
//! by [`crate::lock::input::read_inputs`]).

use std::collections::BTreeMap;

use crate::lock::config::Conf;
use crate::lock::error::LockError;
use crate::lock::input::InputDoc;
use crate::lock::layout_source::LayoutSource;
use crate::lock::output;
use crate::lock::platform::Platform;
use crate::lock::resolve::{Resolved, Resolver};
use crate::lock::search::{PathDisplay, Seg, Visitor, walk};
use crate::lock::warn::looks_like_image;
use crate::oci::registry::{RegistryClient, RegistryOptions};

/// How many registry lookups run at once by default.
pub const DEFAULT_CONCURRENCY: usize = 32;

/// Settings of one lock run.
#[derive(Clone, Debug, Default)]
pub struct LockOptions {
    /// `--platform`: replace indexes by their child for this platform.
    pub platform: Option<Platform>,
    /// `--image-source oci:DIR`, looked at before any registry, in order.
    pub image_sources: Vec<String>,
    /// References from `--images-file`: locked, but not in any document.
    pub extra_images: Vec<String>,
    /// Use no registry at all (overrides, locks, digests and image sources only).
    pub offline: bool,
    /// Parallel lookups (0 = [`DEFAULT_CONCURRENCY`]).
    pub concurrency: usize,
    pub registry: RegistryOptions,
}

/// Everything a run produces; the caller prints and writes it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LockOutput {
    /// The resources, each as `---\n` + YAML.
    pub stdout: String,
    /// The imgpkg ImagesLock text.
    pub images_lock: String,
    /// The kbld Config lock text.
    pub config_lock: String,
    /// Warnings for stderr.
    pub warnings: Vec<String>,
    /// Resolved references by input string.
    pub resolved: BTreeMap<String, Resolved>,
}

struct Finder<'a> {
    doc: &'a InputDoc,
    found: Vec<String>,
    warnings: &'a mut Vec<String>,
}

impl Visitor for Finder<'_> {
    fn reference(&mut self, _path: &[Seg], value: &str) -> Option<String> {
        self.found.push(value.to_string());
        None
    }

    fn unmatched(&mut self, path: &[Seg], value: &str) {
        if looks_like_image(value) {
            self.warnings.push(format!(
                "{}: document {}: {}: {value:?} looks like an image reference but no search rule finds it, so it is not locked (use an `image` key, a kbld searchRule, or --images-file)",
                self.doc.file,
                self.doc.index,
                PathDisplay(path)
            ));
        }
    }
}

struct Replacer<'a> {
    resolved: &'a BTreeMap<String, Resolved>,
    used: Vec<Resolved>,
    found: usize,
}

impl Visitor for Replacer<'_> {
    fn reference(&mut self, _path: &[Seg], value: &str) -> Option<String> {
        self.found += 1;
        let r = self.resolved.get(value)?;
        self.used.push(r.clone());
        Some(r.url.clone())
    }
}

/// Locks already-rendered documents: configuration documents (kbld Config, ImagesLock) are
/// consumed, every reference in the others is resolved, and the rewritten resources and
/// both lock texts are returned. Unresolvable references fail the run together.
pub async fn lock_documents(
    docs: Vec<InputDoc>,
    options: &LockOptions,
) -> Result<LockOutput, LockError> {
    let mut conf = Conf::default();
    let mut resources = Vec::new();
    for doc in docs {
        let ctx = format!("{}: document {}", doc.file, doc.index);
        if !conf
            .add_document(&doc.value, &doc.file)
            .map_err(|e| match e {
                LockError::Input(m) if !m.starts_with(&doc.file) => {
                    LockError::Input(format!("{ctx}: {m}"))
                }
                other => other,
            })?
        {
            resources.push(doc);
        }
    }
    let rules = conf.search_rules();
    let mut warnings = Vec::new();
    let mut inputs: Vec<String> = Vec::new();
    for doc in &resources {
        let mut scratch = doc.value.clone();
        let mut finder = Finder {
            doc,
            found: Vec::new(),
            warnings: &mut warnings,
        };
        walk(&mut scratch, &rules, &mut finder);
        inputs.extend(finder.found);
    }
    inputs.extend(options.extra_images.iter().cloned());

    let mut sources = Vec::new();
    for location in &options.image_sources {
        sources.push(
            LayoutSource::open(location)
                .await
                .map_err(LockError::Input)?,
        );
    }
    let client = if options.offline {
        None
    } else {
        Some(RegistryClient::new(options.registry.clone())?)
    };
    let resolver = Resolver {
        conf: &conf,
        platform: options.platform.clone(),
        sources: &sources,
        client,
        concurrency: if options.concurrency == 0 {
            DEFAULT_CONCURRENCY
        } else {
            options.concurrency
        },
    };
    let resolution = resolver.resolve_all(&inputs).await;
    warnings.extend(resolution.warnings);
    if !resolution.failed.is_empty() {
        return Err(LockError::Unresolved(resolution.failed));
    }

    let mut stdout = String::new();
    for doc in resources {
        let mut value = doc.value;
        let mut replacer = Replacer {
            resolved: &resolution.resolved,
            used: Vec::new(),
            found: 0,
        };
        walk(&mut value, &rules, &mut replacer);
        if replacer.found > 0 {
            output::annotate(&mut value, &replacer.used).map_err(|e| {
                LockError::Input(format!("{}: document {}: {e}", doc.file, doc.index))
            })?;
        }
        stdout.push_str(&output::print_resource(&value));
    }
    Ok(LockOutput {
        stdout,
        images_lock: output::images_lock(&resolution.resolved),
        config_lock: output::config_lock(&resolution.resolved, &conf.rules),
        warnings,
        resolved: resolution.resolved,
    })
}
