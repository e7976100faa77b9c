import { strict as assert } from 'node:assert';
import { pythonRuntimeRequirements } from '../../../../src/core/tdd/dependencies/pythonEnvironment';
import {
  toolchainRootVerdict,
  type ToolchainRootContext,
  type ToolchainRootFacts,
} from '../../../../src/core/tdd/dependencies/toolchainRoots';

const CONTEXT: ToolchainRootContext = { home: '/home/me', gitDirs: ['/srv/repo/.git'] };

/** A folder with `bin/python3` and `lib/python3.*\/os.py`: a real Python installation. */
const installation = (path: string): ToolchainRootFacts => ({ path, kind: 'directory', python3: true, standardLibrary: true });

const reason = (facts: ToolchainRootFacts, context = CONTEXT): string | undefined => {
  const verdict = toolchainRootVerdict(facts, context);
  return verdict.visible ? undefined : verdict.reason;
};

// What a repository's pyvenv.cfg `home` or interpreter link may make visible in the sandbox (red-team findings:
// `home = /run` reached a host socket, `home = $HOME` sent ~/.ssh/id_rsa to the model).
describe('toolchainRootVerdict: which folders a repository’s files may make visible in the sandbox', () => {
  it('shows a real Python installation outside what the sandbox keeps private', () => {
    for (const path of ['/usr', '/opt/conda', '/usr/local/python/3.12.1', '/tmp/pythons/3.11', '/srv/tools/python'])
      assert.equal(reason(installation(path)), undefined, path);
  });

  it('never HOME, anything inside it, or a folder holding it — a real installation there included', () => {
    assert.equal(reason(installation('/home/me')), 'it is HOME');
    assert.equal(reason(installation('/home/me/.pyenv/versions/3.11.7')), 'it is inside HOME');
    assert.equal(reason(installation('/home')), 'it holds HOME');
    assert.equal(reason(installation('/home/other')), undefined, 'another folder beside HOME is not HOME');
    assert.equal(reason(installation('/home/me/x'), { gitDirs: [] }), undefined, 'without a HOME to hide, nothing to guard');
  });

  it('never /run, /var/run, /proc, /sys, /dev or anything in them, a folder holding the host’s /tmp, or /', () => {
    for (const path of ['/run', '/run/user/1000', '/var/run', '/var/run/docker', '/proc/1', '/sys/fs', '/dev/shm'])
      assert.match(reason(installation(path)) ?? '', /^it is (inside )?\/(run|var\/run|proc|sys|dev)$/, path);
    assert.equal(reason(installation('/var')), 'it holds /var/run');
    assert.equal(reason(installation('/tmp')), "it holds the host's /tmp");
    assert.equal(reason(installation('/')), 'it is the root of the file system');
  });

  it('never the repository’s git dir, in it or holding it', () => {
    assert.equal(reason(installation('/srv/repo/.git')), "it is the repository's git dir");
    assert.equal(reason(installation('/srv/repo/.git/hooks')), "it is inside the repository's git dir");
    assert.equal(reason(installation('/srv/repo')), "it holds the repository's git dir");
    assert.equal(reason(installation('/srv/repo/tools/python')), undefined, 'a folder beside the git dir may be');
  });

  it('never a socket, something that is not a folder, nothing, or a folder that is no Python installation', () => {
    assert.equal(reason({ path: '/srv/s.sock', kind: 'socket', python3: false, standardLibrary: false }), 'it is a socket');
    assert.equal(reason({ path: '/srv/f', kind: 'other', python3: false, standardLibrary: false }), 'it is not a folder');
    assert.equal(reason({ path: '/srv/none', kind: 'missing', python3: false, standardLibrary: false }), 'it does not exist');
    const noLibrary = { ...installation('/srv/fake'), standardLibrary: false };
    assert.match(reason(noLibrary) ?? '', /not a Python installation/);
    assert.match(reason({ ...installation('/srv/fake'), python3: false }) ?? '', /not a Python installation/);
    assert.equal(reason({ ...installation('relative/py') }), 'it is not an absolute path');
  });
});

describe('pythonRuntimeRequirements: what the preflight checks the interpreter has', () => {
  const of = (pyproject: string) => pythonRuntimeRequirements(new Map([['pyproject.toml', pyproject]]));

  it('reads [project] dependencies and poetry’s, leaving out markers, conditions, optional ones and python', () => {
    assert.deepEqual(
      of(
        '[project]\nname = "p"\ndependencies = ["attrs>=21", "Foo_Bar[extra] @ https://x/y.whl", "tomli; python_version < \'3.11\'", "click (>=8)"]\n',
      ),
      ['attrs', 'Foo_Bar', 'click'],
    );
    assert.deepEqual(
      of(
        '[tool.poetry.dependencies]\npython = "^3.9"\nrequests = "^2"\nrich = { version = "^13", optional = true }\nuvloop = { version = "*", markers = "sys_platform != \'win32\'" }\nnumpy = [{ version = "1.24", python = "<3.12" }, { version = "2", python = ">=3.12" }]\n',
      ),
      ['requests'],
    );
  });

  it('none for a project without pyproject.toml, with an invalid one, or with no dependencies', () => {
    assert.deepEqual(pythonRuntimeRequirements(new Map([['setup.py', 'from setuptools import setup\nsetup()\n']])), []);
    assert.deepEqual(of('[project\nname = '), []);
    assert.deepEqual(of('[project]\nname = "p"\n'), []);
  });
});
