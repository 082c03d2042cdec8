//! Recursive-descent parser for the ytt Starlark dialect: `if/elif/else/for/while/def`
//! blocks opened by `:` at the end of a line are closed by `end` (an `elif` or `else:`
//! closes the previous branch); a `:` followed by a statement on the same line is a
//! one-line suite that needs no `end`. Everything else is standard Starlark syntax.

use std::rc::Rc;
use std::sync::Arc;

use super::ast::*;
use super::error::{Error, Position, Result};
use super::lexer::{Tok, Token, tokenize_until_error};

/// Parses `src` as a file named `name`; positions refer to `name` and the line numbers
/// of `src`.
pub fn parse_file(name: &str, src: &str) -> Result<File> {
    let file: Arc<str> = name.into();
    let origins = src
        .split('\n')
        .enumerate()
        .map(|(i, l)| LineOrigin {
            file: file.clone(),
            line: i as u32 + 1,
            text: l.trim_end_matches('\r').into(),
        })
        .collect();
    parse_with_origins(name, src, origins)
}

/// Parses generated source whose line `i + 1` came from `origins[i]` (template file and
/// line). Positions in the tree and in errors use the origins.
pub fn parse_with_origins(name: &str, src: &str, origins: Vec<LineOrigin>) -> Result<File> {
    let origins = Rc::new(origins);
    let name: Arc<str> = name.into();
    let mut p = Parser {
        toks: Vec::new(),
        i: 0,
        origins: origins.clone(),
        name: name.clone(),
        depth: 0,
    };
    let (toks, lex_err) = tokenize_until_error(src);
    p.toks = toks;
    // A lexical error stands in for the token it is at: it is reported when the parser
    // gets that far, unless a syntax error comes first.
    let lex_err = lex_err.map(|(line, col, msg)| {
        let at = p.toks.len() - 1;
        (at, Error::syntax(p.pos_at(line, col), msg))
    });
    let mut stmts = Vec::new();
    while p.peek() != &Tok::Eof {
        if p.peek() == &Tok::Newline {
            p.i += 1;
            continue;
        }
        if let Err(e) = p.stmt(&mut stmts) {
            let e = match lex_err {
                Some((at, le)) if p.i >= at => le,
                _ => e,
            };
            return Err(p.with_line(e));
        }
    }
    if let Some((_, le)) = lex_err {
        return Err(p.with_line(le));
    }
    Ok(File {
        name,
        stmts,
        info: FuncInfo::default(),
        origins,
    })
}

/// Parses a single expression (for hosts evaluating expression strings).
pub fn parse_expr(name: &str, src: &str) -> Result<Expr> {
    let f = parse_file(name, src)?;
    match f.stmts.into_iter().next() {
        Some(Stmt {
            kind: StmtKind::Expr(e),
            ..
        }) => Ok(e),
        _ => Err(Error::syntax(
            Position::new(name, 1, 1),
            "expected an expression",
        )),
    }
}

/// The deepest syntax tree the parser builds: nested brackets, calls, unary and binary
/// operators, postfix chains and blocks each add a level. The resolver, the evaluator
/// and the destructors walk the tree recursively, so without a bound a pathological
/// template would overflow the native stack instead of failing with an error. A level
/// costs under 3 KiB of stack in release builds, so the bound fits the 8 MiB main
/// thread with room to spare; real templates nest a few dozen levels at most.
pub(super) const MAX_DEPTH: u32 = 1000;

pub(super) struct Parser {
    toks: Vec<Token>,
    pub(super) i: usize,
    origins: Rc<Vec<LineOrigin>>,
    name: Arc<str>,
    /// Levels of the tree on the path being parsed (see [`MAX_DEPTH`]).
    depth: u32,
}

enum BlockEnd {
    End,
    Elif,
    Else,
}

impl Parser {
    fn pos_at(&self, line: u32, col: u32) -> Position {
        match self.origins.get(line as usize - 1) {
            Some(o) => Position {
                file: o.file.clone(),
                line: o.line,
                col,
            },
            None => Position {
                file: self.name.clone(),
                line,
                col,
            },
        }
    }

