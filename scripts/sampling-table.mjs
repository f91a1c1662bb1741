// Turns `warpscope run --sample N --check --format json` outputs into the validation
// tables of docs/sampling-validation.md: one row per run (full, sampled, interval and error of each
// checked metric), the share of checks met and of intervals that held the full value,
// and the speed-up; then, for the runs whose full run recorded its curve, where each
// estimate's cycles err (the windows' state, placement, heads and tails; docs/sampling.md).
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const files = process.argv.slice(2);
const pct = (x) => (100 * x).toFixed(1);
const short = { ipc: "IPC", l1_miss_rate: "L1 miss", l2_miss_rate: "L2 miss", dram_bandwidth_utilization: "DRAM util" };
let met = 0, checks = 0, covered = 0, intervals = 0;
const speed = [];
const rows = [];
const partRows = [];
for (const f of files) {
  const d = JSON.parse(readFileSync(f, "utf8"));
  const name = basename(f, ".json");
  const s = d.sampled;
  const cells = [];
  let warpWorst = 0, warpOk = true;
  for (const c of d.check) {
    checks += 1;
    met += c.within_bound ? 1 : 0;
    if (c.covered !== null) {
      intervals += 1;
      covered += c.covered ? 1 : 0;
    }
    if (c.metric.startsWith("warp_types.")) {
      warpWorst = Math.max(warpWorst, Math.abs(c.error));
      warpOk &&= c.within_bound;
      continue;
    }
    const isIpc = c.metric === "ipc";
    const show = (x) => (isIpc ? x.toFixed(3) : pct(x));
    const err = isIpc ? `${((100 * c.error) / c.full).toFixed(1)} %` : `${(100 * c.error).toFixed(1)} pt`;
    const iv = c.interval ? `${show(c.interval[0])}–${show(c.interval[1])}` : "–";
    cells.push(`${show(c.full)} / ${show(c.sampled)} (${iv}) ${err}${c.within_bound ? "" : " **✗**"}${c.covered === false ? " ⊄" : ""}`);
  }
  const detail = ((100 * s.detailed_cycles) / Math.max(1, s.estimate.cycles)).toFixed(0);
  // A full run taken from a kept report has no recorded wall time.
  let time = `– / ${d.seconds.sampled.toFixed(1)} s`;
  if (typeof d.seconds.full === "number") {
    const x = d.seconds.full / d.seconds.sampled;
    speed.push(x);
    time = `${d.seconds.full.toFixed(0)} s / ${d.seconds.sampled.toFixed(1)} s = ${x.toFixed(1)}x`;
  }
  if (d.parts) {
    const p = d.parts;
    const share = (x) => `${x >= 0 ? "+" : ""}${((100 * x) / p.full_cycles).toFixed(1)}`;
    const total = p.windows_state + p.placement + p.heads_and_tails;
    partRows.push(`| ${name} | ${share(p.windows_state)} | ${share(p.placement)} | ${share(p.heads_and_tails)} | ${share(total)} |`);
  }
  rows.push(`| ${name} | ${cells.join(" | ")} | ${(100 * warpWorst).toFixed(1)} pt${warpOk ? "" : " **✗**"} | ${time} (${detail} % detailed) |`);
}
console.log(`| run | IPC full / sampled (95 % interval) error | L1 miss % | L2 miss % | DRAM util % | worst warp-type share error | time full / sampled |`);
console.log(`|---|---|---|---|---|---|---|`);
for (const r of rows) console.log(r);
speed.sort((a, b) => a - b);
console.log();
const speedText = speed.length
  ? `; speed-up ${speed[0].toFixed(1)}x to ${speed.at(-1).toFixed(1)}x, median ${speed[Math.floor(speed.length / 2)].toFixed(1)}x over ${speed.length} runs with a timed full run`
  : "";
console.log(`${met} of ${checks} checks within their bound; ${covered} of ${intervals} intervals hold the full value (${pct(covered / Math.max(1, intervals))} %) over ${files.length} runs${speedText}.`);
if (partRows.length) {
  console.log();
  console.log(`Where the estimated cycles err, in % of the full run's cycles (+ = too many):`);
  console.log();
  console.log(`| run | the windows' state | placement | heads and tails | total |`);
  console.log(`|---|---|---|---|---|`);
  for (const r of partRows) console.log(r);
}
