//! Name resolution, as starlark-go's resolver with the options ytt turns on (global
//! reassignment, top-level `if`/`for`/`while`, nested `def`, lambda, recursion, floats
//! and sets): a name bound anywhere in a function body is local to the whole function;
//! names of enclosing functions are captured as free variables (cells). At top level a
//! name means what is bound so far: a global assigned earlier, else a predeclared name
//! or built-in (so `x = len(s)` before `len = 1` calls the built-in). Inside functions
//! and comprehensions a non-local name is any global of the module, looked up once the
//! module is read (see [`super::resolve_blocks`]). Names a top-level `load` binds are
//! local to the file (starlark-go's file block, `LoadBindsGlobally` being off): found
//! before the globals, and not exported. Every error is collected, in starlark-go's
//! order, and the first carries the others in `more`.

use std::collections::{BTreeSet, HashSet};

use super::fast_hash::{FastMap, FastSet};

use super::ast::*;
use super::error::{Error, Position, Result};
use super::resolve_blocks::{Blocks, MODULE, undefined};

struct Scope {
    is_module: bool,
    locals: FastMap<String, u32>,
    blocks: Vec<FastMap<String, u32>>,
    nslots: u32,
    cells: BTreeSet<u32>,
    free: Vec<(String, FreeSource)>,
    loops: u32,
}

impl Scope {
    fn new(is_module: bool) -> Self {
        Scope {
            is_module,
            locals: FastMap::default(),
            blocks: Vec::new(),
            nslots: 0,
            cells: BTreeSet::new(),
            free: Vec::new(),
            loops: 0,
        }
    }
    fn info(self) -> FuncInfo {
        FuncInfo {
            num_slots: self.nslots,
            cells: self.cells.into_iter().collect(),
            freevars: self.free,
            resolved: true,
        }
    }
}

struct Resolver<'a> {
    /// Every name bound at top level, anywhere in the module.
    globals: FastSet<String>,
    /// Every name a top-level `load` binds, anywhere in the module.
    loaded_all: FastSet<String>,
    /// The names top-level `load` statements bound so far (starlark-go's file block:
    /// local to the file, so not exported, and found before the globals).
    loaded: FastSet<String>,
    /// The top-level names bound so far (loaded ones included), in binding order.
    bound: Vec<String>,
    /// The globals bound so far.
    bound_set: FastSet<String>,
    scopes: Vec<Scope>,
    blocks: Blocks,
    errors: Vec<Error>,
    /// A `break` or `continue` that starlark-go's resolver lets through (its loop count
    /// is not reset in a function) but its compiler then fails on.
    compile_panic: bool,
    is_predeclared: &'a dyn Fn(&str) -> bool,
    is_universal: &'a dyn Fn(&str) -> bool,
}

/// Resolves every identifier of `file` and computes frame layouts. On failure the
/// first error holds the others in `more`.
pub fn resolve_file(
    file: &mut File,
    is_predeclared: &dyn Fn(&str) -> bool,
    is_universal: &dyn Fn(&str) -> bool,
) -> Result<()> {
    let mut names = Vec::new();
    collect_bindings(&file.stmts, &mut names);
    let mut loaded_all = FastSet::default();
    collect_loads(&file.stmts, &mut loaded_all);
    let mut r = Resolver {
        globals: names.into_iter().collect(),
        loaded_all,
        loaded: FastSet::default(),
        bound: Vec::new(),
        bound_set: FastSet::default(),
        scopes: vec![Scope::new(true)],
        blocks: Blocks::new(),
        errors: Vec::new(),
        compile_panic: false,
        is_predeclared,
        is_universal,
    };
    r.stmts(&mut file.stmts);
    let defined = |n: &str| r.globals.contains(n) || is_predeclared(n) || is_universal(n);
    r.blocks.finish(&defined, &r.bound, &mut r.errors);
    file.info = r.scopes.pop().expect("module scope").info();
    let mut errors = r.errors.into_iter();
    match errors.next() {
        None if r.compile_panic => Err(compile_panic()),
        None => Ok(()),
        Some(mut first) => {
            first.more = errors.collect();
            Err(first)
        }
    }
}

/// What ytt reports for a `break` or `continue` in a function that has no loop of its
/// own but is defined inside one: starlark-go's resolver counts loops across functions
/// and lets it pass, its compiler indexes the function's empty loop stack and panics,
/// and ytt turns the panic into an error without a position.
fn compile_panic() -> Error {
    let mut e = Error::new("runtime error: index out of range [-1]");
    e.kind = super::error::ErrorKind::Resolve;
    e
}

