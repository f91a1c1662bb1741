//! R-MAT power-law graphs in CSR form, the input of the graph and sparse benchmarks.
//!
//! R-MAT (Chakrabarti et al.) drops each edge into one quadrant of the adjacency
//! matrix per level with probabilities a, b, c, d; skewed probabilities give the
//! power-law degrees that make neighbouring threads run very different trip counts.
//! Vertex labels are shuffled so the hubs do not all sit in the first warps.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Quadrant probabilities (a, b, c; d is the rest), as in Graph500.
pub const RMAT_ABC: (f64, f64, f64) = (0.57, 0.19, 0.19);

/// A directed graph (or sparse matrix pattern) in compressed sparse row form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Csr {
    /// `row[v]..row[v + 1]` indexes `col` for vertex v; `nodes + 1` entries.
    pub row: Vec<u32>,
    /// Edge targets, sorted and unique within a row.
    pub col: Vec<u32>,
}

impl Csr {
    pub fn nodes(&self) -> usize {
        self.row.len().saturating_sub(1)
    }

    pub fn edges(&self) -> usize {
        self.col.len()
    }

    pub fn degree(&self, v: usize) -> u32 {
        self.row[v + 1] - self.row[v]
    }

    pub fn neighbors(&self, v: usize) -> &[u32] {
        &self.col[self.row[v] as usize..self.row[v + 1] as usize]
    }

    /// Builds the CSR of `edges` over `nodes` vertices (counting sort by source, then
    /// each row sorted and deduplicated).
    pub fn from_edges(nodes: usize, edges: &[(u32, u32)]) -> Csr {
        let mut row = vec![0u32; nodes + 1];
        for &(u, _) in edges {
            row[u as usize + 1] += 1;
        }
        for v in 0..nodes {
            row[v + 1] += row[v];
        }
        let mut fill = row.clone();
        let mut col = vec![0u32; edges.len()];
        for &(u, v) in edges {
            col[fill[u as usize] as usize] = v;
            fill[u as usize] += 1;
        }
        let mut out_row = Vec::with_capacity(nodes + 1);
        let mut out_col = Vec::with_capacity(edges.len());
        out_row.push(0);
        for v in 0..nodes {
            let seg = &mut col[row[v] as usize..row[v + 1] as usize];
            seg.sort_unstable();
            let start = out_col.len();
            for &c in seg.iter() {
                if out_col.len() == start || out_col.last() != Some(&c) {
                    out_col.push(c);
                }
            }
            out_row.push(out_col.len() as u32);
        }
        Csr { row: out_row, col: out_col }
    }
}

/// An R-MAT graph on `2^scale` vertices from `samples` sampled edges, self-loops and
/// duplicates removed; `symmetric` adds every edge in both directions (an undirected
/// graph, as the Rodinia and Lonestar inputs are).
pub fn rmat(scale: u32, samples: usize, symmetric: bool, rng: &mut ChaCha8Rng) -> Csr {
    let nodes = 1usize << scale;
    let mut perm: Vec<u32> = (0..nodes as u32).collect();
    for i in (1..nodes).rev() {
        let j = rng.gen_range(0..=i as u32) as usize;
        perm.swap(i, j);
    }
    let (a, b, c) = RMAT_ABC;
    let t_a = (a * 65536.0) as u32;
    let t_ab = ((a + b) * 65536.0) as u32;
    let t_abc = ((a + b + c) * 65536.0) as u32;
    let mut edges = Vec::with_capacity(samples * if symmetric { 2 } else { 1 });
    for _ in 0..samples {
        let (mut u, mut v) = (0usize, 0usize);
        let mut bits = 0u64;
        for level in 0..scale {
            if level % 4 == 0 {
                bits = rng.gen();
            }
            let r = (bits & 0xffff) as u32;
            bits >>= 16;
            // Quadrants a (0,0), b (0,1), c (1,0), d (1,1), chosen without branches: the
            // choice is random, so branches on it would mispredict about half the time.
            let du = (r >= t_ab) as usize;
            let dv = ((r >= t_a) & (r < t_ab) | (r >= t_abc)) as usize;
            u = (u << 1) | du;
            v = (v << 1) | dv;
        }
        if u != v {
            edges.push((perm[u], perm[v]));
            if symmetric {
                edges.push((perm[v], perm[u]));
            }
        }
    }
    Csr::from_edges(nodes, &edges)
}

/// Hop distance of every vertex from `source` (`u32::MAX` if unreachable).
pub fn bfs_depths(g: &Csr, source: usize) -> Vec<u32> {
    let mut depth = vec![u32::MAX; g.nodes()];
    if source >= depth.len() {
        return depth;
    }
    depth[source] = 0;
    let mut frontier = vec![source as u32];
    let mut d = 0;
    while !frontier.is_empty() {
        d += 1;
        let mut next = Vec::new();
        for &u in &frontier {
            for &v in g.neighbors(u as usize) {
                if depth[v as usize] == u32::MAX {
                    depth[v as usize] = d;
                    next.push(v);
                }
            }
        }
        frontier = next;
    }
    depth
}

/// The vertex of largest out-degree (lowest id on ties): a search root that reaches
/// the giant component, as Graph500 avoids isolated roots.
pub fn hub(g: &Csr) -> usize {
    (0..g.nodes()).max_by_key(|&v| (g.degree(v), std::cmp::Reverse(v))).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn rmat_is_well_formed_deterministic_and_skewed() {
        let g = rmat(10, 4096, true, &mut ChaCha8Rng::seed_from_u64(7));
        let h = rmat(10, 4096, true, &mut ChaCha8Rng::seed_from_u64(7));
        assert_eq!(g, h);
        assert_eq!(g.nodes(), 1024);
        assert_eq!(*g.row.last().unwrap() as usize, g.edges());
        for v in 0..g.nodes() {
            let n = g.neighbors(v);
            assert!(n.windows(2).all(|w| w[0] < w[1]));
            assert!(n.iter().all(|&c| c as usize != v && (c as usize) < g.nodes()));
            for &c in n {
                assert!(g.neighbors(c as usize).binary_search(&(v as u32)).is_ok());
            }
        }
        let avg = g.edges() as f64 / g.nodes() as f64;
        assert!(g.degree(hub(&g)) as f64 > 8.0 * avg, "R-MAT should have hubs");
    }

    #[test]
    fn bfs_depths_on_a_path() {
        let g = Csr::from_edges(4, &[(0, 1), (1, 2), (2, 1)]);
        assert_eq!(bfs_depths(&g, 0), vec![0, 1, 2, u32::MAX]);
    }
}
