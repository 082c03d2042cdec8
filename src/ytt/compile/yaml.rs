//! Compiles a YAML template (a parsed [`DocumentSet`]) into a Starlark [`Program`] whose
//! host calls rebuild the documents, the way ytt's yamltemplate does: every document,
//! map, array, map item and array item gets a tag; `#@ code` above a node is copied as
//! code, `#@ expr` on a node's line sets its value, `#@name args` becomes an annotation
//! call, and `#@yaml/text-templated-strings` turns strings into text templates.
//!
//! Nodes are attached to the latest instance of their parent's tag, so node building
//! needs no "end node" calls and works across `if`/`for`/`def` blocks.

use std::rc::Rc;

use crate::yaml::{self, CommentKind, DocumentSet, Value};

use super::constant::constant_args;
use super::program::{BlockError, Program, host_call};
use super::text::{self, starlark_string};
use crate::ytt::node::{Ann, Pos};

/// Starts an instance of a node: `__ytt_start(tag)` or `__ytt_start(tag, key)`.
pub use super::program::START;
/// Sets a node's value from an expression: `__ytt_set(tag, value)`.
pub const SET: &str = "__ytt_set";
/// Name of the host function that names the node whose value expression follows:
/// `__ytt_set(__ytt_at(tag), (expr))`, so that a `template.replace(...)` the expression
/// calls replaces that node, as ytt starts the node before it evaluates its value.
/// Left out when the expression calls nothing.
pub const AT: &str = "__ytt_at";
/// Records an annotation for the next instance of a node: `__ytt_annot(tag, name, line, args…)`.
pub const ANNOT: &str = "__ytt_annot";

/// What a tag stands for.
#[derive(Debug, Clone)]
pub enum TKind {
    DocSet,
    /// A document; `scalar` is its static scalar value (when it is not a collection).
    Doc {
        scalar: Option<Value>,
    },
    Map,
    Array,
    MapItem {
        key: Value,
        scalar: Option<Value>,
    },
    ArrayItem {
        scalar: Option<Value>,
    },
}

/// One template node.
#[derive(Debug, Clone)]
pub struct TNode {
    pub kind: TKind,
    pub parent: Option<usize>,
    pub pos: Pos,
    /// The node's annotations in source order when some of them are constant (see
    /// [`AnnSlot`]); empty when all of them are recorded by `__ytt_annot` calls.
    pub anns: Box<[AnnSlot]>,
}

/// One annotation of a node. An annotation whose arguments are constants
/// (`#@schema/nullable`, `#@schema/title "Replicas"`, `#@schema/validation min_len=1`;
/// see [`constant_args`]) has the same value at every instance of the node: it is made
/// here, once, instead of by an `__ytt_annot` call that the program would lex, parse and
/// run (73 of the 92 annotations of the Pinniped supervisor's values schema). The others
/// stay calls, and each instance's annotations are the constant ones with the called
/// ones in their places.
#[derive(Debug, Clone)]
pub enum AnnSlot {
    Constant(Ann),
    Called,
}

/// A compiled YAML template.
#[derive(Debug)]
pub struct Compiled {
    pub prog: Program,
    pub nodes: Rc<Vec<TNode>>,
}

/// Options that change how templates compile.
#[derive(Debug, Clone, Copy, Default)]
pub struct CompileOpts {
    pub ignore_unknown_comments: bool,
    /// Whether value expressions that call something name their node first ([`AT`]):
    /// only a file that loads `@ytt:template` has a `template.replace` bound to it.
    pub names_value_nodes: bool,
}

struct Compiler {
    prog: Program,
    nodes: Vec<TNode>,
    file: Rc<str>,
    opts: CompileOpts,
}

/// A compile error at a template line.
#[derive(Debug, Clone, PartialEq)]
pub struct CompileError {
    pub line: usize,
    pub message: String,
    /// A Starlark syntax error (shown as ytt shows those).
    pub syntax: bool,
}

