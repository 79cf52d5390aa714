//! Apriori (Agrawal & Srikant, 1994) level by level over the positions of one
//! board region: frequent sets of (piece, square) items, a set of size k
//! counted only when every one of its (k-1)-subsets is frequent.
//!
//! A set is a [`Code`]: nibble j holds the piece (1..=12) standing on the
//! region's j-th square, 0 when the set says nothing there. A square holds one
//! piece, so this is the set's sorted array (in square order) packed in a u64;
//! a region has at most 16 squares. A subset test is one AND.

use rustc_hash::{FxHashMap, FxHashSet};

/// A set of items of one region (see the module doc).
pub type Code = u64;

/// One kind of position: the region as is and reflected (the other side's
/// view), and how many positions look like this.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tx {
    pub views: [Code; 2],
    pub weight: u32,
}

/// The frequent sets of one size, each with the positions that have it.
pub type Level = FxHashMap<Code, u32>;

/// What a run found: `levels[k - 1]` holds the frequent sets of size k.
#[derive(Clone, Debug, Default)]
pub struct Run {
    pub levels: Vec<Level>,
    /// Candidates counted at each size (size 1: the distinct items seen).
    pub candidates: Vec<usize>,
}

/// 0xF in every nibble `c` uses: the squares a set speaks of.
pub fn mask(c: Code) -> Code {
    let any = (c | c >> 1 | c >> 2 | c >> 3) & 0x1111_1111_1111_1111;
    any * 0xF
}

/// Number of items in `c`.
pub fn size(c: Code) -> usize {
    (mask(c).count_ones() / 4) as usize
}

/// The items of `c`, one per used nibble, in square order.
pub fn items(c: Code) -> impl Iterator<Item = Code> {
    (0..16)
        .map(move |j| c & (0xF << (4 * j)))
        .filter(|i| *i != 0)
}

/// Positions holding each item, on either side, and how many distinct items there were.
pub fn count_items(views: impl Iterator<Item = [Code; 2]>, min: u32) -> (Level, usize) {
    let mut all: FxHashMap<Code, u32> = FxHashMap::default();
    for [a, b] in views {
        for i in items(a) {
            *all.entry(i).or_default() += 1;
        }
        for i in items(b) {
            // Counted once when both sides have it: support is per position.
            if a & (0xF << (i.trailing_zeros() / 4 * 4)) != i {
                *all.entry(i).or_default() += 1;
            }
        }
    }
    let seen = all.len();
    all.retain(|_, n| *n >= min);
    (all, seen)
}

/// For each nibble, the pieces (as bits) that some set of `level` puts there.
pub fn alive(level: &Level) -> [u16; 16] {
    let mut a = [0u16; 16];
    for &c in level.keys() {
        for (j, bits) in a.iter_mut().enumerate() {
            let v = (c >> (4 * j)) & 0xF;
            if v != 0 {
                *bits |= 1 << v;
            }
        }
    }
    a
}

/// `view` without the items `alive` does not allow.
pub fn trim(view: Code, alive: &[u16; 16]) -> Code {
    items(view)
        .filter(|i| {
            let j = i.trailing_zeros() / 4;
            alive[j as usize] & (1 << (i >> (4 * j))) != 0
        })
        .fold(0, |a, i| a | i)
}

/// Merges positions that look the same (the two views in either order).
pub fn dedupe(txs: impl Iterator<Item = Tx>) -> Vec<Tx> {
    let mut m: FxHashMap<[Code; 2], u32> = FxHashMap::default();
    for Tx {
        views: [a, b],
        weight,
    } in txs
    {
        let key = if a <= b { [a, b] } else { [b, a] };
        *m.entry(key).or_default() += weight;
    }
    let mut v: Vec<Tx> = m
        .into_iter()
        .map(|(views, weight)| Tx { views, weight })
        .collect();
    v.sort_unstable_by_key(|t| t.views);
    v
}

/// Apriori from the frequent items up to sets of `max_size`: each level's
/// candidates are joined from the previous level, pruned, then counted.
pub fn run(first: Level, seen: usize, mut txs: Vec<Tx>, min: u32, max_size: usize) -> Run {
    let mut out = Run {
        levels: vec![first],
        candidates: vec![seen],
    };
    for k in 2..=max_size {
        let prev = &out.levels[k - 2];
        let cands = candidates(prev);
        if cands.is_empty() {
            break;
        }
        let a = alive(prev);
        txs = dedupe(txs.iter().map(|t| {
            Tx {
                views: t
                    .views
                    .map(|v| trim(v, &a))
                    .map(|v| if size(v) < k { 0 } else { v }),
                weight: t.weight,
            }
        }));
        txs.retain(|t| t.views != [0, 0]);
        let counts = count(&txs, &cands, k);
        out.candidates.push(cands.len());
        let level: Level = cands
            .into_iter()
            .zip(counts)
            .filter(|(_, n)| *n >= min)
            .collect();
        if level.is_empty() {
            break;
        }
        out.levels.push(level);
    }
    out
}

