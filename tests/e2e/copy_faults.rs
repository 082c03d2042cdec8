//! `strake copy` under faults: the process killed (SIGKILL) at 25%, 50% and 90%
//! of the bytes for each destination kind (registry, OCI layout directory and
//! tar, imgpkg tarball), running one blob, four blobs and the default number
//! of blobs at once, then run again, completes and fetches less than what was
//! left plus one blob; a destination registry answering 503
//! and 429 at random (through the fault proxy) still gets an uncorrupted copy; a
//! tarball with one flipped byte fails naming the blob, and nothing is tagged.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::copy_support::{
    RepositoryContent, assert_relocated, copy_to_tar, two_registries_with_content,
};
use crate::support::cli::{run_err, run_ok, strake};
use crate::support::content::block_on;
use crate::support::fault_proxy::{Fault, FaultProxy};

/// Layer size of the fault tests' images (the copy moves about 8 of them).
const LAYER: usize = 3 << 20;

fn strake_std(home: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin!("strake"));
    cmd.env("HOME", home)
        .env("DOCKER_CONFIG", home.join(".docker"))
        .env_remove("REGISTRY_AUTH_FILE")
        .env_remove("RUST_LOG");
    cmd
}

fn json(out: &str) -> serde_json::Value {
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

/// Sum of the sizes of the files under `dir` whose names pass `keep`.
fn bytes_under(dir: &Path, keep: &dyn Fn(&str) -> bool) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_type().is_file() && keep(&e.file_name().to_string_lossy()))
        .filter_map(|e| e.metadata().ok())
        .map(|m| m.len())
        .sum()
}

/// The plan of copying `content`'s root bundle to `dest_flag dest`, as JSON.
fn plan(
    home: &Path,
    content: &RepositoryContent,
    dest_flag: &str,
    dest: &str,
) -> serde_json::Value {
    let (out, _) = run_ok(strake(home).args([
        "copy",
        "-b",
        &content.root_ref,
        dest_flag,
        dest,
        "--dry-run",
        "--json",
    ]));
    json(&out)["plan"].clone()
}

/// `cmd` run at the lowest CPU priority (`nice -n 19`, which execs it, so the
/// process is still the copy's): on a loaded machine the polling test thread then
/// runs before the copy does, and sees its progress in time.
fn niced(cmd: &std::process::Command) -> std::process::Command {
    let mut niced = std::process::Command::new("nice");
    niced
        .args(["-n", "19"])
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (key, value) in cmd.get_envs() {
        match value {
            Some(v) => niced.env(key, v),
            None => niced.env_remove(key),
        };
    }
    if let Some(dir) = cmd.get_current_dir() {
        niced.current_dir(dir);
    }
    niced
}

/// Runs the copy and kills it with SIGKILL once `measure` reaches `threshold`
/// bytes; returns false when the copy finished first.
fn kill_at(cmd: std::process::Command, threshold: u64, measure: &dyn Fn() -> u64) -> bool {
    let mut child = niced(&cmd)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if measure() >= threshold {
            child.kill().unwrap();
            let status = child.wait().unwrap();
            return !status.success();
        }
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "copy failed before the kill");
            return false;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "copy hung");
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The bytes an archive's journal records: whole for complete blobs (`done`
/// when synced, `written` otherwise), the last `part` count for the others.
fn journalled(journal: &Path, sizes: &std::collections::HashMap<String, u64>) -> u64 {
    let text = std::fs::read_to_string(journal).unwrap_or_default();
    let mut done = std::collections::HashSet::new();
    let mut parts = std::collections::HashMap::new();
    for line in text.lines() {
        if let Some(d) = line
            .strip_prefix("done ")
            .or_else(|| line.strip_prefix("written "))
        {
            done.insert(d.to_string());
        } else if let Some((d, n)) = line
            .strip_prefix("part ")
            .and_then(|rest| rest.split_once(' '))
            && let Ok(n) = n.parse::<u64>()
        {
            parts.insert(d.to_string(), n);
        }
    }
    let whole: u64 = done
        .iter()
        .map(|d| sizes.get(d).copied().unwrap_or(0))
        .sum();
    let partial: u64 = parts
        .iter()
        .filter(|(d, _)| !done.contains(*d))
        .map(|(_, n)| *n)
        .sum();
    whole + partial
}

