//! The ytt-compatible template engine: template compiler, Starlark dialect
//! interpreter, data values, overlays, text templates and the `@ytt:*` modules.

pub mod starlark;
