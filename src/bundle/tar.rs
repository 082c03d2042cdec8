//! The bundle layer tar, byte for byte as imgpkg builds it (Go `archive/tar`,
//! `carvel-formats.md` §1.3 and §11): a sorted pre-order walk of each `-f` input,
//! a `.` entry per directory input, zeroed owners and times, owner-only modes,
//! Go's USTAR prefix/name split and PAX `path` records, two zero blocks at the end.
//!
//! Building is two steps: [`plan`] walks the inputs and validates them (duplicates,
//! symlinks, special files), then [`TarPlan::write_to`] streams the archive into any
//! writer without holding file contents in memory.

use std::ffi::OsString;
use std::fs::{self, Metadata};
use std::io::{self, Read, Write};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::bundle::{BundleError, Result};

const BLOCK: usize = 512;
const NAME_SIZE: usize = 100;
const PREFIX_SIZE: usize = 155;

/// Go's `os.ModeDir`: imgpkg's `--preserve-permissions` stores it in directory modes.
const GO_MODE_DIR: i64 = 1 << 31;

/// How the layer is built from the inputs.
#[derive(Clone, Debug)]
pub struct TarOptions {
    /// Relative paths skipped during the walk (exact match; default `[.git]`).
    pub exclusions: Vec<String>,
    /// imgpkg's `--preserve-permissions`: full file modes, and every directory gets
    /// the mode of its `-f` root (imgpkg's quirk, copied for identical bytes).
    pub preserve_permissions: bool,
}

impl Default for TarOptions {
    fn default() -> Self {
        TarOptions {
            exclusions: vec![".git".to_string()],
            preserve_permissions: false,
        }
    }
}

/// What an archive entry is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Dir,
    File {
        source: PathBuf,
        size: u64,
    },
    /// A file whose contents are in memory (a generated file, such as the
    /// locations image's `image-locations.yml`).
    Contents(Arc<[u8]>),
}

/// One archive entry, planned.
#[derive(Clone, Debug)]
pub struct Entry {
    /// The path inside the archive (`.` for a directory input's root).
    pub name: Vec<u8>,
    /// The tar mode field (a Go `FileMode` value).
    pub mode: i64,
    pub kind: EntryKind,
    /// Metadata that changes when the file changes (mtime, ctime, inode, device),
    /// used only to fingerprint the inputs for the layer cache.
    pub stamp: [i64; 4],
}

/// The validated list of entries of a layer, in archive order.
#[derive(Clone, Debug, Default)]
pub struct TarPlan {
    pub entries: Vec<Entry>,
}

/// Walks `inputs` (files and directories, in order) into a plan, applying
/// imgpkg's rules. Errors name the offending path.
pub fn plan(inputs: &[PathBuf], options: &TarOptions) -> Result<TarPlan> {
    if inputs.is_empty() {
        return Err(BundleError::invalid("no input paths given (use -f PATH)"));
    }
    check_repeated_paths(inputs)?;
    let mut plan = TarPlan::default();
    for input in inputs {
        let md = fs::metadata(input)
            .map_err(|e| BundleError::io(format!("reading input '{}'", input.display()), e))?;
        if md.is_dir() {
            let root_mode = go_file_mode(&md);
            let mut walker = Walker {
                root: input,
                options,
                root_mode,
                out: &mut plan.entries,
            };
            walker
                .walk(input.clone(), b".".to_vec(), md)
                .map_err(|e| match e {
                    BundleError::Invalid(m) => BundleError::Invalid(format!(
                        "Adding file '{}' to tar: {m}",
                        input.display()
                    )),
                    other => other,
                })?;
        } else {
            if !md.is_file() {
                return Err(not_regular(input));
            }
            let base = input
                .file_name()
                .ok_or_else(|| {
                    BundleError::invalid(format!("input '{}' has no file name", input.display()))
                })?
                .as_bytes()
                .to_vec();
            if is_excluded(options, &base) {
                continue;
            }
            plan.entries
                .push(file_entry(input.clone(), base, &md, options));
        }
    }
    Ok(plan)
}

fn not_regular(path: &Path) -> BundleError {
    BundleError::invalid(format!(
        "Expected file '{}' to be a regular file",
        path.display()
    ))
}

