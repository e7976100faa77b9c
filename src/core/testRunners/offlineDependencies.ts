import { stripAnsi } from './parsers/testCounts';

/** A dependency a run needed that the person's caches do not hold, and how the person fetches it once. */
export interface MissingOfflineDependency {
  /** The toolchain's own line that says so. */
  line: string;
  /** The command that fills the cache, run once in the person's checkout. */
  fetch: string;
  /** The cache it fills, in the person's words. */
  cache: string;
}

/**
 * A session runs the project's tests offline, from the caches the person's own runs filled (cargo's registry, Go's
 * module cache, `~/.m2`, `vendor/`): a project whose dependencies were never fetched on this machine cannot build
 * there. Each toolchain says so in its own words; each row is one toolchain's, as the toolchain prints it offline.
 */
const OFFLINE_MISSES: ReadonlyArray<{ re: RegExp; fetch: string; cache: string }> = [
  // cargo with CARGO_NET_OFFLINE: `error: no matching package named `itoa` found` … `you're using offline mode`
  {
    re: /^error: no matching package named `[^`]+` found$/m,
    fetch: 'cargo fetch',
    cache: "cargo's registry cache (~/.cargo/registry)",
  },
  // go with GOPROXY=off: `g.go:2:8: module lookup disabled by GOPROXY=off` (or `go: example.com/m@v1: …`)
  {
    re: /^.*module lookup disabled by GOPROXY=off.*$/m,
    fetch: 'go mod download',
    cache: "Go's module cache (go env GOMODCACHE)",
  },
  // mvn -o, inside a long `[ERROR] Failed to execute goal …` line: only the clause that names the artifact
  {
    re: /Cannot access \S+ \([^)\s]*\) in offline mode and the artifact \S+ has not been downloaded from it before/,
    fetch: 'mvn dependency:go-offline',
    cache: "Maven's local repository (~/.m2/repository)",
  },
  // phpunit --bootstrap vendor/autoload.php without a vendor/: `Cannot open file "vendor/autoload.php".`
  { re: /^Cannot open file "(?:\S*\/)?vendor\/autoload\.php"\.?$/m, fetch: 'composer install', cache: 'vendor/' },
];

/** The dependency a run's output says is missing from the offline caches, if it says so. */
export function missingOfflineDependency(output: string): MissingOfflineDependency | undefined {
  const text = stripAnsi(output);
  for (const { re, fetch, cache } of OFFLINE_MISSES) {
    const match = re.exec(text);
    if (match) return { line: match[0].trim().slice(0, 300), fetch, cache };
  }
  return undefined;
}
