//! The input file set of a `template` run: `-f` paths (files, directories walked in
//! lexical order, `-` for stdin) turned into named files with a kind each, the
//! `--file-mark` rules applied, and the private libraries under `_ytt_lib/` split off.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::error::Error;
use super::symlinks::{SymlinkPolicy, go_io_error};

/// How a file takes part in a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// `*.yml` / `*.yaml`: a YAML template whose documents are output.
    YamlTemplate,
    /// YAML printed as it is, with `#@` comments ignored (`type=yaml-plain`).
    YamlPlain,
    /// `*.txt`: a text template whose result is an output file (not on stdout).
    TextTemplate,
    /// Text copied as it is (`type=text-plain`).
    TextPlain,
    /// `*.star`: a Starlark module, only loaded.
    Starlark,
    /// Anything else: readable with `data.read()`, never output.
    Data,
}

/// One input file.
#[derive(Debug, Clone)]
pub struct InputFile {
    /// Path relative to its `-f` root (or the file name given), with `/` separators.
    pub rel: String,
    /// The content, shared: file lists are cloned while iterating a library, and the
    /// parse-ahead helpers read it on their threads.
    pub bytes: std::sync::Arc<[u8]>,
    pub kind: FileKind,
    /// `*.lib.yml`, `*.lib.txt`, `*.star` (any `NAME.lib.EXT` by its name, whatever
    /// its type): loadable only, not output on their own.
    pub library: bool,
    /// The path the file was found at, which `--file-mark` paths match (a `path=` mark
    /// or `-f NAME=PATH` changes only `rel`).
    pub original_rel: String,
    /// `--file-mark …:for-output=true` (or `exclusive-for-output` marks elsewhere):
    /// whether the file is output, over what its kind says.
    pub for_output: Option<bool>,
    /// `--file-mark …:type=yaml-template` / `text-template`: a template, so output even
    /// when its name says library.
    pub marked_template: bool,
    /// `--file-mark …:type=…`: the kind, whatever the name says.
    pub marked_kind: Option<FileKind>,
    /// Whether the text says `data/values` anywhere: a file that does not can hold no
    /// data values or schema document. Found once per run, where every stage that looks
    /// for such documents used to search each file again.
    pub mentions_data_values: bool,
}

impl InputFile {
    /// The text of the file as ytt reads it: its bytes, those that are no UTF-8 carried
    /// as [`crate::go_bytes`] says (go-yaml's reader refuses them in a YAML file, in its
    /// words; a text template or a Starlark string literal keeps them as bytes).
    pub fn go_text(&self) -> std::borrow::Cow<'_, str> {
        match std::str::from_utf8(&self.bytes) {
            Ok(s) => std::borrow::Cow::Borrowed(s),
            Err(_) => std::borrow::Cow::Owned(crate::go_bytes::from_bytes(&self.bytes)),
        }
    }

    /// Identifies this file among the inputs of a run: two `-f` directories may each hold
    /// a file of the same relative path, and ytt reads both. Clones of the file (its
    /// content shared) give the same key.
    pub fn key(&self) -> usize {
        std::sync::Arc::as_ptr(&self.bytes).cast::<u8>() as usize
    }

    /// Gives the file another relative path; its kind follows the new name, as ytt's
    /// types follow the marked path. Whether it is a library file goes by the name
    /// alone, whatever type a mark gives it (ytt's `File.IsLibrary`).
    pub fn rename(&mut self, rel: String) {
        let (kind, library) = kind_of(&rel);
        self.kind = self.marked_kind.unwrap_or(kind);
        self.library = library;
        self.rel = rel;
    }

    /// True when the file's templated result goes to the output.
    pub fn is_output_template(&self) -> bool {
        let by_kind = matches!(
            self.kind,
            FileKind::YamlTemplate
                | FileKind::YamlPlain
                | FileKind::TextTemplate
                | FileKind::TextPlain
        );
        by_kind
            && self
                .for_output
                .unwrap_or(self.marked_template || !self.library)
    }
}

