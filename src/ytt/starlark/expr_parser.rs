//! Expression half of the parser: precedence climbing over Starlark's operators,
//! primaries (calls, indexing, slicing, attributes), literals, comprehensions and
//! lambdas.

use std::rc::Rc;

use super::ast::*;
use super::error::{Error, Position, Result};
use super::lexer::Tok;
use super::parser::{Parser, binop_of};

/// Precedence of unary `not`: between `and` (2) and the comparisons.
const NOT_PREC: u8 = 3;
/// Precedence of the (non-associative) comparisons, `in` and `not in`.
const CMP_PREC: u8 = 4;

impl Parser {
    /// Expression = Test {',' Test} (a bare comma list is a tuple).
    pub(super) fn expression(&mut self) -> Result<Expr> {
        let start = self.i;
        let first = self.test()?;
        if self.peek() != &Tok::Comma {
            return Ok(first);
        }
        let pos = self.pos_of(start);
        let mut list = vec![first];
        while self.peek() == &Tok::Comma {
            let comma = self.pos();
            self.next();
            if terminates_list(self.peek()) {
                return Err(Error::syntax(
                    comma,
                    "unparenthesized tuple with trailing comma",
                ));
            }
            list.push(self.test()?);
        }
        Ok(Expr::new(ExprKind::Tuple(list), pos))
    }

    /// Test = Lambda | Or ['if' Or 'else' Test]. Every nested expression passes here, so
    /// this is where bracket, argument and lambda nesting is counted.
    pub(super) fn test(&mut self) -> Result<Expr> {
        self.descend(1)?;
        let x = self.test_body()?;
        self.ascend(1);
        Ok(x)
    }

