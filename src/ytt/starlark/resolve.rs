//! Name resolution, as starlark-go's resolver: a name bound anywhere in a function body
//! is local to the whole function; names of enclosing functions are captured as free
//! variables (cells); names bound at top level are module globals; then the host's
//! predeclared names and the built-ins. Unknown names fail before execution with
//! `undefined: x`. ytt's dialect options are on: global reassignment, top-level
//! `if`/`for`/`while`, nested `def`, lambda, recursion, floats and sets.

use std::collections::{BTreeSet, HashSet};

use super::fast_hash::{FastMap, FastSet};

use super::ast::*;
use super::error::{Error, Result};

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
    globals: FastSet<String>,
    scopes: Vec<Scope>,
    is_predeclared: &'a dyn Fn(&str) -> bool,
    is_universal: &'a dyn Fn(&str) -> bool,
}

/// Resolves every identifier of `file` and computes frame layouts.
pub fn resolve_file(
    file: &mut File,
    is_predeclared: &dyn Fn(&str) -> bool,
    is_universal: &dyn Fn(&str) -> bool,
) -> Result<()> {
    let mut names = Vec::new();
    collect_bindings(&file.stmts, &mut names);
    let mut r = Resolver {
        globals: names.into_iter().collect(),
        scopes: vec![Scope::new(true)],
        is_predeclared,
        is_universal,
    };
    r.stmts(&mut file.stmts)?;
    file.info = r.scopes.pop().expect("module scope").info();
    Ok(())
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
            StmtKind::Load { names, .. } => out.extend(names.iter().map(|(i, _)| i.name.clone())),
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

impl Resolver<'_> {
    fn cur(&mut self) -> &mut Scope {
        self.scopes.last_mut().expect("scope")
    }

    fn stmts(&mut self, stmts: &mut [Stmt]) -> Result<()> {
        stmts.iter_mut().try_for_each(|s| self.stmt(s))
    }

    fn stmt(&mut self, s: &mut Stmt) -> Result<()> {
        let pos = s.pos.clone();
        match &mut s.kind {
            StmtKind::Expr(e) => self.expr(e),
            StmtKind::Assign { lhs, rhs, .. } => {
                self.expr(rhs)?;
                self.expr(lhs)
            }
            StmtKind::If { cond, then, els } => {
                self.expr(cond)?;
                self.stmts(then)?;
                self.stmts(els)
            }
            StmtKind::For { vars, iter, body } => {
                self.expr(iter)?;
                self.expr(vars)?;
                self.cur().loops += 1;
                self.stmts(body)?;
                self.cur().loops -= 1;
                Ok(())
            }
            StmtKind::While { cond, body } => {
                self.expr(cond)?;
                self.cur().loops += 1;
                self.stmts(body)?;
                self.cur().loops -= 1;
                Ok(())
            }
            StmtKind::Def { name, func } => {
                self.func(std::rc::Rc::make_mut(func))?;
                self.ident(name)
            }
            StmtKind::Return(v) => {
                if self.cur().is_module {
                    return Err(Error::resolve(
                        pos,
                        "return statement not within a function",
                    ));
                }
                v.as_mut().map_or(Ok(()), |v| self.expr(v))
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.cur().loops == 0 {
                    let what = if matches!(s.kind, StmtKind::Break) {
                        "break"
                    } else {
                        "continue"
                    };
                    return Err(Error::resolve(pos, format!("{what} not in a loop")));
                }
                Ok(())
            }
            StmtKind::Load { names, .. } => {
                if !self.cur().is_module {
                    return Err(Error::resolve(pos, "load statement within a function"));
                }
                names.iter_mut().try_for_each(|(i, _)| self.ident(i))
            }
        }
    }

    fn func(&mut self, f: &mut FuncDef) -> Result<()> {
        for p in f.params.iter_mut() {
            if let Param::Optional(_, d) = p {
                self.expr(d)?;
            }
        }
        let mut scope = Scope::new(false);
        let mut seen = HashSet::new();
        let (mut star_seen, mut starstar_seen, mut optional_seen) = (false, false, false);
        for p in &f.params {
            let at = p.ident().map_or(f.pos.clone(), |i| i.pos.clone());
            if starstar_seen {
                return Err(Error::resolve(at, "parameter may not follow **kwargs"));
            }
            match p {
                Param::Star(_) if star_seen => {
                    return Err(Error::resolve(at, "multiple * parameters not allowed"));
                }
                Param::Star(_) => star_seen = true,
                Param::StarStar(_) => starstar_seen = true,
                Param::Optional(..) => optional_seen = true,
                Param::Required(_) if optional_seen && !star_seen => {
                    return Err(Error::resolve(
                        at,
                        "required parameter may not follow optional",
                    ));
                }
                Param::Required(_) => {}
            }
            if let Some(id) = p.ident() {
                if !seen.insert(id.name.clone()) {
                    return Err(Error::resolve(
                        id.pos.clone(),
                        format!("duplicate parameter: {}", id.name),
                    ));
                }
                scope.locals.insert(id.name.clone(), scope.nslots);
                scope.nslots += 1;
            }
        }
        let mut names = Vec::new();
        collect_bindings(&f.body, &mut names);
        for n in names {
            if !scope.locals.contains_key(&n) {
                scope.locals.insert(n, scope.nslots);
                scope.nslots += 1;
            }
        }
        self.scopes.push(scope);
        for p in f.params.iter_mut() {
            match p {
                Param::Required(i)
                | Param::Optional(i, _)
                | Param::StarStar(i)
                | Param::Star(Some(i)) => self.ident(i)?,
                Param::Star(None) => {}
            }
        }
        let r = self.stmts(&mut f.body);
        let scope = self.scopes.pop().expect("function scope");
        r?;
        f.info = scope.info();
        Ok(())
    }

    fn ident(&mut self, id: &mut Ident) -> Result<()> {
        let k = self.scopes.len() - 1;
        id.res = match self.lookup_in(k, &id.name) {
            Some(r) => r,
            None if self.globals.contains(&id.name) => Resolution::Global,
            None if (self.is_predeclared)(&id.name) => Resolution::Predeclared,
            None if (self.is_universal)(&id.name) => Resolution::Universal,
            None => {
                let hint = self
                    .spellcheck(&id.name)
                    .map(|n| format!(" (did you mean {n}?)"))
                    .unwrap_or_default();
                return Err(Error::resolve(
                    id.pos.clone(),
                    format!("undefined: {}{hint}", id.name),
                ));
            }
        };
        Ok(())
    }

    /// starlark-go's `spellcheck` for an undefined name: the nearest of the names bound
    /// in the enclosing functions and blocks and of the module's globals (predeclared
    /// names and built-ins are not candidates).
    fn spellcheck(&self, name: &str) -> Option<String> {
        let mut names: Vec<String> = self.globals.iter().cloned().collect();
        for s in &self.scopes {
            names.extend(s.locals.keys().cloned());
            names.extend(s.blocks.iter().flat_map(|b| b.keys().cloned()));
        }
        names.sort();
        names.dedup();
        super::spell::nearest(name, &names).map(str::to_string)
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

    fn expr(&mut self, e: &mut Expr) -> Result<()> {
        match &mut e.kind {
            ExprKind::Ident(i) => self.ident(i),
            ExprKind::Int(_) | ExprKind::BigInt(_) | ExprKind::Float(_) | ExprKind::Str(_) => {
                Ok(())
            }
            ExprKind::List(l) | ExprKind::Tuple(l) => l.iter_mut().try_for_each(|x| self.expr(x)),
            ExprKind::Dict(entries) => entries.iter_mut().try_for_each(|(k, v)| {
                self.expr(k)?;
                self.expr(v)
            }),
            ExprKind::Unary(_, x) => self.expr(x),
            ExprKind::Binary(_, x, y) => {
                self.expr(x)?;
                self.expr(y)
            }
            ExprKind::Cond { cond, then, els } => {
                self.expr(cond)?;
                self.expr(then)?;
                self.expr(els)
            }
            ExprKind::Index(x, i) => {
                self.expr(x)?;
                self.expr(i)
            }
            ExprKind::Slice { x, lo, hi, step } => {
                self.expr(x)?;
                for p in [lo, hi, step].into_iter().flatten() {
                    self.expr(p)?;
                }
                Ok(())
            }
            ExprKind::Dot(x, _) => self.expr(x),
            ExprKind::Call(f, args) => {
                self.expr(f)?;
                let mut seen_kw = HashSet::new();
                let (mut varargs, mut kwargs) = (false, false);
                for a in args.iter_mut() {
                    let fail =
                        |x: &Expr, msg: &str| Err(Error::resolve(x.pos.clone(), msg.to_string()));
                    match a {
                        Arg::StarStar(x) => {
                            if kwargs {
                                return fail(x, "multiple **kwargs not allowed");
                            }
                            kwargs = true;
                            self.expr(x)?
                        }
                        Arg::Star(x) => {
                            if kwargs {
                                return fail(x, "*args may not follow **kwargs");
                            }
                            if varargs {
                                return fail(x, "multiple *args not allowed");
                            }
                            varargs = true;
                            self.expr(x)?
                        }
                        Arg::Named(n, x) => {
                            if kwargs {
                                return fail(x, "argument may not follow **kwargs");
                            }
                            if !seen_kw.insert(n.clone()) {
                                return Err(Error::resolve(
                                    x.pos.clone(),
                                    format!("keyword argument {n} repeated"),
                                ));
                            }
                            self.expr(x)?
                        }
                        Arg::Pos(x) => {
                            if varargs {
                                return fail(x, "argument may not follow *args");
                            }
                            if kwargs {
                                return fail(x, "argument may not follow **kwargs");
                            }
                            if !seen_kw.is_empty() {
                                return fail(x, "positional argument may not follow named");
                            }
                            self.expr(x)?
                        }
                    }
                }
                Ok(())
            }
            ExprKind::Lambda(f) => self.func(std::rc::Rc::make_mut(f)),
            ExprKind::Comp { body, clauses } => self.comprehension(body, clauses),
        }
    }

    fn comprehension(&mut self, body: &mut CompBody, clauses: &mut [Clause]) -> Result<()> {
        if let Some(Clause::For { iter, .. }) = clauses.first_mut() {
            self.expr(iter)?;
        }
        self.cur().blocks.push(FastMap::default());
        let r = (|| {
            for (i, c) in clauses.iter_mut().enumerate() {
                match c {
                    Clause::For { vars, iter } => {
                        if i > 0 {
                            self.expr(iter)?;
                        }
                        let mut names = Vec::new();
                        lhs_names(vars, &mut names);
                        let s = self.cur();
                        for n in names {
                            if !s.blocks.last().is_some_and(|b| b.contains_key(&n)) {
                                let slot = s.nslots;
                                s.nslots += 1;
                                s.blocks.last_mut().expect("block").insert(n, slot);
                            }
                        }
                        self.expr(vars)?;
                    }
                    Clause::If(c) => self.expr(c)?,
                }
            }
            match body {
                CompBody::List(x) => self.expr(x),
                CompBody::Dict(k, v) => {
                    self.expr(k)?;
                    self.expr(v)
                }
            }
        })();
        self.cur().blocks.pop();
        r
    }
}
