//! Calls: evaluating call expressions (`f(a, k=v, *args, **kwargs)`), dispatching to
//! Starlark functions, natives, bound methods and callable host values, and binding
//! arguments to parameters with starlark-go's error messages.

use std::any::Any;
use std::rc::Rc;

use super::ast::{Arg, Expr, Param};
use super::error::{Error, Position, Result};
use super::eval::{Flow, Frame, Thread};
use super::iteration::iterate;
use super::orderedmap::OrderedMap;
use super::strconv::quote;
use super::value::*;

/// What natives and host values may ask of the thread that runs them.
impl Interpreter for Thread {
    fn call(&mut self, f: &Value, args: Args) -> Result<Value> {
        Thread::call(self, f, args)
    }
    fn depth(&self) -> usize {
        self.depth
    }
    fn print(&self, text: &str) {
        match &self.print {
            Some(p) => p(text),
            None => eprintln!("{text}"),
        }
    }
    fn local(&self, key: &str) -> Option<Rc<dyn Any>> {
        Thread::local(self, key)
    }
}

impl Thread {
    /// Calls a callable value (function, native, bound method or host value).
    #[inline(never)]
    pub fn call(&mut self, f: &Value, args: Args) -> Result<Value> {
        if self.depth >= self.max_depth {
            super::limits::note_depth_limit_hit();
            return Err(Error::new("Starlark stack overflow"));
        }
        self.step()?;
        self.depth += 1;
        let r = match f {
            Value::Function(func) => self.call_function(func, args),
            Value::Builtin(b) => match &b.kind {
                BuiltinKind::Native(n) => n(self, &args),
                BuiltinKind::Method(m, recv) => m(&b.name, recv, &args),
            },
            Value::Host(h) => match h.call(self, &args) {
                Some(r) => r,
                None => Err(Error::new(format!(
                    "invalid call of non-function ({})",
                    f.type_name()
                ))),
            },
            other => Err(Error::new(format!(
                "invalid call of non-function ({})",
                other.type_name()
            ))),
        };
        self.depth -= 1;
        match r {
            // A host call from outside any module: complete the traceback here.
            Err(mut e) if self.depth == 0 && self.modules == 0 && !e.unwound.is_empty() => {
                e.finish();
                if e.source_line.is_none() {
                    e.source_line = e.pos.as_ref().and_then(|p| self.source_line(p));
                }
                Err(e)
            }
            r => r,
        }
    }

    /// Calls `f` with positional arguments only.
    pub fn call_pos(&mut self, f: &Value, pos: Vec<Value>) -> Result<Value> {
        self.call(f, Args::new(pos))
    }

    #[inline(never)]
    pub(crate) fn eval_call(
        &mut self,
        fr: &mut Frame,
        f: &Expr,
        args: &[Arg],
        pos: &Position,
    ) -> Result<Value> {
        let fv = self.eval(fr, f)?;
        let mut a = Args::default();
        for arg in args {
            match arg {
                Arg::Pos(x) => a.pos.push(self.eval(fr, x)?),
                Arg::Named(n, x) => {
                    let v = self.eval(fr, x)?;
                    a.kwargs.push((n.clone(), v));
                }
                Arg::Star(x) => {
                    let v = self.eval(fr, x)?;
                    match iterate(&v) {
                        Some((items, _)) => a.pos.extend(items),
                        None => {
                            return Err(Error::new(format!(
                                "argument after * must be iterable, not {}",
                                v.type_name()
                            ))
                            .at(&x.pos));
                        }
                    }
                }
                Arg::StarStar(x) => {
                    let v = self.eval(fr, x)?;
                    let entries = match &v {
                        Value::Dict(d) => d.map.borrow().to_vec(),
                        Value::Host(h) if h.items().is_some() => h.items().unwrap_or_default(),
                        _ => {
                            let msg = format!(
                                "argument after ** must be a mapping, not {}",
                                v.type_name()
                            );
                            return Err(Error::new(msg).at(&x.pos));
                        }
                    };
                    for (k, val) in &entries {
                        let Value::Str(k) = k else {
                            return Err(Error::new(format!(
                                "keywords must be strings, not {}",
                                k.type_name()
                            ))
                            .at(&x.pos));
                        };
                        a.kwargs.push((k.clone(), val.clone()));
                    }
                }
            }
        }
        self.call(&fv, a).map_err(|e| e.at(pos))
    }

