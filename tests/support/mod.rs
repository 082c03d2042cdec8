//! Shared test support: a real `docker-registry` started per test ([`registry`]),
//! a token issuer for its bearer-token mode ([`token_issuer`]), a fault-injecting
//! HTTP proxy ([`fault_proxy`]), certificates made with the `openssl` CLI
//! ([`certs`]), and a small independent HTTP client that puts test content into a
//! registry ([`content`]) without going through the code under test, and helpers that
//! run the real binary ([`cli`]), and one that renders a ytt case in a temporary
//! directory ([`ytt`]).
//!
//! Use it from a test binary with `mod support;`.

#![allow(dead_code)]

pub mod certs;
pub mod cli;
pub mod content;
pub mod fault_proxy;
pub mod http_server;
pub mod registry;
pub mod token_issuer;
pub mod ytt;

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A port that was free a moment ago on 127.0.0.1 (for servers we cannot hand a
/// listener to, such as `docker-registry`).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .expect("binding 127.0.0.1:0")
        .local_addr()
        .expect("local address")
        .port()
}

/// Runs a command and panics with its stderr when it fails.
pub fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd
        .output()
        .unwrap_or_else(|e| panic!("running {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Writes an executable shell script (fake credential helpers and the like).
pub fn write_script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).expect("writing script");
    let mut perms = std::fs::metadata(path)
        .expect("script metadata")
        .permissions();
    perms.set_mode(0o755);
    std::fs::set_permissions(path, perms).expect("chmod script");
}

/// Every file below `dir`, depth first, each folder's entries in name order.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    fn go(d: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            if p.is_dir() {
                go(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    go(dir, &mut out);
    out
}