/// Classifies a path by its name (extensions are case-sensitive, as in ytt).
pub fn kind_of(rel: &str) -> (FileKind, bool) {
    use crate::yaml::files::{FileKind as K, classify};
    let (k, lib) = classify(rel);
    let kind = match k {
        K::Yaml => FileKind::YamlTemplate,
        K::Text => FileKind::TextTemplate,
        K::Starlark => FileKind::Starlark,
        K::Data => FileKind::Data,
    };
    (kind, lib || kind == FileKind::Starlark)
}

/// Reads the `-f` inputs (in argument order; directories walked in lexical order),
/// refusing symlinked files as ytt does by default.
pub fn collect(
    paths: &[String],
    cwd: &Path,
    stdin: &mut dyn FnMut() -> std::io::Result<Vec<u8>>,
) -> Result<Vec<InputFile>, Error> {
    collect_with(paths, cwd, stdin, &SymlinkPolicy::default())
}

/// [`collect`] with the run's symlink flags (`--file-mark`s are applied after, by
/// [`super::file_marks::apply_marks`]). A `-f NAME=PATH` gives a file (or stdin)
/// the relative path NAME; directories keep their own paths, as in ytt.
pub fn collect_with(
    paths: &[String],
    cwd: &Path,
    stdin: &mut dyn FnMut() -> std::io::Result<Vec<u8>>,
    symlinks: &SymlinkPolicy,
) -> Result<Vec<InputFile>, Error> {
    let mut out = Vec::new();
    for arg in paths {
        let (named, p) = split_named(arg)?;
        if p == "-" {
            let bytes = stdin().map_err(|e| Error::Io(stdin_error(&e)))?;
            // Named `stdin.yml` (what `--file-mark` paths match), then given the name.
            let mut f = new_file("stdin.yml".into(), bytes.into());
            if let Some(name) = named {
                f.rename(name);
            }
            out.push(f);
            continue;
        }
        if super::http_source::is_url(&p) {
            let bytes = super::http_source::fetch(&p).map_err(Error::Io)?;
            let mut f = new_file(super::http_source::base_name(&p), bytes.into());
            if let Some(name) = named {
                f.rename(name);
            }
            out.push(f);
            continue;
        }
        match list_local(&p, cwd, symlinks)? {
            Local::Dir(files) => {
                for f in files {
                    let bytes = read_input(&f.path, &f.shown, &f.rel)?;
                    out.push(new_file(f.rel, bytes));
                }
            }
            Local::File(full) => {
                let rel = Path::new(&p)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| p.clone());
                let bytes = read_input(&full, &p, named.as_deref().unwrap_or(&rel))?;
                let mut f = new_file(rel, bytes);
                if let Some(name) = named {
                    f.rename(name);
                }
                out.push(f);
            }
        }
    }
    Ok(out)
}

/// `NAME=PATH` split as ytt splits a file argument (of `-f` or a data values flag): the
/// relative path to give the file (none when empty or not given) and the path.
pub fn split_named(arg: &str) -> Result<(Option<String>, String), Error> {
    match arg.split('=').collect::<Vec<_>>().as_slice() {
        [p] => Ok((None, p.to_string())),
        [name, p] => Ok((
            Some(name.to_string()).filter(|n| !n.is_empty()),
            p.to_string(),
        )),
        _ => Err(Error::Io(format!(
            "Expected file '{arg}' to only have single '=' sign to for relative path assignment"
        ))),
    }
}

/// What a local path names, checked (not read) as ytt's `NewSortedFilesFromPaths`
/// checks it.
pub enum Local {
    /// A directory's files, in relative path order.
    Dir(Vec<WalkedFile>),
    /// A file (or a symlink, allowed, or a named pipe).
    File(PathBuf),
}

/// A file found walking a directory.
pub struct WalkedFile {
    /// Its path relative to the directory.
    pub rel: String,
    pub path: PathBuf,
    /// Its path as Go's `filepath.Walk` gives it (the directory as given joined with
    /// `rel`), for messages.
    pub shown: String,
}

