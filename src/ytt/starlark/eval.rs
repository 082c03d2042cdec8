//! The tree-walking evaluator: threads, modules, frames, statements and
//! expressions. Calls and argument binding live in `call.rs`, operators in `ops.rs`.

use std::any::Any;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use super::ast::*;
use super::error::{Error, Result};
use super::iteration::{iterate, iterate_or_err};
pub use super::limits::{
    DEFAULT_MAX_DEPTH, DEFAULT_MAX_STEPS, take_depth_limit_hit, with_max_depth, with_max_steps,
};
use super::limits::{MAX_DEPTH, MAX_STEPS};
use super::orderedmap::OrderedMap;
use super::value::*;

/// Receives the text of each `print(...)`.
pub type PrintFn = dyn Fn(&str);

/// Resolves `load("...")`: returns the module's exported values.
pub type LoaderFn = dyn Fn(&mut Thread, &str) -> Result<Module>;

/// A module after execution (or built by the host for `@ytt:...` modules).
#[derive(Clone)]
pub struct Module {
    pub env: Rc<ModuleEnv>,
}

/// Whether `load` may import a name (ytt hides globals starting with `_`).
pub fn is_exported(name: &str) -> bool {
    !name.starts_with('_')
}

impl Module {
    /// A module made of host values (e.g. `@ytt:struct`).
    pub fn from_values(name: &str, values: Vec<(String, Value)>) -> Module {
        let mut g = OrderedGlobals::default();
        for (k, v) in values {
            g.set(&k, v);
        }
        Module {
            env: Rc::new(ModuleEnv {
                name: name.into(),
                globals: RefCell::new(g),
                loaded: RefCell::default(),
                predeclared: Rc::new(Env::default()),
            }),
        }
    }
    pub fn get(&self, name: &str) -> Option<Value> {
        self.env.globals.borrow().map.get(name).cloned()
    }
    /// Global names in definition order.
    pub fn names(&self) -> Vec<String> {
        self.env.globals.borrow().order.clone()
    }
    /// Global names that other files may load (no leading `_`), in definition order.
    pub fn exported_names(&self) -> Vec<String> {
        self.names()
            .into_iter()
            .filter(|n| is_exported(n))
            .collect()
    }
}

/// Evaluation state: call depth, host hooks and host-owned thread locals.
pub struct Thread {
    pub(crate) depth: usize,
    /// Number of modules being executed (nested by `load`).
    pub(crate) modules: usize,
    /// Maximum call depth before "Starlark stack overflow": [`DEFAULT_MAX_DEPTH`] unless
    /// the host raised it for this OS thread ([`with_max_depth`]) or sets it here.
    pub max_depth: usize,
    /// Loop iterations (`for`, `while`, comprehensions) and calls made so far.
    pub(crate) steps: u64,
    /// Steps allowed before the evaluation is stopped ([`DEFAULT_MAX_STEPS`]).
    pub max_steps: u64,
    pub(crate) loader: Option<Rc<LoaderFn>>,
    pub(crate) print: Option<Rc<PrintFn>>,
    locals: HashMap<String, Rc<dyn Any>>,
    pub(crate) sources: Vec<Rc<Vec<LineOrigin>>>,
}

impl Default for Thread {
    fn default() -> Self {
        Thread::new()
    }
}

