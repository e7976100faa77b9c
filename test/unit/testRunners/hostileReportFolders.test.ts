import { strict as assert } from 'node:assert';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cargoPackages } from '../../../src/core/testRunners/reports/cargoPackages';
import { prepareMinitestReport, readMinitestReport } from '../../../src/core/testRunners/reports/minitestReport';

/**
 * The worktree is the repository's, which an attacker may have written: the minitest plugin's folder and the Cargo
 * members the report reader visits are read and written without following a link the repository planted, and no
 * member path leaves the worktree.
 */
describe('hostile repository: the minitest plugin folder and Cargo members', () => {
  let root: string;
  let worktree: string;
  let outside: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hostile-reports-'));
    worktree = join(root, 'worktree');
    outside = join(root, 'outside');
    mkdirSync(worktree);
    mkdirSync(outside);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('a .tdd/minitest planted as a link elsewhere: the link is replaced, the plugin written in the worktree, the report there not read', async () => {
    mkdirSync(join(worktree, '.tdd'));
    symlinkSync(outside, join(worktree, '.tdd', 'minitest'));
    writeFileSync(join(outside, 'report.jsonl'), '{"class":"Fake","name":"test_green","outcome":"passed"}\n');
    await prepareMinitestReport(worktree);
    assert.deepEqual(readdirSync(outside), ['report.jsonl'], 'nothing written through the link, nothing removed');
    assert.ok(!lstatSync(join(worktree, '.tdd', 'minitest')).isSymbolicLink());
    assert.deepEqual(readdirSync(join(worktree, '.tdd', 'minitest', 'minitest')), ['tdd_agent_plugin.rb']);
    await assert.rejects(readMinitestReport(worktree), /no report/);
  });

  it('a report planted as a link is not followed', async () => {
    mkdirSync(join(worktree, '.tdd', 'minitest'), { recursive: true });
    writeFileSync(join(outside, 'secret'), 'key');
    await prepareMinitestReport(worktree);
    symlinkSync(join(outside, 'secret'), join(worktree, '.tdd', 'minitest', 'report.jsonl'));
    await assert.rejects(readMinitestReport(worktree), /link/);
  });

  it('Cargo members outside the worktree, or through a planted link, are not read', async () => {
    writeFileSync(join(worktree, 'Cargo.toml'), '[workspace]\nmembers = ["../outside", "/etc", "linked/*", "crates/*"]\n');
    writeFileSync(join(outside, 'Cargo.toml'), '[package]\nname = "outside"\n');
    symlinkSync(outside, join(worktree, 'linked'));
    mkdirSync(join(worktree, 'crates', 'real'), { recursive: true });
    writeFileSync(join(worktree, 'crates', 'real', 'Cargo.toml'), '[package]\nname = "real-one"\n');
    symlinkSync(outside, join(worktree, 'crates', 'escape'));
    assert.deepEqual(await cargoPackages(worktree), [{ dir: 'crates/real', crate: 'real_one' }]);
    assert.ok(existsSync(join(outside, 'Cargo.toml')));
  });
});
