//! Hostile and runaway templates fail fast with an error at the template's file and line,
//! instead of crashing, hanging or exhausting memory: an alias bomb, YAML nested past the
//! parser's limit, Starlark values nested a hundred thousand levels deep (printed,
//! compared, hashed, converted to YAML) or containing themselves, endless loops and
//! recursion, and a 200 KB template line in an error message.

use std::time::{Duration, Instant};

use strake::cli::template::parse_options;
use strake::ytt::run;
use strake::ytt::starlark::eval::with_max_steps;

use crate::support::ytt;

fn render(files: &[(&str, &str)]) -> Result<String, String> {
    ytt::render(files, &["-f", "."])
}

fn render_err(body: &str) -> String {
    render(&[("config.yml", body)]).expect_err("rendering must fail")
}

/// The peak resident memory of this process so far, in KiB (Linux).
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// A def that nests an empty list `n` levels deep with a loop (no recursion).
const DEEP: &str = "#@ def deep(n):\n#@   x = []\n#@   for i in range(n):\n#@     x = [x]\n#@   end\n#@   return x\n#@ end\n";

#[test]
fn alias_bomb_fails_fast_in_bounded_memory() {
    // nine levels of nine aliases: 9^9 (387 million) strings once expanded
    let mut body = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let refs = vec![format!("*a{}", i - 1); 9].join(", ");
        body.push_str(&format!("a{i}: &a{i} [{refs}]\n"));
    }
    let started = Instant::now();
    let err = render_err(&body);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert!(
        err.contains("yaml: document contains excessive aliasing"),
        "{err}"
    );
    assert!(err.contains("config.yml:"), "{err}");
    if let Some(kib) = peak_rss_kib() {
        assert!(kib < 1024 * 1024, "peak RSS {kib} KiB");
    }
}

#[test]
fn yaml_nested_past_the_limit_is_refused() {
    let body = format!("a: {}1{}\n", "[".repeat(300), "]".repeat(300));
    let err = render_err(&body);
    assert!(
        err.contains("more than 255 levels of nested maps and arrays"),
        "{err}"
    );
    assert!(err.contains("config.yml:1 |"), "{err}");
}

#[test]
fn deep_starlark_value_as_yaml_is_an_error() {
    let err = render_err(&format!("{DEEP}v: #@ deep(100000)\n"));
    assert!(
        err.starts_with(
            "\n- value nested too deeply to convert to YAML: more than 1000 levels of lists, dicts and structs"
        ),
        "{err}"
    );
    assert!(err.contains("config.yml:8 |"), "{err}");
    // a list that contains itself
    let err = render_err("#@ x = []\n#@ x.append(x)\nv: #@ x\n");
    assert!(err.contains("or a value that contains itself"), "{err}");
    assert!(err.contains("config.yml:3 |"), "{err}");
}

#[test]
fn deep_starlark_values_print_compare_and_hash_within_limits() {
    // str() elides what is too deep to print
    let out = render(&[(
        "config.yml",
        &format!("{DEEP}#@ s = str(deep(100000))\nlen: #@ len(s)\nend: #@ s[995:1008]\n"),
    )])
    .unwrap();
    assert_eq!(
        out,
        format!("len: {}\nend: '[[[[[...]]]]]'\n", 1000 * 2 + 3)
    );
    // just under the limit a value converts, and overlays and the emitter walk it
    let out = render(&[
        ("config.yml", &format!("{DEEP}v: #@ deep(990)\n")),
        (
            "overlay.yml",
            "#@ load(\"@ytt:overlay\", \"overlay\")\n#@overlay/match by=overlay.all\n---\n#@overlay/match missing_ok=True\nw: 1\n",
        ),
    ])
    .unwrap();
    assert!(out.starts_with("v:\n- - - - "), "{}", &out[..40]);
    assert!(out.ends_with("[]\nw: 1\n"), "{}", &out[out.len() - 40..]);
    let err = render_err(&format!("{DEEP}v: #@ deep(100000) == deep(100000)\n"));
    assert!(
        err.contains("comparison exceeded maximum recursion depth"),
        "{err}"
    );
    assert!(err.contains("config.yml:8 |"), "{err}");
    let err = render_err(&format!("{DEEP}v: #@ deep(100000) < deep(100001)\n"));
    assert!(
        err.contains("comparison exceeded maximum recursion depth"),
        "{err}"
    );
    let tuple = "#@ def deep_tuple(n):\n#@   t = ()\n#@   for i in range(n):\n#@     t = (t,)\n#@   end\n#@   return t\n#@ end\nv: #@ {deep_tuple(100000): 1}\n";
    let err = render_err(tuple);
    assert!(
        err.contains("hash of a value nested too deeply (more than 1000 levels)"),
        "{err}"
    );
    assert!(err.contains("config.yml:8 |"), "{err}");
    // deep values that are only kept in globals (frozen, then dropped) are fine
    let out = render(&[(
        "config.yml",
        &format!("{DEEP}#@ kept = deep(100000)\n#@ t = (kept, {{\"k\": kept}})\nok: true\n"),
    )])
    .unwrap();
    assert_eq!(out, "ok: true\n");
}

#[test]
fn endless_loop_is_stopped_at_its_line() {
    let body = "#@ def spin():\n#@   i = 0\n#@   while True:\n#@     i += 1\n#@   end\n#@ end\nv: #@ spin()\n";
    let err = with_max_steps(100_000, || render_err(body));
    assert!(
        err.starts_with(
            "\n- Starlark computation cancelled: too many steps (more than 100000 loop iterations and function calls"
        ),
        "{err}"
    );
    assert!(err.contains("config.yml:3 |"), "{err}");
    assert!(err.contains("config.yml:3 | #@   while True:"), "{err}");
}

#[test]
fn endless_recursion_is_stopped_fast() {
    let started = Instant::now();
    let err = render_err(
        "#@ def forever(n):\n#@   return forever(n + 1)\n#@ end\nvalue: #@ forever(0)\n",
    );
    assert!(err.contains("Starlark stack overflow"), "{err}");
    assert!(err.contains("config.yml:"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn long_template_line_is_cut_in_errors() {
    let body = format!("a: #@ undefined_name + \"{}\"\n", "x".repeat(200_000));
    let err = render_err(&body);
    assert!(
        err.starts_with("\n- undefined: undefined_name"),
        "{}",
        &err[..200]
    );
    assert!(err.len() < 1000, "{} bytes", err.len());
    assert!(
        err.ends_with("... (199825 more characters)"),
        "{}",
        &err[err.len() - 100..]
    );
}

#[test]
fn a_large_installer_renders_far_below_the_step_limit() {
    // benches/ytt-installer: 3 MB of output in about 40,000 steps; a hundredth of the
    // default limit is still ten times more than it needs
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/ytt-installer");
    let opts = parse_options(&["-f", "."]).unwrap();
    let out = with_max_steps(500_000, || run(&opts, &root, &mut || Ok(Vec::new()))).unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.len() > 3_000_000, "{} bytes", text.len());
    assert_eq!(text.matches("\n---\n").count() + 1, 940);
    assert_eq!(
        text.matches("\nkind: CustomResourceDefinition\n").count(),
        40
    );
}
