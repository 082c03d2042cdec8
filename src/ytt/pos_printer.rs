//! `-o pos`: prints every output node beside the template position it came from, as
//! ytt's file position printer does. Each line starts with the position (`file:line`,
//! right-aligned in a column that widens to the longest position seen plus ten) and
//! ` | `; nodes without a known position (values computed in memory) get no column at
//! all. Documents print as `[doc]`, map items as `key: value` (or `key:` with the value
//! on the following lines when it is a collection or a multi-line scalar), array items as
//! `[i] value`. There is no separator between documents; the column width carries over.

use crate::yaml::Value;
use crate::ytt::error::Error;
use crate::ytt::node::{Doc, Node, Pos};

/// Prints the given documents (already chosen for output) in `-o pos` layout.
pub fn print_docs(docs: &[Doc]) -> Result<String, Error> {
    let mut p = PosPrinter::default();
    for d in docs {
        let col = p.column(&d.meta.pos);
        p.out.push_str(&col);
        p.out.push_str("[doc]\n");
        p.node(&d.value, "  ")?;
    }
    Ok(p.out)
}

#[derive(Default)]
struct PosPrinter {
    out: String,
    /// Width of the position column; grows to a position's length plus ten when one
    /// does not fit.
    width: usize,
}

impl PosPrinter {
    fn node(&mut self, node: &Node, indent: &str) -> Result<(), Error> {
        let deeper = format!("{indent}  ");
        match node {
            Node::Map(items) => {
                for item in items {
                    let col = self.column(&item.meta.pos);
                    let key = crate::ytt::go_type::percent_s(&item.key);
                    match single_line_leaf(&item.value)? {
                        Some(leaf) => {
                            self.out.push_str(&format!("{col}{indent}{key}: {leaf}\n"));
                        }
                        None => {
                            self.out.push_str(&format!("{col}{indent}{key}:\n"));
                            self.node(&item.value, &deeper)?;
                        }
                    }
                }
            }
            Node::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    let col = self.column(&item.meta.pos);
                    match single_line_leaf(&item.value)? {
                        Some(leaf) => self.out.push_str(&format!("{col}{indent}[{i}] {leaf}\n")),
                        None => {
                            self.out.push_str(&format!("{col}{indent}[{i}]\n"));
                            self.node(&item.value, &deeper)?;
                        }
                    }
                }
            }
            Node::Scalar(v) => {
                // ytt passes this line to Printf as the format string itself.
                let text = format!("{indent}{}\n", scalar_yaml(v)?);
                let col = self.pad("");
                self.out.push_str(&col);
                self.out.push_str(&go_printf_without_args(&text));
            }
            Node::Shared(s) => self.node(&s.0.borrow(), indent)?,
        }
        Ok(())
    }

    /// The position column for `pos`; empty when the position is unknown.
    fn column(&mut self, pos: &Pos) -> String {
        if pos.line == 0 {
            return String::new();
        }
        let compact = if pos.file.is_empty() {
            pos.line.to_string()
        } else {
            format!("{}:{}", pos.file, pos.line)
        };
        self.pad(&compact)
    }

    fn pad(&mut self, s: &str) -> String {
        if s.len() > self.width {
            self.width = s.len() + 10;
        }
        format!("{s:>w$} | ", w = self.width)
    }
}

/// A scalar printed as YAML (no trailing newline), when it fits on one line; `None` for
/// collections and multi-line scalars.
fn single_line_leaf(node: &Node) -> Result<Option<String>, Error> {
    match node {
        Node::Scalar(v) => {
            let s = scalar_yaml(v)?;
            Ok((!s.contains('\n')).then_some(s))
        }
        _ => Ok(None),
    }
}

/// A scalar as go-yaml marshals it, without the final newline.
fn scalar_yaml(v: &Value) -> Result<String, Error> {
    let mut s =
        crate::yaml::to_yaml_document(v).map_err(|e| Error::msg(format!("printing YAML: {e}")))?;
    if s.ends_with('\n') {
        s.pop();
    }
    Ok(s)
}

/// What Go's `Printf(s)` prints for a format string `s` given no arguments: `%%` is a
/// percent sign, every other directive becomes `%!x(MISSING)` (`%!(NOVERB)` at the end).
fn go_printf_without_args(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // flags, width, precision and argument indexes, then the verb
        while let Some(&n) = chars.peek() {
            if "+-# 0".contains(n) || n.is_ascii_digit() || ".[]*".contains(n) {
                chars.next();
            } else {
                break;
            }
        }
        match chars.next() {
            None => out.push_str("%!(NOVERB)"),
            Some('%') => out.push('%'),
            Some(verb) => out.push_str(&format!("%!{verb}(MISSING)")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ytt::node::{ArrayItem, MapItem, Meta};
    use std::rc::Rc;

    fn at(line: usize) -> Meta {
        Meta::at(Pos {
            file: Rc::from("tpl.yml"),
            line,
        })
    }

    #[test]
    fn prints_items_with_their_positions() {
        let doc = Doc {
            meta: at(1),
            value: Node::Map(vec![
                MapItem {
                    key: Value::String("a".into()),
                    value: Node::Scalar(Value::Int(1)),
                    meta: at(1),
                },
                MapItem {
                    key: Value::String("list".into()),
                    value: Node::Array(vec![ArrayItem {
                        value: Node::Scalar(Value::String("true".into())),
                        meta: at(3),
                    }]),
                    meta: at(2),
                },
                MapItem {
                    key: Value::String("text".into()),
                    value: Node::Scalar(Value::String("x\ny\n".into())),
                    meta: Meta::default(),
                },
            ]),
        };
        let out = print_docs(&[doc]).unwrap();
        assert_eq!(
            out,
            concat!(
                "          tpl.yml:1 | [doc]\n",
                "          tpl.yml:1 |   a: 1\n",
                "          tpl.yml:2 |   list:\n",
                "          tpl.yml:3 |     [0] \"true\"\n",
                "  text:\n",
                "                    |     |\n",
                "  x\n",
                "  y\n",
            )
        );
    }

    #[test]
    fn go_formats() {
        assert_eq!(
            go_printf_without_args("a %d 100%% %"),
            "a %!d(MISSING) 100% %!(NOVERB)"
        );
    }
}
