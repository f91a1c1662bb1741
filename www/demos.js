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
    text: 'kmeans is DRAM-bound: serving row hits first draws much more bandwidth from DRAM (and IPC follows), though with more reads in flight each waits a little longer in the controller.',
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
    id: 'mpki_heavy',
    title: 'Heavy kernels: L1 misses by cause at 16, 48 and 64 KB',
    text: 'atax, bicg, gesummv and mvt walk matrix rows per thread: a warp-load\'s 32 lines share one or two L1 sets, so a warp evicts its own lines (intra-warp) and a bigger L1 hardly helps (see the miss-cause chart; first 600K cycles).',
    runs: [
      { preset: 'iwarp-fermi', kernel: 'atax', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 16, 'l1d.ways': 4 } },
      { preset: 'iwarp-fermi', kernel: 'atax', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 48, 'l1d.ways': 6 } },
      { preset: 'iwarp-fermi', kernel: 'atax', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 64, 'l1d.ways': 8 } },
      { preset: 'iwarp-fermi', kernel: 'bicg', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 16, 'l1d.ways': 4 } },
      { preset: 'iwarp-fermi', kernel: 'bicg', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 48, 'l1d.ways': 6 } },
      { preset: 'iwarp-fermi', kernel: 'bicg', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 64, 'l1d.ways': 8 } },
      { preset: 'iwarp-fermi', kernel: 'gesummv', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 16, 'l1d.ways': 4 } },
      { preset: 'iwarp-fermi', kernel: 'gesummv', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 48, 'l1d.ways': 6 } },
      { preset: 'iwarp-fermi', kernel: 'gesummv', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 64, 'l1d.ways': 8 } },
      { preset: 'iwarp-fermi', kernel: 'mvt', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 16, 'l1d.ways': 4 } },
      { preset: 'iwarp-fermi', kernel: 'mvt', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 48, 'l1d.ways': 6 } },
      { preset: 'iwarp-fermi', kernel: 'mvt', size: 'small', seed: 1, maxCycles: 600000, sets: { 'l1d.size_kb': 64, 'l1d.ways': 8 } },
    ],
  },
  {
    id: 'mpki_moderate',
    title: 'Moderate kernels: L1 misses by cause at 16, 48 and 64 KB',
    text: 'kmeans and bfs: the inter-warp L1 misses (a warp\'s line evicted by another warp) shrink as the L1 grows; compare with the heavy kernels\' demo.',
    runs: [
      { preset: 'iwarp-fermi', kernel: 'kmeans', size: 'small', seed: 1, sets: { 'l1d.size_kb': 16, 'l1d.ways': 4 } },
      { preset: 'iwarp-fermi', kernel: 'kmeans', size: 'small', seed: 1, sets: { 'l1d.size_kb': 48, 'l1d.ways': 6 } },
      { preset: 'iwarp-fermi', kernel: 'kmeans', size: 'small', seed: 1, sets: { 'l1d.size_kb': 64, 'l1d.ways': 8 } },
      { preset: 'iwarp-fermi', kernel: 'bfs', size: 'small', seed: 1, sets: { 'l1d.size_kb': 16, 'l1d.ways': 4 } },
      { preset: 'iwarp-fermi', kernel: 'bfs', size: 'small', seed: 1, sets: { 'l1d.size_kb': 48, 'l1d.ways': 6 } },
      { preset: 'iwarp-fermi', kernel: 'bfs', size: 'small', seed: 1, sets: { 'l1d.size_kb': 64, 'l1d.ways': 8 } },
    ],
  },
  {
    id: 'iwarp',
    title: 'GTO against CCWS against iWarp',
    text: 'atax on the iWarp machine: the L1 thrashes under every scheduler, but holding back the warp that evicts another warp\'s lines keeps the victim\'s rows in the L2 (see L2 miss rate and IPC in the table; first 1M cycles).',
    runs: [
      { preset: 'iwarp-fermi', kernel: 'atax', size: 'small', seed: 1, maxCycles: 1000000, sets: {} },
      { preset: 'iwarp-fermi', kernel: 'atax', size: 'small', seed: 1, maxCycles: 1000000, sets: { 'core.warp_scheduler': 'ccws' } },
      { preset: 'iwarp-fermi', kernel: 'atax', size: 'small', seed: 1, maxCycles: 1000000, sets: { 'core.warp_scheduler': 'iwarp' } },
    ],
  },
  {
    id: 'medic-hetero',
    title: 'MeDiC: warps of one kernel differ',
    text: 'bfs on the MeDiC GTX 480: the per-warp L2 hit ratio histogram spreads from all-miss to all-hit warps, and the warp-type chart sorts them into MeDiC\'s five types.',
    runs: [{ preset: 'medic-gtx480', kernel: 'bfs', size: 'small', seed: 1, sets: {} }],
  },
  {
    id: 'medic-stable',
    title: 'MeDiC: a warp keeps its type',
    text: 'bfs again: "L2 hit ratio of sampled warps over time" follows eight warp contexts (MeDiC keeps its counters per context, for whichever warp runs there) through 100K-cycle windows; after the cold first window all eight stay mostly-hit.',
    runs: [{ preset: 'medic-gtx480', kernel: 'bfs', size: 'small', seed: 1, sets: {} }],
  },
  {
    id: 'medic',
    title: 'MeDiC against the baseline',
    text: 'pvc with and without MeDiC (bypass + insertion + warp-aware DRAM scheduling): compare the L2 queuing latency and the warp types. "Read latency by stage of the trip" shows where the time goes: an L2 hit waits about 50 core cycles at the partition (port wait + L2 queue, what WByp shortens) but about 90 for and on the reply network, which bypassed reads use too, and 80 on the request network. "L2 reads by the type their warp held" shows hardly any read comes from a warp typed mostly-miss or all-miss, so WByp has little to bypass.',
    runs: [
      { preset: 'medic-gtx480', kernel: 'pvc', size: 'small', seed: 1, sets: {} },
      {
        preset: 'medic-gtx480',
        kernel: 'pvc',
        size: 'small',
        seed: 1,
        sets: { 'l2.bypass': 'medic', 'l2.insertion': 'medic', 'dram.scheduler': 'medic_wms' },
      },
    ],
  },
  {
    id: 'medic-hmean',
    title: 'MeDiC over four kernels',
    text: 'bfs, sssp, spmv and pvc under the baseline, then under MeDiC (about half a minute): each MeDiC run\'s speedup is over the baseline run of its kernel, and the table under the summary gives each machine\'s harmonic mean speedup, MeDiC\'s metric (the CLI\'s `warpscope compare` computes the same). The paper reports +41.5 % over its baseline; here MeDiC gains about 1 %: our kernels\' warps are rarely mostly-miss, so there is little to bypass (the next demo shows what GPGPU-Sim\'s fixed latencies change).',
    runs: ['baseline', 'medic'].flatMap((policy) =>
      ['bfs', 'sssp', 'spmv', 'pvc'].map((kernel) => ({
        preset: 'medic-gtx480',
        kernel,
        size: 'small',
        seed: 1,
        sets: policy === 'medic' ? { 'l2.bypass': 'medic', 'l2.insertion': 'medic', 'dram.scheduler': 'medic_wms' } : {},
      })),
    ),
  },
  {
    id: 'medic-rop',
    title: 'MeDiC: how much of the gain is the ROP skip',
    text: 'bfs on medic-gtx480, GPGPU-Sim\'s GTX 480 with its 120-cycle ROP pipeline in front of the L2, four ways: the baseline; MeDiC as the paper describes it (only the reads it bypasses skip the pipeline), about 14 % faster; MeDiC as its authors\' scripts ran it (every request skips the pipeline), about 35 %; and the skip alone with no policy, about 32 %. Most of the as-run gain is the skip, not MeDiC. "Read latency by stage of the trip" shows the ROP in the port wait.',
    runs: [
      {},
      { 'l2.bypass': 'medic', 'l2.insertion': 'medic', 'dram.scheduler': 'medic_wms' },
      { 'l2.bypass': 'medic', 'l2.insertion': 'medic', 'dram.scheduler': 'medic_wms', 'l2.rop_skip': 'all' },
      { 'l2.rop_skip': 'all' },
    ].map((sets) => ({ preset: 'medic-gtx480', kernel: 'bfs', size: 'small', seed: 1, sets })),
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
  {
    id: 'tb_bg',
    title: 'Coordinated bypassing: TB_bg over time',
    text: 'conv_separable and pvc on the Xie et al. Fermi (16 KB L1): each launch starts with every thread block allowed to bypass (TB_bg = TB_max), and each sampling period moves TB_bg to whichever of itself and its neighbours scored best. conv_separable walks from 8 down to 5, wavers between 5 and 6, then goes down to 0 in its first launch, and from 8 down to 1 in its second; pvc goes from 6 to 4 and back to 5 (see the TB_bg chart, the paper\'s fig. 12).',
    runs: ['conv_separable', 'pvc'].map((k) => ({
      preset: 'xie-fermi', kernel: k, size: 'small', seed: 1, sets: { 'l1d.bypass': 'coordinated' },
    })),
  },
  {
    id: 'coordinated',
    title: 'Coordinated bypassing against always-cache',
    text: 'streamcluster on the Xie et al. Fermi (16 KB L1): the profiling run tags one of the two coord loads and the work_mem loads cg (they bypass the L1) and the points loads cm (they bypass in bg thread blocks), so the loads that keep the L1 hit twice as often, the share of cycles the L1 refuses the LD/ST unit drops, and a bypassed load asks only for the 32 B sectors it touches (L1 hit and L1 stall share in the table; IPC gains about 7 %).',
    runs: [
      { preset: 'xie-fermi', kernel: 'streamcluster', size: 'small', seed: 1, sets: {} },
      { preset: 'xie-fermi', kernel: 'streamcluster', size: 'small', seed: 1, sets: { 'l1d.bypass': 'coordinated' } },
    ],
  },
];
