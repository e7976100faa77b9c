import { strict as assert } from 'node:assert';
import { cgroupLayout } from '../../../src/core/osSandbox/cgroupLayout';
import { describeProcessLimit } from '../../../src/core/osSandbox/bubblewrap';
import type { PidsCgroupSupport } from '../../../src/core/osSandbox/pidsCgroup';

/**
 * The `/proc/self/mountinfo` and `/proc/self/cgroup` of real hosts (the cgroup lines only, plus the root mount),
 * and what the per-run process limit becomes on each: the layout found, where pids cgroups go, and `doctor`'s line.
 */

// This project's CI machines: v1 controllers plus an empty cgroup2 at /sys/fs/cgroup/unified, running as root.
const HYBRID_MOUNTINFO = `22 1 254:0 / / rw,relatime - ext4 /dev/vda rw
30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
31 30 0:28 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd
40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`;
const HYBRID_CGROUP = `9:name=systemd:/
8:pids:/
4:memory:/process_api/9fcf8ff4fdcb7843237e376b718160b4
1:cpu:/
0::/
`;

// Ubuntu 22.04 desktop, systemd's unified layout; a user session's scope.
const V2_MOUNTINFO = `29 1 8:2 / / rw,relatime shared:1 - ext4 /dev/sda2 rw,errors=remount-ro
35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot
`;
const V2_CGROUP = '0::/user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-1.scope\n';

// CentOS 7 (systemd 219): v1 only, the process in a session scope of the pids hierarchy.
const V1_MOUNTINFO = `18 1 253:0 / / rw,relatime shared:1 - xfs /dev/mapper/centos-root rw
25 18 0:22 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:6 - tmpfs tmpfs ro,mode=755
27 25 0:24 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:8 - cgroup cgroup rw,xattr,name=systemd
33 25 0:30 / /sys/fs/cgroup/pids rw,nosuid,nodev,noexec,relatime shared:14 - cgroup cgroup rw,pids
34 25 0:31 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:15 - cgroup cgroup rw,cpuacct,cpu
`;
const V1_CGROUP = `11:pids:/user.slice/user-1000.slice/session-3.scope
4:cpuacct,cpu:/user.slice
1:name=systemd:/user.slice/user-1000.slice/session-3.scope
`;

// A container without /sys/fs/cgroup mounted.
const NONE_MOUNTINFO = `600 500 0:50 / / rw,relatime - overlay overlay rw,lowerdir=/l,upperdir=/u,workdir=/w
601 600 0:52 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw
`;

const noSubtree = () => '';

