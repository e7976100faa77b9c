import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  BWRAP_APPARMOR_PROFILE,
  describeDiagnosis,
  diagnoseBubblewrap,
  readNamespaceFacts,
} from '../../../src/core/osSandbox/diagnoseSandbox';

/** Ubuntu 24.04's default: the AppArmor restriction on, the Debian sysctl absent, namespaces allowed. */
const UBUNTU_24 = { apparmorRestrictUserns: '1', maxUserNamespaces: '63360', inContainer: false };
const DEBIAN_HOST = { maxUserNamespaces: '63360', inContainer: false };

describe('sandbox diagnosis from bubblewrap’s own messages', () => {
  it('a missing bwrap: how to install it per distribution', () => {
    const d = diagnoseBubblewrap('', {}, { missing: true });
    assert.equal(d.kind, 'missing');
    assert.match(d.fixes.join(' '), /sudo apt-get install bubblewrap/);
    assert.match(d.fixes.join(' '), /sudo dnf install bubblewrap/);
  });

  for (const stderr of [
    'bwrap: setting up uid map: Permission denied',
    'bwrap: loopback: Failed RTM_NEWADDR: Operation not permitted',
  ]) {
    it(`Ubuntu 24.04's AppArmor restriction ("${stderr}"): the bwrap profile and the sysctl`, () => {
      const d = diagnoseBubblewrap(stderr, UBUNTU_24);
      assert.equal(d.kind, 'apparmor_userns');
      assert.match(d.cause, /AppArmor restricts unprivileged user namespaces/);
      const fixes = d.fixes.join('\n');
      assert.ok(fixes.includes('/etc/apparmor.d/bwrap'), fixes);
      assert.ok(fixes.includes(BWRAP_APPARMOR_PROFILE), fixes);
      assert.match(BWRAP_APPARMOR_PROFILE, /^abi <abi\/4\.0>,\ninclude <tunables\/global>/);
      assert.match(BWRAP_APPARMOR_PROFILE, /profile bwrap \/usr\/bin\/bwrap flags=\(unconfined\) \{\n {2}userns,/);
      assert.match(fixes, /apparmor_parser -r \/etc\/apparmor\.d\/bwrap/);
      assert.match(fixes, /sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/);
    });
  }

  it('the same uid-map message with an unreadable AppArmor sysctl is still taken for AppArmor', () => {
    assert.equal(diagnoseBubblewrap('bwrap: setting up uid map: Permission denied', DEBIAN_HOST).kind, 'apparmor_userns');
  });

  it("Debian's kernel.unprivileged_userns_clone=0", () => {
    const stderr =
      "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces. On e.g. debian this can be enabled with 'sysctl kernel.unprivileged_userns_clone=1'.";
    for (const facts of [{ ...DEBIAN_HOST, unprivilegedUsernsClone: '0' }, DEBIAN_HOST]) {
      const d = diagnoseBubblewrap(stderr, facts);
      assert.equal(d.kind, 'userns_clone_disabled');
      assert.match(d.fixes[0]!, /sysctl -w kernel\.unprivileged_userns_clone=1/);
      assert.match(d.fixes[0]!, /\/etc\/sysctl\.d\//);
    }
  });

  it('user.max_user_namespaces=0', () => {
    const d = diagnoseBubblewrap('bwrap: Creating new namespace failed: No space left on device', { maxUserNamespaces: '0' });
    assert.equal(d.kind, 'max_user_namespaces_zero');
    assert.match(d.fixes[0]!, /sysctl -w user\.max_user_namespaces=15000/);
  });

  it('a container without user namespaces (Docker’s default seccomp profile)', () => {
    for (const stderr of [
      'bwrap: Creating new namespace failed: Operation not permitted',
      "bwrap: Can't mount proc on /newroot/proc: Operation not permitted",
    ]) {
      const d = diagnoseBubblewrap(stderr, { ...DEBIAN_HOST, inContainer: true });
      assert.equal(d.kind, 'container', stderr);
      assert.match(d.fixes.join(' '), /on the host/);
      assert.match(d.fixes.join(' '), /seccomp=unconfined/);
    }
  });

  it('anything else keeps bubblewrap’s words and says how to see the whole error', () => {
    const d = diagnoseBubblewrap('bwrap: something new', DEBIAN_HOST);
    assert.equal(d.kind, 'unknown');
    assert.match(d.cause, /bwrap: something new/);
    assert.match(describeDiagnosis(d), /^bubblewrap cannot start a sandbox here: bwrap: something new\.\n- Run `bwrap/);
  });

  it('reads the kernel settings and container markers from a /proc tree', () => {
    const root = mkdtempSync(join(tmpdir(), 'ns-facts-'));
    try {
      const put = (path: string, text: string) => {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      };
      put('proc/sys/kernel/apparmor_restrict_unprivileged_userns', '1\n');
      put('proc/sys/user/max_user_namespaces', '63360\n');
      put('proc/1/cgroup', '0::/init.scope\n');
      assert.deepEqual(readNamespaceFacts(root, {}), {
        apparmorRestrictUserns: '1',
        unprivilegedUsernsClone: undefined,
        maxUserNamespaces: '63360',
        inContainer: false,
      });
      put('.dockerenv', '');
      assert.equal(readNamespaceFacts(root, {}).inContainer, true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
