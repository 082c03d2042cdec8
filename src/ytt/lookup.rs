//! Paths inside one library, looked up as ytt's `Library.FindFile` and `FindLibrary`
//! look them up (for `load()`, `data.read` and `data.list`).
//!
//! A path is walked one `/`-separated piece at a time from a start directory; each piece
//! must name an existing subdirectory (one that holds some file). `.`, `..` and empty
//! pieces name no directory, so they fail like any missing one, and a `_ytt_lib` piece
//! is refused: private libraries are reached with `@name:path` instead. The messages are
//! ytt's. A leading `/` (start at the library root) is the caller's to strip.

/// The name of the directories that hold private libraries.
pub const PRIVATE_DIR: &str = "_ytt_lib";

/// The directory `path` below `start` (both relative to the library root, `""` for the
/// root), given the relative paths of all the library's files. An error names the
/// pieces of `path` found before the missing one, or the private directory met.
pub fn find_dir<'a>(
    rels: impl Iterator<Item = &'a str> + Clone,
    start: &str,
    path: &str,
) -> Result<String, String> {
    let pieces: Vec<&str> = path.split('/').collect();
    let mut dir = start.to_string();
    for (i, piece) in pieces.iter().enumerate() {
        let next = join(&dir, piece);
        let prefix = format!("{next}/");
        let exists = !piece.is_empty() && rels.clone().any(|r| r.starts_with(&prefix));
        if !exists || *piece == "." || *piece == ".." {
            return Err(format!("Did not find '{}'", pieces[..i].join("/")));
        }
        if *piece == PRIVATE_DIR {
            return Err(format!("Encountered private library '{PRIVATE_DIR}'"));
        }
        dir = next;
    }
    Ok(dir)
}

/// The relative path of the file `path` below `start`, where `own` are the library's own
/// files and `all` every file (its private libraries' too, which make directories).
pub fn find_file<'a>(
    own: impl Iterator<Item = &'a str>,
    all: impl Iterator<Item = &'a str> + Clone,
    start: &str,
    path: &str,
) -> Result<String, String> {
    let (dir, name) = match path.rsplit_once('/') {
        Some((dir, name)) => {
            let dir = find_dir(all, start, dir)
                .map_err(|e| format!("Expected to find file '{path}', but did not: {e}"))?;
            (dir, name)
        }
        None => (start.to_string(), path),
    };
    let rel = join(&dir, name);
    let mut own = own;
    if !name.is_empty() && own.any(|r| r == rel) {
        Ok(rel)
    } else {
        Err(format!(
            "Expected to find file '{path}' (hint: only files included via -f flag are available)"
        ))
    }
}

/// The order in which ytt's `Library.ListAccessibleFiles` visits the files at relative
/// paths `rels` (given in input order): a directory's own files first, in input order,
/// then each of its subdirectories, in the order their first file came, the same way.
/// Private library directories (`_ytt_lib`) are left out. Gives indexes into `rels`.
///
/// ytt evaluates a library's files, and reads their YAML for its data values and schema
/// stages, in this order; its outputs are put back in input order afterwards.
pub fn accessible_order<'a>(rels: impl Iterator<Item = &'a str>) -> Vec<usize> {
    struct Dir<'a> {
        name: &'a str,
        files: Vec<usize>,
        children: Vec<usize>,
    }
    let mut dirs = vec![Dir {
        name: "",
        files: Vec::new(),
        children: Vec::new(),
    }];
    for (i, rel) in rels.enumerate() {
        let mut at = 0;
        let pieces: Vec<&str> = rel.split('/').collect();
        for piece in &pieces[..pieces.len() - 1] {
            let found = dirs[at]
                .children
                .iter()
                .copied()
                .find(|&c| dirs[c].name == *piece);
            at = match found {
                Some(c) => c,
                None => {
                    dirs.push(Dir {
                        name: piece,
                        files: Vec::new(),
                        children: Vec::new(),
                    });
                    let c = dirs.len() - 1;
                    dirs[at].children.push(c);
                    c
                }
            };
        }
        dirs[at].files.push(i);
    }
    let mut out = Vec::new();
    let mut stack = vec![0];
    while let Some(d) = stack.pop() {
        out.extend_from_slice(&dirs[d].files);
        for &c in dirs[d].children.iter().rev() {
            if dirs[c].name != PRIVATE_DIR {
                stack.push(c);
            }
        }
    }
    out
}

/// The directory of the file at `rel` (`""` at the root).
pub fn dir_of(rel: &str) -> &str {
    rel.rsplit_once('/').map(|(d, _)| d).unwrap_or("")
}

fn join(dir: &str, piece: &str) -> String {
    if dir.is_empty() {
        piece.to_string()
    } else {
        format!("{dir}/{piece}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILES: [&str; 4] = ["t.yml", "a/b/x.star", "a/y.star", "_ytt_lib/l/z.star"];

    fn dir(start: &str, path: &str) -> Result<String, String> {
        find_dir(FILES.iter().copied(), start, path)
    }

    fn file(start: &str, path: &str) -> Result<String, String> {
        find_file(FILES.iter().copied(), FILES.iter().copied(), start, path)
    }

    #[test]
    fn files_are_visited_directory_by_directory() {
        let rels = [
            "a/x.yml",
            "b.yml",
            "a/c/y.yml",
            "_ytt_lib/l/z.yml",
            "c.yml",
            "a/w.yml",
        ];
        let order: Vec<&str> = accessible_order(rels.iter().copied())
            .into_iter()
            .map(|i| rels[i])
            .collect();
        assert_eq!(order, ["b.yml", "c.yml", "a/x.yml", "a/w.yml", "a/c/y.yml"]);
    }

    #[test]
    fn directories_are_walked_piece_by_piece() {
        assert_eq!(dir("", "a/b"), Ok("a/b".to_string()));
        assert_eq!(dir("a", "b"), Ok("a/b".to_string()));
        assert_eq!(dir("", "a/c"), Err("Did not find 'a'".to_string()));
        assert_eq!(dir("", "a/b/c"), Err("Did not find 'a/b'".to_string()));
        assert_eq!(dir("a", ".."), Err("Did not find ''".to_string()));
        assert_eq!(dir("", "./a"), Err("Did not find ''".to_string()));
        assert_eq!(dir("", "a/"), Err("Did not find 'a'".to_string()));
        assert_eq!(
            dir("", "_ytt_lib/l"),
            Err("Encountered private library '_ytt_lib'".to_string())
        );
    }

    #[test]
    fn files_are_found_in_the_walked_directory_only() {
        assert_eq!(file("a", "b/x.star"), Ok("a/b/x.star".to_string()));
        assert_eq!(file("", "t.yml"), Ok("t.yml".to_string()));
        assert_eq!(
            file("a", "x.star"),
            Err(
                "Expected to find file 'x.star' (hint: only files included via -f flag are available)"
                    .to_string()
            )
        );
        assert_eq!(
            file("a/b", "../y.star"),
            Err("Expected to find file '../y.star', but did not: Did not find ''".to_string())
        );
        assert_eq!(
            file("", "a/"),
            Err(
                "Expected to find file 'a/' (hint: only files included via -f flag are available)"
                    .to_string()
            )
        );
    }
}