enum Dest {
    Registry,
    Layout,
    Tar,
    LayoutTar,
}

/// Kills the copy at 25%, 50% and 90% of the bytes, running 1, 4 and the
/// default number of blobs at once, and runs it again each time.
fn killed_and_resumed(dest: Dest) {
    for concurrency in [Some(1), Some(4), None] {
        for fraction in [0.25, 0.5, 0.9] {
            killed_and_resumed_with(&dest, fraction, concurrency, false);
        }
    }
}

/// Kills a copy running `concurrency` blobs at once (the default when `None`)
/// at `fraction` of the bytes that arrived at the destination, and runs it
/// again: the rerun fetches less than what was left plus one blob, however
/// many blobs were in flight (their partial bytes are continued, not fetched
/// again). Both runs get `--fsync` when `fsync`; an archive's journal then
/// records its complete entries `done` (synced), else `written`.
fn killed_and_resumed_with(dest: &Dest, fraction: f64, concurrency: Option<usize>, fsync: bool) {
    let (_source, b, home, content) = two_registries_with_content(LAYER);
    let work = tempfile::tempdir().unwrap();
    let layout_dir = work.path().join("layout");
    let tarball = work.path().join("out.tar");
    let layout_tar = work.path().join("layout.tar");
    let repo = format!("{}/resumed", b.addr());
    let (flag, target) = match dest {
        Dest::Registry => ("--to-repo", repo.clone()),
        Dest::Layout => ("--to-oci-layout", layout_dir.display().to_string()),
        Dest::Tar => ("--to-tar", tarball.display().to_string()),
        Dest::LayoutTar => ("--to-oci-layout", layout_tar.display().to_string()),
    };
    let plan = plan(home.path(), &content, flag, &target);
    let sizes: std::collections::HashMap<String, u64> = plan["blobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            (
                b["digest"].as_str().unwrap().to_string(),
                b["size"].as_u64().unwrap(),
            )
        })
        .collect();
    let total: u64 = sizes.values().sum();
    let largest = *sizes.values().max().unwrap();
    let storage = b.storage();
    let journal = work.path().join(match dest {
        Dest::LayoutTar => ".layout.tar.strake-journal",
        _ => ".out.tar.strake-journal",
    });
    // What arrived: for a registry, the committed blobs (distribution refuses
    // to continue a session whose last PATCH was cut off, so the bytes such a
    // session holds are of no use to the rerun); for a layout, the blobs and
    // the partial blobs a rerun continues; for an archive, the entries its
    // journal records done, and the bytes it records of the others.
    let measure = || -> u64 {
        match dest {
            Dest::Registry => {
                bytes_under(&storage.join("docker/registry/v2/blobs"), &|n| n == "data")
            }
            Dest::Layout => {
                bytes_under(&layout_dir.join("blobs"), &|n| !n.starts_with('.'))
                    + partial_blobs(&layout_dir)
                        .iter()
                        .map(|(_, s)| s)
                        .sum::<u64>()
            }
            Dest::Tar | Dest::LayoutTar => journalled(&journal, &sizes),
        }
    };
    let threshold = (total as f64 * fraction) as u64;
    // An archive's last blobs can be journalled, the archive renamed into place
    // and the journal removed between two polls, so that the copy finishes
    // before the kill (or the kill lands after the rename). That run says
    // nothing about resuming: start it again, a few times at most.
    let mut finished_first = 0;
    loop {
        let mut cmd = strake_std(home.path());
        cmd.args(["copy", "-b", &content.root_ref, flag, &target]);
        if let Some(n) = concurrency {
            cmd.args(["--concurrency", &n.to_string()]);
        }
        if fsync {
            cmd.arg("--fsync");
        }
        let killed = kill_at(cmd, threshold, &measure);
        let archive_done = tarball.exists() || layout_tar.exists();
        if killed && !archive_done {
            if matches!(dest, Dest::Tar | Dest::LayoutTar) {
                let text = std::fs::read_to_string(&journal).unwrap();
                let (kept, other) = if fsync {
                    ("done ", "written ")
                } else {
                    ("written ", "done ")
                };
                // The kill may land before the first entry is complete (the bytes
                // then are all in `part` lines), never with the other kind of line.
                assert!(
                    text.lines()
                        .any(|l| l.starts_with(kept) || l.starts_with("part "))
                        && !text.lines().any(|l| l.starts_with(other)),
                    "{text}"
                );
            }
            break;
        }
        assert!(
            matches!(dest, Dest::Tar | Dest::LayoutTar) && archive_done && !journal.exists(),
            "the copy finished before {fraction}"
        );
        let archive_size = [&tarball, &layout_tar]
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum::<u64>();
        assert!(
            archive_size > total,
            "a killed copy left an archive of {archive_size} bytes with no journal; the blobs alone are {total}"
        );
        finished_first += 1;
        assert!(
            finished_first < 4,
            "the copy finished before {fraction} every time"
        );
        for done in [&tarball, &layout_tar] {
            let _ = std::fs::remove_file(done);
        }
    }
    let left = total - measure().min(total);
    let mut rerun = strake(home.path());
    rerun.args(["copy", "-b", &content.root_ref, flag, &target, "--json"]);
    if fsync {
        rerun.arg("--fsync");
    }
    let (out, _) = run_ok(&mut rerun);
    let report = json(&out);
    let read = report["bytes_read"].as_u64().unwrap();
    eprintln!(
        "killed at {fraction} (concurrency {concurrency:?}): total {total}, left {left}, rerun read {read}, largest blob {largest}, resumed {}",
        report["transfer"]["resumed_blobs"]
    );
    assert!(
        read < left + largest,
        "rerun read {read} bytes; {left} were left, largest blob {largest} ({fraction}, concurrency {concurrency:?})"
    );
    match dest {
        Dest::Registry => assert_relocated(&b, "resumed", &content, home.path()),
        Dest::Layout => {
            run_ok(strake(home.path()).args([
                "copy",
                "-b",
                &format!("oci:{}:v1", layout_dir.display()),
                "--to-repo",
                &repo,
            ]));
            assert_relocated(&b, "resumed", &content, home.path());
        }
        Dest::Tar => {
            assert!(!journal.exists());
            run_ok(strake(home.path()).args([
                "copy",
                "--tar",
                tarball.to_str().unwrap(),
                "--to-repo",
                &repo,
            ]));
            assert_relocated(&b, "resumed", &content, home.path());
        }
        Dest::LayoutTar => {
            assert!(!journal.exists());
            run_ok(strake(home.path()).args([
                "copy",
                "-b",
                &format!("oci:{}:v1", layout_tar.display()),
                "--to-repo",
                &repo,
            ]));
            assert_relocated(&b, "resumed", &content, home.path());
        }
    }
}

