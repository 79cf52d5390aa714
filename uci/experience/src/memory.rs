//! The experience in memory: one record per position, the one to trust.
//!
//! Rule: of the records of one position, the deepest wins; at equal depth
//! the newest (a later search, or a score backed up after a game, replaces
//! an older one of the same depth). Eviction keeps the deepest, then the
//! newest.

use rustc_hash::FxHashMap;

use crate::record::Record;

#[derive(Clone, Debug, Default)]
pub struct Memory {
    by_key: FxHashMap<u64, Record>,
}

impl Memory {
    /// Keeps `r` if it is deeper than what is known of its position, or as
    /// deep and not older. Says whether it was kept.
    pub fn insert(&mut self, r: Record) -> bool {
        match self.by_key.get_mut(&r.key) {
            Some(old) => {
                let better =
                    r.depth > old.depth || (r.depth == old.depth && r.minute >= old.minute);
                if better {
                    *old = r;
                }
                better
            }
            None => {
                self.by_key.insert(r.key, r);
                true
            }
        }
    }

    pub fn get(&self, key: u64) -> Option<&Record> {
        self.by_key.get(&key)
    }

    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// Every record kept, in key order.
    pub fn records(&self) -> Vec<Record> {
        let mut v: Vec<Record> = self.by_key.values().copied().collect();
        v.sort_unstable_by_key(|r| r.key);
        v
    }

    /// The memory of these records, each position's to trust kept.
    pub fn of(records: &[Record]) -> Memory {
        let mut memory = Memory::default();
        for r in records {
            memory.insert(*r);
        }
        memory
    }

    /// At most `n` records: the deepest, then the newest (then by key, so the
    /// choice is reproducible), in key order.
    pub fn records_to_keep(&self, n: usize) -> Vec<Record> {
        let mut v: Vec<Record> = self.by_key.values().copied().collect();
        v.sort_unstable_by(|a, b| {
            b.depth
                .cmp(&a.depth)
                .then(b.minute.cmp(&a.minute))
                .then(a.key.cmp(&b.key))
        });
        v.truncate(n);
        v.sort_unstable_by_key(|r| r.key);
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Kind;

    fn rec(key: u64, depth: u8, minute: u32, score: i16) -> Record {
        Record {
            key,
            mv: 1,
            score,
            depth,
            kind: Kind::Search,
            minute,
        }
    }

    #[test]
    fn the_deepest_record_wins_and_at_equal_depth_the_newest() {
        let mut m = Memory::default();
        assert!(m.insert(rec(7, 10, 100, 5)));
        assert!(!m.insert(rec(7, 9, 200, 6)), "shallower, even if newer");
        assert_eq!(m.get(7).unwrap().score, 5);
        assert!(m.insert(rec(7, 10, 150, 8)), "as deep and newer");
        assert_eq!(m.get(7).unwrap().score, 8);
        assert!(!m.insert(rec(7, 10, 120, 9)), "as deep and older");
        assert!(m.insert(rec(7, 12, 1, -3)), "deeper, even if older");
        assert_eq!(m.get(7).unwrap().score, -3);
        assert_eq!(m.len(), 1);
    }

    #[test]
    fn eviction_keeps_the_deepest_then_the_newest() {
        let mut m = Memory::default();
        m.insert(rec(1, 5, 10, 0));
        m.insert(rec(2, 8, 10, 0));
        m.insert(rec(3, 8, 20, 0));
        m.insert(rec(4, 6, 99, 0));
        let kept: Vec<u64> = m.records_to_keep(3).iter().map(|r| r.key).collect();
        assert_eq!(kept, vec![2, 3, 4]);
        let kept: Vec<u64> = m.records_to_keep(1).iter().map(|r| r.key).collect();
        assert_eq!(kept, vec![3]);
    }
}
