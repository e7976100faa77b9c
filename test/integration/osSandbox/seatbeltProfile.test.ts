import { strict as assert } from 'node:assert';
import { seatbeltProfile, SeatbeltSandbox, SANDBOX_EXEC } from '../../../src/core/osSandbox';

/**
 * macOS's `sandbox-exec` cannot run on the Linux machines these tests run on, so only the generated
 * profile text and the wrapped launch are checked here; the rules mirror the bubblewrap sandbox.
 */
describe('OS sandbox: the macOS seatbelt profile (text only: sandbox-exec cannot run here)', () => {
  const policy = {
    writableRoots: ['/Users/me/code/kata/.tdd/wt'],
    readOnlyPaths: ['/Users/me/code/kata/.tdd/wt/.git'],
    readableRoots: ['/Users/me/code/kata/.git'],
  };
  const profile = seatbeltProfile({ policy, home: '/Users/me', tmpDirs: ['/private/tmp', '/private/var/folders/xy/T'] });
  const lines = profile.split('\n');

  it('denies by default and denies the network', () => {
    assert.equal(lines[0], '(version 1)');
    assert.equal(lines[1], '(deny default)');
    assert.ok(lines.includes('(deny network*)'));
    assert.ok(!/\(allow network/.test(profile));
  });

  it('reads everything but HOME, plus the readable and writable roots and the folders leading to them', () => {
    assert.ok(lines.includes('(allow file-read* (require-all (subpath "/") (require-not (subpath "/Users/me"))))'));
    assert.ok(lines.includes('(allow file-read* (subpath "/Users/me/code/kata/.git") (subpath "/Users/me/code/kata/.tdd/wt"))'));
    const metadata = lines.find((l) => l.startsWith('(allow file-read-metadata'));
    for (const dir of ['/Users/me', '/Users/me/code', '/Users/me/code/kata', '/Users/me/code/kata/.tdd'])
      assert.ok(metadata?.includes(`(literal "${dir}")`), dir);
  });

  it('writes only in the writable roots minus the read-only paths, the temporary folders and /dev pseudo-files', () => {
    const writes = lines.filter((l) => l.startsWith('(allow file-write*'));
    assert.deepEqual(writes, [
      '(allow file-write* (require-all (subpath "/Users/me/code/kata/.tdd/wt") (require-not (subpath "/Users/me/code/kata/.tdd/wt/.git"))))',
      '(allow file-write* (subpath "/private/tmp") (subpath "/private/var/folders/xy/T"))',
      '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/[0-9]+$") (regex #"^/dev/ttys[0-9]+$"))',
    ]);
  });

  it('escapes quotes and backslashes in paths', () => {
    const text = seatbeltProfile({ policy: { writableRoots: ['/w/a"b\\c'], readOnlyPaths: [], readableRoots: [] }, tmpDirs: [] });
    assert.ok(text.includes('(subpath "/w/a\\"b\\\\c")'), text);
  });

  it('wraps a shell launch as sandbox-exec -p <profile> /bin/sh -c <command>', () => {
    const sandbox = new SeatbeltSandbox(policy);
    assert.equal(sandbox.kind, 'seatbelt');
    assert.match(sandbox.description, /writes only in \/Users\/me\/code\/kata\/\.tdd\/wt .*no network/);
    const wrapped = sandbox.wrap({
      command: 'npm test',
      args: [],
      shell: true,
      cwd: '/Users/me/code/kata/.tdd/wt',
      env: { HOME: '/nonexistent-home', PATH: '/usr/bin' },
    });
    assert.equal(wrapped.command, SANDBOX_EXEC);
    assert.equal(wrapped.shell, false);
    assert.equal(wrapped.args[0], '-p');
    assert.match(wrapped.args[1]!, /^\(version 1\)\n\(deny default\)/);
    assert.deepEqual(wrapped.args.slice(2), ['/bin/sh', '-c', 'npm test']);
    assert.deepEqual(wrapped.env, { HOME: '/nonexistent-home', PATH: '/usr/bin' });
  });
});