#[test]
fn killed_copy_to_a_registry_resumes() {
    killed_and_resumed(Dest::Registry);
}

#[test]
fn killed_copy_to_an_oci_layout_resumes() {
    killed_and_resumed(Dest::Layout);
}

#[test]
fn killed_copy_to_a_tarball_resumes() {
    killed_and_resumed(Dest::Tar);
}

#[test]
fn killed_copy_to_an_oci_layout_tar_resumes() {
    killed_and_resumed(Dest::LayoutTar);
}

/// `--fsync`: the same, with every finished entry synced before it is
/// journalled `done`.
#[test]
fn killed_durable_copy_to_a_tarball_and_a_layout_tar_resumes() {
    for dest in [Dest::Tar, Dest::LayoutTar] {
        killed_and_resumed_with(&dest, 0.5, Some(4), true);
    }
}

/// The partial blobs (temporary files) in the root of a layout directory.
fn partial_blobs(layout: &Path) -> Vec<(String, u64)> {
    std::fs::read_dir(layout)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .filter(|e| e.file_name().to_string_lossy().starts_with(".strake-tmp-"))
                .map(|e| {
                    let size = e.metadata().map(|m| m.len()).unwrap_or(0);
                    (e.file_name().to_string_lossy().into_owned(), size)
                })
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_copy_killed_mid_blob_leaves_no_partial_blob_in_the_layout_after_the_rerun() {
    let (_source, _b, home, content) = two_registries_with_content(LAYER);
    let work = tempfile::tempdir().unwrap();
    let layout = work.path().join("layout");
    let target = layout.display().to_string();
    let mut cmd = strake_std(home.path());
    cmd.args(["copy", "-b", &content.root_ref, "--to-oci-layout", &target]);
    let measure = || partial_blobs(&layout).iter().map(|(_, s)| s).sum::<u64>();
    assert!(kill_at(cmd, 1 << 20, &measure), "the copy finished first");
    assert!(
        !partial_blobs(&layout).is_empty(),
        "killed in the middle of a blob"
    );
    run_ok(strake(home.path()).args(["copy", "-b", &content.root_ref, "--to-oci-layout", &target]));
    assert_eq!(partial_blobs(&layout), vec![], "the rerun removed them");
}

#[test]
fn random_503_and_429_answers_still_give_an_uncorrupted_copy() {
    let (_source, b, home, content) = two_registries_with_content(64 << 10);
    let proxy = FaultProxy::start(&b.addr());
    // A fixed seed: the same "random" faults every run.
    let mut seed: u64 = 0x5eed;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for (method, path) in [
        (Some("HEAD"), "/blobs/sha256:"),
        (Some("POST"), "/blobs/uploads/"),
        (Some("PUT"), "/blobs/uploads/"),
        (Some("PATCH"), "/blobs/uploads/"),
        (Some("PUT"), "/manifests/"),
        (Some("HEAD"), "/manifests/"),
    ] {
        let fault = if next(2) == 0 {
            Fault::status(503)
        } else {
            Fault::too_many_requests(next(2))
        };
        proxy.inject(method, path, fault, 1 + next(3) as usize);
    }
    let (out, _) = run_ok(strake(home.path()).args([
        "copy",
        "-b",
        &content.root_ref,
        "--to-repo",
        &format!("{}/faulty", proxy.addr()),
        "--json",
    ]));
    assert_eq!(json(&out)["ok"], true);
    let faults = proxy
        .requests()
        .iter()
        .filter(|r| r.fault.is_some())
        .count();
    assert!(faults >= 6, "{faults} faults applied");
    assert_relocated(&b, "faulty", &content, home.path());
}

#[test]
fn a_tarball_with_a_flipped_byte_fails_naming_the_blob_and_tags_nothing() {
    let (_source, b, home, content) = two_registries_with_content(64 << 10);
    let work = tempfile::tempdir().unwrap();
    let tarball = work.path().join("repo.tar");
    copy_to_tar(home.path(), &content.root_ref, &tarball);
    // Flip one byte in the middle of the largest layer entry.
    let (name, offset, size) = largest_entry(&tarball);
    let mut bytes = std::fs::read(&tarball).unwrap();
    bytes[(offset + size / 2) as usize] ^= 0x20;
    std::fs::write(&tarball, bytes).unwrap();
    let digest = name
        .trim_end_matches(".tar.gz")
        .replacen("sha256-", "sha256:", 1);
    let err = run_err(strake(home.path()).args([
        "copy",
        "--tar",
        tarball.to_str().unwrap(),
        "--to-repo",
        &format!("{}/damaged", b.addr()),
    ]));
    assert!(
        err.contains(&digest) && err.contains("does not match its digest"),
        "{err}"
    );
    assert!(err.contains("image "), "{err}");
    assert_eq!(
        block_on(b.pusher().status("damaged", "tags/list")),
        404,
        "nothing may be tagged"
    );
}

/// The name, body offset and size of the largest entry of a tar.
fn largest_entry(path: &PathBuf) -> (String, u64, u64) {
    let mut archive = tar::Archive::new(std::fs::File::open(path).unwrap());
    archive
        .entries()
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (
                e.path().unwrap().to_string_lossy().into_owned(),
                e.raw_file_position(),
                e.size(),
            )
        })
        .max_by_key(|(_, _, size)| *size)
        .unwrap()
}
