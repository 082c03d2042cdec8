//! How the `strake` process behaves at its edges: a closed pipe on stdout is an error the
//! command reports by its exit status, not a SIGPIPE kill; closed standard descriptors
//! are reopened on /dev/null; a value nested 100,000 deep prints without overflowing
//! the stack; exit codes and stdout flushing hold.

use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Command, Stdio};

fn strake() -> Command {
    Command::new(assert_cmd::cargo::cargo_bin("strake"))
}

#[test]
fn writing_to_a_closed_pipe_exits_1_instead_of_dying_of_sigpipe() {
    let dir = tempfile::tempdir().unwrap();
    // Large enough that the write cannot complete before the pipe is found closed.
    let body: String = (0..20_000).map(|i| format!("k{i}: {i}\n")).collect();
    std::fs::write(dir.path().join("big.yml"), body).unwrap();
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = strake()
        .current_dir(dir.path())
        .args(["template", "-f", "big.yml"])
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(
        out.status.signal(),
        None,
        "killed by a signal: {:?}",
        out.status
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}

#[test]
fn closed_standard_descriptors_are_reopened_on_dev_null() {
    // strake reads a named pipe, so it waits in `open` until the test writes; meanwhile
    // /proc shows its descriptors 0 and 1. (Rust's stdio treats a closed descriptor as
    // empty, so only a file opened later on descriptor 1 would show the difference.)
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("values.yml");
    let fifo_c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(fifo_c.as_ptr(), 0o600) }, 0);
    let mut command = strake();
    command
        .current_dir(dir.path())
        .args(["template", "-f", "values.yml"])
        .stderr(Stdio::piped());
    // SAFETY: close is async-signal-safe, as pre_exec requires.
    unsafe {
        command.pre_exec(|| {
            libc::close(0);
            libc::close(1);
            Ok(())
        });
    }
    let child = command.spawn().unwrap();
    let link = |fd: u32| std::fs::read_link(format!("/proc/{}/fd/{fd}", child.id())).ok();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut seen = (None, None);
    while std::time::Instant::now() < deadline {
        seen = (link(0), link(1));
        if seen.0.is_some() && seen.1.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Unblock strake whatever was seen.
    std::fs::write(&fifo, "a: #@ 1 + 1\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let dev_null = Some(std::path::PathBuf::from("/dev/null"));
    assert_eq!(seen, (dev_null.clone(), dev_null));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn exit_codes_and_stdout_are_unchanged() {
    let out = strake().arg("version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("strake {}\n", env!("CARGO_PKG_VERSION"))
    );
    // clap's usage error.
    let out = strake()
        .args(["template", "--no-such-flag"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--no-such-flag"));
    // `values check`: 1 for a violation, and 1 for an input it cannot read.
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("deploy")).unwrap();
    std::fs::write(
        dir.path().join("deploy/schema.yml"),
        "#@data/values-schema\n---\nport: 8080\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("values.yml"), "port: eighty\n").unwrap();
    let check = |values: &str| {
        strake()
            .current_dir(dir.path())
            .args(["values", "check", "--schema", "deploy", values])
            .output()
            .unwrap()
    };
    let out = check("values.yml");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 violation"));
    let out = check("missing.yml");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("missing.yml"));
}

#[test]
fn a_deeply_nested_value_is_printed_elided_not_overflowing_the_stack() {
    // The parser bounds the nesting of code, but a loop can still build a value nested
    // 100,000 deep: printing it stops at 1000 levels (and dropping it does not recurse).
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("deep.yml"),
        "#@ x = []\n#@ for i in range(100000):\n#@   x = [x]\n#@ end\na: #@ str(x)\n",
    )
    .unwrap();
    let out = strake()
        .current_dir(dir.path())
        .args(["template", "-f", "deep.yml"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let want = format!("a: '{}...{}'\n", "[".repeat(1000), "]".repeat(1000));
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
    assert!(out.stderr.is_empty());
}
