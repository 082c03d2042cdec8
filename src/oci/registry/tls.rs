//! The rustls client configuration: the ring crypto provider, the system's CA
//! bundle, and the user's extra CA files (`--registry-ca-cert-path`); or, with
//! `--registry-verify-certs=false`, no check of the server's certificate chain
//! and name at all (imgpkg's flag; the handshake's signatures are still checked).
//!
//! System roots are read from the PEM bundle Linux distributions keep
//! (`$SSL_CERT_FILE`, `/etc/ssl/certs/ca-certificates.crt` and the other usual
//! places, plus `$SSL_CERT_DIR`), which is what rustls-native-certs does on Linux;
//! reading them ourselves with rustls's own PEM parser needs no extra crate.
//!
//! Reading the system bundle takes tens of milliseconds, so it is done lazily, once, by
//! the first TLS handshake ([`LazyRoots`]): a run that talks only to plain-HTTP
//! registries never reads it. The user's extra CA files are still read up front, so a
//! bad `--registry-ca-cert-path` fails at once.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use rustls::client::WebPkiServerVerifier;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::crypto::CryptoProvider;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime, pem::PemObject};
use rustls::{DigitallySignedStruct, RootCertStore, SignatureScheme};

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
/// naming the file. `verify_certs` false accepts any server certificate.
pub fn client_config(
    extra_ca_paths: &[PathBuf],
    verify_certs: bool,
) -> Result<rustls::ClientConfig> {
    let mut extra = RootCertStore::empty();
    for path in extra_ca_paths {
        add_ca_file(&mut extra, path)?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let verifier = Arc::new(LazyRoots {
        extra,
        provider: provider.clone(),
        verifier: OnceLock::new(),
        verify_certs,
    });
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| OciError::Invalid {
            location: "TLS".into(),
            detail: e.to_string(),
        })?
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth();
    // HTTP/1.1 only, as imgpkg: one connection per transfer keeps large uploads
    // from sharing a window with everything else.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(config)
}

/// The standard WebPKI verifier over the system roots plus the extra CA files, built on
/// the first handshake. (Only *when* the roots are read differs from
/// `with_root_certificates`; verification is rustls's own.)
#[derive(Debug)]
struct LazyRoots {
    extra: RootCertStore,
    provider: Arc<CryptoProvider>,
    verifier: OnceLock<std::result::Result<Arc<WebPkiServerVerifier>, String>>,
    /// False: every certificate chain and name is accepted.
    verify_certs: bool,
}

impl LazyRoots {
    fn inner(&self) -> std::result::Result<&Arc<WebPkiServerVerifier>, rustls::Error> {
        self.verifier
            .get_or_init(|| {
                let mut roots = self.extra.clone();
                add_system_roots(&mut roots);
                WebPkiServerVerifier::builder_with_provider(Arc::new(roots), self.provider.clone())
                    .build()
                    .map_err(|e| format!("no usable CA certificates: {e}"))
            })
            .as_ref()
            .map_err(|e| rustls::Error::General(e.clone()))
    }
}

impl ServerCertVerifier for LazyRoots {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> std::result::Result<ServerCertVerified, rustls::Error> {
        if !self.verify_certs {
            return Ok(ServerCertVerified::assertion());
        }
        self.inner()?
            .verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now)
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> std::result::Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.provider.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
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
        let err = client_config(&["/nonexistent/ca.pem".into()], true)
            .unwrap_err()
            .to_string();
        assert!(err.contains("/nonexistent/ca.pem"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("empty.pem");
        std::fs::write(&f, "not a cert\n").unwrap();
        let err = client_config(std::slice::from_ref(&f), true)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("empty.pem") && err.contains("no PEM certificate"),
            "{err}"
        );
    }

    #[test]
    fn builds_with_system_roots() {
        let config = client_config(&[], true).unwrap();
        assert_eq!(config.alpn_protocols, vec![b"http/1.1".to_vec()]);
    }

    #[test]
    fn system_roots_are_read_on_first_use_only() {
        let lazy = LazyRoots {
            extra: RootCertStore::empty(),
            provider: Arc::new(rustls::crypto::ring::default_provider()),
            verifier: OnceLock::new(),
            verify_certs: true,
        };
        assert!(lazy.verifier.get().is_none());
        assert!(!lazy.supported_verify_schemes().is_empty());
        assert!(lazy.verifier.get().is_none(), "schemes need no roots");
        let first = lazy.inner().map(Arc::as_ptr).map_err(|e| e.to_string());
        assert!(lazy.verifier.get().is_some());
        let second = lazy.inner().map(Arc::as_ptr).map_err(|e| e.to_string());
        assert_eq!(first, second, "built once");
    }
}
