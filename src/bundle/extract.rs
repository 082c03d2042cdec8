//! Safe extraction of a bundle layer (gzip'd tar) into a fresh directory.
//!
//! Only directories and regular files are written. Entries that would escape the
//! target (`..`, absolute paths), symlinks, hardlinks, device files, FIFOs and
//! unknown types are refused with an error naming the entry; the caller extracts
//! into a temporary directory, so a refused bundle leaves nothing behind.
//!
//! Modes follow imgpkg (`dir_image.go`): a file whose stored mode has no group or
//! other bits gets its owner bits copied to group and other (0600 → 0666), then
//! the umask applies; directories are created 0777 minus umask; mtimes are set
//! from the header.

use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};
use std::time::{Duration, SystemTime};

use flate2::read::MultiGzDecoder;
use tar::EntryType;

use crate::bundle::{BundleError, Result};

/// What an extraction wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extracted {
    pub files: u64,
    pub dirs: u64,
    pub bytes: u64,
}

/// imgpkg's file mode rule.
pub fn extracted_file_mode(stored: u32) -> u32 {
    let perm = stored & 0o777;
    if perm & 0o077 == 0 {
        let owner = perm & 0o700;
        owner | (owner >> 3) | (owner >> 6)
    } else {
        perm
    }
}

/// Turns an entry name into a safe relative path, or explains why it is refused.
/// `Ok(None)` is the root (`.`).
pub fn safe_relative_path(raw: &[u8]) -> std::result::Result<Option<PathBuf>, String> {
    // Old Windows imgpkg versions wrote `\` separators.
    let text: Vec<u8> = raw
        .iter()
        .map(|b| if *b == b'\\' { b'/' } else { *b })
        .collect();
    if text.first() == Some(&b'/') {
        return Err("absolute path".into());
    }
    let path = Path::new(std::ffi::OsStr::from_bytes(&text));
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::Normal(part) => out.push(part),
            Component::CurDir => {}
            Component::ParentDir => return Err("path contains '..'".into()),
            Component::RootDir | Component::Prefix(_) => return Err("absolute path".into()),
        }
    }
    Ok(if out.as_os_str().is_empty() {
        None
    } else {
        Some(out)
    })
}

fn refuse(layer: &str, name: &[u8], why: &str) -> BundleError {
    BundleError::invalid(format!(
        "{layer}: refusing tar entry '{}': {why}",
        String::from_utf8_lossy(name)
    ))
}

/// Extracts the gzip'd tar at `layer_file` into `dest` (which must exist and be
/// empty or hold only what earlier calls wrote). `layer` names the layer in errors.
pub fn extract_layer(layer_file: &Path, dest: &Path, layer: &str) -> Result<Extracted> {
    let file =
        File::open(layer_file).map_err(|e| BundleError::io(format!("opening layer {layer}"), e))?;
    let gz = MultiGzDecoder::new(BufReader::with_capacity(1 << 20, file));
    extract_tar(gz, dest, layer)
}

/// Extracts an uncompressed tar stream into `dest`.
pub fn extract_tar<R: Read>(reader: R, dest: &Path, layer: &str) -> Result<Extracted> {
    let mut archive = tar::Archive::new(reader);
    let mut stats = Extracted::default();
    let entries = archive
        .entries()
        .map_err(|e| BundleError::io(format!("reading layer {layer}"), e))?;
    let mut buf = vec![0u8; 256 * 1024];
    for entry in entries {
        let mut entry = entry.map_err(|e| BundleError::io(format!("reading layer {layer}"), e))?;
        let name = entry.path_bytes().into_owned();
        let kind = entry.header().entry_type();
        let rel = safe_relative_path(&name).map_err(|why| refuse(layer, &name, &why))?;
        match kind {
            EntryType::Directory => {
                if let Some(rel) = rel {
                    let target = dest.join(&rel);
                    make_dirs(dest, &rel, layer)?;
                    if !target.is_dir() {
                        return Err(refuse(layer, &name, "a file of that name exists"));
                    }
                    stats.dirs += 1;
                }
            }
            EntryType::Regular | EntryType::Continuous => {
                let Some(rel) = rel else {
                    return Err(refuse(layer, &name, "a file cannot be the root"));
                };
                if let Some(parent) = rel.parent()
                    && !parent.as_os_str().is_empty()
                {
                    make_dirs(dest, parent, layer)?;
                }
                let target = dest.join(&rel);
                if fs::symlink_metadata(&target).is_ok_and(|m| m.is_dir()) {
                    return Err(refuse(layer, &name, "a directory of that name exists"));
                }
                let mode = extracted_file_mode(entry.header().mode().unwrap_or(0o600));
                let mtime = entry.header().mtime().unwrap_or(0);
                let mut out = OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(true)
                    .mode(mode)
                    .open(&target)
                    .map_err(|e| BundleError::io(format!("writing '{}'", target.display()), e))?;
                loop {
                    let n = entry
                        .read(&mut buf)
                        .map_err(|e| BundleError::io(format!("reading layer {layer}"), e))?;
                    if n == 0 {
                        break;
                    }
                    out.write_all(&buf[..n]).map_err(|e| {
                        BundleError::io(format!("writing '{}'", target.display()), e)
                    })?;
                    stats.bytes += n as u64;
                }
                let _ = out.set_modified(SystemTime::UNIX_EPOCH + Duration::from_secs(mtime));
                stats.files += 1;
            }
            EntryType::Symlink => return Err(refuse(layer, &name, "symlinks are not allowed")),
            EntryType::Link => return Err(refuse(layer, &name, "hardlinks are not allowed")),
            EntryType::Char | EntryType::Block => {
                return Err(refuse(layer, &name, "device files are not allowed"));
            }
            EntryType::Fifo => return Err(refuse(layer, &name, "FIFOs are not allowed")),
            EntryType::XGlobalHeader => {}
            other => {
                return Err(refuse(
                    layer,
                    &name,
                    &format!("unsupported entry type {:?}", other.as_byte() as char),
                ));
            }
        }
    }
    Ok(stats)
}