/// Names bound by the top-level `load` statements among `stmts` (in blocks too, not in
/// functions).
fn collect_loads(stmts: &[Stmt], out: &mut FastSet<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Load { names, .. } => out.extend(
                names
                    .iter()
                    .filter(|(_, from)| !from.is_empty())
                    .map(|(i, _)| i.name.clone()),
            ),
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => collect_loads(body, out),
            StmtKind::If { then, els, .. } => {
                collect_loads(then, out);
                collect_loads(els, out);
            }
            _ => {}
        }
    }
}

/// Names bound by the statements (not descending into nested functions).
fn collect_bindings(stmts: &[Stmt], out: &mut Vec<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { lhs, .. } => lhs_names(lhs, out),
            StmtKind::For { vars, body, .. } => {
                lhs_names(vars, out);
                collect_bindings(body, out);
            }
            StmtKind::If { then, els, .. } => {
                collect_bindings(then, out);
                collect_bindings(els, out);
            }
            StmtKind::While { body, .. } => collect_bindings(body, out),
            StmtKind::Def { name, .. } => out.push(name.name.clone()),
            StmtKind::Load { names, .. } => out.extend(
                names
                    .iter()
                    .filter(|(_, from)| !from.is_empty())
                    .map(|(i, _)| i.name.clone()),
            ),
            _ => {}
        }
    }
}

fn lhs_names(e: &Expr, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Ident(i) => out.push(i.name.clone()),
        ExprKind::Tuple(l) | ExprKind::List(l) => l.iter().for_each(|x| lhs_names(x, out)),
        _ => {}
    }
}

/// The name starlark-go gives an expression that cannot be assigned to (its Go type,
/// lower case).
fn target_kind(e: &Expr) -> &'static str {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::BigInt(_) | ExprKind::Float(_) | ExprKind::Str(_) => "literal",
        ExprKind::Dict(_) => "dictexpr",
        ExprKind::Unary(..) => "unaryexpr",
        ExprKind::Binary(..) => "binaryexpr",
        ExprKind::Cond { .. } => "condexpr",
        ExprKind::Slice { .. } => "sliceexpr",
        ExprKind::Call(..) => "callexpr",
        ExprKind::Lambda(_) => "lambdaexpr",
        ExprKind::Comp { .. } => "comprehension",
        ExprKind::Ident(_) => "ident",
        ExprKind::List(_) => "listexpr",
        ExprKind::Tuple(_) => "tupleexpr",
        ExprKind::Index(..) => "indexexpr",
        ExprKind::Dot(..) => "dotexpr",
    }
}

