//! Walking the syntax tree, for hosts that inspect or rewrite a parsed program before
//! running it (ytt's template compiler finds functions whose bodies build YAML nodes and
//! wraps their `return`s).

use std::rc::Rc;

use super::ast::*;

/// Calls `f` on every expression of `stmts`, pre-order, including sub-expressions,
/// parameter defaults and lambda bodies. Bodies of nested `def`s are visited only when
/// `into_defs` is true.
pub fn for_each_expr(stmts: &[Stmt], into_defs: bool, f: &mut dyn FnMut(&Expr)) {
    for s in stmts {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => walk_expr(e, f),
            StmtKind::Assign { lhs, rhs, .. } => {
                walk_expr(lhs, f);
                walk_expr(rhs, f);
            }
            StmtKind::If { cond, then, els } => {
                walk_expr(cond, f);
                for_each_expr(then, into_defs, f);
                for_each_expr(els, into_defs, f);
            }
            StmtKind::For { vars, iter, body } => {
                walk_expr(iter, f);
                walk_expr(vars, f);
                for_each_expr(body, into_defs, f);
            }
            StmtKind::While { cond, body } => {
                walk_expr(cond, f);
                for_each_expr(body, into_defs, f);
            }
            StmtKind::Def { func, .. } => {
                for p in &func.params {
                    if let Param::Optional(_, d) = p {
                        walk_expr(d, f);
                    }
                }
                if into_defs {
                    for_each_expr(&func.body, into_defs, f);
                }
            }
            StmtKind::Return(None)
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Load { .. } => {}
        }
    }
}

/// Calls `f` on `e` and all its sub-expressions (lambda bodies included).
pub fn walk_expr(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Ident(_)
        | ExprKind::Int(_)
        | ExprKind::BigInt(_)
        | ExprKind::Float(_)
        | ExprKind::Str(_) => {}
        ExprKind::List(l) | ExprKind::Tuple(l) => l.iter().for_each(|x| walk_expr(x, f)),
        ExprKind::Dict(entries) => {
            for (k, v) in entries {
                walk_expr(k, f);
                walk_expr(v, f);
            }
        }
        ExprKind::Unary(_, x) | ExprKind::Dot(x, _) => walk_expr(x, f),
        ExprKind::Binary(_, x, y) | ExprKind::Index(x, y) => {
            walk_expr(x, f);
            walk_expr(y, f);
        }
        ExprKind::Cond { cond, then, els } => {
            walk_expr(cond, f);
            walk_expr(then, f);
            walk_expr(els, f);
        }
        ExprKind::Slice { x, lo, hi, step } => {
            walk_expr(x, f);
            for p in [lo, hi, step].into_iter().flatten() {
                walk_expr(p, f);
            }
        }
        ExprKind::Call(func, args) => {
            walk_expr(func, f);
            for a in args {
                match a {
                    Arg::Pos(x) | Arg::Named(_, x) | Arg::Star(x) | Arg::StarStar(x) => {
                        walk_expr(x, f)
                    }
                }
            }
        }
        ExprKind::Lambda(def) => {
            for p in &def.params {
                if let Param::Optional(_, d) = p {
                    walk_expr(d, f);
                }
            }
            for_each_expr(&def.body, true, f);
        }
        ExprKind::Comp { body, clauses } => {
            for c in clauses {
                match c {
                    Clause::For { vars, iter } => {
                        walk_expr(iter, f);
                        walk_expr(vars, f);
                    }
                    Clause::If(x) => walk_expr(x, f),
                }
            }
            match body {
                CompBody::List(x) => walk_expr(x, f),
                CompBody::Dict(k, v) => {
                    walk_expr(k, f);
                    walk_expr(v, f);
                }
            }
        }
    }
}

/// Calls `f` on every statement of `stmts`, pre-order, descending into `if`/`for`/`while`
/// bodies, and into nested `def` bodies when `into_defs` is true (`f` sees the `def`
/// statement first). Function bodies are shared (`Rc`); they are copied on write.
pub fn for_each_stmt_mut(stmts: &mut [Stmt], into_defs: bool, f: &mut dyn FnMut(&mut Stmt)) {
    for s in stmts.iter_mut() {
        f(s);
        match &mut s.kind {
            StmtKind::If { then, els, .. } => {
                for_each_stmt_mut(then, into_defs, f);
                for_each_stmt_mut(els, into_defs, f);
            }
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => {
                for_each_stmt_mut(body, into_defs, f)
            }
            StmtKind::Def { func, .. } if into_defs => {
                for_each_stmt_mut(&mut Rc::make_mut(func).body, into_defs, f)
            }
            _ => {}
        }
    }
}

/// The function bodies of the `def` statements directly in `stmts` (not nested in other
/// `def`s), for rewriting one function at a time.
pub fn defs_mut(stmts: &mut [Stmt]) -> Vec<&mut FuncDef> {
    let mut out = Vec::new();
    collect_defs(stmts, &mut out);
    out
}

fn collect_defs<'a>(stmts: &'a mut [Stmt], out: &mut Vec<&'a mut FuncDef>) {
    for s in stmts.iter_mut() {
        match &mut s.kind {
            StmtKind::Def { func, .. } => out.push(Rc::make_mut(func)),
            StmtKind::If { then, els, .. } => {
                collect_defs(then, out);
                collect_defs(els, out);
            }
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => collect_defs(body, out),
            _ => {}
        }
    }
}
