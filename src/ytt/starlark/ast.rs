//! The public syntax tree of the ytt Starlark dialect. A host (the template compiler)
//! may build or rewrite it before evaluation, for example to wrap every `return X` of a
//! template function into `return __ytt_tpl_end_ctx(X)`. Identifiers carry a
//! [`Resolution`] and functions a [`FuncInfo`] that the resolver fills in; hosts leave
//! them at their defaults.

use std::rc::Rc;
use std::sync::Arc;

use super::error::Position;

/// How an identifier is found at run time (filled by the resolver).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Resolution {
    #[default]
    Unresolved,
    /// A slot of the current frame (parameter, local or comprehension variable).
    Local(u32),
    /// A captured variable of the enclosing function(s).
    Free(u32),
    /// A module global.
    Global,
    /// A name a top-level `load` bound: local to the file, so other files cannot load
    /// it from this module (starlark-go's file block).
    FileLocal,
    /// A name supplied by the host when the module was executed.
    Predeclared,
    /// A built-in (`len`, `None`, ...).
    Universal,
}

/// A name with its position and resolution.
#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub pos: Position,
    pub res: Resolution,
}

impl Ident {
    pub fn new(name: impl Into<String>, pos: Position) -> Self {
        Ident {
            name: name.into(),
            pos,
            res: Resolution::Unresolved,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    Invert,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Gt,
    Le,
    Ge,
    In,
    NotIn,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    FloorDiv,
    Mod,
}

impl BinOp {
    /// The operator as written in source (used in error messages).
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Or => "or",
            And => "and",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            In => "in",
            NotIn => "not in",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Shl => "<<",
            Shr => ">>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            FloorDiv => "//",
            Mod => "%",
        }
    }
}

/// One argument of a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Pos(Expr),
    /// `name=value`; the name is shared with every call's keyword arguments.
    Named(Rc<str>, Expr),
    Star(Expr),
    StarStar(Expr),
}

/// A clause of a comprehension.
#[derive(Clone, Debug, PartialEq)]
pub enum Clause {
    For { vars: Expr, iter: Expr },
    If(Expr),
}

/// The body of a comprehension: `[x for ...]` or `{k: v for ...}`.
#[derive(Clone, Debug, PartialEq)]
pub enum CompBody {
    List(Box<Expr>),
    Dict(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Ident(Ident),
    /// An integer literal that fits 64 bits; larger ones are [`ExprKind::BigInt`], so
    /// that an `Expr` needs 8-byte alignment, not 16 (88 bytes instead of 96).
    Int(i64),
    BigInt(Box<super::bigint::BigInt>),
    Float(f64),
    Str(Rc<str>),
    List(Vec<Expr>),
    Tuple(Vec<Expr>),
    Dict(Vec<(Expr, Expr)>),
    Unary(UnaryOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Cond {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    Index(Box<Expr>, Box<Expr>),
    Slice {
        x: Box<Expr>,
        lo: Option<Box<Expr>>,
        hi: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
    },
    Dot(Box<Expr>, String),
    Call(Box<Expr>, Vec<Arg>),
    Lambda(Rc<FuncDef>),
    Comp {
        body: CompBody,
        clauses: Vec<Clause>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub pos: Position,
}

// The size `ExprKind::Int` documents, on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Expr>() <= 88);

impl Expr {
    pub fn new(kind: ExprKind, pos: Position) -> Self {
        Expr { kind, pos }
    }
    /// `name` as an identifier expression.
    pub fn ident(name: impl Into<String>, pos: Position) -> Self {
        let id = Ident::new(name, pos.clone());
        Expr::new(ExprKind::Ident(id), pos)
    }
    /// `func(args...)` with positional arguments.
    pub fn call(func: Expr, args: Vec<Expr>) -> Self {
        let pos = func.pos.clone();
        Expr::new(
            ExprKind::Call(Box::new(func), args.into_iter().map(Arg::Pos).collect()),
            pos,
        )
    }
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub enum Param {
    Required(Ident),
    Optional(Ident, Expr),
    /// `*args`, or a bare `*` (None) that starts keyword-only parameters.
    Star(Option<Ident>),
    StarStar(Ident),
}

impl Param {
    pub fn ident(&self) -> Option<&Ident> {
        match self {
            Param::Required(i) | Param::Optional(i, _) | Param::StarStar(i) => Some(i),
            Param::Star(i) => i.as_ref(),
        }
    }
}

/// Where a captured variable comes from in the frame that creates the function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FreeSource {
    /// A (cell) slot of the enclosing frame.
    Local(u32),
    /// A captured variable of the enclosing function.
    Free(u32),
}

/// Frame layout of a function or module, filled by the resolver.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FuncInfo {
    pub num_slots: u32,
    /// Slots captured by nested functions (kept in shared cells).
    pub cells: Vec<u32>,
    pub freevars: Vec<(String, FreeSource)>,
    /// True once the resolver has processed this function.
    pub resolved: bool,
}

/// A `def` or `lambda`.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncDef {
    pub name: String,
    pub pos: Position,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    pub info: FuncInfo,
}

/// What a statement does. Expressions beside other fields are boxed, so that a statement
/// takes 120 bytes rather than 256 (a generated program has hundreds of statements).
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Expr(Expr),
    /// `lhs = rhs` (op None) or `lhs op= rhs`.
    Assign {
        lhs: Box<Expr>,
        op: Option<BinOp>,
        rhs: Box<Expr>,
    },
    If {
        cond: Box<Expr>,
        then: Vec<Stmt>,
        els: Vec<Stmt>,
    },
    For {
        vars: Box<Expr>,
        iter: Box<Expr>,
        body: Vec<Stmt>,
    },
    While {
        cond: Box<Expr>,
        body: Vec<Stmt>,
    },
    Def {
        name: Ident,
        func: Rc<FuncDef>,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    /// `load(module, to=from, ...)`: pairs of (local binding, exported name).
    Load {
        module: String,
        names: Vec<(Ident, String)>,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub pos: Position,
}

// The size the `StmtKind` documentation promises, on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = assert!(std::mem::size_of::<Stmt>() <= 120);

impl Stmt {
    pub fn new(kind: StmtKind, pos: Position) -> Self {
        Stmt { kind, pos }
    }
}

/// Fills in the source line of `e` from `origins`, the lines a file was parsed from.
pub fn with_source_line(origins: &[LineOrigin], mut e: super::error::Error) -> super::error::Error {
    if let Some(p) = &e.pos {
        e.source_line = origins
            .iter()
            .find(|o| o.file == p.file && o.line == p.line)
            .map(|o| o.text.to_string());
    }
    let more = std::mem::take(&mut e.more);
    e.more = more
        .into_iter()
        .map(|m| with_source_line(origins, m))
        .collect();
    e
}

/// Where one line of parsed text came from (for generated code: the template line).
#[derive(Clone, Debug, PartialEq)]
pub struct LineOrigin {
    pub file: Arc<str>,
    pub line: u32,
    pub text: Arc<str>,
}

/// A parsed file (module).
#[derive(Clone, Debug, PartialEq)]
pub struct File {
    pub name: Arc<str>,
    pub stmts: Vec<Stmt>,
    /// Frame layout of the module's top level (comprehension variables).
    pub info: FuncInfo,
    /// Origins of the parsed lines, indexed by parsed line number - 1.
    pub origins: Rc<Vec<LineOrigin>>,
}