    fn with_line(&self, e: Error) -> Error {
        super::ast::with_source_line(&self.origins, e)
    }

    pub(super) fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    pub(super) fn peek2(&self) -> &Tok {
        &self.toks[(self.i + 1).min(self.toks.len() - 1)].tok
    }

    pub(super) fn pos(&self) -> Position {
        self.pos_of(self.i)
    }

    /// The position of token `i` (one already passed, to make a position only when a
    /// node needs it).
    pub(super) fn pos_of(&self, i: usize) -> Position {
        let t = &self.toks[i];
        self.pos_at(t.line, t.col)
    }

    /// Moves past the current token (never past the final `Eof`).
    pub(super) fn next(&mut self) {
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
    }

    /// Takes the current token and moves past it. Tokens are read once: a taken
    /// token is left as a `Newline` placeholder that nothing looks at again (the
    /// final `Eof` is copied, as the parser may stand on it more than once).
    pub(super) fn next_tok(&mut self) -> Tok {
        let t = if self.i == self.toks.len() - 1 {
            self.toks[self.i].tok.clone()
        } else {
            std::mem::replace(&mut self.toks[self.i].tok, Tok::Newline)
        };
        self.next();
        t
    }

    /// Enters `levels` more levels of the syntax tree; fails at the current token when
    /// that goes past [`MAX_DEPTH`]. Pair with [`Parser::ascend`] on success (an error
    /// ends the parse, so the count needs no repair then).
    pub(super) fn descend(&mut self, levels: u32) -> Result<()> {
        self.depth += levels;
        if self.depth > MAX_DEPTH {
            return self.err(format!(
                "nesting too deep: more than {MAX_DEPTH} levels of brackets, operators or blocks"
            ));
        }
        Ok(())
    }

    /// Leaves `levels` levels entered with [`Parser::descend`].
    pub(super) fn ascend(&mut self, levels: u32) {
        self.depth -= levels;
    }