/// Checks the local path `p` (relative to `cwd`): it must exist (`os.Lstat`), and each
/// file it names (the path itself, or every file under it when it is a directory) must
/// be a regular file, a named pipe or a symlink the symlink flags allow.
pub fn list_local(p: &str, cwd: &Path, symlinks: &SymlinkPolicy) -> Result<Local, Error> {
    if p.is_empty() {
        // Go's `os.Lstat("")`.
        return Err(Error::Io(
            "Checking file '': lstat : no such file or directory".into(),
        ));
    }
    let full = if Path::new(p).is_absolute() {
        PathBuf::from(p)
    } else {
        cwd.join(p)
    };
    let meta = std::fs::symlink_metadata(&full).map_err(|e| {
        Error::Io(format!(
            "Checking file '{p}': lstat {p}: {}",
            go_io_error(&e)
        ))
    })?;
    if !meta.is_dir() {
        if !readable_kind(meta.file_type()) {
            return Err(Error::Io(not_regular(p)));
        }
        if meta.file_type().is_symlink() {
            symlinks
                .check(p, &full, cwd)
                .map_err(|m| Error::Io(format!("Checking symlink file '{p}': {m}")))?;
        }
        return Ok(Local::File(full));
    }
    let mut files = Vec::new();
    for (rel, entry) in files_under(&full, |e| {
        Error::Io(format!("listing directory '{p}': {e}"))
    })? {
        let shown = go_join(p, &rel);
        if !readable_kind(entry.file_type()) {
            return Err(Error::Io(format!(
                "Listing files '{p}': {}",
                not_regular(&shown)
            )));
        }
        if entry.path_is_symlink() {
            symlinks.check(&shown, entry.path(), cwd).map_err(|m| {
                Error::Io(format!(
                    "Listing files '{p}': Checking symlink file '{shown}': {m}"
                ))
            })?;
        }
        files.push(WalkedFile {
            rel,
            path: entry.path().to_path_buf(),
            shown,
        });
    }
    files.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(Local::Dir(files))
}

/// What ytt says when standard input is named by a second `-` (in `-f` or a data values
/// flag): it reads standard input once.
pub const STDIN_READ_TWICE: &str = "Standard input has been already read once (has the '-' argument been used in more than one flags?)";

/// The words of an error reading standard input: [`STDIN_READ_TWICE`] as it is.
pub fn stdin_error(e: &std::io::Error) -> String {
    match e.to_string() {
        s if s == STDIN_READ_TWICE => s,
        s => format!("reading stdin: {s}"),
    }
}

/// The contents of the input file at `full` (`shown` as the user gave it or as walked,
/// `name` its relative path). ytt reads a file when it is first used, so a file no
/// template reads by its kind (a data file, such as a symlink to a directory given to
/// `-f`) fails nothing and reads as empty; any other failure is worded as Go's
/// `os.ReadFile` words it.
fn read_input(full: &Path, shown: &str, name: &str) -> Result<Arc<[u8]>, Error> {
    match read_shared(full) {
        Ok(bytes) => Ok(bytes),
        Err(_) if kind_of(name).0 == FileKind::Data => Ok(Arc::from(Vec::new())),
        Err(e) if e.kind() == std::io::ErrorKind::IsADirectory => {
            Err(Error::Io(format!("read {shown}: is a directory")))
        }
        Err(e) => Err(Error::Io(format!("open {shown}: {}", go_io_error(&e)))),
    }
}

/// Whether ytt reads a file of this type (`NewRegularFileLocalSource`): a regular file,
/// a symlink (checked against the symlink flags) or a named pipe (`-f <(...)`).
fn readable_kind(t: std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt as _;
    t.is_file() || t.is_symlink() || t.is_fifo()
}

fn not_regular(shown: &str) -> String {
    format!("Expected file '{shown}' to be a regular file, but was not")
}

