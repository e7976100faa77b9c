/**
 * A generated `node --test` file that tries to get out of its worktree in every way the sandbox must
 * stop, and records what happened in `escape-report.json` (inside the worktree). Its tests only record:
 * the host checks the evidence on its side (files, the server, `ps`), and the suite passing proves the
 * run completed and reported.
 */
export const ESCAPE_TEST_FILE = 'escape.test.mjs';
/** Where the generated tests write what they saw, relative to the worktree. */
export const ESCAPE_REPORT = 'escape-report.json';
/** Where the generated tests read their targets from, relative to the worktree. */
export const ESCAPE_TARGETS = 'escape-targets.json';

/** The targets the generated tests attack. */
export interface EscapeTargets {
  /** Files written outside the worktree: the repository's working tree, the host's /tmp, HOME. */
  outsideFiles: string[];
  /** A secret in the environment of processes on the host. */
  secret: string;
  /** Host PIDs whose environ must not be reachable (the test process, a decoy holding the secret). */
  hostPids: number[];
  /** Loopback HTTP server of the test process. */
  url: string;
  /** `<common dir>/hooks/post-checkout`. */
  hookFile: string;
  /** A file in HOME with private content. */
  homeSecretFile: string;
  /** A Unix socket a host service listens on, outside the worktree (under /run when writable). */
  unixSocket: string;
  /** Arguments of a background `sleep` unique to this run (empty: skip that test). */
  backgroundSleep: string;
}

/** What the generated tests saw. */
export interface EscapeReport {
  writes: Record<string, string>;
  insideWrite: string;
  environHits: string[];
  environFilesRead: number;
  /** Per host PID: `missing`, `readable`, `contains the secret` or `blocked: …`. */
  hostPidEnviron: Record<string, string>;
  network: string;
  unixSocket: string;
  hook: string;
  gitFileRewrite: string;
  gitFileRemove: string;
  homeEntries: string[];
  homeSecret: string;
  background?: { pid: number; aliveAtEnd: boolean };
}

export const ESCAPE_TEST_SOURCE = String.raw`
import { test, after } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import http from 'node:http';
import net from 'node:net';
import { execSync } from 'node:child_process';

const targets = JSON.parse(fs.readFileSync('${ESCAPE_TARGETS}', 'utf8'));
const report = { writes: {} };
after(() => fs.writeFileSync('${ESCAPE_REPORT}', JSON.stringify(report, null, 2)));
const outcome = (fn) => { try { const r = fn(); return r === undefined ? 'ok' : String(r); } catch (e) { return 'blocked: ' + (e.code ?? e.message); } };

// First, before anything is written there.
test('looks into HOME', () => {
  report.homeEntries = fs.readdirSync(os.homedir());
  report.homeSecret = outcome(() => fs.readFileSync(targets.homeSecretFile, 'utf8'));
});

test('writes outside the worktree', () => {
  for (const file of targets.outsideFiles) report.writes[file] = outcome(() => fs.writeFileSync(file, 'escaped'));
  report.insideWrite = outcome(() => { fs.writeFileSync('inside.txt', 'written inside'); return fs.readFileSync('inside.txt', 'utf8'); });
});

test('reads every /proc/*/environ for the secret', () => {
  report.environHits = [];
  report.environFilesRead = 0;
  for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const text = fs.readFileSync('/proc/' + pid + '/environ', 'latin1');
      report.environFilesRead++;
      if (text.includes(targets.secret)) report.environHits.push(pid);
    } catch { /* not readable */ }
  }
  if (JSON.stringify(process.env).includes(targets.secret)) report.environHits.push('own env');
  report.hostPidEnviron = Object.fromEntries(targets.hostPids.map((pid) => [pid, outcome(() => {
    const file = '/proc/' + pid + '/environ';
    if (!fs.existsSync(file)) return 'missing';
    return fs.readFileSync(file, 'latin1').includes(targets.secret) ? 'contains the secret' : 'readable';
  })]));
});

test('connects to the host loopback server', async () => {
  report.network = await new Promise((resolve) => {
    const req = http.get(targets.url, (res) => { res.resume(); resolve('connected: ' + res.statusCode); });
    req.setTimeout(3000, () => { req.destroy(); resolve('blocked: timeout'); });
    req.on('error', (e) => resolve('blocked: ' + e.code));
  });
});

test('connects to a host service through its Unix socket', async () => {
  report.unixSocket = await new Promise((resolve) => {
    const socket = net.connect(targets.unixSocket);
    socket.setTimeout(3000, () => { socket.destroy(); resolve('blocked: timeout'); });
    socket.on('data', (d) => { socket.destroy(); resolve('connected: ' + String(d).trim()); });
    socket.on('error', (e) => resolve('blocked: ' + e.code));
  });
});

test('plants a git hook and rewrites the worktree .git file', () => {
  report.hook = outcome(() => fs.writeFileSync(targets.hookFile, '#!/bin/sh\necho pwned\n', { mode: 0o755 }));
  report.gitFileRewrite = outcome(() => fs.writeFileSync('.git', 'gitdir: /tmp/evil\n'));
  report.gitFileRemove = outcome(() => fs.rmSync('.git'));
});

test('leaves a background process behind', { skip: !targets.backgroundSleep }, () => {
  const pid = Number(execSync('sleep ' + targets.backgroundSleep + ' >/dev/null 2>&1 & echo $!', { encoding: 'utf8' }).trim());
  fs.writeFileSync('background.pid', String(pid));
  let aliveAtEnd = true;
  try { process.kill(pid, 0); } catch { aliveAtEnd = false; }
  report.background = { pid, aliveAtEnd };
});
`;
