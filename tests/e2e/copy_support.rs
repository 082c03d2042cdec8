//! Content for the `strake copy` tests: a repository bundle with two package
//! bundles and four images in a real registry — a multi-arch index, an image
//! with a cosign `.sig` tag, an image with an OCI 1.1 referrer (an artifact whose
//! `subject` is the image, listed in the tag-schema index `sha256-<hex>`, the
//! fallback for registries without the referrers API such as distribution 2.8),
//! and a plain image — and checks of a relocated copy.

use std::path::Path;

use strake::oci::media_types::{DOCKER_MANIFEST, OCI_INDEX, OCI_MANIFEST};

use crate::support::cli::{run_ok, strake};
use crate::support::content::{PushedImage, block_on};
use crate::support::registry::TestRegistry;

/// What [`push_repository`] put into the registry.
pub struct RepositoryContent {
    /// `registry/src/repo-bundle:v1`.
    pub root_ref: String,
    pub root: String,
    pub packages: Vec<String>,
    /// index, signed, referred, plain.
    pub images: Vec<String>,
    pub index_children: Vec<String>,
    pub signature: String,
    pub referrer: String,
    pub referrers_index: String,
    /// Every blob digest.
    pub blobs: Vec<String>,
}

impl RepositoryContent {
    /// Every manifest digest a full copy must carry.
    pub fn all_manifests(&self) -> Vec<String> {
        let mut out = vec![self.root.clone()];
        out.extend(self.packages.iter().cloned());
        out.extend(self.images.iter().cloned());
        out.extend(self.index_children.iter().cloned());
        out.extend([
            self.signature.clone(),
            self.referrer.clone(),
            self.referrers_index.clone(),
        ]);
        out
    }
}

fn layer(seed: &str, size: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(size);
    let mut n: u64 = seed
        .bytes()
        .fold(7, |a, b| a.wrapping_mul(31).wrapping_add(b as u64));
    while out.len() < size {
        n = n
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.truncate(size);
    out
}

fn descriptor(media_type: &str, digest: &str, size: usize) -> serde_json::Value {
    serde_json::json!({"mediaType": media_type, "digest": digest, "size": size})
}

/// Pushes a bundle whose images.yml locks `images` (digest references) with the
/// strake binary; returns its digest.
fn push_bundle(home: &Path, target: &str, images: &[String], name: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".imgpkg")).unwrap();
    std::fs::create_dir_all(dir.path().join("config")).unwrap();
    std::fs::write(dir.path().join("config/app.yml"), format!("name: {name}\n")).unwrap();
    let mut lock = String::from("---\napiVersion: imgpkg.carvel.dev/v1alpha1\nimages:\n");
    for image in images {
        lock.push_str(&format!(
            "- annotations:\n    kbld.carvel.dev/id: {image}\n  image: {image}\n"
        ));
    }
    lock.push_str("kind: ImagesLock\n");
    std::fs::write(dir.path().join(".imgpkg/images.yml"), lock).unwrap();
    let lock_out = dir.path().join("lock.yml");
    run_ok(strake(home).args([
        "bundle",
        "push",
        "-b",
        target,
        "-f",
        dir.path().to_str().unwrap(),
        "--lock-output",
        lock_out.to_str().unwrap(),
    ]));
    let text = std::fs::read_to_string(&lock_out).unwrap();
    let image = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("image: "))
        .unwrap();
    image.split('@').nth(1).unwrap().to_string()
}

/// Two registries and a strake home, the first holding [`push_repository`]'s content
/// (layers of `layer_size` bytes): where the copy tests start.
pub fn two_registries_with_content(
    layer_size: usize,
) -> (
    TestRegistry,
    TestRegistry,
    tempfile::TempDir,
    RepositoryContent,
) {
    let (source, destination) = (TestRegistry::start(), TestRegistry::start());
    let home = tempfile::tempdir().unwrap();
    let content = push_repository(&source, home.path(), layer_size);
    (source, destination, home, content)
}

/// Runs `strake copy -b root_ref --to-tar tarball`, which must succeed.
pub fn copy_to_tar(home: &Path, root_ref: &str, tarball: &Path) {
    run_ok(strake(home).args([
        "copy",
        "-b",
        root_ref,
        "--to-tar",
        tarball.to_str().unwrap(),
    ]));
}