    #[inline(never)]
    fn call_function(&mut self, func: &Rc<Function>, args: Args) -> Result<Value> {
        let def = &func.def;
        let mut fr = Frame::new(&def.info, Some(func.clone()), func.module.clone());
        bind_args(func, args, &mut fr)?;
        match self.exec_stmts(&mut fr, &def.body) {
            Ok(Flow::Return(v)) => Ok(v),
            Ok(_) => Ok(Value::None),
            Err(mut e) => {
                e.leave_frame(&def.name);
                Err(e)
            }
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// Binds call arguments to the function's parameter slots.
fn bind_args(func: &Function, args: Args, fr: &mut Frame) -> Result<()> {
    let def = &func.def;
    let name = &def.name;
    // (param index, slot) of named parameters, split positional / keyword-only.
    let mut positional = Vec::new();
    let mut kwonly = Vec::new();
    let mut star_slot = None;
    let mut starstar_slot = None;
    let mut slot = 0usize;
    let mut after_star = false;
    for (pi, p) in def.params.iter().enumerate() {
        match p {
            Param::Required(_) | Param::Optional(..) => {
                if after_star {
                    kwonly.push((pi, slot))
                } else {
                    positional.push((pi, slot))
                }
                slot += 1;
            }
            Param::Star(id) => {
                after_star = true;
                if id.is_some() {
                    star_slot = Some(slot);
                    slot += 1;
                }
            }
            Param::StarStar(_) => {
                starstar_slot = Some(slot);
                slot += 1;
            }
        }
    }
    // starlark-go's `setArgs`: a function of no parameters at all (no `*args` nor
    // `**kwargs` either) counts every argument, keywords too.
    if slot == 0 && (!args.pos.is_empty() || !args.kwargs.is_empty()) {
        let n = args.pos.len() + args.kwargs.len();
        return Err(Error::new(format!(
            "function {name} accepts no arguments ({n} given)"
        )));
    }
    let mut set = vec![false; slot];
    let mut extra = Vec::new();
    let given = args.pos.len();
    for (i, v) in args.pos.into_iter().enumerate() {
        if let Some((_, s)) = positional.get(i) {
            fr.set_slot(*s, v);
            set[*s] = true;
        } else if star_slot.is_some() {
            extra.push(v);
        } else {
            // "at most" only when some positional parameter has a default.
            let n = positional.len();
            let at_most = if positional
                .iter()
                .any(|(pi, _)| func.defaults[*pi].is_some())
            {
                "at most "
            } else {
                ""
            };
            return Err(Error::new(format!(
                "function {name} accepts {at_most}{n} positional argument{} ({given} given)",
                plural(n)
            )));
        }
    }
    let mut kwdict = OrderedMap::new();
    for (k, v) in args.kwargs {
        let found = positional
            .iter()
            .chain(kwonly.iter())
            .find(|(pi, _)| def.params[*pi].ident().is_some_and(|id| *id.name == *k));
        match found {
            Some((_, s)) => {
                if set[*s] {
                    return Err(Error::new(format!(
                        "function {name} got multiple values for parameter {}",
                        quote(&k)
                    )));
                }
                fr.set_slot(*s, v);
                set[*s] = true;
            }
            None if starstar_slot.is_some() => {
                let key = Value::Str(k.clone());
                if kwdict.get(&key)?.is_some() {
                    return Err(Error::new(format!(
                        "function {name} got multiple values for parameter {}",
                        quote(&k)
                    )));
                }
                kwdict.insert(key, v)?;
            }
            None => {
                return Err(Error::new(format!(
                    "function {name} got an unexpected keyword argument {}",
                    quote(&k)
                )));
            }
        }
    }
    let mut missing = Vec::new();
    for (pi, s) in positional.iter().chain(kwonly.iter()) {
        if set[*s] {
            continue;
        }
        match &func.defaults[*pi] {
            Some(d) => fr.set_slot(*s, d.clone()),
            None => missing.push(
                def.params[*pi]
                    .ident()
                    .map(|i| i.name.clone())
                    .unwrap_or_default(),
            ),
        }
    }
    if !missing.is_empty() {
        return Err(Error::new(format!(
            "function {name} missing {} argument{} ({})",
            missing.len(),
            plural(missing.len()),
            missing.join(", ")
        )));
    }
    if let Some(s) = star_slot {
        fr.set_slot(s, Value::tuple(extra));
    }
    if let Some(s) = starstar_slot {
        fr.set_slot(s, Value::dict(kwdict));
    }
    Ok(())
}
