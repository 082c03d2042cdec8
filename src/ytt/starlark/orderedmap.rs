//! Insertion-ordered hash map keyed by Starlark values (the storage of dicts and sets).
//! Keys are hashed with [`hash_value`] and compared with [`equals`], so unhashable
//! keys fail with "unhashable type: T".
//!
//! The storage is an [`indexmap::IndexMap`] driven through its raw-entry API: a Starlark
//! key's hash and equality can fail, which `Hash`/`Eq` cannot express, so the hash is
//! computed here and passed in, and a failed comparison ends the lookup with its error.

use indexmap::IndexMap;
use indexmap::map::RawEntryApiV1;
use indexmap::map::raw_entry_v1::RawEntryMut;

use super::error::{Error, Result};
use super::value::{Value, equals, hash_value};

/// The map's hasher is never used: every lookup and insertion passes the key's hash.
type Storage = IndexMap<Value, Value, ()>;

#[derive(Default, Clone)]
pub struct OrderedMap {
    entries: Storage,
}

/// A key comparison for the raw-entry API: `equals`, keeping the first error and
/// answering "no match" after it.
fn matcher<'k>(k: &'k Value, failed: &'k mut Option<Error>) -> impl FnMut(&Value) -> bool + 'k {
    move |stored| {
        if failed.is_some() {
            return false;
        }
        match equals(stored, k) {
            Ok(same) => same,
            Err(e) => {
                *failed = Some(e);
                false
            }
        }
    }
}

impl OrderedMap {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn find(&self, h: u64, k: &Value) -> Result<Option<usize>> {
        let mut failed = None;
        let found = self
            .entries
            .raw_entry_v1()
            .index_from_hash(h, matcher(k, &mut failed));
        match failed {
            Some(e) => Err(e),
            None => Ok(found),
        }
    }

    pub fn get(&self, k: &Value) -> Result<Option<Value>> {
        let h = hash_value(k)?;
        Ok(self.find(h, k)?.map(|i| self.entries[i].clone()))
    }

    /// Inserts or replaces (keeping the original position of an existing key).
    pub fn insert(&mut self, k: Value, v: Value) -> Result<()> {
        let h = hash_value(&k)?;
        let mut failed = None;
        let entry = self
            .entries
            .raw_entry_mut_v1()
            .from_hash(h, matcher(&k, &mut failed));
        if let Some(e) = failed {
            return Err(e);
        }
        match entry {
            RawEntryMut::Occupied(mut o) => {
                o.insert(v);
            }
            RawEntryMut::Vacant(slot) => {
                slot.insert_hashed_nocheck(h, k, v);
            }
        }
        Ok(())
    }

    pub fn remove(&mut self, k: &Value) -> Result<Option<Value>> {
        let h = hash_value(k)?;
        let Some(i) = self.find(h, k)? else {
            return Ok(None);
        };
        Ok(self.entries.shift_remove_index(i).map(|(_, v)| v))
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries in order, taking them out of the map.
    pub fn into_entries(self) -> Vec<(Value, Value)> {
        self.entries.into_iter().collect()
    }

    /// The entries in order; iterating gives `(&key, &value)`.
    pub fn entries(&self) -> &indexmap::map::Slice<Value, Value> {
        self.entries.as_slice()
    }

    /// Copies of the entries in order.
    pub fn to_vec(&self) -> Vec<(Value, Value)> {
        self.entries
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    pub fn keys(&self) -> Vec<Value> {
        self.entries.keys().cloned().collect()
    }

    pub fn values(&self) -> Vec<Value> {
        self.entries.values().cloned().collect()
    }

    pub fn first(&self) -> Option<(Value, Value)> {
        self.entries.first().map(|(k, v)| (k.clone(), v.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_insertion_order_and_replaces_in_place() {
        let mut m = OrderedMap::new();
        m.insert(Value::str("z"), Value::Int(1)).unwrap();
        m.insert(Value::str("a"), Value::Int(2)).unwrap();
        m.insert(Value::str("z"), Value::Int(3)).unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m.keys()[0].as_str(), Some("z"));
        assert_eq!(m.get(&Value::str("z")).unwrap().unwrap().as_int(), Some(3));
        m.remove(&Value::str("z")).unwrap();
        m.insert(Value::str("z"), Value::Int(4)).unwrap();
        assert_eq!(m.keys()[1].as_str(), Some("z"));
    }

    #[test]
    fn int_and_float_keys_are_the_same_key() {
        let mut m = OrderedMap::new();
        m.insert(Value::Int(1), Value::str("a")).unwrap();
        assert!(m.get(&Value::Float(1.0)).unwrap().is_some());
    }

    #[test]
    fn unhashable_keys_fail() {
        let mut m = OrderedMap::new();
        let e = m.insert(Value::list(vec![]), Value::None).unwrap_err();
        assert_eq!(e.msg, "unhashable type: list");
    }

    #[test]
    fn removal_keeps_the_order_of_the_others() {
        let mut m = OrderedMap::new();
        for k in ["a", "b", "c", "d"] {
            m.insert(Value::str(k), Value::None).unwrap();
        }
        m.remove(&Value::str("b")).unwrap();
        let keys: Vec<_> = m
            .keys()
            .iter()
            .map(|k| k.as_str().unwrap().to_string())
            .collect();
        assert_eq!(keys, ["a", "c", "d"]);
        assert!(m.get(&Value::str("d")).unwrap().is_some());
        assert!(m.get(&Value::str("b")).unwrap().is_none());
    }
}
