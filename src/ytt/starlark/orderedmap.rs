//! Insertion-ordered hash map whose keys may fail to hash or to compare: the storage of
//! Starlark dicts and sets, whose keys are values hashed and compared as starlark-go does
//! (so that an unhashable key fails with "unhashable type: T"; that [`MapKey`] is in
//! `value.rs`).
//!
//! The storage is an [`indexmap::IndexMap`] driven through its raw-entry API: a key's
//! hash and equality can fail, which `Hash`/`Eq` cannot express, so the hash is computed
//! here and passed in, and a failed comparison ends the lookup with its error.

use indexmap::IndexMap;
use indexmap::map::RawEntryApiV1;
use indexmap::map::raw_entry_v1::RawEntryMut;

use super::error::{Error, Result};

/// How a key of an [`OrderedMap`] is hashed and compared; either may fail.
pub trait MapKey {
    /// The key's hash, or why the key cannot be hashed.
    fn hash_key(&self) -> Result<u64>;
    /// Whether `self`, a key in the map, is the key `other` being looked up.
    fn same_key(&self, other: &Self) -> Result<bool>;
}

/// An insertion-ordered map from `K` to `V`.
#[derive(Clone)]
pub struct OrderedMap<K, V> {
    /// The map's hasher is never used: every lookup and insertion passes the key's hash.
    entries: IndexMap<K, V, ()>,
    /// Whether an insertion was ever attempted (even one that failed to hash its key):
    /// starlark-go allocates a hash table's buckets then and never frees them (`clear`
    /// empties them), and its `delete` on a table without buckets finds nothing without
    /// hashing the key.
    allocated: bool,
}

impl<K, V> Default for OrderedMap<K, V> {
    fn default() -> Self {
        OrderedMap {
            entries: IndexMap::default(),
            allocated: false,
        }
    }
}

/// A key comparison for the raw-entry API: [`MapKey::same_key`], keeping the first error
/// and answering "no match" after it.
fn matcher<'k, K: MapKey>(k: &'k K, failed: &'k mut Option<Error>) -> impl FnMut(&K) -> bool + 'k {
    move |stored| {
        if failed.is_some() {
            return false;
        }
        match stored.same_key(k) {
            Ok(same) => same,
            Err(e) => {
                *failed = Some(e);
                false
            }
        }
    }
}

impl<K: MapKey + Clone, V: Clone> OrderedMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn find(&self, h: u64, k: &K) -> Result<Option<usize>> {
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

    pub fn get(&self, k: &K) -> Result<Option<V>> {
        let h = k.hash_key()?;
        Ok(self.find(h, k)?.map(|i| self.entries[i].clone()))
    }

    /// Inserts or replaces (keeping the original position of an existing key).
    pub fn insert(&mut self, k: K, v: V) -> Result<()> {
        self.allocated = true;
        let h = k.hash_key()?;
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

    /// Removes `k`. Like starlark-go's `delete`, a map that was never inserted into
    /// finds nothing without hashing the key (so an unhashable key is no error there).
    pub fn remove(&mut self, k: &K) -> Result<Option<V>> {
        if !self.allocated {
            return Ok(None);
        }
        let h = k.hash_key()?;
        let Some(i) = self.find(h, k)? else {
            return Ok(None);
        };
        Ok(self.entries.shift_remove_index(i).map(|(_, v)| v))
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries in order, taking them out of the map.
    pub fn into_entries(self) -> Vec<(K, V)> {
        self.entries.into_iter().collect()
    }

    /// The entries in order; iterating gives `(&key, &value)`.
    pub fn entries(&self) -> &indexmap::map::Slice<K, V> {
        self.entries.as_slice()
    }

    /// Copies of the entries in order.
    pub fn to_vec(&self) -> Vec<(K, V)> {
        self.entries
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect()
    }

    pub fn keys(&self) -> Vec<K> {
        self.entries.keys().cloned().collect()
    }

    pub fn values(&self) -> Vec<V> {
        self.entries.values().cloned().collect()
    }

    pub fn first(&self) -> Option<(K, V)> {
        self.entries.first().map(|(k, v)| (k.clone(), v.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A key whose hash is its value modulo 4 (so that keys collide), that cannot be
    /// hashed when negative and cannot be compared when it is 99.
    #[derive(Clone, Debug, PartialEq)]
    struct Key(i64);

    impl MapKey for Key {
        fn hash_key(&self) -> Result<u64> {
            if self.0 < 0 {
                return Err(Error::new("unhashable key"));
            }
            Ok(self.0 as u64 % 4)
        }
        fn same_key(&self, other: &Self) -> Result<bool> {
            if self.0 == 99 || other.0 == 99 {
                return Err(Error::new("incomparable key"));
            }
            Ok(self.0 == other.0)
        }
    }

    fn keys(m: &OrderedMap<Key, &'static str>) -> Vec<i64> {
        m.keys().iter().map(|k| k.0).collect()
    }

    #[test]
    fn keeps_insertion_order_and_replaces_in_place() {
        let mut m = OrderedMap::new();
        m.insert(Key(9), "a").unwrap();
        m.insert(Key(1), "b").unwrap();
        m.insert(Key(9), "c").unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(keys(&m), [9, 1]);
        assert_eq!(m.get(&Key(9)).unwrap(), Some("c"));
        m.remove(&Key(9)).unwrap();
        m.insert(Key(9), "d").unwrap();
        assert_eq!(keys(&m), [1, 9]);
    }

    #[test]
    fn colliding_keys_stay_apart() {
        let mut m = OrderedMap::new();
        m.insert(Key(1), "one").unwrap();
        m.insert(Key(5), "five").unwrap();
        assert_eq!(m.get(&Key(1)).unwrap(), Some("one"));
        assert_eq!(m.get(&Key(5)).unwrap(), Some("five"));
        assert_eq!(m.get(&Key(9)).unwrap(), None);
    }

    #[test]
    fn a_key_that_cannot_be_hashed_or_compared_fails_with_its_error() {
        let mut m = OrderedMap::new();
        assert_eq!(m.insert(Key(-1), "x").unwrap_err().msg, "unhashable key");
        m.insert(Key(3), "three").unwrap();
        assert_eq!(m.get(&Key(99)).unwrap_err().msg, "incomparable key");
        assert_eq!(m.insert(Key(99), "x").unwrap_err().msg, "incomparable key");
        assert_eq!(keys(&m), [3]);
    }

    #[test]
    fn removal_keeps_the_order_of_the_others() {
        let mut m = OrderedMap::new();
        for k in [1, 2, 3, 4] {
            m.insert(Key(k), "").unwrap();
        }
        m.remove(&Key(2)).unwrap();
        assert_eq!(keys(&m), [1, 3, 4]);
        assert!(m.get(&Key(4)).unwrap().is_some());
        assert!(m.get(&Key(2)).unwrap().is_none());
    }

    #[test]
    fn removal_hashes_the_key_once_the_map_was_inserted_into() {
        let mut m: OrderedMap<Key, &str> = OrderedMap::new();
        assert_eq!(m.remove(&Key(-1)).unwrap(), None);
        assert!(m.get(&Key(-1)).is_err());
        assert!(m.insert(Key(-1), "x").is_err());
        assert_eq!(m.remove(&Key(-1)).unwrap_err().msg, "unhashable key");
        m.clear();
        assert_eq!(m.remove(&Key(-1)).unwrap_err().msg, "unhashable key");
    }
}
