//! Resolving image references as kbld does (`image/factory.go`, `resolved.go`,
//! `digested.go`, `preresolved.go`, `platform_selected.go`), but with each distinct
//! reference looked up once, concurrently:
//!
//! * an override with `preresolved: true` (or an ImagesLock entry) is used as-is;
//! * `repo@digest` needs no lookup and is printed normalised;
//! * `repo:tag@digest` becomes `repo@digest`; the tag is checked against the digest unless
//!   offline (a moved tag is a warning: the pinned digest wins);
//! * `repo:tag` is looked up (image sources first, then the registry) and gets the origin
//!   `resolved{url, tag}`;
//! * with a platform (`--platform` or an override's `platformSelection`) an index is
//!   replaced by its matching child, with the origin `platformSelected`.

use std::collections::{BTreeMap, HashMap};

use futures_util::StreamExt;

use crate::lock::config::Conf;
use crate::lock::error::Unresolved;
use crate::lock::layout_source::LayoutSource;
use crate::lock::origin::{self, Origin};
use crate::lock::platform::Platform;
use crate::lock::registry::{self, Found};
use crate::oci::registry::RegistryClient;
use crate::oci::{Reference, media_types};

/// A resolved reference and where it came from.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub url: String,
    pub origins: Vec<Origin>,
}

/// What resolution needs: configuration, sources and the registry client.
pub struct Resolver<'a> {
    pub conf: &'a Conf,
    pub platform: Option<Platform>,
    pub sources: &'a [LayoutSource],
    /// `None` means offline: only overrides, digests and image sources are used.
    pub client: Option<RegistryClient>,
    pub concurrency: usize,
}

/// All results: resolved references by input string, failures, warnings.
#[derive(Debug, Default)]
pub struct Resolution {
    pub resolved: BTreeMap<String, Resolved>,
    pub failed: Vec<Unresolved>,
    pub warnings: Vec<String>,
}

/// What one input needs before it can be assembled.
enum Plan {
    Done(Resolved),
    Failed(String),
    Lookup {
        /// The URL after overrides (what the `resolved` origin names).
        url: String,
        reference: Box<Reference>,
        platform: Option<Platform>,
    },
}