/// Pushes the repository bundle and everything it needs into `registry`, under
/// `src/…`; `layer_size` sets the size of each image layer.
pub fn push_repository(
    registry: &TestRegistry,
    home: &Path,
    layer_size: usize,
) -> RepositoryContent {
    let addr = registry.addr();
    let p = registry.pusher();
    let mut blobs = Vec::new();
    let record = |img: &PushedImage, blobs: &mut Vec<String>| {
        blobs.push(img.config_digest.clone());
        blobs.extend(img.layers.iter().map(|(d, _)| d.clone()));
    };
    // 1. A multi-arch index of two images.
    let amd = block_on(p.push_image(
        "src/multi",
        "amd64",
        OCI_MANIFEST,
        &[&layer("amd", layer_size)],
    ));
    let arm = block_on(p.push_image(
        "src/multi",
        "arm64",
        OCI_MANIFEST,
        &[&layer("arm", layer_size)],
    ));
    record(&amd, &mut blobs);
    record(&arm, &mut blobs);
    let mut amd_desc = descriptor(OCI_MANIFEST, &amd.manifest_digest, amd.manifest.len());
    amd_desc["platform"] = serde_json::json!({"architecture": "amd64", "os": "linux"});
    let mut arm_desc = descriptor(OCI_MANIFEST, &arm.manifest_digest, arm.manifest.len());
    arm_desc["platform"] = serde_json::json!({"architecture": "arm64", "os": "linux"});
    let index = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [amd_desc, arm_desc]
    }))
    .unwrap();
    let index_digest = block_on(p.push_manifest("src/multi", "v1", OCI_INDEX, &index));
    // 2. An image with a cosign signature tag.
    let signed = block_on(p.push_image(
        "src/signed",
        "v1",
        DOCKER_MANIFEST,
        &[
            &layer("signed", layer_size),
            &layer("signed2", layer_size / 2),
        ],
    ));
    record(&signed, &mut blobs);
    let sig_tag = format!("{}.sig", signed.manifest_digest.replace(':', "-"));
    let signature = block_on(p.push_image(
        "src/signed",
        &sig_tag,
        OCI_MANIFEST,
        &[b"cosign signature payload"],
    ));
    record(&signature, &mut blobs);
    // 3. An image with an OCI 1.1 referrer (an SBOM artifact) and its tag-schema index.
    let referred = block_on(p.push_image(
        "src/referred",
        "v1",
        OCI_MANIFEST,
        &[&layer("referred", layer_size)],
    ));
    record(&referred, &mut blobs);
    let sbom = b"{\"sbom\":true}".to_vec();
    let sbom_digest = block_on(p.push_blob("src/referred", &sbom));
    let empty = b"{}".to_vec();
    let empty_digest = block_on(p.push_blob("src/referred", &empty));
    blobs.push(sbom_digest.clone());
    blobs.push(empty_digest.clone());
    let artifact = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2,
        "mediaType": OCI_MANIFEST,
        "artifactType": "application/spdx+json",
        "config": descriptor("application/vnd.oci.empty.v1+json", &empty_digest, empty.len()),
        "layers": [descriptor("application/spdx+json", &sbom_digest, sbom.len())],
        "subject": descriptor(OCI_MANIFEST, &referred.manifest_digest, referred.manifest.len()),
    }))
    .unwrap();
    let referrer = block_on(p.push_manifest(
        "src/referred",
        &strake::oci::Digest::of(&artifact).to_string(),
        OCI_MANIFEST,
        &artifact,
    ));
    let mut referrer_desc = descriptor(OCI_MANIFEST, &referrer, artifact.len());
    referrer_desc["artifactType"] = serde_json::json!("application/spdx+json");
    let referrers = serde_json::to_vec(&serde_json::json!({
        "schemaVersion": 2, "mediaType": OCI_INDEX, "manifests": [referrer_desc]
    }))
    .unwrap();
    let referrers_tag = referred.manifest_digest.replace(':', "-");
    let referrers_index =
        block_on(p.push_manifest("src/referred", &referrers_tag, OCI_INDEX, &referrers));
    // 4. A plain image.
    let plain = block_on(p.push_image(
        "src/plain",
        "v1",
        DOCKER_MANIFEST,
        &[&layer("plain", layer_size)],
    ));
    record(&plain, &mut blobs);

    let r = |repo: &str, d: &str| format!("{addr}/{repo}@{d}");
    let pkg1 = push_bundle(
        home,
        &format!("{addr}/src/pkg-one:1.0.0"),
        &[
            r("src/multi", &index_digest),
            r("src/signed", &signed.manifest_digest),
        ],
        "one",
    );
    let pkg2 = push_bundle(
        home,
        &format!("{addr}/src/pkg-two:2.0.0"),
        &[
            r("src/referred", &referred.manifest_digest),
            r("src/plain", &plain.manifest_digest),
        ],
        "two",
    );
    let root_ref = format!("{addr}/src/repo-bundle:v1");
    let root = push_bundle(
        home,
        &root_ref,
        &[r("src/pkg-one", &pkg1), r("src/pkg-two", &pkg2)],
        "repository",
    );
    blobs.sort();
    blobs.dedup();
    RepositoryContent {
        root_ref,
        root,
        packages: vec![pkg1, pkg2],
        images: vec![
            index_digest,
            signed.manifest_digest.clone(),
            referred.manifest_digest.clone(),
            plain.manifest_digest.clone(),
        ],
        index_children: vec![amd.manifest_digest, arm.manifest_digest],
        signature: signature.manifest_digest,
        referrer,
        referrers_index,
        blobs,
    }
}

