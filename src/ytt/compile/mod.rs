//! The template compiler: YAML templates and text templates into Starlark programs
//! whose host calls rebuild the output.

pub mod constant;
pub mod program;
pub mod text;
pub mod yaml;