describe('cgroup layouts and the per-run process limit', () => {
  it('hybrid: the v1 pids hierarchy is used, not the empty cgroup2 mount', () => {
    const layout = cgroupLayout(HYBRID_MOUNTINFO, HYBRID_CGROUP, () => {
      throw new Error('the cgroup2 mount is not asked on a hybrid host with v1 pids');
    });
    assert.deepEqual(layout, { kind: 'hybrid', pids: { dir: '/sys/fs/cgroup/pids', version: 1 } });
  });

  it('v1: the process’s own cgroup of the pids hierarchy', () => {
    assert.deepEqual(cgroupLayout(V1_MOUNTINFO, V1_CGROUP, noSubtree), {
      kind: 'v1',
      pids: { dir: '/sys/fs/cgroup/pids/user.slice/user-1000.slice/session-3.scope', version: 1 },
    });
  });

  it('v2: usable only where pids is delegated to the process’s cgroup’s children', () => {
    const own = '/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/vte-spawn-1.scope';
    const asked: string[] = [];
    const delegated = cgroupLayout(V2_MOUNTINFO, V2_CGROUP, (dir) => (asked.push(dir), 'cpu memory pids'));
    assert.deepEqual(delegated, { kind: 'v2', pids: { dir: own, version: 2 } });
    assert.deepEqual(asked, [own]);
    const notDelegated = cgroupLayout(V2_MOUNTINFO, V2_CGROUP, () => 'memory');
    assert.equal(notDelegated.kind, 'v2');
    assert.equal(notDelegated.pids, undefined);
    assert.match(notDelegated.reason!, /pids controller is not delegated to .*vte-spawn-1\.scope/);
  });

  it('hybrid without a v1 pids hierarchy falls back to the cgroup2 mount; none: nothing mounted', () => {
    const noPids = HYBRID_MOUNTINFO.replace(/^38 .*\n/m, '');
    const layout = cgroupLayout(noPids, HYBRID_CGROUP.replace(/^8:pids:.*\n/m, ''), () => 'pids');
    assert.deepEqual(layout, { kind: 'hybrid', pids: { dir: '/sys/fs/cgroup/unified', version: 2 } });
    assert.deepEqual(cgroupLayout(NONE_MOUNTINFO, '0::/\n', noSubtree), {
      kind: 'none',
      reason: 'no cgroup file system is mounted',
    });
  });

  it('a mount point with an escaped space is read as its path', () => {
    const spaced = V1_MOUNTINFO.replace('/sys/fs/cgroup/pids rw', '/sys/fs/cgroup/my\\040pids rw');
    assert.equal(
      cgroupLayout(spaced, V1_CGROUP, noSubtree).pids?.dir,
      '/sys/fs/cgroup/my pids/user.slice/user-1000.slice/session-3.scope',
    );
  });

  describe('tdd-agent doctor’s process-limit line for each layout', () => {
    const facts = (cgroups: PidsCgroupSupport, root = true, nproc = false) => ({ cgroups, root, nproc, processes: 1024 });
    const usable = (mountinfo: string, cgroup: string, subtree = noSubtree): PidsCgroupSupport => {
      const layout = cgroupLayout(mountinfo, cgroup, subtree);
      return { layout, base: layout.pids?.dir };
    };

    it('hybrid as root: a v1 pids cgroup per run', () => {
      const line = describeProcessLimit(facts(usable(HYBRID_MOUNTINFO, HYBRID_CGROUP)));
      assert.equal(line.kind, 'cgroup-v1');
      assert.equal(
        line.text,
        'a pids cgroup per run under /sys/fs/cgroup/pids (hybrid cgroups: v1 controllers beside a cgroup2 mount): 1024 processes and threads per run',
      );
    });

    it('v2 delegated: a v2 pids cgroup; not delegated and root: none, and why', () => {
      assert.equal(describeProcessLimit(facts(usable(V2_MOUNTINFO, V2_CGROUP, () => 'pids'))).kind, 'cgroup-v2');
      const none = describeProcessLimit(facts(usable(V2_MOUNTINFO, V2_CGROUP)));
      assert.equal(none.kind, 'none');
      assert.match(
        none.text,
        /^none: RLIMIT_NPROC does not bind root, and the pids controller is not delegated to \/sys\/fs\/cgroup\/user\.slice\/.* \(cgroup v2\)\./,
      );
    });

    it('a normal user: RLIMIT_NPROC, whatever the cgroups', () => {
      const line = describeProcessLimit(facts(usable(V2_MOUNTINFO, V2_CGROUP), false, true));
      assert.deepEqual(line, {
        kind: 'rlimit',
        text: "RLIMIT_NPROC in the sandbox's user namespace: 1024 processes and threads per run",
      });
    });

    it('v1 whose pids cgroup cannot be made, and a host without cgroups: none, with the reason', () => {
      const layout = cgroupLayout(V1_MOUNTINFO, V1_CGROUP, noSubtree);
      const readOnly = describeProcessLimit(
        facts({ layout, failure: `cannot make a cgroup in ${layout.pids!.dir} (EACCES)` }, false),
      );
      assert.match(
        readOnly.text,
        /^none: RLIMIT_NPROC does not bind here \(set-uid bubblewrap, or a kernel before 5\.14\), and cannot make a cgroup in .*session-3\.scope \(EACCES\) \(cgroup v1\)/,
      );
      const bare = describeProcessLimit(facts(usable(NONE_MOUNTINFO, '0::/\n')));
      assert.equal(
        bare.text,
        "none: RLIMIT_NPROC does not bind root, and no cgroup file system is mounted (no cgroups mounted). A run can start processes up to the machine's own limit.",
      );
    });
  });
});
