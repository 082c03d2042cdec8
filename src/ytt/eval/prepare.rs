//! Preparing a parsed YAML template for evaluation: compiling it to Starlark and parsing
//! and resolving the program, against the fixed set of names the template builder binds.

use std::rc::Rc;

use super::{EvalOpts, Prepared, origins};
use crate::yaml::DocumentSet;
use crate::ytt::compile::yaml::{CompileOpts, compile};
use crate::ytt::error::{Error, Position, starlark_error};
use crate::ytt::starlark::{parse_with_origins, resolve_names};
use crate::ytt::yaml_docs::parse_yaml_with;

/// The names a compiled YAML template may call besides the built-ins: the host calls
/// bound by [`super::builder_env`] (a test checks that the two agree).
pub(super) const BUILDER_NAMES: [&str; 9] = [
    crate::ytt::compile::yaml::START,
    crate::ytt::compile::program::STARTS,
    crate::ytt::compile::yaml::SET,
    crate::ytt::compile::yaml::ANNOT,
    crate::ytt::compile::program::BEGIN_CTX,
    crate::ytt::compile::program::END_CTX,
    crate::ytt::compile::program::END_CTX_WITH,
    crate::ytt::compile::text::TEXT_PUT,
    crate::ytt::compile::text::TEXT_EXPR,
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
        },
    )
    .map_err(|e| Error::at(e.message, Position::in_source(name, e.line, src)))?;
    let file = parse_with_origins(
        name,
        &compiled.prog.source(),
        origins(&compiled.prog, name, src),
    )
    .and_then(|file| resolve_names(file, &|n| BUILDER_NAMES.contains(&n)))
    .map_err(|e| starlark_error(&e))?;
    Ok(Prepared::Program {
        nodes: compiled.nodes,
        file,
    })
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
