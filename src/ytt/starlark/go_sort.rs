//! The stable sort of Go's `sort.Stable` (insertion sort of blocks of 20, then
//! in-place `SymMerge` of doubling runs), which starlark-go's `sorted` uses. Sorting
//! by a total order gives what any stable sort gives; this exact sequence of `less`
//! calls matters when the order is not total: a comparison that fails (`sorted([1,
//! "a", None])` reports the last failure, as `sortSlice.Less` keeps overwriting its
//! error) or a NaN that is unordered with everything.

/// Sorts `v` stably by `less`, calling it exactly as Go's `sort.Stable` calls
/// `Less(i, j)` on the elements at `i` and `j`.
pub fn stable<T>(v: &mut [T], less: &mut dyn FnMut(&T, &T) -> bool) {
    let n = v.len();
    let mut block = 20;
    let (mut a, mut b) = (0, block);
    while b <= n {
        insertion_sort(v, a, b, less);
        a = b;
        b += block;
    }
    insertion_sort(v, a, n, less);
    while block < n {
        let (mut a, mut b) = (0, 2 * block);
        while b <= n {
            sym_merge(v, a, a + block, b, less);
            a = b;
            b += 2 * block;
        }
        let m = a + block;
        if m < n {
            sym_merge(v, a, m, n, less);
        }
        block *= 2;
    }
}

fn insertion_sort<T>(v: &mut [T], a: usize, b: usize, less: &mut dyn FnMut(&T, &T) -> bool) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && less(&v[j], &v[j - 1]) {
            v.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// Merges the sorted runs `v[a..m]` and `v[m..b]` (Go's `symMerge`).
fn sym_merge<T>(v: &mut [T], a: usize, m: usize, b: usize, less: &mut dyn FnMut(&T, &T) -> bool) {
    if m - a == 1 {
        // Insert v[a] into v[m..b]: find the first element not less than it.
        let (mut i, mut j) = (m, b);
        while i < j {
            let h = (i + j) / 2;
            if less(&v[h], &v[a]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        for k in a..i - 1 {
            v.swap(k, k + 1);
        }
        return;
    }
    if b - m == 1 {
        // Insert v[m] into v[a..m]: after every element it is not less than.
        let (mut i, mut j) = (a, m);
        while i < j {
            let h = (i + j) / 2;
            if !less(&v[m], &v[h]) {
                i = h + 1;
            } else {
                j = h;
            }
        }
        let mut k = m;
        while k > i {
            v.swap(k, k - 1);
            k -= 1;
        }
        return;
    }
    let mid = (a + b) / 2;
    let n = mid + m;
    let (mut start, mut r) = if m > mid { (n - b, mid) } else { (a, m) };
    let p = n - 1;
    while start < r {
        let c = (start + r) / 2;
        if !less(&v[p - c], &v[c]) {
            start = c + 1;
        } else {
            r = c;
        }
    }
    let end = n - start;
    if start < m && m < end {
        rotate(v, start, m, end);
    }
    if a < start && start < mid {
        sym_merge(v, a, start, mid, less);
    }
    if mid < end && end < b {
        sym_merge(v, mid, end, b, less);
    }
}

/// Exchanges the runs `v[a..m]` and `v[m..b]` by block swaps (Go's `rotate`).
fn rotate<T>(v: &mut [T], a: usize, m: usize, b: usize) {
    let (mut i, mut j) = (m - a, b - m);
    while i != j {
        if i > j {
            swap_range(v, m - i, m, j);
            i -= j;
        } else {
            swap_range(v, m - i, m + j - i, i);
            j -= i;
        }
    }
    swap_range(v, m - i, m, i);
}

fn swap_range<T>(v: &mut [T], a: usize, b: usize, n: usize) {
    for i in 0..n {
        v.swap(a + i, b + i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorts_stably_at_every_size() {
        for n in [0, 1, 2, 19, 20, 21, 40, 41, 97, 300] {
            // Keys repeat so that stability shows: (key, original position).
            let mut v: Vec<(u32, usize)> = (0..n).map(|i| ((i as u32 * 7919) % 13, i)).collect();
            let mut want = v.clone();
            want.sort_by_key(|p| p.0);
            stable(&mut v, &mut |x, y| x.0 < y.0);
            assert_eq!(v, want, "n = {n}");
        }
    }
}
