//! Unit tests for the parser: node tree shape, positions and comment attachment as ytt does.

use super::*;

fn parse(src: &str) -> DocumentSet {
    parse_document_set(src, "f.yml").unwrap()
}

fn map(node: &Node) -> &Map {
    match node {
        Node::Map(m) => m,
        other => panic!("expected a map, got {other:?}"),
    }
}

fn array(node: &Node) -> &Array {
    match node {
        Node::Array(a) => a,
        other => panic!("expected an array, got {other:?}"),
    }
}

fn data(comments: &[Comment]) -> Vec<&str> {
    comments.iter().map(|c| c.data.as_str()).collect()
}

#[test]
fn map_items_have_key_lines_and_comments() {
    let ds = parse("#@ x = 1\na: #@ v\nb:\n  #@ if True:\n  c: 1\n  #@ end\nd: 2\n");
    assert_eq!(ds.docs.len(), 1);
    let doc = &ds.docs[0];
    assert_eq!(doc.pos.line, Some(1));
    assert!(doc.comments.is_empty());
    let m = map(&doc.value);
    let lines: Vec<_> = m.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(lines, [2, 3, 7]);
    // code above `a` and the value annotation on `a`'s line both belong to `a`
    assert_eq!(data(&m.items[0].comments), ["@ x = 1", "@ v"]);
    assert!(!m.items[0].comments[0].is_on_line_of(&m.items[0].pos));
    assert!(m.items[0].comments[1].is_on_line_of(&m.items[0].pos));
    assert!(m.items[0].value.is_null());
    let inner = map(&m.items[1].value);
    assert_eq!(data(&inner.items[0].comments), ["@ if True:"]);
    // `#@ end` is above `d`, so it belongs to `d`
    assert_eq!(data(&m.items[2].comments), ["@ end"]);
    assert!(ds.has_templating());
}

#[test]
fn trailing_comments_go_to_an_injected_document() {
    let ds = parse("#@ if x:\n---\na: 1\n#@ end\n");
    assert_eq!(ds.docs.len(), 3, "{ds:#?}");
    // the `---\n` ytt prepends makes an empty first document
    assert!(ds.docs[0].value.is_null());
    assert!(ds.docs[0].comments.is_empty());
    assert_eq!(ds.docs[0].pos.line, Some(1));
    assert_eq!(ds.docs[1].pos.line, Some(2));
    assert_eq!(data(&ds.docs[1].comments), ["@ if x:"]);
    assert!(ds.docs[2].injected);
    assert_eq!(data(&ds.docs[2].comments), ["@ end"]);
    assert_eq!(ds.docs[2].comments[0].pos.line, Some(4));
    assert_eq!(
        ds.printable_values(),
        vec![Value::Map(vec![(Value::str("a"), Value::Int(1))])]
    );
}

#[test]
fn document_level_comments_between_documents() {
    let src = "---\na: 1\n#@ if False:\n---\nb: 2\n#@ end\n---\nc: 3\n";
    let ds = parse(src);
    assert_eq!(ds.docs.len(), 3);
    assert_eq!(ds.docs[0].pos.line, Some(1));
    assert_eq!(data(&ds.docs[1].comments), ["@ if False:"]);
    assert_eq!(ds.docs[1].pos.line, Some(4));
    assert_eq!(data(&ds.docs[2].comments), ["@ end"]);
    assert_eq!(ds.docs[2].pos.line, Some(7));
}

#[test]
fn array_items_take_the_dash_line() {
    let src = "list:\n- 1\n-\n- - 2\n  - 3\n-\n  - solo\n- # c\n  x\n- [a,\n   b]\n";
    let ds = parse(src);
    let list = array(&map(&ds.docs[0].value).items[0].value);
    let lines: Vec<_> = list.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(lines, [2, 3, 4, 6, 8, 10]);
    assert!(list.items[1].value.is_null());
    let nested = array(&list.items[2].value);
    let nested_lines: Vec<_> = nested.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(nested_lines, [4, 5]);
    let solo = array(&list.items[3].value);
    assert_eq!(solo.items[0].pos.line, Some(7));
    assert_eq!(data(&list.items[4].comments), [" c"]);
    let flow = array(&list.items[5].value);
    let flow_lines: Vec<_> = flow.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(flow_lines, [10, 10]);
    assert!(!ds.has_templating());
    assert_eq!(ds.first_plain_comment().unwrap().pos.line, Some(8));
}

#[test]
fn array_item_annotations() {
    let ds = parse("items:\n#@ for x in [1]:\n- #@ x\n#@ end\n- a: 1\n  b: #@ y\n");
    let items = array(&map(&ds.docs[0].value).items[0].value);
    assert_eq!(data(&items.items[0].comments), ["@ for x in [1]:", "@ x"]);
    // `#@ end` belongs to the next item; `b: #@ y` to the inner map item, not the array item
    assert_eq!(data(&items.items[1].comments), ["@ end"]);
    let inner = map(&items.items[1].value);
    assert_eq!(data(&inner.items[1].comments), ["@ y"]);
}

