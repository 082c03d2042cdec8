//! The rustls client configuration: the ring crypto provider, the system's CA
//! bundle, and the user's extra CA files (`--registry-ca-cert-path`).
//!
//! System roots are read from the PEM bundle Linux distributions keep
//! (`$SSL_CERT_FILE`, `/etc/ssl/certs/ca-certificates.crt` and the other usual
//! places, plus `$SSL_CERT_DIR`), which is what rustls-native-certs does on Linux;
//! reading them ourselves with rustls's own PEM parser needs no extra crate.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use rustls::RootCertStore;
use rustls::pki_types::{CertificateDer, pem::PemObject};

use crate::oci::{OciError, Result};

/// Well-known CA bundle files (Debian/Ubuntu, Fedora/RHEL, openSUSE, Alpine).
const BUNDLES: [&str; 5] = [
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/ca-bundle.pem",
    "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",
    "/etc/ssl/cert.pem",
];

/// Builds the client TLS config; an unreadable or empty extra CA file is an error
/// naming the file.
pub fn client_config(extra_ca_paths: &[PathBuf]) -> Result<rustls::ClientConfig> {
    let mut roots = RootCertStore::empty();
    add_system_roots(&mut roots);
    for path in extra_ca_paths {
        add_ca_file(&mut roots, path)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| OciError::Invalid {
            location: "TLS".into(),
            detail: e.to_string(),
        })?
        .with_root_certificates(roots)
        .with_no_client_auth();
    // HTTP/1.1 only, as imgpkg: one connection per transfer keeps large uploads
    // from sharing a window with everything else.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

fn add_system_roots(roots: &mut RootCertStore) {
    let mut files: Vec<PathBuf> = Vec::new();
    if let Some(f) = std::env::var_os("SSL_CERT_FILE") {
        files.push(f.into());
    }
    if let Some(found) = BUNDLES.iter().map(Path::new).find(|p| p.is_file()) {
        files.push(found.to_path_buf());
    }
    for file in files {
        if let Ok(iter) = CertificateDer::pem_file_iter(&file) {
            roots.add_parsable_certificates(iter.flatten());
        }
    }
    if let Some(dir) = std::env::var_os("SSL_CERT_DIR")
        && let Ok(entries) = std::fs::read_dir(dir)
    {
        for entry in entries.flatten() {
            if let Ok(iter) = CertificateDer::pem_file_iter(entry.path()) {
                roots.add_parsable_certificates(iter.flatten());
            }
        }
    }
}

fn add_ca_file(roots: &mut RootCertStore, path: &Path) -> Result<()> {
    let fail = |detail: String| OciError::Invalid {
        location: path.display().to_string(),
        detail,
    };
    let data = std::fs::read(path)
        .map_err(|e| OciError::io(format!("reading CA certificate {}", path.display()), e))?;
    let mut count = 0;
    for cert in CertificateDer::pem_slice_iter(&data) {
        let cert = cert.map_err(|e| fail(format!("not a PEM certificate file: {e}")))?;
        roots
            .add(cert)
            .map_err(|e| fail(format!("unusable CA certificate: {e}")))?;
        count += 1;
    }
    if count == 0 {
        return Err(fail(
            "no PEM certificate found (expected -----BEGIN CERTIFICATE-----)".into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_or_empty_ca_files_are_named() {
        let err = client_config(&["/nonexistent/ca.pem".into()])
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent/ca.pem"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("empty.pem");
        std::fs::write(&f, "not a cert\n").unwrap();
        let err = client_config(std::slice::from_ref(&f))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("empty.pem") && err.contains("no PEM certificate"),
            "{err}"
        );
    }

    #[test]
    fn builds_with_system_roots() {
        let config = client_config(&[]).unwrap();
        assert_eq!(config.alpn_protocols, vec![b"http/1.1".to_vec()]);
    }
}
