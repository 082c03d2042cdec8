//! [`RegistryStore`]: one repository on one registry, as a [`Store`]. The work is
//! in the sibling modules (`blobs`, `upload`, `manifests`, `tags`); this file holds
//! the shared plumbing and the trait impl.

use reqwest::{StatusCode, Url};

use crate::oci::registry::client::Call;
use crate::oci::registry::errors::{self, Subject};
use crate::oci::registry::{
    RegistryClient, blobs, manifests, tags, upload, upload_resume, upload_stream,
};
use crate::oci::store::{BlobRange, Descriptor, ManifestBytes, PartialBlob, Store};
use crate::oci::stream::{BlobStream, VerifiedBlob};
use crate::oci::{Digest, OciError, Result};

/// A repository on a registry.
#[derive(Clone, Debug)]
pub struct RegistryStore {
    client: RegistryClient,
    registry: String,
    repository: String,
}

impl RegistryStore {
    pub(crate) fn new(client: RegistryClient, registry: &str, repository: &str) -> RegistryStore {
        RegistryStore {
            client,
            registry: registry.to_string(),
            repository: repository.to_string(),
        }
    }

    pub fn registry(&self) -> &str {
        &self.registry
    }

    pub fn repository(&self) -> &str {
        &self.repository
    }

    pub fn client(&self) -> &RegistryClient {
        &self.client
    }

    /// `/v2/<repository>/<path>` on this registry.
    pub(crate) async fn url(&self, path: &str) -> Result<Url> {
        self.client
            .url(&self.registry, &format!("{}/{path}", self.repository))
            .await
    }

    pub(crate) async fn send(&self, call: Call) -> Result<reqwest::Response> {
        self.client
            .send(&self.registry, &self.repository, call)
            .await
    }

    /// The error for a failed answer about `subject`.
    pub(crate) fn error(&self, subject: Subject<'_>, status: StatusCode, body: &[u8]) -> OciError {
        errors::from_response(&self.location(), subject, status, body)
    }

    /// An error about this repository: `registry/repository: detail`.
    pub(crate) fn registry_error(&self, detail: impl Into<String>) -> OciError {
        OciError::Registry {
            registry: self.location(),
            detail: detail.into(),
        }
    }

    /// The tags, sorted, asked for `page_size` at a time (`GET tags/list?n=…`,
    /// following `Link`); `None` once more than `max` are listed and the registry
    /// offers a further page.
    pub async fn list_tags_paged(
        &self,
        page_size: usize,
        max: usize,
    ) -> Result<Option<Vec<String>>> {
        tags::list_tags_paged(self, page_size, max).await
    }

    /// Reads the body of a failed answer and turns it into an error.
    pub(crate) async fn fail(&self, subject: Subject<'_>, resp: reqwest::Response) -> OciError {
        let status = resp.status();
        let body = resp.bytes().await.unwrap_or_default();
        self.error(subject, status, &body)
    }
}

#[async_trait::async_trait]
impl Store for RegistryStore {
    fn location(&self) -> String {
        format!("{}/{}", self.registry, self.repository)
    }

    async fn blob_size(&self, digest: &Digest) -> Result<Option<u64>> {
        blobs::blob_size(self, digest).await
    }

    async fn get_blob(&self, digest: &Digest) -> Result<BlobStream> {
        blobs::get_blob(self, digest).await
    }

    async fn get_blob_from(&self, digest: &Digest, offset: u64) -> Result<BlobRange> {
        blobs::get_blob_from(self, digest, offset).await
    }

    async fn resume_blob(&self, descriptor: &Descriptor) -> Result<Option<Box<dyn PartialBlob>>> {
        upload_resume::resume_blob(self, descriptor).await
    }

    async fn put_blob(&self, descriptor: &Descriptor, data: BlobStream) -> Result<()> {
        upload::put_blob(self, descriptor, data).await
    }

    async fn put_verified_blob(&self, descriptor: &Descriptor, data: VerifiedBlob) -> Result<()> {
        upload::put_checked(
            self,
            descriptor,
            data.checked_for(descriptor, self.location()),
        )
        .await
    }

    async fn put_blob_stream(&self, media_type: &str, data: BlobStream) -> Result<Descriptor> {
        upload_stream::put_blob_stream(self, media_type, data).await
    }

    async fn mount_blob(&self, descriptor: &Descriptor, from: &dyn Store) -> Result<bool> {
        upload::mount_blob(self, descriptor, from).await
    }

    fn registry_repository(&self) -> Option<(String, String)> {
        Some((self.registry.clone(), self.repository.clone()))
    }

    async fn resolve(&self, reference: &str) -> Result<Option<Descriptor>> {
        manifests::resolve(self, reference).await
    }

    async fn get_manifest(&self, reference: &str) -> Result<ManifestBytes> {
        manifests::get_manifest(self, reference).await
    }

    async fn put_manifest(&self, manifest: &ManifestBytes, tag: Option<&str>) -> Result<()> {
        manifests::put_manifest(self, manifest, tag).await
    }

    async fn list_tags(&self) -> Result<Vec<String>> {
        tags::list_tags(self).await
    }

    async fn list_tags_up_to(&self, max: usize) -> Result<Option<Vec<String>>> {
        self.list_tags_paged(tags::PAGE_SIZE, max).await
    }

    async fn referrers(&self, digest: &Digest) -> Result<Option<Vec<Descriptor>>> {
        manifests::referrers(self, digest).await
    }
}
