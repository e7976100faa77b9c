import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditTrail } from '../../../src/core/audit/auditTrail';

describe('AuditTrail.toFile', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'audit-trail-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('appends redacted JSON lines to an owner-only file, across trails opened one after another', async () => {
    const path = join(dir, 'sessions', 's1.audit.jsonl');
    for (const agentId of ['a', 'b']) {
      const trail = AuditTrail.toFile(path);
      trail.record({
        timestamp: 't',
        agentId,
        inputs: { apiKey: 'sk-proj-abcdefghijklmnopqrstuvwxyz0123456789' },
        durationMs: 1,
      });
      await trail.close();
    }
    const lines = (await readFile(path, 'utf8')).trim().split('\n');
    assert.deepEqual(
      lines.map((l) => (JSON.parse(l) as { agentId: string }).agentId),
      ['a', 'b'],
    );
    assert.doesNotMatch(lines.join('\n'), /sk-proj-/);
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  });

  it('refuses a link planted in its place (the write would land where it points): nothing is written there', async () => {
    const outside = join(dir, 'person-file.txt');
    await writeFile(outside, 'the person’s own file\n');
    const path = join(dir, 's1.audit.jsonl');
    await symlink(outside, path);
    assert.throws(
      () => AuditTrail.toFile(path),
      (e: Error & { error_code?: string }) =>
        e.error_code === 'CONFIG' && /cannot be opened: a link stands in its place/.test(e.message),
    );
    assert.equal(await readFile(outside, 'utf8'), 'the person’s own file\n');
  });
});