    fn test_body(&mut self) -> Result<Expr> {
        if self.peek() == &Tok::Lambda {
            let pos = self.pos();
            self.next();
            let params = self.params(Tok::Colon)?;
            self.expect(Tok::Colon)?;
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
            let if_pos = self.pos();
            self.next();
            let cond = self.binary(0)?;
            if self.peek() != &Tok::Else {
                return Err(Error::syntax(
                    if_pos,
                    "conditional expression without else clause",
                ));
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

    /// Precedence climbing over `or`, `and`, `not`, comparisons and arithmetic, as in
    /// the Starlark spec: 1 `or`, 2 `and`, 3 unary `not`, 4 comparisons (`in`, `not in`),
    /// 5–10 bitwise and arithmetic; unary `-`/`+`/`~` bind tighter than all of them.
    /// Parses operators of precedence `min_prec` and above, left-associative,
    /// comparisons non-associative; `not` may start any operand of level 3 or below
    /// (`a and not b`, `not not a`). One loop per level reached, not one call per level.
    pub(super) fn binary(&mut self, min_prec: u8) -> Result<Expr> {
        let mut x = if min_prec <= NOT_PREC {
            self.not_test()?
        } else {
            self.primary_or_unary()?
        };
        // Each operator of a left-associative chain puts the operands before it one
        // level deeper.
        let mut links = 0;
        loop {
            // After an operand, `not` only starts `not in`.
            if self.peek() == &Tok::Not && self.peek2() != &Tok::In {
                self.next();
                return self.unexpected("in");
            }
            let (op, p) = match self.cur_binop() {
                Some(v) if v.1 >= min_prec => v,
                _ => {
                    self.ascend(links);
                    return Ok(x);
                }
            };
            self.descend(1)?;
            links += 1;
            let pos = self.pos();
            if op == BinOp::NotIn {
                self.next();
            }
            self.next();
            let y = self.binary(p + 1)?;
            x = Expr::new(ExprKind::Binary(op, Box::new(x), Box::new(y)), pos);
            if p == CMP_PREC
                && let Some((op2, CMP_PREC)) = self.cur_binop()
            {
                return self.err(format!(
                    "{} does not associate with {} (use parens)",
                    op.symbol(),
                    op2.symbol()
                ));
            }
        }
    }

    fn not_test(&mut self) -> Result<Expr> {
        if self.peek() == &Tok::Not {
            let pos = self.pos();
            self.descend(1)?;
            self.next();
            let y = self.not_test()?;
            self.ascend(1);
            return Ok(Expr::new(ExprKind::Unary(UnaryOp::Not, Box::new(y)), pos));
        }
        self.binary(CMP_PREC)
    }

    fn cur_binop(&self) -> Option<(BinOp, u8)> {
        let t = self.peek();
        if t == &Tok::Not {
            return if self.peek2() == &Tok::In {
                Some((BinOp::NotIn, CMP_PREC))
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
            | BinOp::NotIn => CMP_PREC,
            BinOp::BitOr => 5,
            BinOp::BitXor => 6,
            BinOp::BitAnd => 7,
            BinOp::Shl | BinOp::Shr => 8,
            BinOp::Add | BinOp::Sub => 9,
            BinOp::Mul | BinOp::Div | BinOp::FloorDiv | BinOp::Mod => 10,
        };
        Some((op, p))
    }

    pub(super) fn primary_or_unary(&mut self) -> Result<Expr> {
        let op = match self.peek() {
            Tok::Minus => Some(UnaryOp::Neg),
            Tok::Plus => Some(UnaryOp::Plus),
            Tok::Tilde => Some(UnaryOp::Invert),
            _ => None,
        };
        if let Some(op) = op {
            let pos = self.pos();
            self.descend(1)?;
            self.next();
            let x = self.primary_or_unary()?;
            self.ascend(1);
            return Ok(Expr::new(ExprKind::Unary(op, Box::new(x)), pos));
        }
        let mut x = self.operand()?;
        // Like a binary chain, each `.name`, call or index nests what precedes it.
        let mut links = 0;
        loop {
            if matches!(self.peek(), Tok::Dot | Tok::LParen | Tok::LBrack) {
                self.descend(1)?;
                links += 1;
            }
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
                    self.expect(Tok::RParen)?;
                    x = Expr::new(ExprKind::Call(Box::new(x), args), pos);
                }
                Tok::LBrack => {
                    let pos = self.pos();
                    self.next();
                    x = self.index_or_slice(x, pos)?;
                }
                _ => {
                    self.ascend(links);
                    return Ok(x);
                }
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
                        return self.unexpected("']'");
                    }
                    self.next();
                }
                _ => {
                    if parts[colons].is_some() {
                        return self.unexpected("']'");
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
                None => Err(Error::syntax(pos, "got ']', want primary expression")),
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

    /// Arguments up to `)`, as starlark-go reads them: a comma before each one after
    /// the first; `name=value` where the part before `=` is a name; a trailing comma
    /// only when no `*`/`**` came before it.
    fn call_args(&mut self) -> Result<Vec<Arg>> {
        let mut args = Vec::new();
        let mut stars = false;
        while !matches!(self.peek(), Tok::RParen | Tok::Eof) {
            if !args.is_empty() {
                self.expect(Tok::Comma)?;
            }
            if self.peek() == &Tok::RParen {
                if stars {
                    return self.unexpected("argument");
                }
                break;
            }
            match self.peek() {
                Tok::Star => {
                    stars = true;
                    self.next();
                    args.push(Arg::Star(self.test()?));
                }
                Tok::StarStar => {
                    stars = true;
                    self.next();
                    args.push(Arg::StarStar(self.test()?));
                }
                _ => {
                    let x = self.test()?;
                    if self.peek() != &Tok::Assign {
                        args.push(Arg::Pos(x));
                        continue;
                    }
                    let ExprKind::Ident(id) = x.kind else {
                        return self.err("keyword argument must have form name=expr");
                    };
                    self.next();
                    args.push(Arg::Named(Rc::from(id.name), self.test()?));
                }
            }
        }
        Ok(args)
    }

    fn operand(&mut self) -> Result<Expr> {
        let pos = self.pos();
        match self.peek() {
            Tok::Ident(_) | Tok::Str(_) | Tok::BigInt(_) => match self.next_tok() {
                Tok::Ident(n) => Ok(Expr::new(ExprKind::Ident(Ident::new(n, pos.clone())), pos)),
                Tok::Str(s) => Ok(Expr::new(ExprKind::Str(s), pos)),
                Tok::BigInt(v) => Ok(Expr::new(ExprKind::BigInt(v), pos)),
                _ => unreachable!("peeked an identifier, a string or a big int"),
            },
            &Tok::Int(v) => {
                self.next();
                Ok(Expr::new(ExprKind::Int(v), pos))
            }
            &Tok::Float(v) => {
                self.next();
                Ok(Expr::new(ExprKind::Float(v), pos))
            }
            Tok::LParen => {
                self.next();
                if self.peek() == &Tok::RParen {
                    self.next();
                    return Ok(Expr::new(ExprKind::Tuple(vec![]), pos));
                }
                let first = self.test()?;
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
                self.expect(Tok::RParen)?;
                Ok(Expr::new(ExprKind::Tuple(list), pos))
            }
            Tok::LBrack => {
                self.next();
                let mut list = Vec::new();
                if self.peek() != &Tok::RBrack {
                    let first = self.test()?;
                    if self.peek() == &Tok::For {
                        let clauses = self.comp_clauses(Tok::RBrack)?;
                        self.next();
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
                self.expect(Tok::RBrack)?;
                Ok(Expr::new(ExprKind::List(list), pos))
            }
            Tok::LBrace => {
                self.next();
                let mut entries = Vec::new();
                if self.peek() != &Tok::RBrace {
                    let k = self.test()?;
                    self.expect(Tok::Colon)?;
                    let v = self.test()?;
                    if self.peek() == &Tok::For {
                        let clauses = self.comp_clauses(Tok::RBrace)?;
                        self.next();
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
                        self.expect(Tok::Colon)?;
                        entries.push((k, self.test()?));
                    }
                }
                self.expect(Tok::RBrace)?;
                Ok(Expr::new(ExprKind::Dict(entries), pos))
            }
            _ => self.unexpected("primary expression"),
        }
    }

    /// The `for`/`if` clauses of a comprehension, up to (not past) `close`.
    fn comp_clauses(&mut self, close: Tok) -> Result<Vec<Clause>> {
        let mut clauses = Vec::new();
        loop {
            match self.peek() {
                Tok::For => {
                    self.next();
                    let vars = self.loop_vars()?;
                    self.expect(Tok::In)?;
                    let iter = self.binary(0)?;
                    clauses.push(Clause::For { vars, iter });
                }
                Tok::If => {
                    self.next();
                    clauses.push(Clause::If(self.binary(0)?));
                }
                t if *t == close => return Ok(clauses),
                _ => {
                    let want = format!("{}, for, or if", super::parser::tok_name(&close));
                    return self.unexpected(&want);
                }
            }
        }
    }
}

/// Tokens that end an expression list (starlark-go's `terminatesExprList`).
fn terminates_list(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Newline | Tok::Eof | Tok::Semi | Tok::Assign | Tok::RParen | Tok::RBrack | Tok::RBrace
    )
}