impl Thread {
    pub fn new() -> Self {
        Thread {
            depth: 0,
            modules: 0,
            max_depth: MAX_DEPTH.with(|m| m.get()),
            steps: 0,
            max_steps: MAX_STEPS.with(|m| m.get()),
            loader: None,
            print: None,
            locals: HashMap::new(),
            sources: Vec::new(),
        }
    }
    /// Sets the `load()` resolver.
    pub fn set_loader(&mut self, f: impl Fn(&mut Thread, &str) -> Result<Module> + 'static) {
        self.loader = Some(Rc::new(f));
    }
    /// Sets where `print()` writes (default: standard error).
    pub fn set_print(&mut self, f: impl Fn(&str) + 'static) {
        self.print = Some(Rc::new(f));
    }
    pub fn set_local(&mut self, key: &str, v: Rc<dyn Any>) {
        self.locals.insert(key.to_string(), v);
    }
    pub fn local(&self, key: &str) -> Option<Rc<dyn Any>> {
        self.locals.get(key).cloned()
    }
    /// Counts one loop iteration or call; fails once [`Thread::max_steps`] are used up.
    #[inline]
    pub(crate) fn step(&mut self) -> Result<()> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(Error::new(format!(
                "Starlark computation cancelled: too many steps (more than {} loop iterations and function calls; does a loop never end?)",
                self.max_steps
            )));
        }
        Ok(())
    }

    /// Current call depth (0 at module top level).
    pub fn depth(&self) -> usize {
        self.depth
    }

    pub(crate) fn source_line(&self, pos: &super::error::Position) -> Option<String> {
        self.sources.iter().rev().find_map(|o| {
            o.iter()
                .find(|l| l.file == pos.file && l.line == pos.line)
                .map(|l| l.text.to_string())
        })
    }

    /// Resolves and executes `file` with the host's `predeclared` names; on success
    /// returns the module, whose globals are then frozen.
    pub fn exec_file(&mut self, file: File, predeclared: Rc<Env>) -> Result<Module> {
        let file = resolve_names(file, &|n| predeclared.contains_key(n))?;
        self.exec_resolved(&file, predeclared)
    }

    /// Executes a file that [`resolve_names`] prepared; `predeclared` must hold the
    /// names it was resolved against. A resolved file can be executed many times.
    pub fn exec_resolved(&mut self, file: &File, predeclared: Rc<Env>) -> Result<Module> {
        self.sources.push(file.origins.clone());
        let env = Rc::new(ModuleEnv {
            name: file.name.clone(),
            globals: RefCell::new(OrderedGlobals::default()),
            loaded: RefCell::default(),
            predeclared,
        });
        let mut fr = Frame::new(&file.info, None, env.clone());
        self.modules += 1;
        let r = self.exec_stmts(&mut fr, &file.stmts);
        self.modules -= 1;
        for v in env.globals.borrow().map.values() {
            v.freeze();
        }
        match r {
            Ok(_) => Ok(Module { env }),
            Err(mut e) => {
                e.leave_frame("<toplevel>");
                if self.depth == 0 {
                    e.finish();
                }
                if e.source_line.is_none() {
                    e.source_line = e.pos.as_ref().and_then(|p| self.source_line(p));
                }
                Err(e)
            }
        }
    }

    /// Evaluates one expression (for example a `--data-value` style snippet) with the
    /// host's predeclared names.
    pub fn eval_expr(&mut self, name: &str, src: &str, predeclared: Rc<Env>) -> Result<Value> {
        let file = prepare_expr(name, src, &|n| predeclared.contains_key(n))?;
        self.eval_prepared_expr(&file, predeclared)
    }

    /// Evaluates an expression [`prepare_expr`] made, with the predeclared names it was
    /// prepared against; a prepared expression can be evaluated many times.
    pub fn eval_prepared_expr(&mut self, file: &File, predeclared: Rc<Env>) -> Result<Value> {
        let m = self.exec_resolved(file, predeclared)?;
        Ok(m.get(EXPR_RESULT).unwrap_or(Value::None))
    }

    /// Parses and executes `src` as a file named `name`.
    pub fn exec_source(&mut self, name: &str, src: &str, predeclared: Rc<Env>) -> Result<Module> {
        let file = super::parser::parse_file(name, src)?;
        self.exec_file(file, predeclared)
    }

    pub(crate) fn exec_stmts(&mut self, fr: &mut Frame, stmts: &[Stmt]) -> Result<Flow> {
        for s in stmts {
            match self.exec(fr, s)? {
                Flow::Normal => {}
                other => return Ok(other),
            }
        }
        Ok(Flow::Normal)
    }

    fn exec(&mut self, fr: &mut Frame, s: &Stmt) -> Result<Flow> {
        // Small dispatcher: keeps the recursive path's stack frames small in debug builds.
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(fr, e)?;
                Ok(Flow::Normal)
            }
            StmtKind::Return(Some(e)) => Ok(Flow::Return(self.eval(fr, e)?)),
            StmtKind::If { cond, then, els } => {
                let c = self.eval(fr, cond)?.truth();
                self.exec_stmts(fr, if c { then } else { els })
            }
            _ => self.exec_other(fr, s),
        }
    }

    #[inline(never)]
    fn exec_other(&mut self, fr: &mut Frame, s: &Stmt) -> Result<Flow> {
        match &s.kind {
            StmtKind::Expr(e) => {
                self.eval(fr, e)?;
            }
            StmtKind::Assign { lhs, op: None, rhs } => {
                let v = self.eval(fr, rhs)?;
                self.assign(fr, lhs, v).map_err(|e| e.at(&s.pos))?;
            }
            StmtKind::Assign {
                lhs,
                op: Some(op),
                rhs,
            } => self.aug_assign(fr, lhs, *op, rhs, &s.pos)?,
            StmtKind::If { cond, then, els } => {
                let c = self.eval(fr, cond)?;
                return self.exec_stmts(fr, if c.truth() { then } else { els });
            }
            StmtKind::For { vars, iter, body } => {
                let x = self.eval(fr, iter)?;
                let (items, _guard) = iterate_or_err(&x).map_err(|e| e.at(&s.pos))?;
                for item in items {
                    self.step().map_err(|e| e.at(&s.pos))?;
                    self.assign(fr, vars, item).map_err(|e| e.at(&s.pos))?;
                    match self.exec_stmts(fr, body)? {
                        Flow::Break => break,
                        Flow::Return(v) => return Ok(Flow::Return(v)),
                        _ => {}
                    }
                }
            }
            StmtKind::While { cond, body } => loop {
                self.step().map_err(|e| e.at(&s.pos))?;
                if !self.eval(fr, cond)?.truth() {
                    break;
                }
                match self.exec_stmts(fr, body)? {
                    Flow::Break => break,
                    Flow::Return(v) => return Ok(Flow::Return(v)),
                    _ => {}
                }
            },
            StmtKind::Def { name, func } => {
                let f = self.make_function(fr, func)?;
                self.set_ident(fr, name, f);
            }
            StmtKind::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(fr, e)?,
                    None => Value::None,
                };
                return Ok(Flow::Return(v));
            }
            StmtKind::Break => return Ok(Flow::Break),
            StmtKind::Continue => return Ok(Flow::Continue),
            StmtKind::Load { module, names } => self.exec_load(fr, module, names, &s.pos)?,
        }
        Ok(Flow::Normal)
    }

    fn exec_load(
        &mut self,
        fr: &mut Frame,
        module: &str,
        names: &[(Ident, String)],
        pos: &super::error::Position,
    ) -> Result<()> {
        let Some(loader) = self.loader.clone() else {
            return Err(Error::new("load not implemented by this application").at(pos));
        };
        let m = match loader(self, module) {
            Ok(m) => m,
            Err(e) if e.pos.is_none() && e.stack.is_empty() => {
                return Err(Error::new(format!("cannot load {module}: {}", e.msg)).at(pos));
            }
            Err(e) => return Err(e.at(pos)),
        };
        for (to, from) in names {
            match m.get(from) {
                Some(v) => self.set_ident(fr, to, v),
                None => {
                    return Err(Error::new(format!(
                        "load: name {from} not found in module {module}"
                    ))
                    .at(&to.pos));
                }
            }
        }
        Ok(())
    }

    pub(crate) fn make_function(&mut self, fr: &mut Frame, def: &Rc<FuncDef>) -> Result<Value> {
        let mut defaults = Vec::with_capacity(def.params.len());
        for p in &def.params {
            defaults.push(match p {
                Param::Optional(_, d) => Some(self.eval(fr, d)?),
                _ => None,
            });
        }
        let freevars = def
            .info
            .freevars
            .iter()
            .map(|(_, src)| match src {
                FreeSource::Local(slot) => match &fr.slots[*slot as usize] {
                    Slot::Cell(c) => c.clone(),
                    Slot::Val(v) => Rc::new(RefCell::new(v.clone())),
                },
                FreeSource::Free(i) => fr
                    .func
                    .as_ref()
                    .expect("free variable outside function")
                    .freevars[*i as usize]
                    .clone(),
            })
            .collect();
        Ok(Value::Function(Rc::new(Function {
            def: def.clone(),
            defaults,
            freevars,
            module: fr.module.clone(),
        })))
    }

    fn set_ident(&mut self, fr: &mut Frame, id: &Ident, v: Value) {
        match id.res {
            Resolution::Local(i) => fr.set_slot(i as usize, v),
            Resolution::FileLocal => {
                fr.module.loaded.borrow_mut().insert(id.name.clone(), v);
            }
            _ => fr.module.globals.borrow_mut().set(&id.name, v),
        }
    }

    fn lookup(&mut self, fr: &Frame, id: &Ident) -> Result<Value> {
        let v = match id.res {
            Resolution::Local(i) => fr.get_slot(i as usize),
            Resolution::Free(i) => fr
                .func
                .as_ref()
                .and_then(|f| f.freevars[i as usize].borrow().clone()),
            Resolution::Global => fr.module.globals.borrow().map.get(&id.name).cloned(),
            Resolution::FileLocal => fr.module.loaded.borrow().get(&id.name).cloned(),
            Resolution::Predeclared => fr.module.predeclared.get(&id.name).cloned(),
            Resolution::Universal => super::builtins::universe().get(&id.name).cloned(),
            Resolution::Unresolved => {
                return Err(Error::new(format!("undefined: {}", id.name)).at(&id.pos));
            }
        };
        v.ok_or_else(|| {
            let scope = match id.res {
                Resolution::Local(_) | Resolution::FileLocal => "local",
                Resolution::Free(_) => "free",
                _ => "global",
            };
            Error::new(format!(
                "{scope} variable {} referenced before assignment",
                id.name
            ))
            .at(&id.pos)
        })
    }

    pub(crate) fn assign(&mut self, fr: &mut Frame, lhs: &Expr, v: Value) -> Result<()> {
        match &lhs.kind {
            ExprKind::Ident(id) => {
                self.set_ident(fr, id, v);
                Ok(())
            }
            ExprKind::Tuple(targets) | ExprKind::List(targets) => {
                let items: Vec<Value> = match &v {
                    Value::List(l) => l.items.borrow().clone(),
                    Value::Tuple(t) => t.0.clone(),
                    other => match iterate(other) {
                        Some((items, _)) => items,
                        None => {
                            return Err(Error::new(format!(
                                "got {} in sequence assignment",
                                other.type_name()
                            )));
                        }
                    },
                };
                if items.len() > targets.len() {
                    return Err(Error::new(format!(
                        "too many values to unpack (got {}, want {})",
                        items.len(),
                        targets.len()
                    )));
                }
                if items.len() < targets.len() {
                    return Err(Error::new(format!(
                        "too few values to unpack (got {}, want {})",
                        items.len(),
                        targets.len()
                    )));
                }
                for (t, item) in targets.iter().zip(items) {
                    self.assign(fr, t, item)?;
                }
                Ok(())
            }
            ExprKind::Index(x, i) => {
                let xv = self.eval(fr, x)?;
                let iv = self.eval(fr, i)?;
                super::ops::set_index(&xv, &iv, v).map_err(|e| e.at(&lhs.pos))
            }
            ExprKind::Dot(x, name) => {
                let xv = self.eval(fr, x)?;
                super::ops::set_attr(&xv, name, v).map_err(|e| e.at(&lhs.pos))
            }
            _ => Err(Error::new("can't assign to this expression").at(&lhs.pos)),
        }
    }

    fn aug_assign(
        &mut self,
        fr: &mut Frame,
        lhs: &Expr,
        op: BinOp,
        rhs: &Expr,
        pos: &super::error::Position,
    ) -> Result<()> {
        match &lhs.kind {
            ExprKind::Ident(id) => {
                let old = self.lookup(fr, id)?;
                let y = self.eval(fr, rhs)?;
                let new = self.aug_value(old, op, y).map_err(|e| e.at(pos))?;
                self.set_ident(fr, id, new);
            }
            ExprKind::Index(x, i) => {
                let xv = self.eval(fr, x)?;
                let iv = self.eval(fr, i)?;
                let old = super::ops::get_index(&xv, &iv).map_err(|e| e.at(&lhs.pos))?;
                let y = self.eval(fr, rhs)?;
                let new = self.aug_value(old, op, y).map_err(|e| e.at(pos))?;
                super::ops::set_index(&xv, &iv, new).map_err(|e| e.at(&lhs.pos))?;
            }
            ExprKind::Dot(x, name) => {
                let xv = self.eval(fr, x)?;
                let old = super::ops::get_attr(&xv, name).map_err(|e| e.at(&lhs.pos))?;
                let y = self.eval(fr, rhs)?;
                let new = self.aug_value(old, op, y).map_err(|e| e.at(pos))?;
                super::ops::set_attr(&xv, name, new).map_err(|e| e.at(&lhs.pos))?;
            }
            _ => return Err(Error::new("invalid target of augmented assignment").at(pos)),
        }
        Ok(())
    }

    /// `x op= y`: lists extend in place, everything else is `x op y`.
    fn aug_value(&mut self, old: Value, op: BinOp, y: Value) -> Result<Value> {
        if let (Value::List(l), BinOp::Add) = (&old, op) {
            // starlark-go extends by any iterable and otherwise falls back to `x + y`.
            // The iteration guard drops at once: `xs += xs` is fine.
            if let Some(items) = iterate(&y).map(|(items, _)| items) {
                l.check_mutable("apply += to")?;
                l.items.borrow_mut().extend(items);
                return Ok(old);
            }
        }
        super::ops::binary(op, &old, &y)
    }

    /// Evaluates an expression.
    pub(crate) fn eval(&mut self, fr: &mut Frame, e: &Expr) -> Result<Value> {
        // Small dispatcher: keeps the recursive path's stack frames small in debug builds.
        match &e.kind {
            ExprKind::Ident(id) => self.lookup(fr, id),
            ExprKind::Int(i) => Ok(Value::Int(i128::from(*i))),
            ExprKind::BigInt(i) => Ok(Value::from_bigint((**i).clone())),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::Call(f, args) => self.eval_call(fr, f, args, &e.pos),
            ExprKind::Binary(op, x, y) if !matches!(op, BinOp::And | BinOp::Or) => {
                self.eval_binary(fr, *op, x, y, &e.pos)
            }
            ExprKind::Cond { cond, then, els } => {
                let c = self.eval(fr, cond)?.truth();
                self.eval(fr, if c { then } else { els })
            }
            _ => self.eval_other(fr, e),
        }
    }

    #[inline(never)]
    fn eval_binary(
        &mut self,
        fr: &mut Frame,
        op: BinOp,
        x: &Expr,
        y: &Expr,
        pos: &super::error::Position,
    ) -> Result<Value> {
        let xv = self.eval(fr, x)?;
        let yv = self.eval(fr, y)?;
        super::ops::binary(op, &xv, &yv).map_err(|err| err.at(pos))
    }

    #[inline(never)]
    fn eval_other(&mut self, fr: &mut Frame, e: &Expr) -> Result<Value> {
        match &e.kind {
            ExprKind::Ident(id) => self.lookup(fr, id),
            ExprKind::Int(i) => Ok(Value::Int(i128::from(*i))),
            ExprKind::BigInt(i) => Ok(Value::from_bigint((**i).clone())),
            ExprKind::Float(f) => Ok(Value::Float(*f)),
            ExprKind::Str(s) => Ok(Value::Str(s.clone())),
            ExprKind::List(l) => {
                let mut out = Vec::with_capacity(l.len());
                for x in l {
                    out.push(self.eval(fr, x)?);
                }
                Ok(Value::list(out))
            }
            ExprKind::Tuple(l) => {
                let mut out = Vec::with_capacity(l.len());
                for x in l {
                    out.push(self.eval(fr, x)?);
                }
                Ok(Value::tuple(out))
            }
            ExprKind::Dict(entries) => {
                let mut m = OrderedMap::new();
                for (k, v) in entries {
                    let kv = self.eval(fr, k)?;
                    let vv = self.eval(fr, v)?;
                    let before = m.len();
                    m.insert(kv.clone(), vv).map_err(|err| err.at(&e.pos))?;
                    if m.len() == before {
                        return Err(Error::new(format!(
                            "duplicate key: {}",
                            super::format::repr(&kv)
                        ))
                        .at(&e.pos));
                    }
                }
                Ok(Value::dict(m))
            }
            ExprKind::Unary(op, x) => {
                let v = self.eval(fr, x)?;
                super::ops::unary(*op, &v).map_err(|err| err.at(&e.pos))
            }
            ExprKind::Binary(BinOp::And, x, y) => {
                let xv = self.eval(fr, x)?;
                if !xv.truth() {
                    Ok(xv)
                } else {
                    self.eval(fr, y)
                }
            }
            ExprKind::Binary(BinOp::Or, x, y) => {
                let xv = self.eval(fr, x)?;
                if xv.truth() { Ok(xv) } else { self.eval(fr, y) }
            }
            ExprKind::Binary(op, x, y) => {
                let xv = self.eval(fr, x)?;
                let yv = self.eval(fr, y)?;
                super::ops::binary(*op, &xv, &yv).map_err(|err| err.at(&e.pos))
            }
            ExprKind::Cond { cond, then, els } => {
                if self.eval(fr, cond)?.truth() {
                    self.eval(fr, then)
                } else {
                    self.eval(fr, els)
                }
            }
            ExprKind::Index(x, i) => {
                let xv = self.eval(fr, x)?;
                let iv = self.eval(fr, i)?;
                super::ops::get_index(&xv, &iv).map_err(|err| err.at(&e.pos))
            }
            ExprKind::Slice { x, lo, hi, step } => {
                let xv = self.eval(fr, x)?;
                let mut parts = [Value::None, Value::None, Value::None];
                for (i, p) in [lo, hi, step].into_iter().enumerate() {
                    if let Some(p) = p {
                        parts[i] = self.eval(fr, p)?;
                    }
                }
                super::ops::slice(&xv, &parts[0], &parts[1], &parts[2])
                    .map_err(|err| err.at(&e.pos))
            }
            ExprKind::Dot(x, name) => {
                let xv = self.eval(fr, x)?;
                super::ops::get_attr(&xv, name).map_err(|err| err.at(&e.pos))
            }
            ExprKind::Call(f, args) => self.eval_call(fr, f, args, &e.pos),
            ExprKind::Lambda(def) => self.make_function(fr, def),
            ExprKind::Comp { body, clauses } => {
                let result = match body {
                    CompBody::List(_) => Value::list(Vec::new()),
                    CompBody::Dict(..) => Value::dict(OrderedMap::new()),
                };
                self.comprehension(fr, body, clauses, 0, &result, &e.pos)?;
                Ok(result)
            }
        }
    }

    fn comprehension(
        &mut self,
        fr: &mut Frame,
        body: &CompBody,
        clauses: &[Clause],
        i: usize,
        result: &Value,
        pos: &super::error::Position,
    ) -> Result<()> {
        let Some(clause) = clauses.get(i) else {
            match (body, result) {
                (CompBody::List(x), Value::List(l)) => {
                    let v = self.eval(fr, x)?;
                    l.items.borrow_mut().push(v);
                }
                (CompBody::Dict(k, v), Value::Dict(d)) => {
                    let kv = self.eval(fr, k)?;
                    let vv = self.eval(fr, v)?;
                    d.map.borrow_mut().insert(kv, vv).map_err(|e| e.at(pos))?;
                }
                _ => unreachable!("comprehension result matches its body"),
            }
            return Ok(());
        };
        match clause {
            Clause::For { vars, iter } => {
                let x = self.eval(fr, iter)?;
                let (items, _guard) = iterate_or_err(&x).map_err(|e| e.at(&iter.pos))?;
                for item in items {
                    self.step().map_err(|e| e.at(&iter.pos))?;
                    self.assign(fr, vars, item).map_err(|e| e.at(&vars.pos))?;
                    self.comprehension(fr, body, clauses, i + 1, result, pos)?;
                }
            }
            Clause::If(c) => {
                if self.eval(fr, c)?.truth() {
                    self.comprehension(fr, body, clauses, i + 1, result, pos)?;
                }
            }
        }
        Ok(())
    }
}

