//! Helpers shared by the bundle tests: materialising the imgpkg conformance
//! inputs (renames, empty dirs, modes) in a temporary directory.

#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// Pulls bundle `reference` of `store` recursively into `out`, checks that it and one
/// nested bundle came out, the nested one at `.imgpkg/bundles/sha256-<hex>/`, and
/// returns that directory.
pub async fn pull_with_one_nested(
    store: &dyn strake::oci::Store,
    reference: &str,
    out: &Path,
    nested: &strake::oci::Digest,
) -> PathBuf {
    use strake::bundle::pull::{PullOptions, pull_bundle};
    let report = pull_bundle(
        store,
        reference,
        out,
        &PullOptions { recursive: true },
        None,
    )
    .await
    .unwrap();
    assert_eq!(report.bundles.len(), 2);
    let rel = PathBuf::from(".imgpkg/bundles").join(nested.dashed());
    assert_eq!(report.bundles[1].path, rel);
    out.join(rel)
}

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/imgpkg")
}

pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for entry in fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target).unwrap();
            fs::set_permissions(&target, fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
}

/// Rebuilds the pushed tree of a `tar/<case>` fixture as its README explains:
/// renames, then empty dirs, then modes. Returns the input root.
pub fn materialise(case_dir: &Path, into: &Path) -> PathBuf {
    let root = into.join("case");
    copy_tree(&case_dir.join("input"), &root);
    if let Ok(text) = fs::read_to_string(case_dir.join("renames.txt")) {
        for line in text.lines().filter(|l| !l.is_empty()) {
            let (src, dst) = line.split_once(' ').unwrap();
            fs::rename(root.join(src), root.join(dst)).unwrap();
        }
    }
    if let Ok(text) = fs::read_to_string(case_dir.join("empty-dirs.txt")) {
        for line in text.lines().filter(|l| !l.is_empty()) {
            fs::create_dir_all(root.join(line)).unwrap();
        }
    }
    let modes = fs::read_to_string(case_dir.join("modes.txt")).unwrap();
    for line in modes.lines().filter(|l| !l.is_empty()) {
        let (mode, path) = line.split_once(' ').unwrap();
        let mode = u32::from_str_radix(mode, 8).unwrap();
        fs::set_permissions(root.join(path), fs::Permissions::from_mode(mode)).unwrap();
    }
    root
}

/// Makes every file and dir under `root` writable again so a temp dir can be removed.
pub fn make_removable(root: &Path) {
    if let Ok(md) = fs::symlink_metadata(root) {
        if md.is_dir() {
            let _ = fs::set_permissions(root, fs::Permissions::from_mode(0o755));
            if let Ok(rd) = fs::read_dir(root) {
                for e in rd.flatten() {
                    make_removable(&e.path());
                }
            }
        } else if md.is_file() {
            let _ = fs::set_permissions(root, fs::Permissions::from_mode(0o644));
        }
    }
}