impl From<BlockError> for CompileError {
    fn from(e: BlockError) -> Self {
        CompileError {
            line: e.line,
            message: e.message,
            syntax: e.syntax,
        }
    }
}

/// Compiles a document set into a program that builds it.
pub fn compile(ds: &DocumentSet, opts: CompileOpts) -> Result<Compiled, CompileError> {
    let mut c = Compiler {
        prog: Program::new("yaml"),
        nodes: Vec::new(),
        file: Rc::from(&*ds.file),
        opts,
    };
    let root = c.add(TKind::DocSet, None, 1);
    c.prog.push_plain(host_call(START, root, &[]), 1);
    for doc in &ds.docs {
        c.doc(doc, root)?;
    }
    c.prog.check_blocks()?;
    Ok(Compiled {
        prog: c.prog,
        nodes: Rc::new(c.nodes),
    })
}

fn line_of(p: &yaml::Position) -> usize {
    p.line.unwrap_or(0)
}

impl Compiler {
    fn add(&mut self, kind: TKind, parent: Option<usize>, line: usize) -> usize {
        self.nodes.push(TNode {
            kind,
            parent,
            pos: Pos {
                file: self.file.clone(),
                line,
            },
            anns: Box::default(),
        });
        self.nodes.len() - 1
    }

    /// Emits the code lines and annotation calls of a node's comments; returns the value
    /// expression (from `#@ expr` on the node's line), whether strings below are
    /// text templates, and the line of an `#@ if/end …:` or `#@ for/end …:` whose
    /// block the caller closes after the node (see [`node_sugar`]).
    fn comments(
        &mut self,
        comments: &[yaml::Comment],
        node_pos: &yaml::Position,
        tag: usize,
        templated: bool,
    ) -> Result<NodeComments, CompileError> {
        let mut value = None;
        // `#@template/value expr` sets the value too; the last one counts, and a value
        // on the node's own line wins over all of them.
        let mut annotated_value = None;
        let mut anns = Vec::new();
        let mut templated = templated;
        let mut sugar_line = None;
        for c in comments {
            match c.kind() {
                CommentKind::YttComment => {}
                CommentKind::Plain => {
                    if !self.opts.ignore_unknown_comments {
                        return Err(CompileError {
                            syntax: false,
                            line: line_of(&c.pos),
                            message: format!(
                                "Compiling YAML template '{}': Failed to parse line {}: '#{}': Expected ytt-formatted string (use '#@' for annotations or code, '#!' for comments)",
                                self.file,
                                line_of(&c.pos),
                                c.data
                            ),
                        });
                    }
                }
                CommentKind::Ytt => {
                    // ytt 0.48 takes the text up to the first space as one name, commas
                    // and all.
                    if let Some(a) = c.annotation() {
                        let line = line_of(&c.pos);
                        // `#@template/code code` is the long form of a `#@ code` line: never
                        // the node's value, even on the node's own line.
                        let long_code = a.name == "template/code";
                        if a.name.is_empty() || long_code {
                            if !long_code && c.is_on_line_of(node_pos) && value.is_none() {
                                value = Some((a.content.to_string(), line));
                            } else if sugar_line.is_some() {
                                return Err(CompileError {
                                    syntax: false,
                                    line,
                                    message: format!(
                                        "Compiling YAML template '{0}': Unexpected code at line {0}:{line} after use of '*/end', expected YAML node",
                                        self.file
                                    ),
                                });
                            } else if let Some(code) = node_sugar(a.content) {
                                self.prog.push_code(&code, line)?;
                                sugar_line = Some(line);
                            } else {
                                self.prog.push_code(a.content, line)?;
                            }
                        } else if a.name == "template/value" {
                            annotated_value = Some((a.content.to_string(), line));
                        } else if a.name == "comment" {
                            // `#@comment text`: a comment that ytt drops.
                        } else if a.name == "yaml/text-templated-strings" {
                            templated = true;
                        } else {
                            anns.push((a.name, a.content, line));
                        }
                    }
                }
            }
        }
        let mut slots = Vec::new();
        let mut any_constant = false;
        for (name, content, line) in anns {
            // ytt puts an annotation's name between double quotes in the generated
            // code as it is: a name holding a quote or a backslash breaks that string
            // literal (`#@load("@ytt:data", …)` names `load("@ytt:data",`), and the
            // code that results fails as ytt's does.
            let raw_name = name.contains(['"', '\\']);
            if tag < self.nodes.len()
                && !raw_name
                && let Some((args, kwargs)) = constant_args(content)
            {
                any_constant = true;
                slots.push(AnnSlot::Constant(Ann {
                    name: name.to_string(),
                    args,
                    kwargs,
                    pos: Pos {
                        file: self.file.clone(),
                        line,
                    },
                }));
                continue;
            }
            slots.push(AnnSlot::Called);
            let name = if raw_name {
                format!("\"{name}\"")
            } else {
                starlark_string(name)
            };
            let line_text = line.to_string();
            let mut args = vec![", ", name.as_str(), ", ", line_text.as_str()];
            if !content.trim().is_empty() {
                args.extend([", ", content]);
            }
            // The annotation's own line goes along (schema reports point at it).
            self.prog.push_plain(host_call(ANNOT, tag, &args), line);
        }
        if any_constant {
            self.nodes[tag].anns = slots.into_boxed_slice();
        }
        Ok(NodeComments {
            value: value.or(annotated_value),
            templated,
            sugar_line,
        })
    }

