//! A library as the values schema reads it: [`SchemaSource`] for [`LibRef`]. The schema
//! sits in a layer below evaluation; it gets its schema files evaluated through this.

use std::rc::Rc;

use crate::yaml::DocumentSet;
use crate::ytt::error::Error;
use crate::ytt::files::InputFile;
use crate::ytt::node::Doc;
use crate::ytt::schema::SchemaSource;

use super::{Lib, LibRef, Reuse, eval_yaml_with};

impl SchemaSource for LibRef {
    fn files(&self) -> &[InputFile] {
        &self.files
    }

    fn display(&self, rel: &str) -> String {
        Lib::display(self, rel)
    }

    fn parsed_yaml(&self, f: &InputFile, src: &str) -> Result<Rc<DocumentSet>, Error> {
        Lib::parsed_yaml(self, f, src)
    }

    fn eval_schema_file(&self, f: &InputFile) -> Result<Vec<Doc>, Error> {
        eval_yaml_with(self, f, Reuse::Keep).map(|ev| ev.docs)
    }

    fn extra_schemas(&self) -> Vec<Doc> {
        self.extra_schemas.borrow().clone()
    }

    fn keep_schema_ref(&self, path: String, doc: Doc) {
        self.schema_refs.borrow_mut().push(super::Addressed {
            original: path.clone(),
            path,
            doc,
        });
    }

    fn validation_disabled(&self) -> bool {
        self.opts.dangerous_disable_validation
    }

    /// The text of file `name` (as messages name it) of the nearest outer library that
    /// has it.
    fn outer_text(&self, name: &str) -> Option<std::sync::Arc<[u8]>> {
        let outer = self.outer.borrow().upgrade()?;
        let own = outer.files.iter().find(|f| outer.display(&f.rel) == name);
        match own {
            Some(f) => Some(f.bytes.clone()),
            None => outer.outer_text(name),
        }
    }
}
