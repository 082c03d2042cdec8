//! Preparing a parsed YAML template for evaluation: compiling it to Starlark and parsing
//! and resolving the program, against the fixed set of names the template builder binds.

use std::rc::Rc;

use super::{EvalOpts, Prepared, origins};
use crate::yaml::DocumentSet;
use crate::ytt::compile::yaml::{CompileOpts, compile};
use crate::ytt::error::{Error, Position, starlark_error};
use crate::ytt::starlark::ast::{Arg, Expr, ExprKind, Stmt, StmtKind};
use crate::ytt::starlark::{parse_with_origins, resolve_names};
use crate::ytt::yaml_docs::parse_yaml_with;

/// The names a compiled YAML template may call besides the built-ins: the host calls
/// bound by [`super::builder_env`] (a test checks that the two agree).
pub(super) const BUILDER_NAMES: [&str; 11] = [
    crate::ytt::compile::yaml::START,
    crate::ytt::compile::program::STARTS,
    crate::ytt::compile::yaml::SET,
    crate::ytt::compile::yaml::AT,
    crate::ytt::compile::yaml::ANNOT,
    crate::ytt::compile::program::BEGIN_CTX,
    crate::ytt::compile::program::END_CTX,
    crate::ytt::compile::program::END_CTX_WITH,
    crate::ytt::compile::text::TEXT_PUT,
    crate::ytt::compile::text::TEXT_EXPR,
    crate::ytt::compile::program::REPLACE_HERE,
];

/// Compiles the parsed template `ds` (source `src`, display name `name`) and parses and
/// resolves its program; a plain file (or one without templating) stays as parsed.
pub(super) fn prepare_parsed(
    ds: Rc<DocumentSet>,
    plain: bool,
    opts: EvalOpts,
    src: &str,
    name: &str,
) -> Result<Prepared, Error> {
    if opts.strict {
        // The strict subset is checked on a second, strict parse: only `--strict` runs
        // pay for it.
        parse_yaml_with(src, name, true)?;
    }
    if plain || !ds.has_templating() {
        return Ok(Prepared::Plain(ds));
    }
    let compiled = compile(
        &ds,
        CompileOpts {
            ignore_unknown_comments: opts.ignore_unknown_comments,
            names_value_nodes: src.contains("@ytt:template"),
        },
    )
    .map_err(|e| {
        let pos = Position::in_source(name, e.line, src);
        if e.syntax {
            Error::syntax_at(e.message, pos)
        } else {
            Error::at(e.message, pos)
        }
    })?;
    let file = parse_with_origins(
        name,
        &compiled.prog.source(),
        origins(&compiled.prog, name, src),
    )
    .and_then(|mut file| {
        wrap_bare_replace_calls(&mut file.stmts);
        resolve_names(file, &|n| BUILDER_NAMES.contains(&n))
    })
    .map_err(|e| starlark_error(&e))?;
    Ok(Prepared::Program {
        nodes: compiled.nodes,
        file,
    })
}

/// Wraps every statement that is only a call of a `replace` attribute (`template.replace(x)`
/// on a code line of its own, in any block or def body) in a call of
/// [`REPLACE_HERE`](crate::ytt::compile::program::REPLACE_HERE). In ytt, `template.replace`
/// acts on the node evaluated last when it is called; the value of a node's expression is
/// handled where the node is set, so only these otherwise discarded values need the host.
/// String `replace` calls are pure, so a statement made of one has nothing to lose.
fn wrap_bare_replace_calls(stmts: &mut [Stmt]) {
    for s in stmts {
        match &mut s.kind {
            StmtKind::Expr(e) => {
                let is_replace = matches!(&e.kind, ExprKind::Call(f, _)
                    if matches!(&f.kind, ExprKind::Dot(_, name) if name == "replace"));
                if is_replace {
                    let pos = e.pos.clone();
                    let call = std::mem::replace(e, Expr::ident("None", pos.clone()));
                    let host = Expr::ident(crate::ytt::compile::program::REPLACE_HERE, pos.clone());
                    *e = Expr::new(ExprKind::Call(Box::new(host), vec![Arg::Pos(call)]), pos);
                }
            }
            StmtKind::If { then, els, .. } => {
                wrap_bare_replace_calls(then);
                wrap_bare_replace_calls(els);
            }
            StmtKind::For { body, .. } | StmtKind::While { body, .. } => {
                wrap_bare_replace_calls(body)
            }
            StmtKind::Def { func, .. } => {
                wrap_bare_replace_calls(&mut std::rc::Rc::make_mut(func).body)
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builder_names_are_the_names_the_builder_env_binds() {
        let b = Rc::new(std::cell::RefCell::new(super::super::Builder::new(
            Rc::new(Vec::new()),
            false,
        )));
        let env = super::super::builder_env(&b, "f.yml");
        let mut bound: Vec<&str> = env.keys().map(|k| k.as_ref()).collect();
        bound.sort_unstable();
        let mut listed = BUILDER_NAMES.to_vec();
        listed.sort_unstable();
        assert_eq!(bound, listed);
    }
}
