//! The alias budget of a YAML document: how many of the nodes it decodes to may come
//! from expanding aliases before it is refused as an alias bomb.

/// go-yaml's (v2.2.8 and later, v3) defence against alias bombs ("billion laughs"): it
/// counts the nodes a document decodes to, `decoded`, and how many of them come from
/// expanding aliases, `aliased`, and refuses the document once more than 100 aliased and
/// more than 1,000 decoded nodes are reached and the aliased share exceeds
/// [`allowed_alias_ratio`]. ytt's own fork of go-yaml v2 predates the check (a bomb
/// exhausts its memory); this is the upstream rule, with its message.
#[derive(Default)]
pub(super) struct AliasBudget {
    pub(super) decoded: usize,
    aliased: usize,
}

impl AliasBudget {
    /// Accounts for an alias that stands for `size` nodes (with its own expansions).
    pub(super) fn expand(&mut self, size: usize) -> Result<(), &'static str> {
        self.decoded += size;
        self.aliased += size;
        // Both counts only grow while a copy is made, and the allowed share only falls
        // with more decoded nodes: checking once after the whole copy is the same as
        // checking at each of its nodes, as go-yaml does.
        if self.aliased > 100
            && self.decoded > 1000
            && self.aliased as f64 / self.decoded as f64 > allowed_alias_ratio(self.decoded)
        {
            return Err("yaml: document contains excessive aliasing");
        }
        Ok(())
    }
}

/// The share of a document's nodes that may come from aliases, after go-yaml: 99% for up to
/// 400,000 decoded nodes, falling linearly to 10% at 4,000,000 (about 400,000 aliased
/// nodes at most over that range).
fn allowed_alias_ratio(decoded: usize) -> f64 {
    const LOW: usize = 400_000;
    const HIGH: usize = 4_000_000;
    if decoded <= LOW {
        0.99
    } else if decoded >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decoded - LOW) as f64 / (HIGH - LOW) as f64)
    }
}