impl Resolver<'_> {
    /// Resolves every distinct input string.
    pub async fn resolve_all(&self, inputs: &[String]) -> Resolution {
        let mut plans: Vec<(String, Plan)> = Vec::new();
        // Lookup key (a normalised reference) -> whether the manifest is needed.
        let mut jobs: HashMap<String, (Reference, bool)> = HashMap::new();
        let mut distinct: Vec<&String> = inputs.iter().collect();
        distinct.sort();
        distinct.dedup();
        for input in distinct {
            let plan = self.plan(input);
            if let Plan::Lookup {
                reference,
                platform,
                ..
            } = &plan
            {
                let want = platform.is_some();
                if reference.digest().is_none() || want {
                    let key = reference.to_string();
                    let e = jobs.entry(key).or_insert(((**reference).clone(), false));
                    e.1 |= want;
                }
                if let (Some(tag), Some(_)) = (reference.tag(), reference.digest())
                    && self.client.is_some()
                {
                    let tagged = Reference::from_parts(
                        reference.registry(),
                        reference.repository(),
                        Some(tag),
                        None,
                    );
                    if let Ok(tagged) = tagged {
                        jobs.entry(tagged.to_string()).or_insert((tagged, false));
                    }
                }
            }
            plans.push((input.clone(), plan));
        }

        let results: HashMap<String, Result<Found, String>> = futures_util::stream::iter(
            jobs.into_iter().map(|(key, (reference, want))| async move {
                let r = self.lookup(&reference, want).await;
                (key, r)
            }),
        )
        .buffer_unordered(self.concurrency.max(1))
        .collect()
        .await;

        let mut out = Resolution::default();
        for (input, plan) in plans {
            match plan {
                Plan::Done(r) => {
                    out.resolved.insert(input, r);
                }
                Plan::Failed(cause) => out.failed.push(Unresolved {
                    image: input,
                    cause,
                }),
                Plan::Lookup {
                    url,
                    reference,
                    platform,
                } => match self.assemble(
                    &url,
                    &reference,
                    platform.as_ref(),
                    &results,
                    &mut out.warnings,
                ) {
                    Ok(r) => {
                        out.resolved.insert(input, r);
                    }
                    Err(cause) => out.failed.push(Unresolved {
                        image: input,
                        cause,
                    }),
                },
            }
        }
        out
    }

    fn plan(&self, input: &str) -> Plan {
        let mut url = input.to_string();
        let mut platform = self.platform.clone();
        if let Some(o) = self.conf.find_override(input) {
            if o.preresolved {
                let mut origins = o.origins.clone();
                origins.push(origin::preresolved(&o.new_image));
                return Plan::Done(Resolved {
                    url: o.new_image.clone(),
                    origins,
                });
            }
            url = o.new_image.clone();
            if o.platform.is_some() {
                platform = o.platform.clone();
            }
        }
        let reference = match Reference::parse(&url) {
            Ok(r) => r,
            Err(e) => return Plan::Failed(e.to_string()),
        };
        if let Some(digest) = reference.digest()
            && platform.is_none()
            && (reference.tag().is_none() || self.client.is_none())
        {
            let name = reference.name();
            return Plan::Done(Resolved {
                url: format!("{name}@{digest}"),
                origins: Vec::new(),
            });
        }
        Plan::Lookup {
            url,
            reference: Box::new(reference),
            platform,
        }
    }

    async fn lookup(&self, reference: &Reference, want_manifest: bool) -> Result<Found, String> {
        for source in self.sources {
            if let Some(found) = source.lookup(reference, want_manifest).await? {
                return Ok(found);
            }
        }
        match &self.client {
            Some(client) => registry::lookup(client, reference, want_manifest).await,
            None if self.sources.is_empty() => {
                Err("offline: a lookup is needed and no registry may be used".to_string())
            }
            None => Err(format!(
                "not in the image sources ({}) and offline",
                self.sources
                    .iter()
                    .map(|s| s.location())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }

    fn assemble(
        &self,
        url: &str,
        reference: &Reference,
        platform: Option<&Platform>,
        results: &HashMap<String, Result<Found, String>>,
        warnings: &mut Vec<String>,
    ) -> Result<Resolved, String> {
        let name = reference.name();
        let mut origins = Vec::new();
        let digest = match reference.digest() {
            Some(digest) => {
                if let Some(tag) = reference.tag()
                    && self.client.is_some()
                {
                    let key = format!("{name}:{tag}");
                    match results.get(&key) {
                        Some(Ok(found)) if &found.descriptor.digest != digest => warnings.push(format!(
                            "{url}: tag {tag} now points at {}, not at the pinned {digest}; using the pinned digest",
                            found.descriptor.digest
                        )),
                        Some(Err(cause)) => warnings.push(format!(
                            "{url}: could not check that tag {tag} still points at {digest}: {cause}"
                        )),
                        _ => {}
                    }
                }
                digest.clone()
            }
            None => {
                let found = results
                    .get(&reference.to_string())
                    .ok_or_else(|| "internal error: lookup missing".to_string())?
                    .as_ref()
                    .map_err(|e| e.clone())?;
                origins.push(origin::resolved(url, reference.tag().unwrap_or("latest")));
                found.descriptor.digest.clone()
            }
        };
        let index_url = format!("{name}@{digest}");
        let Some(platform) = platform else {
            return Ok(Resolved {
                url: index_url,
                origins,
            });
        };
        let found = results
            .get(&reference.to_string())
            .ok_or_else(|| "internal error: lookup missing".to_string())?
            .as_ref()
            .map_err(|e| e.clone())?;
        if !media_types::is_index(&found.descriptor.media_type) {
            return Ok(Resolved {
                url: index_url,
                origins,
            });
        }
        let manifest = found
            .manifest
            .as_ref()
            .ok_or_else(|| "internal error: index manifest missing".to_string())?;
        let child = platform.select(manifest, &index_url)?;
        origins.push(origin::platform_selected(
            &index_url,
            &platform.os,
            &platform.architecture,
            &platform.variant,
        ));
        Ok(Resolved {
            url: format!("{name}@{child}"),
            origins,
        })
    }
}