    /// Closes the block that an `#@ if/end` or `#@ for/end` opened before the node.
    fn close_sugar(&mut self, sugar_line: Option<usize>) -> Result<(), CompileError> {
        if let Some(line) = sugar_line {
            self.prog.push_code("end", line)?;
        }
        Ok(())
    }

    fn doc(&mut self, doc: &yaml::Document, root: usize) -> Result<(), CompileError> {
        // The injected document after the last one holds the file's trailing comments
        // (a closing `#@ end`, or annotations with no node after them). As in ytt it is a
        // null document like any other: never printed, but an overlay when annotated so.
        let line = if doc.injected {
            doc.comments
                .last()
                .map(|c| line_of(&c.pos))
                .unwrap_or(1)
                .max(1)
        } else {
            line_of(&doc.pos).max(1)
        };
        let scalar = match &doc.value {
            yaml::Node::Scalar(v) => Some(v.clone()),
            _ => None,
        };
        let tag = self.add(TKind::Doc { scalar }, Some(root), line);
        let nc = self.comments(&doc.comments, &doc.pos, tag, false)?;
        if let Some((expr, vline)) = nc.value {
            both_values(&self.file, &doc.value, vline)?;
            self.prog.push_builder(
                set_call(tag, &expr, None, self.opts.names_value_nodes),
                vline,
            );
        } else {
            self.start_with_value(tag, &doc.value, line, nc.templated)?;
        }
        self.close_sugar(nc.sugar_line)
    }

    /// Starts `tag` and builds its value (`value` is the item's or document's value).
    fn start_with_value(
        &mut self,
        tag: usize,
        value: &yaml::Node,
        line: usize,
        templated: bool,
    ) -> Result<(), CompileError> {
        match value {
            yaml::Node::Scalar(Value::String(s)) if templated && text::has_directives(s) => {
                self.text_value(tag, s, line)
            }
            yaml::Node::Scalar(_) => {
                self.prog.push_start(tag, line);
                Ok(())
            }
            yaml::Node::Map(m) => {
                self.prog.push_start(tag, line);
                let mtag = self.add(TKind::Map, Some(tag), line);
                self.prog.push_start(mtag, line);
                for item in &m.items {
                    self.map_item(item, mtag, templated)?;
                }
                Ok(())
            }
            yaml::Node::Array(a) => {
                self.prog.push_start(tag, line);
                let atag = self.add(TKind::Array, Some(tag), line);
                self.prog.push_start(atag, line);
                for item in &a.items {
                    self.array_item(item, atag, templated)?;
                }
                Ok(())
            }
        }
    }