fn is_excluded(options: &TarOptions, rel: &[u8]) -> bool {
    options.exclusions.iter().any(|e| e.as_bytes() == rel)
}

fn stamp(md: &Metadata) -> [i64; 4] {
    [
        md.mtime() * 1_000_000_000 + md.mtime_nsec(),
        md.ctime() * 1_000_000_000 + md.ctime_nsec(),
        md.ino() as i64,
        md.dev() as i64,
    ]
}

fn file_entry(source: PathBuf, name: Vec<u8>, md: &Metadata, options: &TarOptions) -> Entry {
    let mode = if options.preserve_permissions {
        go_file_mode(md)
    } else {
        (md.mode() & 0o700) as i64
    };
    Entry {
        name,
        mode,
        kind: EntryKind::File {
            source,
            size: md.len(),
        },
        stamp: stamp(md),
    }
}

/// The Go `os.FileMode` of a file (permission bits plus Go's own type and
/// special bits), which `--preserve-permissions` stores verbatim.
fn go_file_mode(md: &Metadata) -> i64 {
    let m = md.mode();
    let mut go = (m & 0o777) as i64;
    if md.is_dir() {
        go |= GO_MODE_DIR;
    }
    if m & 0o4000 != 0 {
        go |= 1 << 23;
    }
    if m & 0o2000 != 0 {
        go |= 1 << 22;
    }
    if m & 0o1000 != 0 {
        go |= 1 << 20;
    }
    go
}

/// Children of `dir`, sorted bytewise (Go's `filepath.Walk` order).
fn sorted_children(dir: &Path) -> Result<Vec<OsString>> {
    let mut names = Vec::new();
    let rd = fs::read_dir(dir)
        .map_err(|e| BundleError::io(format!("reading directory '{}'", dir.display()), e))?;
    for item in rd {
        let item =
            item.map_err(|e| BundleError::io(format!("reading directory '{}'", dir.display()), e))?;
        names.push(item.file_name());
    }
    names.sort_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    Ok(names)
}

fn join_rel(rel: &[u8], name: &[u8]) -> Vec<u8> {
    if rel == b"." {
        name.to_vec()
    } else {
        let mut out = Vec::with_capacity(rel.len() + 1 + name.len());
        out.extend_from_slice(rel);
        out.push(b'/');
        out.extend_from_slice(name);
        out
    }
}

struct Walker<'a> {
    root: &'a Path,
    options: &'a TarOptions,
    root_mode: i64,
    out: &'a mut Vec<Entry>,
}

impl Walker<'_> {
    fn walk(&mut self, full: PathBuf, rel: Vec<u8>, md: Metadata) -> Result<()> {
        if md.is_dir() {
            if is_excluded(self.options, &rel) {
                return Ok(());
            }
            let mode = if self.options.preserve_permissions {
                self.root_mode
            } else {
                0o700
            };
            self.out.push(Entry {
                name: rel.clone(),
                mode,
                kind: EntryKind::Dir,
                stamp: stamp(&md),
            });
            for name in sorted_children(&full)? {
                let child = full.join(&name);
                let child_md = fs::symlink_metadata(&child)
                    .map_err(|e| BundleError::io(format!("reading '{}'", child.display()), e))?;
                self.walk(child, join_rel(&rel, name.as_bytes()), child_md)?;
            }
            return Ok(());
        }
        if !md.is_file() {
            return Err(not_regular(&full));
        }
        if is_excluded(self.options, &rel) {
            return Ok(());
        }
        let _ = self.root;
        self.out.push(file_entry(full, rel, &md, self.options));
        Ok(())
    }
}

