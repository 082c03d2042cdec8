//! `strake copy` flags: `-i` and `--lock` sources with their ImagesLock output,
//! the -b/-i bundle checks, `--dry-run` and `--json` (errors included),
//! `--repo-based-tags`, `--no-signatures`, and `--to-oci-layout FILE.tar`.

use crate::copy_support::{assert_relocated, two_registries_with_content};
use crate::support::cli::{run_err, run_ok, strake};
use crate::support::content::block_on;

#[test]
fn images_and_images_locks_copy_with_their_lock_output() {
    let (a, b, home, content) = two_registries_with_content(1024);
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("images.lock.yml");
    let signed = format!("{}/src/signed:v1", a.addr());
    let plain = format!("{}/src/plain:v1", a.addr());
    run_ok(strake(home.path()).args([
        "copy",
        "-i",
        &signed,
        "-i",
        &plain,
        "--to-repo",
        &format!("{}/imgs", b.addr()),
        "--lock-output",
        out.to_str().unwrap(),
    ]));
    let lock = std::fs::read_to_string(&out).unwrap();
    let at = |d: &str| format!("- image: {}/imgs@{d}\n", b.addr());
    assert_eq!(
        lock,
        format!(
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nimages:\n{}{}{}kind: ImagesLock\n",
            at(&content.images[1]),
            at(&content.images[3]),
            at(&content.signature)
        )
    );

    // An ImagesLock as input keeps its order and annotations.
    let input = work.path().join("in.yml");
    std::fs::write(
        &input,
        format!(
            "apiVersion: imgpkg.carvel.dev/v1alpha1\nkind: ImagesLock\nimages:\n- image: {}/src/plain@{}\n  annotations:\n    kbld.carvel.dev/id: plain:v1\n- image: {}/src/multi@{}\n",
            a.addr(), content.images[3], a.addr(), content.images[0]
        ),
    )
    .unwrap();
    run_ok(strake(home.path()).args([
        "copy",
        "--lock",
        input.to_str().unwrap(),
        "--to-repo",
        &format!("{}/locked", b.addr()),
        "--lock-output",
        out.to_str().unwrap(),
    ]));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        format!(
            "---\napiVersion: imgpkg.carvel.dev/v1alpha1\nimages:\n- annotations:\n    kbld.carvel.dev/id: plain:v1\n  image: {0}/locked@{1}\n- image: {0}/locked@{2}\nkind: ImagesLock\n",
            b.addr(),
            content.images[3],
            content.images[0]
        )
    );
    // Every platform of the index came along.
    for child in &content.index_children {
        block_on(b.pusher().get("locked", &format!("manifests/{child}")));
    }

    // -i refuses a bundle, -b a plain image.
    let err = run_err(strake(home.path()).args([
        "copy",
        "-i",
        &content.root_ref,
        "--to-repo",
        &format!("{}/xx", b.addr()),
    ]));
    assert!(err.contains("found a bundle"), "{err}");
    let err = run_err(strake(home.path()).args([
        "copy",
        "-b",
        &plain,
        "--to-repo",
        &format!("{}/xx", b.addr()),
    ]));
    assert!(
        err.contains("Expected bundle image but found plain image"),
        "{err}"
    );
    let err = run_err(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-tar",
        "x.tar",
        "--lock-output",
        "l.yml",
    ]));
    assert!(
        err.contains("--lock-output is only allowed with --to-repo"),
        "{err}"
    );
}

#[test]
fn dry_run_counts_what_moves_and_json_reports_errors() {
    let (a, b, home, content) = two_registries_with_content(10_000);
    let repo = format!("{}/planned", b.addr());
    let (out, _) = run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &repo,
        "--dry-run",
    ]));
    assert!(
        out.starts_with("3 bundles, 4 images, 2 signatures, 12 manifests\n"),
        "{out}"
    );
    assert!(out.contains("destination has 0 of them"), "{out}");
    assert_eq!(block_on(b.pusher().status("planned", "tags/list")), 404);
    run_ok(strake(home.path()).args(["copy", "-b", &content.root_ref, "--to-repo", &repo]));
    let (out, _) = run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &repo,
        "--dry-run",
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let plan = &report["plan"];
    assert_eq!(
        plan["present_blobs"],
        plan["blobs"].as_array().unwrap().len()
    );
    assert_eq!(plan["present_bytes"], plan["bytes"]);
    // Blobs are listed largest first.
    let sizes: Vec<u64> = plan["blobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["size"].as_u64().unwrap())
        .collect();
    assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{sizes:?}");

    let out = strake(home.path())
        .args([
            "copy",
            "-b",
            &format!("{}/src/missing:v1", a.addr()),
            "--to-repo",
            &repo,
            "--json",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["ok"], false);
    assert!(
        report["error"].as_str().unwrap().contains("src/missing"),
        "{report}"
    );
}

#[test]
fn repo_based_tags_without_signatures() {
    let (_source, b, home, content) = two_registries_with_content(1024);
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &format!("{}/named", b.addr()),
        "--repo-based-tags",
        "--no-signatures",
    ]));
    let tags = block_on(b.pusher().tags("named"));
    let dashed = |d: &str| d.replace(':', "-");
    for (repo, digest) in [
        ("src-plain", &content.images[3]),
        ("src-multi", &content.images[0]),
        ("src-repo-bundle", &content.root),
    ] {
        let tag = format!("{repo}-{}.imgpkg", dashed(digest));
        assert!(tags.contains(&tag), "{tag} not in {tags:#?}");
    }
    assert!(!tags.iter().any(|t| t.ends_with(".sig")), "{tags:#?}");
    assert!(
        !tags.contains(&dashed(&content.images[2])),
        "no referrers: {tags:#?}"
    );
}

#[test]
fn an_oci_layout_tar_carries_everything() {
    let (_source, b, home, content) = two_registries_with_content(1024);
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
    assert_eq!(names, vec!["layout.tar".to_string()]);
    let dir = work.path().join("unpacked");
    std::fs::create_dir(&dir).unwrap();
    tar::Archive::new(std::fs::File::open(&file).unwrap())
        .unpack(&dir)
        .unwrap();
    assert!(dir.join("oci-layout").is_file() && dir.join("index.json").is_file());
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &format!("oci:{}:v1", dir.display()),
        "--to-repo",
        &format!("{}/unpacked", b.addr()),
    ]));
    assert_relocated(&b, "unpacked", &content, home.path());
}

/// imgpkg's `--cosign-signatures` is accepted (signatures travel anyway), and
/// refused beside `--no-signatures`.
#[test]
fn cosign_signatures_is_accepted_and_carries_the_signature_tag() {
    let (_source, b, home, content) = two_registries_with_content(1024);
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &format!("{}/signed", b.addr()),
        "--cosign-signatures",
    ]));
    let tags = block_on(b.pusher().tags("signed"));
    assert!(tags.iter().any(|t| t.ends_with(".sig")), "{tags:#?}");
    let out = strake(home.path())
        .args(["copy", "-b", &content.root_ref, "--to-repo"])
        .arg(format!("{}/x", b.addr()))
        .args(["--cosign-signatures", "--no-signatures"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-signatures"));
}