/// The sets of size k+1 whose every k-subset is in `prev`: two sets of
/// `prev` sharing all but their last item, joined, then pruned.
pub fn candidates(prev: &Level) -> Vec<Code> {
    let last = |c: Code| 63 - mask(c).leading_zeros() as Code; // top bit of the last nibble
    let mut groups: FxHashMap<Code, Vec<Code>> = FxHashMap::default();
    for &c in prev.keys() {
        let prefix = c & !(0xF << (last(c) / 4 * 4));
        groups.entry(prefix).or_default().push(c);
    }
    let mut out = Vec::new();
    for g in groups.values_mut() {
        g.sort_unstable();
        for (i, &x) in g.iter().enumerate() {
            for &y in &g[i + 1..] {
                if last(x) == last(y) {
                    continue; // two pieces on one square
                }
                let u = x | y;
                if items(u).all(|i| prev.contains_key(&(u & !i))) {
                    out.push(u);
                }
            }
        }
    }
    out.sort_unstable();
    out
}

/// Positions holding each candidate (of size k) on either side: a view's
/// k-subsets are looked up when they are fewer than the candidates, else the
/// candidates are tested against the view.
fn count(txs: &[Tx], cands: &[Code], k: usize) -> Vec<u32> {
    let index: FxHashMap<Code, usize> = cands.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let masks: Vec<Code> = cands.iter().map(|&c| mask(c)).collect();
    let mut counts = vec![0u32; cands.len()];
    let mut stamp = vec![usize::MAX; cands.len()];
    for (t, tx) in txs.iter().enumerate() {
        let mut hit = |i: usize| {
            // A position counts once even when both sides have the set.
            if stamp[i] != t {
                stamp[i] = t;
                counts[i] += tx.weight;
            }
        };
        for (n, &v) in tx.views.iter().enumerate() {
            if v == 0 || (n == 1 && v == tx.views[0]) {
                continue;
            }
            let its: Vec<Code> = items(v).collect();
            if binomial(its.len(), k) <= cands.len() as u64 {
                subsets(&its, k, 0, &mut |s| {
                    if let Some(&i) = index.get(&s) {
                        hit(i);
                    }
                });
            } else {
                for (i, (&c, &m)) in cands.iter().zip(&masks).enumerate() {
                    if v & m == c {
                        hit(i);
                    }
                }
            }
        }
    }
    counts
}

/// Calls `f` with every union of `k` of `its`.
fn subsets(its: &[Code], k: usize, acc: Code, f: &mut impl FnMut(Code)) {
    if k == 0 {
        return f(acc);
    }
    if its.len() < k {
        return;
    }
    for i in 0..=its.len() - k {
        subsets(&its[i + 1..], k - 1, acc | its[i], f);
    }
}

/// n choose k.
fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    (0..k as u64).fold(1, |a, i| a * (n as u64 - i) / (i + 1))
}

/// The sets of size >= `min_size` that no set one larger nearly matches: a
/// set is dropped when a superset has at least `ratio` of its support (a
/// superset of a superset has less, so one size up is enough to look).
pub fn closed(run: &Run, ratio: f64, min_size: usize) -> Vec<(Code, u32)> {
    let mut out = Vec::new();
    for k in min_size.max(1)..=run.levels.len() {
        let level = &run.levels[k - 1];
        let mut dropped: FxHashSet<Code> = FxHashSet::default();
        if let Some(up) = run.levels.get(k) {
            for (&y, &n) in up {
                for i in items(y) {
                    let x = y & !i;
                    if level
                        .get(&x)
                        .is_some_and(|&nx| n as f64 >= ratio * nx as f64)
                    {
                        dropped.insert(x);
                    }
                }
            }
        }
        let mut keep: Vec<(Code, u32)> = level
            .iter()
            .filter(|(c, _)| !dropped.contains(c))
            .map(|(&c, &n)| (c, n))
            .collect();
        keep.sort_unstable();
        out.extend(keep);
    }
    out
}
