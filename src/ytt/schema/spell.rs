//! The spelling suggestion of ytt's schema errors (`did you mean "name"?`): the
//! candidate nearest to a key by Levenshtein distance over bytes, ignoring case and
//! underscores, if it is within half the key's length.

/// The candidate nearest to `x`, or `None` when none is close enough.
pub fn nearest<'a>(x: &str, candidates: &'a [String]) -> Option<&'a str> {
    let fold = |s: &str| -> Vec<u8> {
        s.chars()
            .filter(|c| *c != '_')
            .flat_map(char::to_lowercase)
            .collect::<String>()
            .into_bytes()
    };
    let x = fold(x);
    let mut best = None;
    // Up to 50% typos.
    let mut best_d = x.len().div_ceil(2);
    for c in candidates {
        let d = levenshtein(&x, &fold(c), best_d);
        if d < best_d {
            best_d = d;
            best = Some(c.as_str());
        }
    }
    best
}

/// The edit distance of `x` and `y`; once it exceeds `max` an approximation above
/// `max` may be returned early.
fn levenshtein(x: &[u8], y: &[u8], max: usize) -> usize {
    let (mut x, mut y) = if x.len() > y.len() { (y, x) } else { (x, y) };
    // Drop the common prefix (up to the first difference).
    if let Some(i) = (0..x.len()).find(|&i| x[i] != y[i]) {
        x = &x[i..];
        y = &y[i..];
    }
    if x.is_empty() {
        return y.len();
    }
    let diff = y.len() - x.len();
    if diff > max {
        return diff;
    }
    let mut row: Vec<usize> = (0..=y.len()).collect();
    for i in 1..=x.len() {
        row[0] = i;
        let mut best = i;
        let mut prev = i - 1;
        for j in 1..=y.len() {
            let a = prev + usize::from(x[i - 1] != y[j - 1]);
            let b = 1 + row[j - 1];
            let c = 1 + row[j];
            let k = a.min(b).min(c);
            prev = row[j];
            row[j] = k;
            best = best.min(k);
        }
        if best > max {
            return best;
        }
    }
    row[y.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_a_close_key_only() {
        let keys = vec!["name".to_string(), "port".to_string()];
        assert_eq!(nearest("nme", &keys), Some("name"));
        assert_eq!(nearest("Por_t", &keys), Some("port"));
        assert_eq!(nearest("zzzzzz", &keys), None);
    }
}
