//! imgpkg-compatible bundles: reproducible layer tar, config label, `.imgpkg/`
//! metadata, push, pull (safe extraction) and describe.