/// `mkdir -p dest/rel`, refusing to go through anything that is not a real
/// directory (nothing else is ever created, but be strict).
fn make_dirs(dest: &Path, rel: &Path, layer: &str) -> Result<()> {
    let mut cur = dest.to_path_buf();
    for part in rel.components() {
        cur.push(part);
        match fs::symlink_metadata(&cur) {
            Ok(md) if md.is_dir() => {}
            Ok(_) => {
                return Err(BundleError::invalid(format!(
                    "{layer}: '{}' is needed as a directory but is a file",
                    rel.display()
                )));
            }
            Err(_) => {
                fs::DirBuilder::new()
                    .mode(0o777)
                    .create(&cur)
                    .map_err(|e| BundleError::io(format!("creating '{}'", cur.display()), e))?;
            }
        }
    }
    Ok(())
}

/// Reads the files at the given relative paths (`./` prefixes ignored) from a
/// gzip'd tar without extracting anything else. Files over 16 MiB are refused.
pub fn find_files(
    layer_file: &Path,
    wanted: &[&str],
    layer: &str,
) -> Result<std::collections::BTreeMap<String, Vec<u8>>> {
    let file =
        File::open(layer_file).map_err(|e| BundleError::io(format!("opening layer {layer}"), e))?;
    let gz = MultiGzDecoder::new(BufReader::with_capacity(1 << 20, file));
    let mut archive = tar::Archive::new(gz);
    let mut found = std::collections::BTreeMap::new();
    let entries = archive
        .entries()
        .map_err(|e| BundleError::io(format!("reading layer {layer}"), e))?;
    for entry in entries {
        let mut entry = entry.map_err(|e| BundleError::io(format!("reading layer {layer}"), e))?;
        if !matches!(
            entry.header().entry_type(),
            EntryType::Regular | EntryType::Continuous
        ) {
            continue;
        }
        let name = entry.path_bytes().into_owned();
        let Ok(Some(rel)) = safe_relative_path(&name) else {
            continue;
        };
        let rel = rel.to_string_lossy().into_owned();
        if !wanted.contains(&rel.as_str()) {
            continue;
        }
        if entry.size() > 16 << 20 {
            return Err(BundleError::invalid(format!(
                "{layer}: '{rel}' is {} bytes, too large for a metadata file",
                entry.size()
            )));
        }
        let mut data = Vec::with_capacity(entry.size() as usize);
        entry
            .read_to_end(&mut data)
            .map_err(|e| BundleError::io(format!("reading layer {layer}"), e))?;
        found.insert(rel, data);
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mode_rule_copies_owner_bits_when_group_and_other_are_empty() {
        assert_eq!(extracted_file_mode(0o600), 0o666);
        assert_eq!(extracted_file_mode(0o700), 0o777);
        assert_eq!(extracted_file_mode(0o400), 0o444);
        assert_eq!(extracted_file_mode(0o640), 0o640);
    }

    #[test]
    fn names_leaving_the_directory_are_refused() {
        assert!(safe_relative_path(b"../evil").is_err());
        assert!(safe_relative_path(b"a/../../evil").is_err());
        assert!(safe_relative_path(b"/etc/passwd").is_err());
        assert!(safe_relative_path(b"..\\evil").is_err());
        assert_eq!(safe_relative_path(b".").unwrap(), None);
        assert_eq!(
            safe_relative_path(b"./a/b").unwrap(),
            Some(PathBuf::from("a/b"))
        );
    }
}