    pub(super) fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        Err(Error::syntax(self.pos(), msg))
    }

    /// starlark-go's `got <token>, want <what>` at the current token.
    pub(super) fn unexpected<T>(&self, want: &str) -> Result<T> {
        self.err(format!("got {}, want {want}", tok_name(self.peek())))
    }

    pub(super) fn expect(&mut self, t: Tok) -> Result<()> {
        if self.peek() == &t {
            self.next();
            Ok(())
        } else {
            self.unexpected(&tok_name(&t))
        }
    }

    pub(super) fn ident(&mut self) -> Result<Ident> {
        let pos = self.pos();
        match self.peek() {
            Tok::Ident(_) => match self.next_tok() {
                Tok::Ident(n) => Ok(Ident::new(n, pos)),
                _ => unreachable!("peeked an identifier"),
            },
            _ => self.err("not an identifier"),
        }
    }

    // ---- statements ----

    fn stmt(&mut self, out: &mut Vec<Stmt>) -> Result<()> {
        let start = self.i;
        match self.peek() {
            Tok::Def => {
                let pos = self.pos_of(start);
                self.next();
                let name = self.ident()?;
                self.expect(Tok::LParen)?;
                let params = self.params(Tok::RParen)?;
                self.expect(Tok::RParen)?;
                self.expect(Tok::Colon)?;
                let (body, _) = self.suite(false)?;
                let func = FuncDef {
                    name: name.name.clone(),
                    pos: pos.clone(),
                    params,
                    body,
                    info: FuncInfo::default(),
                };
                out.push(Stmt::new(
                    StmtKind::Def {
                        name,
                        func: Rc::new(func),
                    },
                    pos,
                ));
            }
            Tok::If => {
                let pos = self.pos_of(start);
                self.next();
                out.push(self.if_rest(pos)?);
            }
            Tok::For => {
                let pos = self.pos_of(start);
                self.next();
                let vars = self.loop_vars()?;
                self.expect(Tok::In)?;
                let iter = self.expression()?;
                self.expect(Tok::Colon)?;
                let (body, _) = self.suite(false)?;
                out.push(Stmt::new(
                    StmtKind::For {
                        vars: Box::new(vars),
                        iter: Box::new(iter),
                        body,
                    },
                    pos,
                ));
            }
            Tok::While => {
                let pos = self.pos_of(start);
                self.next();
                let cond = self.test()?;
                self.expect(Tok::Colon)?;
                let (body, _) = self.suite(false)?;
                out.push(Stmt::new(
                    StmtKind::While {
                        cond: Box::new(cond),
                        body,
                    },
                    pos,
                ));
            }
            Tok::End => return self.err("unexpected end"),
            // ytt's block scanner closes a block before `elif`/`else:`; past the
            // block that closes, neither starts a statement.
            Tok::Elif | Tok::Else => return self.unexpected("primary expression"),
            _ => self.simple_stmts(out)?,
        }
        Ok(())
    }

    fn if_rest(&mut self, pos: Position) -> Result<Stmt> {
        let cond = self.test()?;
        self.expect(Tok::Colon)?;
        let (then, end) = self.suite(true)?;
        let mut els = Vec::new();
        if end.is_none() && matches!(self.peek(), Tok::Elif | Tok::Else) {
            // A one-line `if c: s` opens no block, so an `elif`/`else` below it
            // closes nothing (ytt: "unexpected end").
            return self.err("unexpected end");
        }
        match end {
            Some(BlockEnd::Elif) => {
                let p = self.pos();
                self.next();
                els.push(self.if_rest(p)?);
            }
            Some(BlockEnd::Else) if self.peek() == &Tok::Else && self.peek2() == &Tok::Colon => {
                self.next();
                self.next();
                let (body, end2) = self.suite(false)?;
                if let Some(BlockEnd::Elif | BlockEnd::Else) = end2 {
                    // The `else` block is closed; what follows starts no statement.
                    return self.unexpected("primary expression");
                }
                els = body;
            }
            Some(BlockEnd::Else) => return self.unexpected("end"),
            _ => {}
        }
        Ok(Stmt::new(
            StmtKind::If {
                cond: Box::new(cond),
                then,
                els,
            },
            pos,
        ))
    }

    /// Parses the statements after a `:`. Returns how a multi-line block ended (None for
    /// a one-line suite).
    fn suite(&mut self, in_if: bool) -> Result<(Vec<Stmt>, Option<BlockEnd>)> {
        self.descend(1)?;
        let suite = self.suite_body(in_if)?;
        self.ascend(1);
        Ok(suite)
    }

    fn suite_body(&mut self, in_if: bool) -> Result<(Vec<Stmt>, Option<BlockEnd>)> {
        let mut body = Vec::new();
        if self.peek() != &Tok::Newline {
            self.simple_stmts(&mut body)?;
            return Ok((body, None));
        }
        // ytt's block scanner names an unclosed block by the line break that opened it.
        let opened = self.pos();
        self.next();
        loop {
            match self.peek() {
                Tok::Newline => {
                    self.next();
                }
                Tok::End => {
                    self.next();
                    if self.peek() == &Tok::Newline {
                        self.next();
                    }
                    return Ok((body, Some(BlockEnd::End)));
                }
                Tok::Elif if in_if => return Ok((body, Some(BlockEnd::Elif))),
                Tok::Else if in_if && self.peek2() == &Tok::Colon => {
                    return Ok((body, Some(BlockEnd::Else)));
                }
                Tok::Eof => {
                    return Err(Error::syntax(
                        opened,
                        "mismatched set of block openings (if/else/elif/for/def) and closing (end)",
                    ));
                }
                _ => self.stmt(&mut body)?,
            }
        }
    }

    fn simple_stmts(&mut self, out: &mut Vec<Stmt>) -> Result<()> {
        loop {
            out.push(self.small_stmt()?);
            if self.peek() == &Tok::Semi {
                self.next();
                if matches!(self.peek(), Tok::Newline | Tok::Eof) {
                    break;
                }
                continue;
            }
            break;
        }
        match self.peek() {
            Tok::Newline => {
                self.next();
                Ok(())
            }
            Tok::Eof => Ok(()),
            _ => self.unexpected("newline"),
        }
    }

    fn small_stmt(&mut self) -> Result<Stmt> {
        let pos = self.pos();
        match self.peek() {
            Tok::Return => {
                self.next();
                let v = if matches!(self.peek(), Tok::Newline | Tok::Eof | Tok::Semi) {
                    None
                } else {
                    Some(self.expression()?)
                };
                Ok(Stmt::new(StmtKind::Return(v), pos))
            }
            Tok::Break => {
                self.next();
                Ok(Stmt::new(StmtKind::Break, pos))
            }
            Tok::Continue => {
                self.next();
                Ok(Stmt::new(StmtKind::Continue, pos))
            }
            Tok::Load => self.load(pos),
            _ => {
                let x = self.expression()?;
                match self.peek().clone() {
                    Tok::Assign => {
                        self.next();
                        let rhs = self.expression()?;
                        Ok(Stmt::new(
                            StmtKind::Assign {
                                lhs: Box::new(x),
                                op: None,
                                rhs: Box::new(rhs),
                            },
                            pos,
                        ))
                    }
                    Tok::AugAssign(t) => {
                        self.next();
                        let op = binop_of(&t).expect("augmented operator");
                        let rhs = self.expression()?;
                        Ok(Stmt::new(
                            StmtKind::Assign {
                                lhs: Box::new(x),
                                op: Some(op),
                                rhs: Box::new(rhs),
                            },
                            pos,
                        ))
                    }
                    _ => Ok(Stmt::new(StmtKind::Expr(x), pos)),
                }
            }
        }
    }

    fn load(&mut self, pos: Position) -> Result<Stmt> {
        self.next();
        let lparen = self.pos();
        self.expect(Tok::LParen)?;
        let module = match self.peek() {
            Tok::Str(_) => match self.next_tok() {
                Tok::Str(s) => s.to_string(),
                _ => unreachable!("peeked a string"),
            },
            _ => return self.err("first operand of load statement must be a string literal"),
        };
        let mut names = Vec::new();
        while !matches!(self.peek(), Tok::RParen | Tok::Eof) {
            self.expect(Tok::Comma)?;
            if self.peek() == &Tok::RParen {
                break;
            }
            let p = self.pos();
            match self.peek() {
                Tok::Str(_) => {
                    let Tok::Str(s) = self.next_tok() else {
                        unreachable!("peeked a string")
                    };
                    names.push((Ident::new(&*s, p), s.to_string()));
                }
                Tok::Ident(_) => {
                    let Tok::Ident(to) = self.next_tok() else {
                        unreachable!("peeked an identifier")
                    };
                    if self.peek() != &Tok::Assign {
                        return self.err(format!(
                            "load operand must be \"{to}\" or {to}=\"originalname\" (want '=' after {to})"
                        ));
                    }
                    self.next();
                    let from = match self.peek() {
                        Tok::Str(_) => match self.next_tok() {
                            Tok::Str(s) => s.to_string(),
                            _ => unreachable!("peeked a string"),
                        },
                        _ => {
                            return self.err(format!(
                                "original name of loaded symbol must be quoted: {to}=\"originalname\""
                            ));
                        }
                    };
                    names.push((Ident::new(to, p), from));
                }
                t => {
                    return self.err(format!(
                        "load operand must be \"name\" or localname=\"name\" (got {})",
                        tok_name(t)
                    ));
                }
            }
        }
        self.expect(Tok::RParen)?;
        if names.is_empty() {
            return Err(Error::syntax(
                lparen,
                "load statement must import at least 1 symbol",
            ));
        }
        Ok(Stmt::new(StmtKind::Load { module, names }, pos))
    }

    /// Parameters up to `close` (`)` of a def, `:` of a lambda), as starlark-go reads
    /// them: a comma before each one after the first, a trailing comma only when no
    /// `*`/`**` came before it.
    pub(super) fn params(&mut self, close: Tok) -> Result<Vec<Param>> {
        let mut params = Vec::new();
        let mut stars = false;
        while !matches!(self.peek(), Tok::RParen | Tok::Colon | Tok::Eof) && self.peek() != &close {
            if !params.is_empty() {
                self.expect(Tok::Comma)?;
            }
            if self.peek() == &Tok::RParen {
                if stars {
                    return self.unexpected("parameter");
                }
                break;
            }
            match self.peek() {
                Tok::Star => {
                    stars = true;
                    self.next();
                    if let Tok::Ident(_) = self.peek() {
                        params.push(Param::Star(Some(self.ident()?)));
                    } else {
                        params.push(Param::Star(None));
                    }
                }
                Tok::StarStar => {
                    stars = true;
                    self.next();
                    params.push(Param::StarStar(self.ident()?));
                }
                _ => {
                    let id = self.ident()?;
                    if self.peek() == &Tok::Assign {
                        self.next();
                        params.push(Param::Optional(id, self.test()?));
                    } else {
                        params.push(Param::Required(id));
                    }
                }
            }
        }
        Ok(params)
    }

    pub(super) fn loop_vars(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let first = self.primary_or_unary()?;
        if self.peek() != &Tok::Comma {
            return Ok(first);
        }
        let mut list = vec![first];
        while self.peek() == &Tok::Comma {
            self.next();
            if self.peek() == &Tok::In {
                break;
            }
            list.push(self.primary_or_unary()?);
        }
        Ok(Expr::new(ExprKind::Tuple(list), pos))
    }
}