/// Control flow out of a statement list.
pub(crate) enum Flow {
    Normal,
    Break,
    Continue,
    Return(Value),
}

pub(crate) enum Slot {
    Val(Option<Value>),
    Cell(Rc<RefCell<Option<Value>>>),
}

/// One activation: local slots, the running function and its module.
pub(crate) struct Frame {
    pub slots: Vec<Slot>,
    pub func: Option<Rc<Function>>,
    pub module: Rc<ModuleEnv>,
}

impl Frame {
    pub fn new(info: &FuncInfo, func: Option<Rc<Function>>, module: Rc<ModuleEnv>) -> Frame {
        let mut slots: Vec<Slot> = (0..info.num_slots).map(|_| Slot::Val(None)).collect();
        for c in &info.cells {
            slots[*c as usize] = Slot::Cell(Rc::new(RefCell::new(None)));
        }
        Frame {
            slots,
            func,
            module,
        }
    }
    pub fn set_slot(&mut self, i: usize, v: Value) {
        match &mut self.slots[i] {
            Slot::Val(s) => *s = Some(v),
            Slot::Cell(c) => *c.borrow_mut() = Some(v),
        }
    }
    pub fn get_slot(&self, i: usize) -> Option<Value> {
        match &self.slots[i] {
            Slot::Val(s) => s.clone(),
            Slot::Cell(c) => c.borrow().clone(),
        }
    }
}

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Module({}: {:?})", self.env.name, self.names())
    }
}