    /// A text template error of this file, led as ytt leads a YAML template's.
    fn text_error(&self, e: text::TextError) -> BlockError {
        e.led_by(&format!("Compiling YAML template '{}'", self.file))
    }

    fn text_value(&mut self, tag: usize, s: &str, line: usize) -> Result<(), CompileError> {
        self.prog.push_builder(
            format!("{}(\"inline-text\")", super::program::BEGIN_CTX),
            line,
        );
        text::compile_into(&mut self.prog, s, line).map_err(|e| self.text_error(e))?;
        self.prog
            .push_builder(format!("{SET}({tag}, {}())", super::program::END_CTX), line);
        Ok(())
    }

    fn map_item(
        &mut self,
        item: &yaml::MapItem,
        parent: usize,
        templated: bool,
    ) -> Result<(), CompileError> {
        let line = line_of(&item.pos);
        let scalar = match &item.value {
            yaml::Node::Scalar(v) => Some(v.clone()),
            _ => None,
        };
        let tag = self.add(
            TKind::MapItem {
                key: item.key.clone(),
                scalar,
            },
            Some(parent),
            line,
        );
        let nc = self.comments(&item.comments, &item.pos, tag, templated)?;
        self.map_item_value(item, tag, line, nc.value, nc.templated)?;
        self.close_sugar(nc.sugar_line)
    }

    /// Builds a map item whose comments were handled: its key and value.
    fn map_item_value(
        &mut self,
        item: &yaml::MapItem,
        tag: usize,
        line: usize,
        value: Option<(String, usize)>,
        templated: bool,
    ) -> Result<(), CompileError> {
        let key_expr = match &item.key {
            Value::String(k) if templated && text::has_directives(k) => {
                self.prog.push_builder(
                    format!("{}(\"inline-text\")", super::program::BEGIN_CTX),
                    line,
                );
                text::compile_into(&mut self.prog, k, line).map_err(|e| self.text_error(e))?;
                Some(format!("{}()", super::program::END_CTX))
            }
            _ => None,
        };
        if let Some((expr, vline)) = value {
            both_values(&self.file, &item.value, vline)?;
            match key_expr {
                Some(k) => self.prog.push_builder(
                    set_call(tag, &expr, Some(&k), self.opts.names_value_nodes),
                    vline,
                ),
                None => self.prog.push_builder(
                    set_call(tag, &expr, None, self.opts.names_value_nodes),
                    vline,
                ),
            }
            return Ok(());
        }
        if let Some(k) = key_expr {
            if let yaml::Node::Scalar(Value::String(s)) = &item.value
                && templated
                && text::has_directives(s)
            {
                // Both key and value are text templates: the value's context is the
                // inner one, ended first.
                self.prog.push_builder(
                    format!("{}(\"inline-text\")", super::program::BEGIN_CTX),
                    line,
                );
                text::compile_into(&mut self.prog, s, line).map_err(|e| self.text_error(e))?;
                let value = format!("{}()", super::program::END_CTX);
                self.prog
                    .push_builder(host_call(SET, tag, &[", ", &value, ", ", &k]), line);
                return Ok(());
            }
            // The key is computed; the value is built as usual below.
            self.prog
                .push_builder(host_call(START, tag, &[", ", &k]), line);
            return self.children(tag, &item.value, line, templated);
        }
        self.start_with_value(tag, &item.value, line, templated)
    }