pub(super) fn binop_of(t: &Tok) -> Option<BinOp> {
    Some(match t {
        Tok::Or => BinOp::Or,
        Tok::And => BinOp::And,
        Tok::EqEq => BinOp::Eq,
        Tok::Ne => BinOp::Ne,
        Tok::Lt => BinOp::Lt,
        Tok::Gt => BinOp::Gt,
        Tok::Le => BinOp::Le,
        Tok::Ge => BinOp::Ge,
        Tok::In => BinOp::In,
        Tok::Pipe => BinOp::BitOr,
        Tok::Caret => BinOp::BitXor,
        Tok::Amp => BinOp::BitAnd,
        Tok::Shl => BinOp::Shl,
        Tok::Shr => BinOp::Shr,
        Tok::Plus => BinOp::Add,
        Tok::Minus => BinOp::Sub,
        Tok::Star => BinOp::Mul,
        Tok::Slash => BinOp::Div,
        Tok::SlashSlash => BinOp::FloorDiv,
        Tok::Percent => BinOp::Mod,
        _ => return None,
    })
}

/// A token as starlark-go names it in syntax errors (punctuation in quotes; `end`,
/// which ytt's block scanner turns into an outdent, as `outdent`).
pub(super) fn tok_name(t: &Tok) -> String {
    let p = match t {
        Tok::Newline => return "newline".into(),
        Tok::Eof => return "end of file".into(),
        Tok::Ident(_) => return "identifier".into(),
        Tok::Str(_) => return "string literal".into(),
        Tok::Int(_) | Tok::BigInt(_) => return "int literal".into(),
        Tok::Float(_) => return "float literal".into(),
        Tok::Illegal => return "illegal token".into(),
        Tok::LParen => "(",
        Tok::RParen => ")",
        Tok::LBrack => "[",
        Tok::RBrack => "]",
        Tok::LBrace => "{",
        Tok::RBrace => "}",
        Tok::Comma => ",",
        Tok::Colon => ":",
        Tok::Semi => ";",
        Tok::Dot => ".",
        Tok::Assign => "=",
        Tok::Plus => "+",
        Tok::Minus => "-",
        Tok::Star => "*",
        Tok::StarStar => "**",
        Tok::Slash => "/",
        Tok::SlashSlash => "//",
        Tok::Percent => "%",
        Tok::Amp => "&",
        Tok::Pipe => "|",
        Tok::Caret => "^",
        Tok::Tilde => "~",
        Tok::Shl => "<<",
        Tok::Shr => ">>",
        Tok::EqEq => "==",
        Tok::Ne => "!=",
        Tok::Lt => "<",
        Tok::Gt => ">",
        Tok::Le => "<=",
        Tok::Ge => ">=",
        Tok::AugAssign(op) => return format!("'{}='", tok_name(op).trim_matches('\'')),
        Tok::End => return "outdent".into(),
        Tok::Else => return "else".into(),
        Tok::Elif => return "elif".into(),
        Tok::In => return "in".into(),
        Tok::If => return "if".into(),
        Tok::For => return "for".into(),
        _ => return format!("{t:?}").to_lowercase(),
    };
    format!("'{p}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<File> {
        parse_file("t.star", s)
    }

    #[test]
    fn blocks_close_with_end_and_ignore_indentation() {
        let f = parse("if a:\nx = 1\n      y = 2\nelif b:\n z = 3\nelse:\n w = 4\nend\nv = 5\n")
            .unwrap();
        assert_eq!(f.stmts.len(), 2);
        match &f.stmts[0].kind {
            StmtKind::If { then, els, .. } => {
                assert_eq!(then.len(), 2);
                assert!(matches!(els[0].kind, StmtKind::If { .. }));
            }
            _ => panic!("not an if"),
        }
    }

    #[test]
    fn one_line_suites_need_no_end() {
        let f = parse("def f(x): return x\nif f(1): y = 2\nz = 3").unwrap();
        assert_eq!(f.stmts.len(), 3);
    }

    #[test]
    fn else_after_a_one_line_if_is_an_error() {
        let e = parse("if True: y = 1\nelse: y = 2\n").unwrap_err();
        assert!(e.msg.starts_with("unexpected end"), "{}", e.msg);
        let e = parse("if True: y = 1\nelif False: y = 2\n").unwrap_err();
        assert!(e.msg.starts_with("unexpected end"), "{}", e.msg);
        // A block `if` still takes them.
        assert!(parse("if True:\ny = 1\nelif False: y = 2\nend\n").is_err());
        assert!(parse("if True:\ny = 1\nelif False:\ny = 2\nelse:\ny = 3\nend\n").is_ok());
    }

    #[test]
    fn missing_end_is_an_error() {
        let e = parse("def f():\n  return 1\n").unwrap_err();
        assert!(
            e.msg.contains("mismatched set of block openings"),
            "{}",
            e.msg
        );
        let e = parse("x = 1\nend\n").unwrap_err();
        assert_eq!(e.msg, "unexpected end");
    }

    #[test]
    fn pass_is_rejected_with_position_and_line() {
        let e = parse("def f():\n  pass\nend\n").unwrap_err();
        assert_eq!(e.msg, "use of reserved keyword 'pass' is not allowed");
        assert_eq!(e.pos.as_ref().unwrap().line, 2);
        assert_eq!(e.source_line.as_deref(), Some("  pass"));
    }

    #[test]
    fn origins_map_positions() {
        let origins = vec![
            LineOrigin {
                file: "tpl.yml".into(),
                line: 7,
                text: "a: #@ x +".into(),
            },
            LineOrigin {
                file: "tpl.yml".into(),
                line: 9,
                text: "b".into(),
            },
        ];
        let e = parse_with_origins("gen", "x = (\n+)", origins).unwrap_err();
        assert_eq!(e.pos.as_ref().unwrap().line, 9);
    }

    #[test]
    fn expressions_parse() {
        for src in [
            "x = [a * b for a in range(1, 4) for b in range(1, 4) if a < b]",
            "x = {k: v for k, v in d.items()}",
            "x = lambda a, b=10: a + b",
            "x = 'neg' if n < 0 else 'zero' if n == 0 else 'pos'",
            "a, (b, c) = 1, (2, 3)",
            "x = s[::-1] + s[1:] + s[:2] + s[1:5:2]",
            "f(*args, **kw)",
            "def f(a, *, flag=False):\n  return a\nend",
            "load(\"@ytt:data\", \"data\", s=\"struct\")",
            "x = not a in b",
            "x = 1; y = 2;",
        ] {
            parse(src).unwrap_or_else(|e| panic!("{src}: {e}"));
        }
        assert!(parse("x = a < b < c").is_err());
        // Assignment targets are checked by the resolver, as in starlark-go.
        assert!(parse("1 = x").is_ok());
    }
}