/// Resolves the names of a parsed file against the predeclared names (`is_predeclared`)
/// and the universe, ready for [`Thread::exec_resolved`]. Errors carry the source line.
pub fn resolve_names(mut file: File, is_predeclared: &dyn Fn(&str) -> bool) -> Result<File> {
    let universe = super::builtins::universe();
    super::resolve::resolve_file(&mut file, is_predeclared, &|n| universe.contains_key(n))
        .map_err(|e| with_source_line(&file.origins, e))?;
    Ok(file)
}

/// A global name no source text can spell: it holds a prepared expression's result.
const EXPR_RESULT: &str = "\u{0}result";

/// Parses `src` (named `name`) as a single expression and resolves it against the
/// predeclared names `is_predeclared` accepts, ready for [`Thread::eval_prepared_expr`].
pub fn prepare_expr(name: &str, src: &str, is_predeclared: &dyn Fn(&str) -> bool) -> Result<File> {
    let mut file = super::parser::parse_file(name, src)?;
    let expr = match file.stmts.as_slice() {
        [
            Stmt {
                kind: StmtKind::Expr(e),
                ..
            },
        ] => e.clone(),
        _ => {
            let pos = super::error::Position::new(name, 1, 1);
            return Err(Error::syntax(pos, "expected a single expression"));
        }
    };
    let pos = expr.pos.clone();
    file.stmts = vec![Stmt::new(
        StmtKind::Assign {
            lhs: Box::new(Expr::ident(EXPR_RESULT, pos.clone())),
            op: None,
            rhs: Box::new(expr),
        },
        pos,
    )];
    resolve_names(file, is_predeclared)
}
