//! The `#@library/ref` documents and `@lib:` flags a library holds for its private
//! libraries, and ytt's refusal of those no `library.get` took.

use crate::ytt::error::Error;
use crate::ytt::node::Doc;

use super::Lib;

/// A `#@library/ref` document on its way to a private library.
#[derive(Clone)]
pub struct Addressed {
    /// The rest of the library path from the library that holds it (`@name...`).
    pub path: String,
    /// The whole path as the document's annotation gave it (ytt names the document by
    /// it when no library takes it).
    pub original: String,
    pub doc: Doc,
}

impl Lib {
    /// ytt refuses `#@library/ref` data values and schema documents that no
    /// `library.get` of this library took, naming the kinds of documents left over and
    /// each document (checked once the library is evaluated).
    pub fn check_refs_used(&self) -> Result<(), Error> {
        fn unused(
            what: &str,
            refs: &[Addressed],
            used: &std::collections::BTreeSet<usize>,
        ) -> Vec<String> {
            refs.iter()
                .enumerate()
                .filter(|(i, _)| !used.contains(i))
                .map(|(_, a)| {
                    format!(
                        "{what} belonging to library '{}' on line {}",
                        a.original, a.doc.meta.pos
                    )
                })
                .collect()
        }
        let mut values = unused("Data Value", &self.refs.borrow(), &self.refs_used.borrow());
        let places = self.flag_ref_places.borrow();
        for i in 0..self.flag_refs.borrow().len() {
            if !self.flag_refs_used.borrow().contains(&i) {
                let (original, place) = places.get(i).cloned().unwrap_or_default();
                values.push(format!(
                    "Data Value belonging to library '{original}' on line {place}"
                ));
            }
        }
        let schemas = unused(
            "Schema",
            &self.schema_refs.borrow(),
            &self.schema_refs_used.borrow(),
        );
        let mut kinds = Vec::new();
        if !values.is_empty() {
            kinds.push("data values");
        }
        if !schemas.is_empty() {
            kinds.push("schema");
        }
        if kinds.is_empty() {
            return Ok(());
        }
        Err(Error::msg(format!(
            "Expected all provided library {} documents to be used but found unused: {}",
            kinds.join(", and "),
            [values, schemas].concat().join(", ")
        )))
    }
}