#[test]
fn same_line_comment_goes_to_innermost_node() {
    let ds = parse("- a: #@ v\n");
    let items = array(&ds.docs[0].value);
    assert!(items.items[0].comments.is_empty());
    assert_eq!(data(&map(&items.items[0].value).items[0].comments), ["@ v"]);
}

#[test]
fn comment_kinds() {
    let ds = parse("#! ytt comment\na: 1 # plain\n");
    assert!(!ds.has_templating());
    let m = map(&ds.docs[0].value);
    let kinds: Vec<_> = m.items[0].comments.iter().map(Comment::kind).collect();
    assert_eq!(kinds, [CommentKind::YttComment, CommentKind::Plain]);
}

#[test]
fn comment_only_file() {
    let ds = parse("# nothing but a comment\n");
    assert_eq!(ds.docs.len(), 2);
    assert!(ds.docs[1].injected);
    assert!(ds.printable_values().is_empty());
}

#[test]
fn duplicate_keys_are_kept_until_overridden() {
    let mut ds = parse("a: 1\nb: 2\na: 3\n");
    assert_eq!(map(&ds.docs[0].value).items.len(), 3);
    ds.override_map_keys();
    let m = map(&ds.docs[0].value);
    assert_eq!(m.items.len(), 2);
    assert_eq!(m.items[0].pos.line, Some(3));
    assert_eq!(m.items[0].value, Node::Scalar(Value::Int(3)));
}

#[test]
fn merge_keys_and_aliases() {
    let ds = parse("base: &b\n  x: 1\n  k: 2\nweb:\n  <<: *b\n  k: 3\nlist: [*b]\n");
    let v = ds.docs[0].value.to_value();
    let web = v.get_str("web").unwrap();
    assert_eq!(
        web,
        &Value::Map(vec![
            (Value::str("x"), Value::Int(1)),
            (Value::str("k"), Value::Int(2)),
            (Value::str("k"), Value::Int(3)),
        ])
    );
    // merged items keep the anchor's lines
    let m = map(&ds.docs[0].value);
    let web_items = &map(&m.items[1].value).items;
    assert_eq!(web_items[0].pos.line, Some(2));
    assert_eq!(web_items[2].pos.line, Some(6));
    assert_eq!(
        v.get_str("list").unwrap(),
        &Value::Array(vec![v.get_str("base").unwrap().clone()])
    );
    let err = parse_document_set("a:\n  <<: 1\n", "m.yml").unwrap_err();
    assert!(err.message.contains("map merge requires map"), "{err}");
    assert_eq!(err.file, "m.yml");
}

#[test]
fn scalars_and_keys_resolve_like_go_yaml() {
    let ds = parse("1: one\n~: n\ntrue: t\n\"3\": q\nv: x\n");
    let v = ds.docs[0].value.to_value();
    let Value::Map(items) = &v else { panic!() };
    let keys: Vec<_> = items.iter().map(|(k, _)| k.clone()).collect();
    assert_eq!(
        keys,
        [
            Value::Int(1),
            Value::Null,
            Value::Bool(true),
            Value::str("3"),
            Value::str("v")
        ]
    );
}

#[test]
fn block_values_and_flow() {
    let v = parse("a: [yes, '1', !!str 2, 0755, 1e3]\nb: |\n  x\nc: >-\n  p\n  q\n").docs[0]
        .value
        .to_value();
    assert_eq!(
        v.get_str("a").unwrap(),
        &Value::Array(vec![
            Value::Bool(true),
            Value::str("1"),
            Value::str("2"),
            Value::Int(493),
            Value::Float(1000.0)
        ])
    );
    assert_eq!(v.get_str("b").unwrap(), &Value::str("x\n"));
    assert_eq!(v.get_str("c").unwrap(), &Value::str("p q"));
}

#[test]
fn errors_name_file_and_line() {
    let err = parse_document_set("a: 1\nb: [\n", "bad.yml").unwrap_err();
    assert_eq!(err.file, "bad.yml");
    assert!(err.line.is_some(), "{err}");
    assert!(err.to_string().starts_with("bad.yml:"), "{err}");
    let err = parse_document_set("a: !!int abc\n", "t.yml").unwrap_err();
    assert!(
        err.message.contains("cannot decode !!str `abc` as a !!int"),
        "{err}"
    );
    assert_eq!(err.line, Some(1));
}

#[test]
fn crlf_and_bom() {
    let ds = parse("\u{feff}a: 1\r\nb: |\r\n  x\r\n  y\r\n");
    let v = ds.docs[0].value.to_value();
    assert_eq!(v.get_str("b").unwrap(), &Value::str("x\ny\n"));
    assert_eq!(ds.source_line(1), Some("a: 1"));
    assert_eq!(map(&ds.docs[0].value).items[1].pos.line, Some(2));
}

