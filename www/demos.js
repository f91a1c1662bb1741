// One-click demos: each is one or more runs (a comparison) and a sentence on what to see.
// `sets` are dotted-path overrides on the preset, as the CLI's --set takes them.

export const DEMOS = [
  {
    id: 'stall',
    title: 'Why does this warp stall?',
    text: 'bfs on the MeDiC GTX 480: the divergence histogram shows how long a warp waits between its first and its last request.',
    runs: [{ preset: 'medic-gtx480', kernel: 'bfs', size: 'small', seed: 1, sets: {} }],
  },
  {
    id: 'dram',
    title: 'FR-FCFS against FCFS',
    text: 'kmeans is DRAM-bound: serving row hits first raises bandwidth and cuts queuing in the controller.',
    runs: [
      { preset: 'medic-gtx480', kernel: 'kmeans', size: 'small', seed: 1, sets: {} },
      { preset: 'medic-gtx480', kernel: 'kmeans', size: 'small', seed: 1, sets: { 'dram.scheduler': 'fcfs' } },
    ],
  },
  {
    id: 'l1size',
    title: 'A 16 KB against a 64 KB L1',
    text: 'bfs gathers through its edge list: a larger L1 keeps the neighbours and warps wait far less.',
    runs: [
      { preset: 'medic-gtx480', kernel: 'bfs', size: 'small', seed: 1, sets: {} },
      { preset: 'medic-gtx480', kernel: 'bfs', size: 'small', seed: 1, sets: { 'l1d.size_kb': 64 } },
    ],
  },
  {
    id: 'sched',
    title: 'GTO against LRR warp scheduling',
    text: 'atax walks matrix rows: round-robin lets every warp thrash the L1, greedy-then-oldest keeps one warp\'s lines alive.',
    runs: [
      { preset: 'medic-gtx480', kernel: 'atax', size: 'tiny', seed: 1, sets: {} },
      { preset: 'medic-gtx480', kernel: 'atax', size: 'tiny', seed: 1, sets: { 'core.warp_scheduler': 'lrr' } },
    ],
  },
  {
    id: 'types',
    title: 'Warps of every type',
    text: 'spmv on the SC\'14 machine: rows of different lengths give per-warp L2 hit ratios all the way from 0 to 100 %.',
    runs: [{ preset: 'sc14-gtx480', kernel: 'spmv', size: 'small', seed: 1, sets: {} }],
  },
  {
    id: 'setindex',
    title: 'Linear against BXOR set indexing',
    text: 'atax walks rows 4 KB apart: a linear index puts a warp-load\'s 32 lines in one L1 set, an XOR hash spreads them.',
    runs: [
      { preset: 'sound-maxwell', kernel: 'atax', size: 'small', seed: 1, sets: {} },
      { preset: 'sound-maxwell', kernel: 'atax', size: 'small', seed: 1, sets: { 'l1d.set_index': 'bxor' } },
    ],
  },
  {
    id: 'allocation',
    title: 'Allocate on miss against allocate on fill',
    text: 'mvt on the MeDiC machine: on a miss, on-fill reserves no line, so the old line keeps hitting and fewer accesses are refused.',
    runs: [
      { preset: 'medic-gtx480', kernel: 'mvt', size: 'tiny', seed: 1, sets: {} },
      { preset: 'medic-gtx480', kernel: 'mvt', size: 'tiny', seed: 1, sets: { 'l1d.allocation': 'on_fill' } },
    ],
  },
  {
    id: 'camping',
    title: 'Partition camping: modulo against XOR mapping',
    text: 'The warps in flight walk syrk\'s rows at the same column: under modulo mapping they crowd two of 16 partitions, XOR spreads them (first 50K cycles; see requests per partition).',
    runs: [
      { preset: 'sound-maxwell', kernel: 'syrk', size: 'paper', seed: 1, sets: {}, maxCycles: 50000 },
      { preset: 'sound-maxwell', kernel: 'syrk', size: 'paper', seed: 1, maxCycles: 50000, sets: { 'mem.partition_mapping': 'xor' } },
    ],
  },
  {
    id: 'warpaware',
    title: 'Warp-aware DRAM scheduling on spmv',
    text: 'spmv\'s gathers spread a warp over banks and channels. FR-FCFS and GMC chase row hits; WG serves whole warp-groups, WG-M lines them up across channels, WG-Bw keeps bandwidth with MERB, WG-W minds write drains (first 40K cycles; the divergence histograms overlay, bandwidth is in the table).',
    runs: ['fr_fcfs', 'gmc', 'wg', 'wg_m', 'wg_bw', 'wg_w'].map((s) => ({
      preset: 'sc14-gtx480', kernel: 'spmv', size: 'paper', seed: 1, maxCycles: 40000, sets: { 'dram.scheduler': s },
    })),
  },
  {
    id: 'warpaware_bfs',
    title: 'Warp-aware DRAM scheduling on bfs',
    text: 'The same six schedulers on bfs, whose warps touch fewer channels: coordination between controllers matters less than within one (first 40K cycles).',
    runs: ['fr_fcfs', 'gmc', 'wg', 'wg_m', 'wg_bw', 'wg_w'].map((s) => ({
      preset: 'sc14-gtx480', kernel: 'bfs', size: 'paper', seed: 1, maxCycles: 40000, sets: { 'dram.scheduler': s },
    })),
  },
];