/// Checks a relocated copy in `repo` of `registry`: every manifest by digest, the
/// tags imgpkg writes, the cosign and referrers tags, and a recursive pull that
/// rewrites every images.yml to `repo`.
pub fn assert_relocated(
    registry: &TestRegistry,
    repo: &str,
    content: &RepositoryContent,
    home: &Path,
) {
    let p = registry.pusher();
    for digest in content.all_manifests() {
        let bytes = block_on(p.get(repo, &format!("manifests/{digest}")));
        assert_eq!(
            strake::oci::Digest::of(&bytes).to_string(),
            digest,
            "digest preserved"
        );
    }
    let tags = block_on(p.tags(repo));
    let dashed = |d: &str| d.replace(':', "-");
    let mut expected: Vec<String> = vec!["v1".to_string()];
    for d in [&content.root]
        .into_iter()
        .chain(&content.packages)
        .chain(&content.images)
        .chain([&content.signature, &content.referrers_index])
    {
        expected.push(format!("{}.imgpkg", dashed(d)));
    }
    for bundle in [&content.root].into_iter().chain(&content.packages) {
        expected.push(format!("{}.image-locations.imgpkg", dashed(bundle)));
    }
    expected.push(format!("{}.sig", dashed(&content.images[1])));
    expected.push(dashed(&content.images[2]));
    for tag in &expected {
        assert!(tags.contains(tag), "missing tag {tag} in {tags:#?}");
    }
    // Plus one extra tag per locations image.
    assert_eq!(tags.len(), expected.len() + 3, "{tags:#?}");
    // The referrers index still lists the referrer.
    let index: serde_json::Value = serde_json::from_slice(&block_on(
        p.get(repo, &format!("manifests/{}", dashed(&content.images[2]))),
    ))
    .unwrap();
    assert_eq!(index["manifests"][0]["digest"], content.referrer.as_str());

    // Pull: every images.yml names the new repository, and each image resolves there.
    let out = tempfile::tempdir().unwrap();
    let pulled = out.path().join("pulled");
    run_ok(strake(home).args([
        "bundle",
        "pull",
        "-r",
        "-b",
        &format!("{}/{repo}:v1", registry.addr()),
        "-o",
        pulled.to_str().unwrap(),
    ]));
    let mut files = vec![pulled.join(".imgpkg/images.yml")];
    for pkg in &content.packages {
        files.push(
            pulled
                .join(".imgpkg/bundles")
                .join(dashed(pkg))
                .join(".imgpkg/images.yml"),
        );
    }
    let here = format!("{}/{repo}@", registry.addr());
    let mut seen = 0;
    for file in files {
        let text =
            std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for line in text.lines().filter(|l| l.starts_with("  image: ")) {
            let image = line.trim_start_matches("  image: ");
            assert!(image.starts_with(&here), "{file:?}: {image}");
            let digest = image.rsplit('@').next().unwrap();
            block_on(p.get(repo, &format!("manifests/{digest}")));
            seen += 1;
        }
        // Annotations are kept: the original reference is still there.
        assert!(text.contains("kbld.carvel.dev/id: "), "{text}");
    }
    assert_eq!(seen, 6, "two packages + four images");
}