impl Resolver<'_> {
    fn cur(&mut self) -> &mut Scope {
        self.scopes.last_mut().expect("scope")
    }

    fn error(&mut self, pos: &Position, msg: impl Into<String>) {
        self.errors.push(Error::resolve(pos.clone(), msg));
    }

    fn stmts(&mut self, stmts: &mut [Stmt]) {
        stmts.iter_mut().for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &mut Stmt) {
        let pos = s.pos.clone();
        match &mut s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Assign { lhs, rhs, op } => {
                self.expr(rhs);
                self.assign(lhs, op.is_some());
            }
            StmtKind::If { cond, then, els } => {
                self.expr(cond);
                self.stmts(then);
                self.stmts(els);
            }
            StmtKind::For { vars, iter, body } => {
                self.expr(iter);
                self.assign(vars, false);
                self.cur().loops += 1;
                self.stmts(body);
                self.cur().loops -= 1;
            }
            StmtKind::While { cond, body } => {
                self.expr(cond);
                self.cur().loops += 1;
                self.stmts(body);
                self.cur().loops -= 1;
            }
            StmtKind::Def { name, func } => {
                self.bind(name);
                self.func(std::rc::Rc::make_mut(func));
            }
            StmtKind::Return(v) => {
                if self.cur().is_module {
                    self.error(&pos, "return statement not within a function");
                }
                if let Some(v) = v {
                    self.expr(v);
                }
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.cur().loops == 0 && self.scopes.iter().any(|s| s.loops > 0) {
                    self.compile_panic = true;
                } else if self.cur().loops == 0 {
                    let what = if matches!(s.kind, StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    self.error(&pos, format!("{what} not in a loop"));
                }
            }
            StmtKind::Load { names, .. } => {
                if !self.cur().is_module {
                    self.error(&pos, "load statement within a function");
                }
                for (to, from) in names.iter_mut() {
                    if from.is_empty() {
                        self.error(&to.pos, "load: empty identifier");
                        continue;
                    }
                    if from.starts_with('_') {
                        let msg = format!(
                            "load: names with leading underscores are not exported: {from}"
                        );
                        self.error(&to.pos, msg);
                    }
                    if self.blocks.env == MODULE {
                        if self.loaded.insert(to.name.clone()) {
                            self.bound.push(to.name.clone());
                        }
                        to.res = Resolution::FileLocal;
                    } else {
                        self.bind(to);
                    }
                }
            }
        }
    }

    /// The target of an assignment or loop (starlark-go's `assign`).
    fn assign(&mut self, lhs: &mut Expr, augmented: bool) {
        let pos = lhs.pos.clone();
        let is_tuple = matches!(lhs.kind, ExprKind::Tuple(_));
        let kind = target_kind(lhs);
        match &mut lhs.kind {
            ExprKind::Ident(id) => self.bind(id),
            ExprKind::Index(x, i) => {
                self.expr(x);
                self.expr(i);
            }
            ExprKind::Dot(x, _) => self.expr(x),
            ExprKind::Tuple(l) | ExprKind::List(l) => {
                let (empty, what) = if is_tuple {
                    ("()", "tuple")
                } else {
                    ("[]", "list")
                };
                if l.is_empty() {
                    self.errors.push(Error::resolve(
                        pos.clone(),
                        format!("can't assign to {empty}"),
                    ));
                }
                if augmented {
                    let msg = format!("can't use {what} expression in augmented assignment");
                    self.errors.push(Error::resolve(pos.clone(), msg));
                }
                l.iter_mut().for_each(|x| self.assign(x, augmented));
            }
            _ => {
                self.error(&pos, format!("can't assign to {kind}"));
            }
        }
    }

    /// A binding occurrence of `id`: at top level the name a `load` bound before, else
    /// a global; elsewhere a local.
    fn bind(&mut self, id: &mut Ident) {
        if self.blocks.env == MODULE {
            if self.loaded.contains(&id.name) {
                id.res = Resolution::FileLocal;
                return;
            }
            if self.bound_set.insert(id.name.clone()) {
                self.bound.push(id.name.clone());
            }
            id.res = Resolution::Global;
            return;
        }
        let k = self.scopes.len() - 1;
        id.res = self.lookup_in(k, &id.name).unwrap_or(Resolution::Global);
    }

    fn func(&mut self, f: &mut FuncDef) {
        for p in f.params.iter_mut() {
            if let Param::Optional(_, d) = p {
                self.expr(d);
            }
        }
        let mut scope = Scope::new(false);
        for p in &f.params {
            if let Some(id) = p.ident()
                && !scope.locals.contains_key(&id.name)
            {
                scope.locals.insert(id.name.clone(), scope.nslots);
                scope.nslots += 1;
            }
        }
        self.check_params(f);
        let mut names = Vec::new();
        collect_bindings(&f.body, &mut names);
        for n in names {
            if !scope.locals.contains_key(&n) {
                scope.locals.insert(n, scope.nslots);
                scope.nslots += 1;
            }
        }
        self.blocks.push(true, scope.locals.keys().cloned());
        self.scopes.push(scope);
        for p in f.params.iter_mut() {
            match p {
                Param::Required(i)
                | Param::Optional(i, _)
                | Param::StarStar(i)
                | Param::Star(Some(i)) => self.bind(i),
                Param::Star(None) => {}
            }
        }
        self.stmts(&mut f.body);
        let scope = self.scopes.pop().expect("function scope");
        self.blocks.pop();
        f.info = scope.info();
    }

    /// starlark-go's checks of a parameter list: order, `*` and `**` rules, duplicates
    /// (parameters are bound in order, then `*args`, then `**kwargs`).
    fn check_params(&mut self, f: &FuncDef) {
        let mut seen = HashSet::new();
        let mut dup = |r: &mut Self, id: &Ident| {
            if !seen.insert(id.name.clone()) {
                r.error(&id.pos, format!("duplicate parameter: {}", id.name));
            }
        };
        let mut optional = false;
        let mut star: Option<&Param> = None;
        let mut starstar: Option<&Ident> = None;
        let mut kwonly = 0;
        for p in &f.params {
            let at = p.ident().map_or(&f.pos, |i| &i.pos);
            match p {
                Param::Required(id) => {
                    if let Some(ss) = starstar {
                        let msg = format!("required parameter may not follow **{}", ss.name);
                        self.error(at, msg);
                    } else if star.is_some() {
                        kwonly += 1;
                    } else if optional {
                        self.error(at, "required parameter may not follow optional");
                    }
                    dup(self, id);
                }
                Param::Optional(id, _) => {
                    if let Some(ss) = starstar {
                        let msg = format!("optional parameter may not follow **{}", ss.name);
                        self.error(at, msg);
                    } else if star.is_some() {
                        kwonly += 1;
                    }
                    dup(self, id);
                    optional = true;
                }
                Param::Star(_) => {
                    if let Some(ss) = starstar {
                        let msg = format!("* parameter may not follow **{}", ss.name);
                        self.error(at, msg);
                    } else if star.is_some() {
                        self.error(at, "multiple * parameters not allowed");
                    } else {
                        star = Some(p);
                    }
                }
                Param::StarStar(id) => {
                    if starstar.is_some() {
                        self.error(at, "multiple ** parameters not allowed");
                    }
                    starstar = Some(id);
                }
            }
        }
        match star {
            Some(Param::Star(Some(id))) => dup(self, id),
            Some(_) if kwonly == 0 => {
                self.error(&f.pos, "bare * must be followed by keyword-only parameters")
            }
            _ => {}
        }
        if let Some(id) = starstar {
            dup(self, id);
        }
    }

    /// A use of `id`. At top level it means what is bound so far; elsewhere a name that
    /// no enclosing block binds is left to the end of the module.
    fn ident(&mut self, id: &mut Ident) {
        if self.blocks.env == MODULE {
            id.res = if self.loaded.contains(&id.name) {
                Resolution::FileLocal
            } else if self.bound_set.contains(&id.name) {
                Resolution::Global
            } else if (self.is_predeclared)(&id.name) {
                Resolution::Predeclared
            } else if (self.is_universal)(&id.name) {
                Resolution::Universal
            } else {
                let e = undefined(&id.name, &id.pos, self.bound.clone());
                self.errors.push(e);
                Resolution::Unresolved
            };
            return;
        }
        let k = self.scopes.len() - 1;
        let found = self.lookup_in(k, &id.name);
        if !matches!(found, Some(Resolution::Local(_))) {
            self.blocks.defer(&id.name, &id.pos);
        }
        id.res = match found {
            Some(r) => r,
            None if self.loaded_all.contains(&id.name) => Resolution::FileLocal,
            None if self.globals.contains(&id.name) => Resolution::Global,
            None if (self.is_predeclared)(&id.name) => Resolution::Predeclared,
            None if (self.is_universal)(&id.name) => Resolution::Universal,
            None => Resolution::Unresolved,
        };
    }

    /// Finds `name` as a local or free variable of scope `k`, creating free-variable
    /// entries (and marking cells) along the way.
    fn lookup_in(&mut self, k: usize, name: &str) -> Option<Resolution> {
        let s = &self.scopes[k];
        for b in s.blocks.iter().rev() {
            if let Some(i) = b.get(name) {
                return Some(Resolution::Local(*i));
            }
        }
        if !s.is_module
            && let Some(i) = s.locals.get(name)
        {
            return Some(Resolution::Local(*i));
        }
        if let Some(j) = s.free.iter().position(|(n, _)| n == name) {
            return Some(Resolution::Free(j as u32));
        }
        if k == 0 {
            return None;
        }
        let src = match self.lookup_in(k - 1, name)? {
            Resolution::Local(slot) => {
                self.scopes[k - 1].cells.insert(slot);
                FreeSource::Local(slot)
            }
            Resolution::Free(j) => FreeSource::Free(j),
            _ => return None,
        };
        let s = &mut self.scopes[k];
        s.free.push((name.to_string(), src));
        Some(Resolution::Free(s.free.len() as u32 - 1))
    }

    fn expr(&mut self, e: &mut Expr) {
        match &mut e.kind {
            ExprKind::Ident(i) => self.ident(i),
            ExprKind::Int(_) | ExprKind::BigInt(_) | ExprKind::Float(_) | ExprKind::Str(_) => {}
            ExprKind::List(l) | ExprKind::Tuple(l) => l.iter_mut().for_each(|x| self.expr(x)),
            ExprKind::Dict(entries) => entries.iter_mut().for_each(|(k, v)| {
                self.expr(k);
                self.expr(v)
            }),
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, x, y) => {
                self.expr(x);
                self.expr(y)
            }
            ExprKind::Cond { cond, then, els } => {
                self.expr(cond);
                self.expr(then);
                self.expr(els)
            }
            ExprKind::Index(x, i) => {
                self.expr(x);
                self.expr(i)
            }
            ExprKind::Slice { x, lo, hi, step } => {
                self.expr(x);
                for p in [lo, hi, step].into_iter().flatten() {
                    self.expr(p);
                }
            }
            ExprKind::Dot(x, _) => self.expr(x),
            ExprKind::Call(f, args) => {
                self.expr(f);
                self.call_args(args);
                let positional = args.iter().filter(|a| matches!(a, Arg::Pos(_))).count();
                let named = args.iter().filter(|a| matches!(a, Arg::Named(..))).count();
                // The limits of starlark-go's compiler, which encodes both counts in a byte.
                if positional >= 256 {
                    let msg = format!("{positional} positional arguments in call, limit is 255");
                    self.error(&e.pos, msg);
                }
                if named >= 256 {
                    let msg = format!("{named} keyword arguments in call, limit is 255");
                    self.error(&e.pos, msg);
                }
            }
            ExprKind::Lambda(f) => self.func(std::rc::Rc::make_mut(f)),
            ExprKind::Comp { body, clauses } => self.comprehension(body, clauses),
        }
    }

    /// starlark-go's checks of the order of a call's arguments.
    fn call_args(&mut self, args: &mut [Arg]) {
        let mut seen_kw = HashSet::new();
        let (mut varargs, mut kwargs) = (false, false);
        for a in args.iter_mut() {
            match a {
                Arg::StarStar(x) => {
                    if kwargs {
                        self.error(&x.pos, "multiple **kwargs not allowed");
                    }
                    kwargs = true;
                    self.expr(x)
                }
                Arg::Star(x) => {
                    if kwargs {
                        self.error(&x.pos, "*args may not follow **kwargs");
                    } else if varargs {
                        self.error(&x.pos, "multiple *args not allowed");
                    }
                    varargs = true;
                    self.expr(x)
                }
                Arg::Named(n, x) => {
                    if kwargs {
                        self.error(&x.pos, "argument may not follow **kwargs");
                    }
                    if !seen_kw.insert(n.clone()) {
                        self.error(&x.pos, format!("keyword argument {n} repeated"));
                    }
                    self.expr(x)
                }
                Arg::Pos(x) => {
                    if varargs {
                        self.error(&x.pos, "argument may not follow *args");
                    } else if kwargs {
                        self.error(&x.pos, "argument may not follow **kwargs");
                    } else if !seen_kw.is_empty() {
                        self.error(&x.pos, "positional argument may not follow named");
                    }
                    self.expr(x)
                }
            }
        }
    }

    /// A comprehension: the first iterable in the enclosing block, then a block of its
    /// own binding every loop variable.
    fn comprehension(&mut self, body: &mut CompBody, clauses: &mut [Clause]) {
        if let Some(Clause::For { iter, .. }) = clauses.first_mut() {
            self.expr(iter);
        }
        let mut block = FastMap::default();
        for c in clauses.iter() {
            if let Clause::For { vars, .. } = c {
                let mut names = Vec::new();
                lhs_names(vars, &mut names);
                let s = self.cur();
                for n in names {
                    if let std::collections::hash_map::Entry::Vacant(v) = block.entry(n) {
                        v.insert(s.nslots);
                        s.nslots += 1;
                    }
                }
            }
        }
        self.blocks.push(false, block.keys().cloned());
        self.cur().blocks.push(block);
        for (i, c) in clauses.iter_mut().enumerate() {
            match c {
                Clause::For { vars, iter } => {
                    self.assign(vars, false);
                    if i > 0 {
                        self.expr(iter);
                    }
                }
                Clause::If(c) => self.expr(c),
            }
        }
        match body {
            CompBody::List(x) => self.expr(x),
            CompBody::Dict(k, v) => {
                self.expr(k);
                self.expr(v)
            }
        }
        self.cur().blocks.pop();
        self.blocks.pop();
    }
}
