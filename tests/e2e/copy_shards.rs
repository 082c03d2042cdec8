//! `strake copy --plan F --shard K/N` and `--finalize`: four shard processes run
//! at once on one plan, then finalize; the destination then holds exactly what a
//! single-process copy writes (the same tags pointing at the same digests).

use std::collections::BTreeMap;

use crate::copy_support::{assert_relocated, two_registries_with_content};
use crate::support::cli::{run_err, run_ok, strake};
use crate::support::content::block_on;
use crate::support::registry::TestRegistry;

fn tag_digests(registry: &TestRegistry, repo: &str) -> BTreeMap<String, String> {
    let p = registry.pusher();
    block_on(async {
        let mut out = BTreeMap::new();
        for tag in p.tags(repo).await {
            let bytes = p.get(repo, &format!("manifests/{tag}")).await;
            out.insert(tag, strake::oci::Digest::of(&bytes).to_string());
        }
        out
    })
}

#[test]
fn four_shards_and_finalize_write_what_one_copy_writes() {
    let (_source, b, home, content) = two_registries_with_content(256 << 10);
    let work = tempfile::tempdir().unwrap();
    let plan = work.path().join("plan.json");
    let sharded = format!("{}/sharded", b.addr());
    run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &sharded,
        "--dry-run",
        "--plan-output",
        plan.to_str().unwrap(),
    ]));
    let plan_json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&plan).unwrap()).unwrap();
    let total = plan_json["bytes"].as_u64().unwrap();

    // Finalize refuses to run before the blobs are there.
    let err =
        run_err(strake(home.path()).args(["copy", "--plan", plan.to_str().unwrap(), "--finalize"]));
    assert!(err.contains("are not there yet"), "{err}");

    let children: Vec<_> = (0..4)
        .map(|k| {
            let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("strake"));
            cmd.env("HOME", home.path())
                .env("DOCKER_CONFIG", home.path().join(".docker"))
                .args([
                    "copy",
                    "--plan",
                    plan.to_str().unwrap(),
                    "--shard",
                    &format!("{k}/4"),
                    "--json",
                ])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut moved = 0;
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        let bytes = report["transfer"]["moved_bytes"].as_u64().unwrap();
        assert!(bytes > 0, "every shard has work: {report}");
        assert!(report["tags"].as_array().unwrap().is_empty());
        moved += bytes;
    }
    assert_eq!(moved, total, "the shards together move every blob once");
    // Shards write blobs only: no tag yet.
    assert_eq!(block_on(b.pusher().status("sharded", "tags/list")), 404);
    let (out, _) = run_ok(strake(home.path()).args([
        "copy",
        "--plan",
        plan.to_str().unwrap(),
        "--finalize",
        "--json",
    ]));
    let report: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(report["transfer"]["moved_bytes"], 0);

    let single = format!("{}/single", b.addr());
    run_ok(strake(home.path()).args(["copy", "-b", &content.root_ref, "--to-repo", &single]));
    assert_eq!(tag_digests(&b, "sharded"), tag_digests(&b, "single"));
    assert_relocated(&b, "sharded", &content, home.path());
}
