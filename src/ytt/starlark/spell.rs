//! The spelling hint starlark-go adds to a missing attribute ("string has no .uper
//! field or method (did you mean .upper?)"): the candidate nearest to the name by
//! Levenshtein distance over bytes, case and underscores ignored, when it is within
//! half the name's length.

/// The candidate nearest to `name`, the first of equally near ones; None when none is
/// near enough.
pub fn nearest<'a>(name: &str, candidates: &'a [String]) -> Option<&'a str> {
    let x = fold(name);
    let mut best = None;
    let mut best_d = x.len().div_ceil(2);
    for c in candidates {
        let d = levenshtein(x.as_bytes(), fold(c).as_bytes());
        if d < best_d {
            best_d = d;
            best = Some(c.as_str());
        }
    }
    best
}

/// Lower case, underscores dropped.
fn fold(s: &str) -> String {
    s.chars()
        .filter(|&c| c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Edit distance between two byte strings.
fn levenshtein(x: &[u8], y: &[u8]) -> usize {
    let mut row: Vec<usize> = (0..=y.len()).collect();
    for (i, &a) in x.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i + 1;
        for (j, &b) in y.iter().enumerate() {
            let up = row[j + 1];
            row[j + 1] = (diag + usize::from(a != b)).min(up + 1).min(row[j] + 1);
            diag = up;
        }
    }
    row[y.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn the_nearest_name_within_half_the_length() {
        let c = names(&["lower", "upper", "strip"]);
        assert_eq!(nearest("uper", &c), Some("upper"));
        assert_eq!(nearest("UPPER_", &c), Some("upper"));
        assert_eq!(nearest("xyz", &c), None);
        assert_eq!(nearest("", &c), None);
        // Equally near candidates: the first wins.
        assert_eq!(nearest("abd", &names(&["abc", "abe"])), Some("abc"));
    }
}
