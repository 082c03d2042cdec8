//! Insertion-ordered hash map keyed by Starlark values (the storage of dicts and sets).
//! Keys are hashed with [`hash_value`] and compared with [`equals`], so unhashable
//! keys fail with "unhashable type: T".

use std::collections::HashMap;

use super::error::Result;
use super::value::{Value, equals, hash_value};

#[derive(Default, Clone)]
pub struct OrderedMap {
    entries: Vec<(Value, Value)>,
    index: HashMap<u64, Vec<usize>>,
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
        if let Some(slots) = self.index.get(&h) {
            for &i in slots {
                if equals(&self.entries[i].0, k)? {
                    return Ok(Some(i));
                }
            }
        }
        Ok(None)
    }

    pub fn get(&self, k: &Value) -> Result<Option<Value>> {
        let h = hash_value(k)?;
        Ok(self.find(h, k)?.map(|i| self.entries[i].1.clone()))
    }

    /// Inserts or replaces (keeping the original position of an existing key).
    pub fn insert(&mut self, k: Value, v: Value) -> Result<()> {
        let h = hash_value(&k)?;
        match self.find(h, &k)? {
            Some(i) => self.entries[i].1 = v,
            None => {
                self.index.entry(h).or_default().push(self.entries.len());
                self.entries.push((k, v));
            }
        }
        Ok(())
    }

    pub fn remove(&mut self, k: &Value) -> Result<Option<Value>> {
        let h = hash_value(k)?;
        let Some(i) = self.find(h, k)? else {
            return Ok(None);
        };
        let (_, v) = self.entries.remove(i);
        self.reindex();
        Ok(Some(v))
    }

    fn reindex(&mut self) {
        self.index.clear();
        for (i, (k, _)) in self.entries.iter().enumerate() {
            if let Ok(h) = hash_value(k) {
                self.index.entry(h).or_default().push(i);
            }
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.index.clear();
    }

    /// The entries in order, taking them out of the map.
    pub fn into_entries(self) -> Vec<(Value, Value)> {
        self.entries
    }

    pub fn entries(&self) -> &[(Value, Value)] {
        &self.entries
    }

    pub fn keys(&self) -> Vec<Value> {
        self.entries.iter().map(|(k, _)| k.clone()).collect()
    }

    pub fn values(&self) -> Vec<Value> {
        self.entries.iter().map(|(_, v)| v.clone()).collect()
    }

    pub fn first(&self) -> Option<(Value, Value)> {
        self.entries.first().cloned()
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
}
