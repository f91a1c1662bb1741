// For `validate-sampling.sh --reports DIR`: reads the whole runs' reports kept in DIR (`job`
// or `batch` reports, .json or .json.gz), writes each one's config to OUT/NAME.config.json
// and prints `NAME KERNEL SIZE SEED REPORT` per report. NAME is the kernel and the config
// fields whose values differ between the reports (e.g. `atax-warp_scheduler=gto-size_kb=16`),
// so the table's rows say which run they are.
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

const [dir, out] = process.argv.slice(2);
const files = readdirSync(dir).filter((f) => /\.json(\.gz)?$/.test(f)).sort();
const reports = files.map((f) => {
  const raw = readFileSync(join(dir, f));
  return { path: join(dir, f), doc: JSON.parse((f.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8")) };
});
const leaves = (obj, prefix = "") =>
  Object.entries(obj).flatMap(([k, v]) =>
    v !== null && typeof v === "object" && !Array.isArray(v) ? leaves(v, `${prefix}${k}.`) : [[`${prefix}${k}`, JSON.stringify(v)]],
  );
const values = reports.map((r) => new Map(leaves(r.doc.config)));
const paths = [...new Set(values.flatMap((m) => [...m.keys()]))].sort();
const differing = paths.filter((p) => new Set(values.map((m) => m.get(p))).size > 1);
const names = new Set();
reports.forEach(({ path, doc }, i) => {
  const label = differing.map((p) => `${p.split(".").at(-1)}=${JSON.parse(values[i].get(p) ?? "null")}`);
  let name = [doc.kernel, ...label, `seed${doc.seed}`].join("-");
  if (names.has(name)) name += `-${i}`;
  names.add(name);
  writeFileSync(join(out, `${name}.config.json`), JSON.stringify(doc.config));
  console.log([name, doc.kernel, doc.size, doc.seed, path].join(" "));
});