    /// Builds the children of an already started item (used with computed keys).
    fn children(
        &mut self,
        tag: usize,
        value: &yaml::Node,
        line: usize,
        templated: bool,
    ) -> Result<(), CompileError> {
        match value {
            yaml::Node::Scalar(Value::String(s)) if templated && text::has_directives(s) => {
                self.text_value(tag, s, line)
            }
            yaml::Node::Scalar(_) => Ok(()),
            yaml::Node::Map(m) => {
                let mtag = self.add(TKind::Map, Some(tag), line);
                self.prog.push_start(mtag, line);
                for item in &m.items {
                    self.map_item(item, mtag, templated)?;
                }
                Ok(())
            }
            yaml::Node::Array(a) => {
                let atag = self.add(TKind::Array, Some(tag), line);
                self.prog.push_start(atag, line);
                for item in &a.items {
                    self.array_item(item, atag, templated)?;
                }
                Ok(())
            }
        }
    }

    fn array_item(
        &mut self,
        item: &yaml::ArrayItem,
        parent: usize,
        templated: bool,
    ) -> Result<(), CompileError> {
        let line = line_of(&item.pos);
        let scalar = match &item.value {
            yaml::Node::Scalar(v) => Some(v.clone()),
            _ => None,
        };
        let tag = self.add(TKind::ArrayItem { scalar }, Some(parent), line);
        let nc = self.comments(&item.comments, &item.pos, tag, templated)?;
        if let Some((expr, vline)) = nc.value {
            both_values(&self.file, &item.value, vline)?;
            self.prog.push_builder(
                set_call(tag, &expr, None, self.opts.names_value_nodes),
                vline,
            );
        } else {
            self.start_with_value(tag, &item.value, line, nc.templated)?;
        }
        self.close_sugar(nc.sugar_line)
    }
}

/// `__ytt_set(tag, (expr)[, key])`, naming the node first (see [`AT`]) when `names_node`
/// and `expr` may call a function.
fn set_call(tag: usize, expr: &str, key: Option<&str>, names_node: bool) -> String {
    let tag = if names_node && expr.contains('(') {
        format!("{AT}({tag})")
    } else {
        tag.to_string()
    };
    match key {
        Some(k) => format!("{SET}({tag}, ({expr}), {k})"),
        None => format!("{SET}({tag}, ({expr}))"),
    }
}

/// A node whose value is computed (`#@ expr`, `#@template/value`) may not also have a
/// value in YAML (children, or a scalar other than null): ytt refuses the ambiguity.
fn both_values(file: &str, yaml_value: &yaml::Node, line: usize) -> Result<(), CompileError> {
    let has_yaml = match yaml_value {
        yaml::Node::Scalar(v) => *v != Value::Null,
        yaml::Node::Map(m) => !m.items.is_empty(),
        yaml::Node::Array(a) => !a.items.is_empty(),
    };
    if has_yaml {
        return Err(CompileError {
            syntax: false,
            line,
            message: format!(
                "Compiling YAML template '{file}': Expected YAML node at line {file}:{line} to have either computed or YAML value, but found both"
            ),
        });
    }
    Ok(())
}

/// What a node's comments give the node.
struct NodeComments {
    /// `#@ expr` on the node's line, and that line.
    value: Option<(String, usize)>,
    /// Strings below are text templates.
    templated: bool,
    /// The line of an `#@ if/end` (`for/end`, `elif/end`, `else/end`, `def/end`) whose
    /// block ends after the node.
    sugar_line: Option<usize>,
}

/// The code of a node-scoped block opener: `if/end COND:` is `if COND:` and
/// `for/end X in XS:` is `for X in XS:`, blocks that guard or repeat the next node
/// only and need no `#@ end`. As in ytt's `extractMetas`, `elif/end COND:` and
/// `else/end:` are the last branch of an `if` (the `end` after the node closes it), and
/// `def/end NAME(…):` makes the node the whole body of a function.
fn node_sugar(code: &str) -> Option<String> {
    let body = code.trim_start();
    let indent = &code[..code.len() - body.len()];
    ["if", "else", "elif", "for", "def"]
        .into_iter()
        .find_map(|keyword| {
            let rest = body.strip_prefix(keyword)?.strip_prefix("/end")?;
            Some(format!("{indent}{keyword}{rest}"))
        })
}