/// `dir` and `rel` joined and cleaned as Go's `filepath.Join` does (`./d/` and `a.yml`
/// give `d/a.yml`; `..` drops the element before it; an absolute `rel` stays under `dir`).
pub fn go_join(dir: &str, rel: &str) -> String {
    let joined = match (dir.is_empty(), rel.is_empty()) {
        (true, _) => rel.to_string(),
        (false, true) => dir.to_string(),
        (false, false) => format!("{dir}/{rel}"),
    };
    if joined.is_empty() {
        return String::new();
    }
    let absolute = joined.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for seg in joined.split('/') {
        match seg {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            s => parts.push(s),
        }
    }
    let body = parts.join("/");
    match (absolute, body.is_empty()) {
        (true, _) => format!("/{body}"),
        (false, true) => ".".to_string(),
        (false, false) => body,
    }
}

/// The files under `dir` (directories left out), in the walk's order, each with its
/// path relative to `dir` (`/`-separated); `walk_error` words an error of the walk.
pub fn files_under(
    dir: &Path,
    walk_error: impl Fn(walkdir::Error) -> Error,
) -> Result<Vec<(String, walkdir::DirEntry)>, Error> {
    let mut out = Vec::new();
    // In name order within each directory, as Go's `filepath.Walk` visits them (so the
    // first bad entry met is ytt's).
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(&walk_error)?;
        if entry.file_type().is_dir() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        out.push((rel, entry));
    }
    Ok(out)
}

/// The contents of the file at `path`, read straight into shared memory (reading into a
/// `Vec` and converting it would copy every input once more).
fn read_shared(path: &Path) -> std::io::Result<Arc<[u8]>> {
    use std::io::Read as _;
    let mut file = std::fs::File::open(path)?;
    let len = usize::try_from(file.metadata()?.len()).unwrap_or(usize::MAX);
    if len == 0 || len > isize::MAX as usize / 2 {
        // Empty as listed (perhaps a special file that still has content), or too large
        // to size up front: read whatever there is.
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        return Ok(bytes.into());
    }
    // Collecting an iterator of known length allocates the `Arc` once, at its size.
    let mut shared: Arc<[u8]> = std::iter::repeat_n(0, len).collect();
    let buf = Arc::get_mut(&mut shared).expect("a new Arc has no other owner");
    let mut filled = 0;
    while filled < len {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let mut probe = [0u8; 1];
    if filled < len || file.read(&mut probe)? > 0 {
        // The file changed size while it was read: read it again as it is now.
        return std::fs::read(path).map(Arc::from);
    }
    Ok(shared)
}

fn new_file(rel: String, bytes: Arc<[u8]>) -> InputFile {
    let (kind, library) = kind_of(&rel);
    InputFile {
        original_rel: rel.clone(),
        mentions_data_values: memchr::memmem::find(&bytes, b"data/values").is_some(),
        rel,
        bytes,
        kind,
        library,
        for_output: None,
        marked_template: false,
        marked_kind: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_read_whole_into_shared_memory() {
        let dir = std::env::temp_dir().join(format!("strake-read-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let cases: [&[u8]; 3] = [b"", b"a: 1\n", &[0xff; 70_000]];
        for (i, content) in cases.iter().enumerate() {
            let path = dir.join(format!("f{i}"));
            std::fs::write(&path, content).unwrap();
            assert_eq!(&*read_shared(&path).unwrap(), *content, "case {i}");
        }
        let missing = read_shared(&dir.join("missing")).unwrap_err();
        assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
        // A special file listed as empty is read for what it has.
        if Path::new("/proc/self/stat").exists() {
            assert!(
                !read_shared(Path::new("/proc/self/stat"))
                    .unwrap()
                    .is_empty()
            );
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn kinds() {
        assert_eq!(kind_of("a/config.yml"), (FileKind::YamlTemplate, false));
        assert_eq!(kind_of("helpers.lib.yaml"), (FileKind::YamlTemplate, true));
        assert_eq!(kind_of("x.lib.txt"), (FileKind::TextTemplate, true));
        assert_eq!(kind_of("m.star"), (FileKind::Starlark, true));
        assert_eq!(kind_of("README.md"), (FileKind::Data, false));
    }
}
