//! Messages and results of ytt's library modules (`@ytt:overlay`, `@ytt:assert`, ...)
//! checked against what ytt 0.48's source prints: overlay errors name every enclosing
//! node ("Document on line …: Map item (key 'a') on line …: …"), the overlay files in
//! order, and the lines of the left nodes a wrong count matched; assertion messages.

use crate::support::ytt::render as render_args;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    render_args(files, &["-f", "."])
}

const LOAD_OVERLAY: &str = "#@ load(\"@ytt:overlay\", \"overlay\")\n";

#[test]
fn overlay_count_errors_name_each_enclosing_node_and_the_matched_lines() {
    let base = "a:\n  b:\n    c: 1\nl:\n- name: x\n- name: x\n";
    let nested = format!(
        "{LOAD_OVERLAY}#@overlay/match by=overlay.all\n---\na:\n  b:\n    #@overlay/match expects=2\n    c: 2\n"
    );
    let err = render(&[("base.yml", base), ("ov.yml", &nested)]).unwrap_err();
    assert!(
        err.contains(
            "Overlaying (in following order: ov.yml): Document on line ov.yml:3: \
             Map item (key 'a') on line ov.yml:4: Map item (key 'b') on line ov.yml:5: \
             Map item (key 'c') on line ov.yml:7: \
             Expected number of matched nodes to be 2, but was 1 (lines: base.yml:3)"
        ),
        "{err}"
    );
    let array = format!(
        "{LOAD_OVERLAY}#@overlay/match by=overlay.all\n---\nl:\n#@overlay/match by=\"name\"\n- name: x\n  v: 1\n"
    );
    let err = render(&[("base.yml", base), ("ov.yml", &array)]).unwrap_err();
    assert!(
        err.contains(
            "Map item (key 'l') on line ov.yml:4: Array item on line ov.yml:6: \
             Expected number of matched nodes to be 1, but was 2 (lines: base.yml:5, base.yml:6)"
        ),
        "{err}"
    );
    // Nothing matched: no lines to name.
    let none =
        format!("{LOAD_OVERLAY}#@overlay/match by=overlay.subset({{\"x\": 1}})\n---\na: 2\n");
    let err = render(&[("base.yml", base), ("ov.yml", &none)]).unwrap_err();
    assert!(
        err.contains(
            "Document on line ov.yml:3: Expected number of matched nodes to be 1, but was 0"
        ) && !err.contains("(lines:"),
        "{err}"
    );
}