/// imgpkg's `checkRepeatedPaths`: every path (other than a directory input's
/// root) may come from one input only. Runs before exclusions apply.
fn check_repeated_paths(inputs: &[PathBuf]) -> Result<()> {
    use std::collections::BTreeMap;
    let mut seen: BTreeMap<Vec<u8>, Vec<PathBuf>> = BTreeMap::new();
    fn collect(dir: &Path, rel: &[u8], seen: &mut BTreeMap<Vec<u8>, Vec<PathBuf>>) -> Result<()> {
        for name in sorted_children(dir)? {
            let child = dir.join(&name);
            let child_rel = join_rel(rel, name.as_bytes());
            seen.entry(child_rel.clone())
                .or_default()
                .push(child.clone());
            let md = fs::symlink_metadata(&child)
                .map_err(|e| BundleError::io(format!("reading '{}'", child.display()), e))?;
            if md.is_dir() {
                collect(&child, &child_rel, seen)?;
            }
        }
        Ok(())
    }
    for input in inputs {
        let md = fs::metadata(input)
            .map_err(|e| BundleError::io(format!("reading input '{}'", input.display()), e))?;
        if md.is_dir() {
            collect(input, b".", &mut seen)?;
        } else if let Some(base) = input.file_name() {
            seen.entry(base.as_bytes().to_vec())
                .or_default()
                .push(input.clone());
        }
    }
    let repeated: Vec<String> = seen
        .values()
        .filter(|v| v.len() > 1)
        .flatten()
        .map(|p| p.display().to_string())
        .collect();
    if repeated.is_empty() {
        Ok(())
    } else {
        Err(BundleError::invalid(format!(
            "Found duplicate paths: {}",
            repeated.join(", ")
        )))
    }
}

impl Entry {
    /// The size of the entry's contents (0 for a directory).
    pub fn size(&self) -> u64 {
        match &self.kind {
            EntryKind::Dir => 0,
            EntryKind::File { size, .. } => *size,
            EntryKind::Contents(bytes) => bytes.len() as u64,
        }
    }
}

impl TarPlan {
    /// The plan [`plan`] makes of one directory input holding `files` (name,
    /// contents), without permission bits preserved, from memory: the same
    /// archive, and no file is written or read.
    pub fn of_directory(files: Vec<(String, Vec<u8>)>) -> TarPlan {
        let mut files = files;
        files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut entries = vec![Entry {
            name: b".".to_vec(),
            mode: 0o700,
            kind: EntryKind::Dir,
            stamp: [0; 4],
        }];
        entries.extend(files.into_iter().map(|(name, contents)| Entry {
            name: name.into_bytes(),
            mode: 0o600,
            kind: EntryKind::Contents(contents.into()),
            stamp: [0; 4],
        }));
        TarPlan { entries }
    }

    /// Total size of the archive this plan writes.
    pub fn archive_size(&self) -> u64 {
        let mut total = 1024u64;
        for e in &self.entries {
            let size = e.size();
            total += header_bytes(&e.name, typeflag(e), e.mode, size).len() as u64;
            total += size.div_ceil(BLOCK as u64) * BLOCK as u64;
        }
        total
    }

    /// Streams the archive into `out`. File contents are read in 1 MiB pieces; a
    /// file whose size changed since [`plan`] is an error naming it.
    pub fn write_to<W: Write>(&self, out: &mut W) -> Result<()> {
        let mut buf = vec![0u8; 1 << 20];
        let write_err = |e: io::Error| BundleError::io("writing the layer", e);
        for e in &self.entries {
            let size = e.size();
            out.write_all(&header_bytes(&e.name, typeflag(e), e.mode, size))
                .map_err(write_err)?;
            match &e.kind {
                EntryKind::Dir => continue,
                EntryKind::File { source, size } => copy_file(source, *size, out, &mut buf)?,
                EntryKind::Contents(bytes) => out.write_all(bytes).map_err(write_err)?,
            }
            let pad = (BLOCK as u64 - size % BLOCK as u64) % BLOCK as u64;
            out.write_all(&[0u8; BLOCK][..pad as usize])
                .map_err(write_err)?;
        }
        out.write_all(&[0u8; 2 * BLOCK]).map_err(write_err)?;
        Ok(())
    }
}

fn typeflag(e: &Entry) -> u8 {
    match e.kind {
        EntryKind::Dir => b'5',
        EntryKind::File { .. } | EntryKind::Contents(_) => b'0',
    }
}