#[test]
fn syntax_errors_win_over_build_errors() {
    // The bad merge comes first, but go-yaml reports the syntax error further down.
    let err = parse_document_set("<<: 5\nb: [1, 2\n", "f.yml").unwrap_err();
    assert!(err.message.starts_with("yaml: "), "{err}");
    assert!(!err.message.contains("merge"), "{err}");
    let err = parse_document_set("<<: 5\nb: 1\n", "f.yml").unwrap_err();
    assert_eq!(
        err.message,
        "yaml: map merge requires map or sequence of maps as the value"
    );
    assert_eq!(err.line, Some(1));
}

#[test]
fn item_lines_after_comments_and_breaks() {
    let ds = parse("a:\n- # c\n  x: 1\n-\n  # d\n  y: 2\n- [p, # c\n   q,\n   # e\n   r]\n");
    let Node::Map(m) = &ds.docs[0].value else {
        panic!("map")
    };
    let Node::Array(list) = &m.items[0].value else {
        panic!("array")
    };
    let lines: Vec<_> = list.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(lines, [2, 4, 7]);
    let Node::Array(flow) = &list.items[2].value else {
        panic!("flow")
    };
    let flow_lines: Vec<_> = flow.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(flow_lines, [7, 7, 8]);
    // `# d` (line 5) goes to the first node below it: the map item `y`.
    let y = &map(&list.items[1].value).items[0];
    assert_eq!(y.comments.len(), 1);
    assert_eq!(y.comments[0].data, " d");
    assert!(list.items[1].comments.is_empty());
}

#[test]
fn alias_bomb_fails_fast_with_a_clear_error() {
    // "billion laughs": nine levels of nine aliases would expand to 9^9 scalars
    let mut src = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        src.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let started = std::time::Instant::now();
    let err = parse_document_set(&src, "bomb.yml").unwrap_err();
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    assert_eq!(err.message, "yaml: document contains excessive aliasing");
    assert_eq!(err.file, "bomb.yml");
    assert!(matches!(err.line, Some(4..=6)), "{err}");
}

#[test]
fn moderate_aliasing_is_accepted() {
    // every alias of a small anchor, many times: far below the share go-yaml refuses
    let mut src = String::from("base: &b {x: 1, y: [1, 2, 3]}\n");
    for i in 0..200 {
        src.push_str(&format!("k{i}: *b\n"));
    }
    for i in 0..2000 {
        src.push_str(&format!("plain{i}: {{a: 1, b: 2}}\n"));
    }
    let ds = parse(&src);
    assert_eq!(map(&ds.docs[0].value).items.len(), 2201);
}

#[test]
fn deep_nesting_is_refused_with_the_limit_named() {
    for src in [
        format!("a: {}{}\n", "[".repeat(300), "]".repeat(300)),
        format!("{}x\n", "- ".repeat(300)),
    ] {
        let err = parse_document_set(&src, "deep.yml").unwrap_err();
        assert!(
            err.message
                .contains("more than 255 levels of nested maps and arrays"),
            "{err}"
        );
        assert_eq!(err.line, Some(1));
    }
    // at the limit it still parses
    parse(&format!("a: {}{}\n", "[".repeat(250), "]".repeat(250)));
}

#[test]
fn explicit_empty_key_sits_on_the_question_mark_line() {
    let ds = parse("? #@ k\n: #@ v\n? ~\n: 1\nx:\n  ?\n\n  : 2\n");
    let m = map(&ds.docs[0].value);
    let lines: Vec<_> = m.items.iter().map(|i| i.pos.line.unwrap()).collect();
    assert_eq!(lines, [1, 3, 5]);
    // the `?` line's comment is the item's; nothing sits on the `:` line
    assert_eq!(data(&m.items[0].comments), ["@ k"]);
    assert_eq!(data(&m.items[1].comments), ["@ v"]);
    let inner = map(&m.items[2].value);
    assert_eq!(inner.items[0].pos.line, Some(6));
}

/// A `#` right after a quoted scalar starts a comment, as in libyaml: each such spot is
/// rewritten for granit and the text parsed again, up to `MAX_REWRITES` times; a text
/// with more keeps granit's error rather than being parsed over and over.
#[test]
fn comments_right_after_a_token_are_read_up_to_a_bound() {
    let text = |n: usize| -> String { (0..n).map(|i| format!("k{i}: \"v\"# c\n")).collect() };
    let set = parse(&text(3));
    assert_eq!(set.docs.len(), 1);
    let many = text(super::parse::MAX_REWRITES as usize + 1);
    let started = std::time::Instant::now();
    assert!(parse_document_set(&many, "f.yml").is_err());
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
}
