//! The lexical blocks of the resolver and what it decides only once the whole module is
//! read, as starlark-go's resolver does: a name used inside a function or comprehension
//! that is bound in no enclosing block is looked up among the module's globals at the
//! end, block by block bottom-up (inner functions before outer ones, the module's own
//! comprehensions last). Each lookup is remembered in the blocks it passed through, so
//! a name reported undefined in a function is reported once there, and remembered names
//! become candidates of later spelling hints.

use super::error::{Error, Position};
use super::fast_hash::FastSet;

/// The module's block, the root of the tree.
pub(super) const MODULE: usize = 0;

/// A block: the module, a function or a comprehension.
#[derive(Default)]
pub(super) struct Block {
    parent: usize,
    /// Names bound in the block: a function's parameters and locals, a comprehension's
    /// loop variables (the module keeps its globals apart).
    bound: FastSet<String>,
    /// Names looked up through this block while the module was finished.
    remembered: FastSet<String>,
    children: Vec<usize>,
    /// Uses, inside this function (or the module's comprehensions), of names the
    /// function does not bind, in the order met.
    uses: Vec<Use>,
    /// The block is a function's (it collects the uses of its comprehensions).
    function: bool,
}

/// A use of a name resolved at the end of the module.
struct Use {
    name: String,
    env: usize,
    pos: Position,
}

/// The tree of blocks, with the current one.
pub(super) struct Blocks {
    blocks: Vec<Block>,
    pub(super) env: usize,
}

impl Blocks {
    pub(super) fn new() -> Self {
        Blocks {
            blocks: vec![Block::default()],
            env: MODULE,
        }
    }

    /// Enters a new block (a function's when `function`) binding `names`.
    pub(super) fn push(&mut self, function: bool, names: impl IntoIterator<Item = String>) {
        let id = self.blocks.len();
        self.blocks.push(Block {
            parent: self.env,
            bound: names.into_iter().collect(),
            function,
            ..Block::default()
        });
        self.blocks[self.env].children.push(id);
        self.env = id;
    }

    pub(super) fn pop(&mut self) {
        self.env = self.blocks[self.env].parent;
    }

    /// Records a use of `name` in the current block, left for the end of the module.
    pub(super) fn defer(&mut self, name: &str, pos: &Position) {
        let mut c = self.env;
        while c != MODULE && !self.blocks[c].function {
            c = self.blocks[c].parent;
        }
        let env = self.env;
        self.blocks[c].uses.push(Use {
            name: name.to_string(),
            env,
            pos: pos.clone(),
        });
    }

    /// Names bound in or remembered by `env` and its enclosing blocks.
    fn names_around(&self, mut env: usize) -> Vec<String> {
        let mut names = Vec::new();
        while env != MODULE {
            let b = &self.blocks[env];
            names.extend(b.bound.iter().cloned());
            names.extend(b.remembered.iter().cloned());
            env = b.parent;
        }
        names
    }

    /// Resolves the deferred uses bottom-up, adding an `undefined` error for each name
    /// that is none of the module's (`defined`), with the nearest of the names around it
    /// and the `globals` as hint.
    pub(super) fn finish(
        &mut self,
        defined: &dyn Fn(&str) -> bool,
        globals: &[String],
        errors: &mut Vec<Error>,
    ) {
        let mut order = Vec::new();
        self.post_order(MODULE, &mut order);
        for b in order {
            for u in std::mem::take(&mut self.blocks[b].uses) {
                self.lookup(&u, defined, globals, errors);
            }
        }
    }

    fn post_order(&self, b: usize, out: &mut Vec<usize>) {
        for &c in &self.blocks[b].children {
            self.post_order(c, out);
        }
        out.push(b);
    }

    fn lookup(
        &mut self,
        u: &Use,
        defined: &dyn Fn(&str) -> bool,
        globals: &[String],
        errors: &mut Vec<Error>,
    ) {
        let mut passed = Vec::new();
        let mut b = u.env;
        loop {
            if b == MODULE {
                if !defined(&u.name) {
                    let mut names = self.names_around(u.env);
                    names.extend(globals.iter().cloned());
                    errors.push(undefined(&u.name, &u.pos, names));
                }
                break;
            }
            let block = &self.blocks[b];
            if block.bound.contains(&u.name) || block.remembered.contains(&u.name) {
                break;
            }
            passed.push(b);
            b = block.parent;
        }
        for p in passed {
            self.blocks[p].remembered.insert(u.name.clone());
        }
    }
}

/// starlark-go's `undefined: x`, with `(did you mean y?)` when one of `names` is near.
pub(super) fn undefined(name: &str, pos: &Position, mut names: Vec<String>) -> Error {
    names.sort();
    let hint = super::spell::nearest(name, &names)
        .map(|n| format!(" (did you mean {n}?)"))
        .unwrap_or_default();
    Error::resolve(pos.clone(), format!("undefined: {name}{hint}"))
}