fn copy_file<W: Write>(source: &Path, size: u64, out: &mut W, buf: &mut [u8]) -> Result<()> {
    let mut f = fs::File::open(source)
        .map_err(|e| BundleError::io(format!("opening '{}'", source.display()), e))?;
    let mut left = size;
    while left > 0 {
        let want = left.min(buf.len() as u64) as usize;
        let n = f
            .read(&mut buf[..want])
            .map_err(|e| BundleError::io(format!("reading '{}'", source.display()), e))?;
        if n == 0 {
            return Err(BundleError::invalid(format!(
                "'{}' shrank while it was being added to the layer (expected {size} bytes)",
                source.display()
            )));
        }
        out.write_all(&buf[..n])
            .map_err(|e| BundleError::io("writing the layer", e))?;
        left -= n as u64;
    }
    let mut probe = [0u8; 1];
    let extra = f
        .read(&mut probe)
        .map_err(|e| BundleError::io(format!("reading '{}'", source.display()), e))?;
    if extra != 0 {
        return Err(BundleError::invalid(format!(
            "'{}' grew while it was being added to the layer (expected {size} bytes)",
            source.display()
        )));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Header encoding: Go archive/tar's writer, reduced to what imgpkg emits.

fn fits_in_octal(width: usize, x: i64) -> bool {
    let octal_bits = (width as u32 - 1) * 3;
    x >= 0 && (width >= 22 || x < 1i64 << octal_bits)
}

fn is_ascii(s: &[u8]) -> bool {
    s.iter().all(|b| *b < 0x80)
}

fn to_ascii(s: &[u8]) -> Vec<u8> {
    s.iter().copied().filter(|b| *b < 0x80).collect()
}

/// Go's `formatString`: copy, NUL-terminate when there is room, and never leave
/// a truncated field ending in `/`.
fn format_string(field: &mut [u8], s: &[u8]) {
    let n = s.len().min(field.len());
    field[..n].copy_from_slice(&s[..n]);
    if s.len() < field.len() {
        field[s.len()] = 0;
    }
    if s.len() > field.len() && field[field.len() - 1] == b'/' {
        let mut end = field.len() - 1;
        while end > 0 && s[end - 1] == b'/' {
            end -= 1;
        }
        field[end] = 0;
    }
}

/// Go's `formatOctal`: zero-padded octal leaving room for a NUL.
fn format_octal(field: &mut [u8], x: i64) {
    let x = if fits_in_octal(field.len(), x) { x } else { 0 };
    let digits = format!("{x:o}");
    let width = field.len() - 1;
    let s = if digits.len() < width {
        format!("{}{digits}", "0".repeat(width - digits.len()))
    } else {
        digits
    };
    format_string(field, s.as_bytes());
}

/// Go's `formatNumeric` (GNU): octal when it fits, else base-256.
fn format_numeric(field: &mut [u8], x: i64) {
    if fits_in_octal(field.len(), x) {
        format_octal(field, x);
        return;
    }
    let mut v = x;
    for i in (0..field.len()).rev() {
        field[i] = v as u8;
        v >>= 8;
    }
    field[0] |= 0x80;
}

/// Go's `splitUSTARPath`.
fn split_ustar_path(name: &[u8]) -> Option<(&[u8], &[u8])> {
    let mut length = name.len();
    if length <= NAME_SIZE || !is_ascii(name) {
        return None;
    } else if length > PREFIX_SIZE + 1 {
        length = PREFIX_SIZE + 1;
    } else if name[length - 1] == b'/' {
        length -= 1;
    }
    let i = name[..length].iter().rposition(|b| *b == b'/')?;
    let nlen = name.len() - i - 1;
    if i == 0 || nlen > NAME_SIZE || nlen == 0 || i > PREFIX_SIZE {
        return None;
    }
    Some((&name[..i], &name[i + 1..]))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Ustar,
    Pax,
    Gnu,
}

fn set_format(blk: &mut [u8; BLOCK], format: Format) {
    match format {
        Format::Ustar | Format::Pax => {
            blk[257..263].copy_from_slice(b"ustar\0");
            blk[263..265].copy_from_slice(b"00");
        }
        Format::Gnu => {
            blk[257..263].copy_from_slice(b"ustar ");
            blk[263..265].copy_from_slice(b" \0");
        }
    }
    let sum: i64 = blk
        .iter()
        .enumerate()
        .map(|(i, b)| {
            if (148..156).contains(&i) {
                32
            } else {
                *b as i64
            }
        })
        .sum();
    format_octal(&mut blk[148..155], sum);
    blk[155] = b' ';
}

/// The V7 + USTAR fields every main header has (Go's `templateV7Plus`).
fn template(name: &[u8], typeflag: u8, mode: i64, size: i64, gnu: bool) -> [u8; BLOCK] {
    let mut blk = [0u8; BLOCK];
    let num = |f: &mut [u8], x: i64| {
        if gnu {
            format_numeric(f, x)
        } else {
            format_octal(f, x)
        }
    };
    blk[156] = typeflag;
    format_string(&mut blk[0..100], name);
    format_string(&mut blk[157..257], b"");
    num(&mut blk[100..108], mode);
    num(&mut blk[108..116], 0);
    num(&mut blk[116..124], 0);
    num(&mut blk[124..136], size);
    num(&mut blk[136..148], 0);
    format_string(&mut blk[265..297], b"");
    format_string(&mut blk[297..329], b"");
    num(&mut blk[329..337], 0);
    num(&mut blk[337..345], 0);
    blk
}

/// A raw special file (PAX extended header, GNU long name) as Go's `writeRawFile`.
fn raw_file(out: &mut Vec<u8>, name: &[u8], data: &[u8], typeflag: u8, format: Format) {
    let mut name = to_ascii(name);
    name.truncate(NAME_SIZE);
    while name.last() == Some(&b'/') {
        name.pop();
    }
    let mut blk = [0u8; BLOCK];
    blk[156] = typeflag;
    format_string(&mut blk[0..100], &name);
    format_octal(&mut blk[100..108], 0);
    format_octal(&mut blk[108..116], 0);
    format_octal(&mut blk[116..124], 0);
    format_octal(&mut blk[124..136], data.len() as i64);
    format_octal(&mut blk[136..148], 0);
    set_format(&mut blk, format);
    out.extend_from_slice(&blk);
    out.extend_from_slice(data);
    let pad = (BLOCK - data.len() % BLOCK) % BLOCK;
    out.extend(std::iter::repeat_n(0u8, pad));
}

/// Go's `formatPAXRecord`.
fn pax_record(key: &str, value: &[u8]) -> Vec<u8> {
    let mut size = key.len() + value.len() + 3;
    size += size.to_string().len();
    let build = |size: usize| {
        let mut r = format!("{size} {key}=").into_bytes();
        r.extend_from_slice(value);
        r.push(b'\n');
        r
    };
    let rec = build(size);
    if rec.len() != size {
        build(rec.len())
    } else {
        rec
    }
}

/// Go's `path.Join(dir, "PaxHeaders.0", file)` for a clean relative name.
fn pax_header_name(name: &[u8]) -> Vec<u8> {
    match name.iter().rposition(|b| *b == b'/') {
        Some(i) => {
            let mut out = name[..i].to_vec();
            out.extend_from_slice(b"/PaxHeaders.0/");
            out.extend_from_slice(&name[i + 1..]);
            out
        }
        None if name.is_empty() => b"PaxHeaders.0".to_vec(),
        None => {
            let mut out = b"PaxHeaders.0/".to_vec();
            out.extend_from_slice(name);
            out
        }
    }
}

/// The header block(s) Go's `tar.Writer.WriteHeader` emits for one entry with a
/// zero mtime, zero owners and empty user/group names.
pub fn header_bytes(name: &[u8], typeflag: u8, mode: i64, size: u64) -> Vec<u8> {
    let size_i = size as i64;
    let name_ok_plain = is_ascii(name) && name.len() <= NAME_SIZE;
    let split = split_ustar_path(name);
    let need_pax_path = !name_ok_plain && split.is_none();
    let size_fits = fits_in_octal(12, size_i);
    let mode_fits = fits_in_octal(8, mode);
    let mut out = Vec::with_capacity(BLOCK);
    if !mode_fits {
        // Only GNU can carry the mode (base-256): imgpkg's --preserve-permissions dirs.
        if name.len() > NAME_SIZE {
            let mut data = name.to_vec();
            data.push(0);
            raw_file(&mut out, b"././@LongLink", &data, b'L', Format::Gnu);
        }
        let mut blk = template(name, typeflag, mode, size_i, true);
        set_format(&mut blk, Format::Gnu);
        out.extend_from_slice(&blk);
        return out;
    }
    if !need_pax_path && size_fits {
        let (prefix, rest) = split.unwrap_or((&[][..], name));
        let mut blk = template(rest, typeflag, mode, size_i, false);
        format_string(&mut blk[345..500], prefix);
        set_format(&mut blk, Format::Ustar);
        out.extend_from_slice(&blk);
        return out;
    }
    let mut records = Vec::new();
    if need_pax_path {
        records.extend(pax_record("path", name));
    }
    if !size_fits {
        records.extend(pax_record("size", size.to_string().as_bytes()));
    }
    raw_file(
        &mut out,
        &pax_header_name(name),
        &records,
        b'x',
        Format::Pax,
    );
    let ascii = to_ascii(name);
    let mut blk = template(&ascii, typeflag, mode, size_i, false);
    set_format(&mut blk, Format::Pax);
    out.extend_from_slice(&blk);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_planned_from_memory_writes_the_archive_of_the_same_files_on_disk() {
        use std::os::unix::fs::PermissionsExt as _;
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("input");
        fs::create_dir(&input).unwrap();
        fs::set_permissions(&input, fs::Permissions::from_mode(0o755)).unwrap();
        for (name, contents) in [("b.yml", "b: 2\n"), ("a.yml", "a: 1\n")] {
            let path = input.join(name);
            fs::write(&path, contents).unwrap();
            fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        }
        let on_disk = plan(&[input], &TarOptions::default()).unwrap();
        let in_memory = TarPlan::of_directory(vec![
            ("b.yml".to_string(), b"b: 2\n".to_vec()),
            ("a.yml".to_string(), b"a: 1\n".to_vec()),
        ]);
        let (mut a, mut b) = (Vec::new(), Vec::new());
        on_disk.write_to(&mut a).unwrap();
        in_memory.write_to(&mut b).unwrap();
        assert_eq!(a, b);
        assert_eq!(in_memory.archive_size(), b.len() as u64);
    }

    #[test]
    fn pax_record_length_prefix_adjusts() {
        assert_eq!(
            pax_record("path", "café.txt".as_bytes()),
            "18 path=café.txt\n".as_bytes()
        );
        // 3 + 4 + 92 = 99 → "99 " would make 101: the length grows a digit.
        let v = "x".repeat(92);
        let rec = pax_record("path", v.as_bytes());
        assert_eq!(rec.len(), 102);
        assert!(rec.starts_with(b"102 path="));
    }

    #[test]
    fn ustar_split_uses_last_slash_in_first_156_bytes() {
        let name = format!("{}/{}/{}", "a".repeat(60), "b".repeat(60), "c".repeat(60));
        let (p, n) = split_ustar_path(name.as_bytes()).unwrap();
        assert_eq!(p.len(), 121);
        assert_eq!(n.len(), 60);
        assert!(split_ustar_path("é".repeat(60).as_bytes()).is_none());
        assert!(split_ustar_path(b"short").is_none());
    }

    #[test]
    fn pax_header_names_follow_go_path_join() {
        assert_eq!(pax_header_name(b"a.txt"), b"PaxHeaders.0/a.txt");
        assert_eq!(pax_header_name(b"d/e/f"), b"d/e/PaxHeaders.0/f");
    }

    #[test]
    fn directory_header_matches_go() {
        let h = header_bytes(b".", b'5', 0o700, 0);
        assert_eq!(h.len(), 512);
        assert_eq!(&h[100..108], b"0000700\0");
        assert_eq!(&h[124..136], b"00000000000\0");
        assert_eq!(&h[257..265], b"ustar\x0000");
        assert_eq!(&h[329..345], b"0000000\x000000000\0");
        assert_eq!(h[155], b' ');
    }

    #[test]
    fn preserve_permissions_directory_mode_is_gnu_base256() {
        let h = header_bytes(b".", b'5', GO_MODE_DIR | 0o755, 0);
        assert_eq!(&h[100..108], &[0x80, 0, 0, 0, 0x80, 0, 0x01, 0xed]);
        assert_eq!(&h[257..265], b"ustar  \0");
    }
}
