//! Recursive-descent parser for the ytt Starlark dialect: `if/elif/else/for/while/def`
//! blocks opened by `:` at the end of a line are closed by `end` (an `elif` or `else:`
//! closes the previous branch); a `:` followed by a statement on the same line is a
//! one-line suite that needs no `end`. Everything else is standard Starlark syntax.

use std::rc::Rc;
use std::sync::Arc;

use super::ast::*;
use super::error::{Error, Position, Result};
use super::lexer::{Tok, Token, tokenize};

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
    };
    match tokenize(src) {
        Ok(t) => p.toks = t,
        Err((line, col, msg)) => {
            let pos = p.pos_at(line, col);
            return Err(p.with_line(Error::syntax(pos, msg)));
        }
    }
    let mut stmts = Vec::new();
    while p.peek() != &Tok::Eof {
        if p.peek() == &Tok::Newline {
            p.i += 1;
            continue;
        }
        match p.stmt(&mut stmts) {
            Ok(()) => {}
            Err(e) => return Err(p.with_line(e)),
        }
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

struct Parser {
    toks: Vec<Token>,
    i: usize,
    origins: Rc<Vec<LineOrigin>>,
    name: Arc<str>,
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

    fn with_line(&self, mut e: Error) -> Error {
        if let Some(p) = &e.pos {
            e.source_line = self
                .origins
                .iter()
                .find(|o| o.file == p.file && o.line == p.line)
                .map(|o| o.text.to_string());
        }
        e
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.i].tok
    }

    fn peek2(&self) -> &Tok {
        &self.toks[(self.i + 1).min(self.toks.len() - 1)].tok
    }

    fn pos(&self) -> Position {
        let t = &self.toks[self.i];
        self.pos_at(t.line, t.col)
    }

    fn next(&mut self) -> Tok {
        let t = self.toks[self.i].tok.clone();
        if self.i < self.toks.len() - 1 {
            self.i += 1;
        }
        t
    }

    fn err<T>(&self, msg: impl Into<String>) -> Result<T> {
        Err(Error::syntax(self.pos(), msg))
    }

    fn unexpected<T>(&self, want: &str) -> Result<T> {
        let got = match self.peek() {
            Tok::Newline => "newline".to_string(),
            Tok::Eof => "end of file".to_string(),
            Tok::Ident(n) => format!("identifier {n}"),
            Tok::Str(_) => "string literal".to_string(),
            Tok::Int(_) | Tok::Float(_) => "number".to_string(),
            t => tok_name(t),
        };
        self.err(format!("got {got}, want {want}"))
    }

    fn expect(&mut self, t: Tok, what: &str) -> Result<()> {
        if self.peek() == &t {
            self.next();
            Ok(())
        } else {
            self.unexpected(what)
        }
    }

    fn ident(&mut self) -> Result<Ident> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(n) => {
                self.next();
                Ok(Ident::new(n, pos))
            }
            _ => self.unexpected("identifier"),
        }
    }

    // ---- statements ----

    fn stmt(&mut self, out: &mut Vec<Stmt>) -> Result<()> {
        let pos = self.pos();
        match self.peek() {
            Tok::Def => {
                self.next();
                let name = self.ident()?;
                self.expect(Tok::LParen, "(")?;
                let params = self.params(Tok::RParen)?;
                self.expect(Tok::RParen, ")")?;
                self.expect(Tok::Colon, ":")?;
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
                self.next();
                out.push(self.if_rest(pos)?);
            }
            Tok::For => {
                self.next();
                let vars = self.loop_vars()?;
                self.expect(Tok::In, "in")?;
                let iter = self.expression()?;
                self.expect(Tok::Colon, ":")?;
                let (body, _) = self.suite(false)?;
                out.push(Stmt::new(StmtKind::For { vars, iter, body }, pos));
            }
            Tok::While => {
                self.next();
                let cond = self.test()?;
                self.expect(Tok::Colon, ":")?;
                let (body, _) = self.suite(false)?;
                out.push(Stmt::new(StmtKind::While { cond, body }, pos));
            }
            Tok::End => return self.err("unexpected end"),
            Tok::Elif | Tok::Else => return self.unexpected("statement"),
            _ => self.simple_stmts(out)?,
        }
        Ok(())
    }

    fn if_rest(&mut self, pos: Position) -> Result<Stmt> {
        let cond = self.test()?;
        self.expect(Tok::Colon, ":")?;
        let (then, end) = self.suite(true)?;
        let mut els = Vec::new();
        match end {
            Some(BlockEnd::Elif) | None if self.peek() == &Tok::Elif => {
                let p = self.pos();
                self.next();
                els.push(self.if_rest(p)?);
            }
            Some(BlockEnd::Else) | None
                if self.peek() == &Tok::Else && self.peek2() == &Tok::Colon =>
            {
                self.next();
                self.next();
                let (body, end2) = self.suite(false)?;
                if let Some(BlockEnd::Elif | BlockEnd::Else) = end2 {
                    return self.unexpected("end");
                }
                els = body;
            }
            Some(BlockEnd::Elif | BlockEnd::Else) => return self.unexpected("end"),
            _ => {}
        }
        Ok(Stmt::new(StmtKind::If { cond, then, els }, pos))
    }

    /// Parses the statements after a `:`. Returns how a multi-line block ended (None for
    /// a one-line suite).
    fn suite(&mut self, in_if: bool) -> Result<(Vec<Stmt>, Option<BlockEnd>)> {
        let mut body = Vec::new();
        if self.peek() != &Tok::Newline {
            self.simple_stmts(&mut body)?;
            return Ok((body, None));
        }
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
                    return self.err(
                        "mismatched set of block openings (if/else/elif/for/def) and closing (end)",
                    );
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
                        check_assignable(&x)?;
                        let rhs = self.expression()?;
                        Ok(Stmt::new(
                            StmtKind::Assign {
                                lhs: x,
                                op: None,
                                rhs,
                            },
                            pos,
                        ))
                    }
                    Tok::AugAssign(t) => {
                        self.next();
                        if !matches!(
                            x.kind,
                            ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Dot(..)
                        ) {
                            return Err(Error::syntax(
                                x.pos,
                                "invalid target of augmented assignment",
                            ));
                        }
                        let op = binop_of(&t).expect("augmented operator");
                        let rhs = self.expression()?;
                        Ok(Stmt::new(
                            StmtKind::Assign {
                                lhs: x,
                                op: Some(op),
                                rhs,
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
        self.expect(Tok::LParen, "(")?;
        let module = match self.next() {
            Tok::Str(s) => s,
            _ => return self.err("first operand of load statement must be a string literal"),
        };
        let mut names = Vec::new();
        while self.peek() == &Tok::Comma {
            self.next();
            if self.peek() == &Tok::RParen {
                break;
            }
            let p = self.pos();
            match self.next() {
                Tok::Str(s) => {
                    if s.starts_with('_') {
                        return Err(Error::syntax(
                            p,
                            format!("load: names with leading underscores are not exported: {s}"),
                        ));
                    }
                    names.push((Ident::new(s.clone(), p), s));
                }
                Tok::Ident(to) => {
                    self.expect(Tok::Assign, "=")?;
                    let from = match self.next() {
                        Tok::Str(s) => s,
                        _ => {
                            return self.err("load operand must be \"name\" or localname=\"name\"");
                        }
                    };
                    names.push((Ident::new(to, p), from));
                }
                _ => return self.err("load operand must be \"name\" or localname=\"name\""),
            }
        }
        self.expect(Tok::RParen, ")")?;
        if names.is_empty() {
            return Err(Error::syntax(
                pos,
                "load statement must import at least 1 symbol",
            ));
        }
        Ok(Stmt::new(StmtKind::Load { module, names }, pos))
    }

    fn params(&mut self, close: Tok) -> Result<Vec<Param>> {
        let mut params = Vec::new();
        while self.peek() != &close {
            match self.peek() {
                Tok::Star => {
                    self.next();
                    if let Tok::Ident(_) = self.peek() {
                        params.push(Param::Star(Some(self.ident()?)));
                    } else {
                        params.push(Param::Star(None));
                    }
                }
                Tok::StarStar => {
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
            if self.peek() == &Tok::Comma {
                self.next();
            } else {
                break;
            }
        }
        Ok(params)
    }

    fn loop_vars(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let first = self.primary_or_unary()?;
        if self.peek() != &Tok::Comma {
            check_assignable(&first)?;
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
        let e = Expr::new(ExprKind::Tuple(list), pos);
        check_assignable(&e)?;
        Ok(e)
    }

    // ---- expressions ----

    /// Expression = Test {',' Test} (a bare comma list is a tuple).
    fn expression(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let first = self.test()?;
        if self.peek() != &Tok::Comma {
            return Ok(first);
        }
        let mut list = vec![first];
        while self.peek() == &Tok::Comma {
            self.next();
            if terminates_list(self.peek()) {
                break;
            }
            list.push(self.test()?);
        }
        Ok(Expr::new(ExprKind::Tuple(list), pos))
    }

    fn test(&mut self) -> Result<Expr> {
        if self.peek() == &Tok::Lambda {
            let pos = self.pos();
            self.next();
            let params = self.params(Tok::Colon)?;
            self.expect(Tok::Colon, ":")?;
            let body = self.test()?;
            let bpos = body.pos.clone();
            let func = FuncDef {
                name: "lambda".into(),
                pos: pos.clone(),
                params,
                body: vec![Stmt::new(StmtKind::Return(Some(body)), bpos)],
                info: FuncInfo::default(),
            };
            return Ok(Expr::new(ExprKind::Lambda(Rc::new(func)), pos));
        }
        let x = self.binary(0)?;
        if self.peek() == &Tok::If {
            let pos = x.pos.clone();
            self.next();
            let cond = self.binary(0)?;
            if self.peek() != &Tok::Else {
                return self.unexpected("else");
            }
            self.next();
            let els = self.test()?;
            return Ok(Expr::new(
                ExprKind::Cond {
                    cond: Box::new(cond),
                    then: Box::new(x),
                    els: Box::new(els),
                },
                pos,
            ));
        }
        Ok(x)
    }

    /// Precedence climbing over `or`, `and`, `not`, comparisons and arithmetic.
    fn binary(&mut self, prec: u8) -> Result<Expr> {
        let mut x = if prec == 2 {
            self.not_test()?
        } else if prec > 9 {
            return self.primary_or_unary();
        } else {
            self.binary(prec + 1)?
        };
        loop {
            let (op, p) = match self.cur_binop() {
                Some(v) => v,
                None => return Ok(x),
            };
            if p != prec {
                return Ok(x);
            }
            let pos = self.pos();
            if op == BinOp::NotIn {
                self.next();
            }
            self.next();
            let y = self.binary(prec + 1)?;
            x = Expr::new(ExprKind::Binary(op, Box::new(x), Box::new(y)), pos);
            if prec == 3 {
                if let Some((op2, 3)) = self.cur_binop() {
                    return self.err(format!(
                        "{} does not associate with {}",
                        op.symbol(),
                        op2.symbol()
                    ));
                }
            }
        }
    }

    fn not_test(&mut self) -> Result<Expr> {
        if self.peek() == &Tok::Not {
            let pos = self.pos();
            self.next();
            let y = self.not_test()?;
            return Ok(Expr::new(ExprKind::Unary(UnaryOp::Not, Box::new(y)), pos));
        }
        self.binary(3)
    }

    fn cur_binop(&self) -> Option<(BinOp, u8)> {
        let t = self.peek();
        if t == &Tok::Not {
            return if self.peek2() == &Tok::In {
                Some((BinOp::NotIn, 3))
            } else {
                None
            };
        }
        let op = binop_of(t)?;
        let p = match op {
            BinOp::Or => 1,
            BinOp::And => 2,
            BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Gt
            | BinOp::Le
            | BinOp::Ge
            | BinOp::In
            | BinOp::NotIn => 3,
            BinOp::BitOr => 4,
            BinOp::BitXor => 5,
            BinOp::BitAnd => 6,
            BinOp::Shl | BinOp::Shr => 7,
            BinOp::Add | BinOp::Sub => 8,
            BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod => 9,
        };
        Some((op, p))
    }

    fn primary_or_unary(&mut self) -> Result<Expr> {
        let pos = self.pos();
        let op = match self.peek() {
            Tok::Minus => Some(UnaryOp::Neg),
            Tok::Plus => Some(UnaryOp::Plus),
            Tok::Tilde => Some(UnaryOp::Invert),
            _ => None,
        };
        if let Some(op) = op {
            self.next();
            let x = self.primary_or_unary()?;
            return Ok(Expr::new(ExprKind::Unary(op, Box::new(x)), pos));
        }
        let mut x = self.operand()?;
        loop {
            match self.peek() {
                Tok::Dot => {
                    let pos = self.pos();
                    self.next();
                    let name = self.ident()?;
                    x = Expr::new(ExprKind::Dot(Box::new(x), name.name), pos);
                }
                Tok::LParen => {
                    let pos = self.pos();
                    self.next();
                    let args = self.call_args()?;
                    self.expect(Tok::RParen, ")")?;
                    x = Expr::new(ExprKind::Call(Box::new(x), args), pos);
                }
                Tok::LBrack => {
                    let pos = self.pos();
                    self.next();
                    x = self.index_or_slice(x, pos)?;
                }
                _ => return Ok(x),
            }
        }
    }

    fn index_or_slice(&mut self, x: Expr, pos: Position) -> Result<Expr> {
        let mut parts: [Option<Box<Expr>>; 3] = [None, None, None];
        let mut colons = 0;
        loop {
            match self.peek() {
                Tok::RBrack => break,
                Tok::Colon => {
                    colons += 1;
                    if colons > 2 {
                        return self.unexpected("]");
                    }
                    self.next();
                }
                _ => {
                    if parts[colons].is_some() {
                        return self.unexpected("]");
                    }
                    parts[colons] = Some(Box::new(if colons == 0 {
                        self.expression()?
                    } else {
                        self.test()?
                    }));
                }
            }
        }
        self.next();
        if colons == 0 {
            match parts[0].take() {
                Some(i) => Ok(Expr::new(ExprKind::Index(Box::new(x), i), pos)),
                None => Err(Error::syntax(pos, "got ], want expression")),
            }
        } else {
            let [lo, hi, step] = parts;
            Ok(Expr::new(
                ExprKind::Slice {
                    x: Box::new(x),
                    lo,
                    hi,
                    step,
                },
                pos,
            ))
        }
    }

    fn call_args(&mut self) -> Result<Vec<Arg>> {
        let mut args = Vec::new();
        while self.peek() != &Tok::RParen {
            match self.peek() {
                Tok::Star => {
                    self.next();
                    args.push(Arg::Star(self.test()?));
                }
                Tok::StarStar => {
                    self.next();
                    args.push(Arg::StarStar(self.test()?));
                }
                Tok::Ident(n) if self.peek2() == &Tok::Assign => {
                    let n = n.clone();
                    self.next();
                    self.next();
                    args.push(Arg::Named(n, self.test()?));
                }
                _ => args.push(Arg::Pos(self.test()?)),
            }
            if self.peek() == &Tok::Comma {
                self.next();
            } else {
                break;
            }
        }
        Ok(args)
    }

    fn operand(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.peek().clone() {
            Tok::Ident(n) => {
                self.next();
                Ok(Expr::new(ExprKind::Ident(Ident::new(n, pos.clone())), pos))
            }
            Tok::Int(v) => {
                self.next();
                Ok(Expr::new(ExprKind::Int(v), pos))
            }
            Tok::Float(v) => {
                self.next();
                Ok(Expr::new(ExprKind::Float(v), pos))
            }
            Tok::Str(s) => {
                self.next();
                Ok(Expr::new(ExprKind::Str(s.into()), pos))
            }
            Tok::LParen => {
                self.next();
                if self.peek() == &Tok::RParen {
                    self.next();
                    return Ok(Expr::new(ExprKind::Tuple(vec![]), pos));
                }
                let first = self.test()?;
                if self.peek() == &Tok::For {
                    return self.err("generator expressions are not supported");
                }
                if self.peek() == &Tok::RParen {
                    self.next();
                    return Ok(first);
                }
                let mut list = vec![first];
                while self.peek() == &Tok::Comma {
                    self.next();
                    if self.peek() == &Tok::RParen {
                        break;
                    }
                    list.push(self.test()?);
                }
                self.expect(Tok::RParen, ")")?;
                Ok(Expr::new(ExprKind::Tuple(list), pos))
            }
            Tok::LBrack => {
                self.next();
                let mut list = Vec::new();
                if self.peek() != &Tok::RBrack {
                    let first = self.test()?;
                    if self.peek() == &Tok::For {
                        let clauses = self.comp_clauses()?;
                        self.expect(Tok::RBrack, "]")?;
                        return Ok(Expr::new(
                            ExprKind::Comp {
                                body: CompBody::List(Box::new(first)),
                                clauses,
                            },
                            pos,
                        ));
                    }
                    list.push(first);
                    while self.peek() == &Tok::Comma {
                        self.next();
                        if self.peek() == &Tok::RBrack {
                            break;
                        }
                        list.push(self.test()?);
                    }
                }
                self.expect(Tok::RBrack, "]")?;
                Ok(Expr::new(ExprKind::List(list), pos))
            }
            Tok::LBrace => {
                self.next();
                let mut entries = Vec::new();
                if self.peek() != &Tok::RBrace {
                    let k = self.test()?;
                    self.expect(Tok::Colon, ":")?;
                    let v = self.test()?;
                    if self.peek() == &Tok::For {
                        let clauses = self.comp_clauses()?;
                        self.expect(Tok::RBrace, "}")?;
                        let body = CompBody::Dict(Box::new(k), Box::new(v));
                        return Ok(Expr::new(ExprKind::Comp { body, clauses }, pos));
                    }
                    entries.push((k, v));
                    while self.peek() == &Tok::Comma {
                        self.next();
                        if self.peek() == &Tok::RBrace {
                            break;
                        }
                        let k = self.test()?;
                        self.expect(Tok::Colon, ":")?;
                        entries.push((k, self.test()?));
                    }
                }
                self.expect(Tok::RBrace, "}")?;
                Ok(Expr::new(ExprKind::Dict(entries), pos))
            }
            _ => self.unexpected("expression"),
        }
    }

    fn comp_clauses(&mut self) -> Result<Vec<Clause>> {
        let mut clauses = Vec::new();
        loop {
            match self.peek() {
                Tok::For => {
                    self.next();
                    let vars = self.loop_vars()?;
                    self.expect(Tok::In, "in")?;
                    let iter = self.binary(0)?;
                    clauses.push(Clause::For { vars, iter });
                }
                Tok::If => {
                    self.next();
                    clauses.push(Clause::If(self.binary(0)?));
                }
                _ => return Ok(clauses),
            }
        }
    }
}

fn terminates_list(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Newline
            | Tok::Eof
            | Tok::Semi
            | Tok::Assign
            | Tok::AugAssign(_)
            | Tok::RParen
            | Tok::RBrack
            | Tok::Colon
            | Tok::In
    )
}

fn check_assignable(x: &Expr) -> Result<()> {
    match &x.kind {
        ExprKind::Ident(_) | ExprKind::Index(..) | ExprKind::Dot(..) => Ok(()),
        ExprKind::Tuple(l) | ExprKind::List(l) => l.iter().try_for_each(check_assignable),
        _ => Err(Error::syntax(
            x.pos.clone(),
            "can't assign to this expression",
        )),
    }
}

fn binop_of(t: &Tok) -> Option<BinOp> {
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

fn tok_name(t: &Tok) -> String {
    let s = match t {
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
        Tok::End => "end",
        Tok::Else => "else",
        Tok::Elif => "elif",
        Tok::In => "in",
        _ => return format!("{t:?}").to_lowercase(),
    };
    s.to_string()
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
        assert!(parse("1 = x").is_err());
    }
}
