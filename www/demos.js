// One-click demos, grouped by paper or topic. Each is one or more runs (a comparison),
// a sentence on what to see, the time it takes in the browser, and the claims the
// sentence makes about its own numbers. They live in demos.json so that the native test
// (tests/demo_claims.rs) runs exactly the page's runs and checks those claims.
// `sets` are dotted-path overrides on the preset, as the CLI's --set takes them.
import groups from './demos.json';

export const DEMO_GROUPS = groups;
export const DEMOS = groups.flatMap((g) => g.demos);
