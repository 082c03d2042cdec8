//! Keys and certificates for the test registry, made with the `openssl` CLI: a CA
//! with a server certificate for 127.0.0.1 (TLS mode), and a self-signed signing
//! certificate for the token issuer (the registry's `rootcertbundle`).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::run;

/// A CA and a server certificate signed by it, valid for `127.0.0.1`, `::1` and
/// `localhost`. rustls refuses a CA certificate used as the server's own, so the
/// two are separate.
pub struct ServerCerts {
    pub ca_cert: PathBuf,
    pub cert: PathBuf,
    pub key: PathBuf,
}

pub fn server_certs(dir: &Path) -> ServerCerts {
    let ca_key = dir.join("ca.key");
    let ca_cert = dir.join("ca.pem");
    let key = dir.join("server.key");
    let csr = dir.join("server.csr");
    let cert = dir.join("server.pem");
    let ext = dir.join("server.ext");
    run(Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=strake test CA"])
        .arg("-keyout")
        .arg(&ca_key)
        .arg("-out")
        .arg(&ca_cert));
    run(Command::new("openssl")
        .args([
            "req",
            "-new",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-nodes", "-subj", "/CN=127.0.0.1"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&csr));
    std::fs::write(
        &ext,
        "basicConstraints=critical,CA:FALSE\n\
         keyUsage=critical,digitalSignature,keyEncipherment\n\
         extendedKeyUsage=serverAuth\n\
         subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n",
    )
    .expect("writing server.ext");
    run(Command::new("openssl")
        .args(["x509", "-req", "-days", "2", "-CAcreateserial"])
        .arg("-in")
        .arg(&csr)
        .arg("-CA")
        .arg(&ca_cert)
        .arg("-CAkey")
        .arg(&ca_key)
        .arg("-extfile")
        .arg(&ext)
        .arg("-out")
        .arg(&cert));
    ServerCerts { ca_cert, cert, key }
}

/// An RSA key and its self-signed certificate, for signing tokens (RS256).
pub struct SigningCert {
    pub key: PathBuf,
    pub cert: PathBuf,
    /// The certificate in DER, base64 (standard alphabet): the JWT `x5c` entry.
    pub cert_der_base64: String,
}

pub fn signing_cert(dir: &Path) -> SigningCert {
    let key = dir.join("issuer.key");
    let cert = dir.join("issuer.pem");
    run(Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        ])
        .args(["-subj", "/CN=strake test token issuer"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert));
    let der = run(Command::new("openssl")
        .args(["x509", "-outform", "DER", "-in"])
        .arg(&cert));
    use base64::Engine;
    SigningCert {
        key,
        cert,
        cert_der_base64: base64::engine::general_purpose::STANDARD.encode(der),
    }
}

/// Signs `data` with RSA PKCS#1 v1.5 over SHA-256 (JWT `RS256`).
pub fn sign_rs256(key: &Path, data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new("openssl")
        .args(["dgst", "-sha256", "-sign"])
        .arg(key)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawning openssl dgst");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(data)
        .expect("writing to openssl");
    let out = child.wait_with_output().expect("openssl dgst");
    assert!(
        out.status.success(),
        "openssl dgst failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}
