import { strict as assert } from 'node:assert';
import { parseEnvironmentList, sandboxEnvironment, withoutCredentials } from '../../../src/core/osSandbox';

describe('sandboxEnvironment: what of the host environment a sandboxed process gets', () => {
  const host = {
    PATH: '/usr/bin',
    HOME: '/home/ada',
    LANG: 'C.UTF-8',
    LC_ALL: 'C',
    TERM: 'xterm',
    VIRTUAL_ENV: '/w/.venv',
    NODE_OPTIONS: '--require /home/ada/hook.js',
    DATABASE_URL: 'postgres://x',
    AWS_SECRET_ACCESS_KEY: 'aws',
    GITHUB_TOKEN: 'ghp',
    ANTHROPIC_API_KEY: 'sk-ant',
    HTTPS_PROXY: 'http://proxy:3128',
    NODE_EXTRA_CA_CERTS: '/etc/corp.pem',
  };

  it('keeps the base names and drops everything else, NODE_OPTIONS and proxies included', () => {
    assert.deepEqual(sandboxEnvironment(host), {
      PATH: '/usr/bin',
      HOME: '/home/ada',
      LANG: 'C.UTF-8',
      LC_ALL: 'C',
      TERM: 'xterm',
      VIRTUAL_ENV: '/w/.venv',
    });
  });

  it('adds proxies and CA certificates when the sandbox has the network', () => {
    const inside = sandboxEnvironment(host, { network: true });
    assert.equal(inside.HTTPS_PROXY, 'http://proxy:3128');
    assert.equal(inside.NODE_EXTRA_CA_CERTS, '/etc/corp.pem');
    assert.equal(inside.GITHUB_TOKEN, undefined);
  });

  it('adds exact names and prefixes; a credential-like name only when named exactly; never the provider keys', () => {
    const inside = sandboxEnvironment(host, { extra: ['DATABASE_URL', 'AWS_*', 'GITHUB_TOKEN', 'ANTHROPIC_API_KEY'] });
    assert.equal(inside.DATABASE_URL, 'postgres://x');
    assert.equal(inside.AWS_SECRET_ACCESS_KEY, undefined, 'a prefix does not let a secret through');
    assert.equal(inside.GITHUB_TOKEN, 'ghp');
    assert.equal(inside.ANTHROPIC_API_KEY, undefined);
    assert.equal(sandboxEnvironment(host, { extra: ['AWS_SECRET_ACCESS_KEY'] }).AWS_SECRET_ACCESS_KEY, 'aws');
  });

  it('reads a comma-separated list', () => {
    assert.deepEqual(parseEnvironmentList(' A, B_* ,,C '), ['A', 'B_*', 'C']);
    assert.deepEqual(parseEnvironmentList(undefined), []);
  });

  it('unconfined, only credential-like names go', () => {
    const clean = withoutCredentials(host);
    assert.equal(clean.DATABASE_URL, 'postgres://x');
    assert.equal(clean.NODE_OPTIONS, '--require /home/ada/hook.js');
    assert.equal(clean.GITHUB_TOKEN, undefined);
    assert.equal(clean.AWS_SECRET_ACCESS_KEY, undefined);
    assert.equal(clean.ANTHROPIC_API_KEY, undefined);
  });
});