/// The source text of template line `line`, for error messages.
pub fn source_line(ds: &DocumentSet, line: usize) -> Option<String> {
    ds.source_line(line).map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn generate(src: &str) -> String {
        let ds = yaml::parse_document_set(src, "t.yml").unwrap();
        compile(&ds, CompileOpts::default()).unwrap().prog.source()
    }

    #[test]
    fn value_annotations_and_code() {
        let src = "#@ x = 1\na: #@ x\nb:\n- 2\n";
        assert_eq!(
            generate(src),
            "__ytt_start(0)\n__ytt_starts(1, 2)\nx = 1\n__ytt_set(3, (x))\n__ytt_starts(4, 6)\n"
        );
    }

    #[test]
    fn plain_starts_share_a_line_until_code_or_another_call_comes_between() {
        let src = "a:\n  b: 1\n  c: 2\n#@ if True:\nd: 3\n#@ end\ne: #@ 1\nf: 4\n";
        assert_eq!(
            generate(src),
            "__ytt_start(0)\n__ytt_starts(1, 6)\nif True:\n__ytt_start(7)\nend\n\
             __ytt_set(8, (1))\n__ytt_start(9)\n"
        );
    }

    #[test]
    fn a_def_whose_body_is_a_run_of_plain_nodes_still_returns_a_fragment() {
        let src = "#@ def f():\na: 1\nb: 2\n#@ end\nx: #@ f()\n";
        let out = generate(src);
        assert!(
            out.contains("__ytt_begin(\"yaml\")\n__ytt_starts("),
            "{out}"
        );
        assert!(out.contains("return __ytt_end()\nend\n"), "{out}");
    }

    #[test]
    fn host_calls_print_their_tag_and_arguments() {
        assert_eq!(host_call(START, 0, &[]), "__ytt_start(0)");
        assert_eq!(host_call(START, 1907, &[", k"]), "__ytt_start(1907, k)");
        assert_eq!(
            host_call(SET, usize::MAX, &[", (", "x", ")"]),
            format!("__ytt_set({}, (x))", usize::MAX)
        );
    }

    #[test]
    fn constant_annotations_stay_out_of_the_program_and_keep_their_places() {
        let src = "#@a\n#@b 1 + 1\n#@c \"text\"\n#@d 'it'\nx: 1\n#@e\ny: 2\n";
        let ds = yaml::parse_document_set(src, "t.yml").unwrap();
        let c = compile(&ds, CompileOpts::default()).unwrap();
        let prog = c.prog.source();
        assert_eq!(prog.matches(ANNOT).count(), 1, "{prog}");
        assert!(prog.contains("__ytt_annot(3, \"b\", 2, 1 + 1)"), "{prog}");
        let describe = |tag: usize| {
            c.nodes[tag]
                .anns
                .iter()
                .map(|slot| match slot {
                    AnnSlot::Constant(a) => format!(
                        "{}@{}{:?}",
                        a.name,
                        a.pos.line,
                        a.args
                            .iter()
                            .map(|v| v.as_str().unwrap())
                            .collect::<Vec<_>>()
                    ),
                    AnnSlot::Called => "called".into(),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(
            describe(3),
            ["a@1[]", "called", "c@3[\"text\"]", "d@4[\"it\"]"]
        );
        assert_eq!(describe(4), ["e@6[]"]);
    }

    #[test]
    fn def_with_yaml_body_returns_fragment() {
        let src = "#@ def f():\na: 1\n#@ end\nb: #@ f()\n";
        let out = generate(src);
        assert!(out.contains("def f():\n__ytt_begin(\"yaml\")\n"), "{out}");
        assert!(out.contains("return __ytt_end()\nend\n"), "{out}");
    }
}
