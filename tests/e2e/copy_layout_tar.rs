//! `strake copy --to-oci-layout FILE.tar`: the tar of an OCI layout is written
//! in place (nothing else is left beside it), skopeo reads it as
//! `oci-archive:FILE.tar` (inspect, and a copy of the multi-arch index into a
//! real registry with its digest kept), and strake imports it back
//! (`-b oci:FILE.tar:v1`) into a second registry with every digest preserved. A
//! tar skopeo wrote imports too.

use std::path::Path;
use std::process::Command;

use crate::copy_support::{assert_relocated, two_registries_with_content};
use crate::support::cli::{run_ok, strake};
use crate::support::content::block_on;

fn skopeo(home: &Path) -> Command {
    let mut cmd = Command::new("skopeo");
    // No user policy file: skopeo reads /etc/containers/policy.json unless told.
    let policy = home.join("policy.json");
    std::fs::write(
        &policy,
        r#"{"default":[{"type":"insecureAcceptAnything"}]}"#,
    )
    .unwrap();
    cmd.arg("--policy").arg(&policy).env("HOME", home);
    cmd
}

fn run_skopeo(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("skopeo runs");
    assert!(
        out.status.success(),
        "skopeo failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

#[test]
fn skopeo_reads_the_oci_layout_tar_and_strake_imports_it_with_every_digest() {
    let (_source, b, home, content) = two_registries_with_content(4096);
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("layout.tar");
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-oci-layout",
        file.to_str().unwrap(),
    ]));
    let names: Vec<String> = std::fs::read_dir(work.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(
        names,
        vec!["layout.tar".to_string()],
        "no temporary copy left"
    );

    // skopeo (containers/image) reads only OCI-typed entries of a layout, so
    // it is asked for the OCI manifest and index; strake reads the Docker-typed
    // bundles below. The image behind its digest tag, byte for byte:
    let dashed = |d: &str| d.replace(':', "-");
    let referred = format!(
        "oci-archive:{}:{}.imgpkg",
        file.display(),
        dashed(&content.images[2])
    );
    let raw = run_skopeo(skopeo(home.path()).args(["inspect", "--raw", &referred]));
    assert_eq!(strake::oci::Digest::of(&raw).to_string(), content.images[2]);
    let inspected: serde_json::Value = serde_json::from_slice(&run_skopeo(
        skopeo(home.path()).args(["inspect", &referred]),
    ))
    .unwrap();
    assert_eq!(
        inspected["Digest"],
        content.images[2].as_str(),
        "{inspected}"
    );
    // The multi-arch index, every platform, into a real registry, digests kept.
    let index_tag = format!("{}.imgpkg", content.images[0].replace(':', "-"));
    run_skopeo(skopeo(home.path()).args([
        "copy",
        "--all",
        "--preserve-digests",
        "--dest-tls-verify=false",
        &format!("oci-archive:{}:{index_tag}", file.display()),
        &format!("docker://{}/skopeo/multi:v1", b.addr()),
    ]));
    let p = b.pusher();
    let index = block_on(p.get("skopeo/multi", "manifests/v1"));
    assert_eq!(
        strake::oci::Digest::of(&index).to_string(),
        content.images[0]
    );
    for child in &content.index_children {
        block_on(p.get("skopeo/multi", &format!("manifests/{child}")));
    }

    // strake imports the tar itself, in place.
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &format!("oci:{}:v1", file.display()),
        "--to-repo",
        &format!("{}/from/layout-tar", b.addr()),
    ]));
    assert_relocated(&b, "from/layout-tar", &content, home.path());
}

#[test]
fn a_layout_tar_skopeo_wrote_imports_into_a_registry() {
    let (a, b, home, content) = two_registries_with_content(4096);
    let work = tempfile::tempdir().unwrap();
    let file = work.path().join("skopeo.tar");
    run_skopeo(skopeo(home.path()).args([
        "copy",
        "--all",
        "--preserve-digests",
        "--src-tls-verify=false",
        &format!("docker://{}/src/multi:v1", a.addr()),
        &format!("oci-archive:{}:multi", file.display()),
    ]));
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &format!("oci:{}:multi", file.display()),
        "--to-repo",
        &format!("{}/from/skopeo", b.addr()),
    ]));
    let p = b.pusher();
    let tag = format!("{}.imgpkg", content.images[0].replace(':', "-"));
    let index = block_on(p.get("from/skopeo", &format!("manifests/{tag}")));
    assert_eq!(
        strake::oci::Digest::of(&index).to_string(),
        content.images[0]
    );
    for child in &content.index_children {
        block_on(p.get("from/skopeo", &format!("manifests/{child}")));
    }
    // The layout's ref name is the image's tag, kept as imgpkg keeps -i tags.
    let tagged = block_on(p.get("from/skopeo", "manifests/multi"));
    assert_eq!(
        strake::oci::Digest::of(&tagged).to_string(),
        content.images[0]
    );
}
