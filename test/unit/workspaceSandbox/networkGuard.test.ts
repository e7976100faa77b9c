import { strict as assert } from 'node:assert';
import { isAgentError } from '../../../src/core/errors/agentError';
import { blockedAddressReason } from '../../../src/core/workspaceSandbox/ipRanges';
import { pinnedLookup, vetUrl, type HostResolver } from '../../../src/core/workspaceSandbox/networkGuard';
import { SandboxViolationError } from '../../../src/core/workspaceSandbox';

async function refused(promise: Promise<unknown>, pattern: RegExp): Promise<SandboxViolationError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SandboxViolationError, `expected SandboxViolationError, got ${String(error)}`);
    assert.equal(error.error_code, 'SANDBOX_VIOLATION');
    assert.match(error.message, pattern);
    assert.match(error.message, /Nothing was sent\./);
    return error;
  }
  assert.fail('expected the request to be refused');
}

/** A resolver that answers from a table, standing in for DNS records an attacker controls. */
function fakeDns(table: Record<string, string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (host: string) => {
    calls.push(host);
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe('sandbox: blockedAddressReason', () => {
  const blocked: Array<[string, RegExp]> = [
    ['127.0.0.1', /loopback/],
    ['127.255.1.2', /loopback/],
    ['10.0.0.1', /private/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.168.1.1', /private/],
    ['169.254.169.254', /cloud metadata/],
    ['169.254.10.1', /link-local/],
    ['0.0.0.0', /unspecified/],
    ['100.64.0.1', /carrier-grade NAT/],
    ['224.0.0.1', /multicast/],
    ['255.255.255.255', /reserved or broadcast/],
    ['::1', /loopback/],
    ['::', /unspecified/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['fd00:ec2::254', /cloud metadata/],
    ['::ffff:127.0.0.1', /loopback.*embedded in an IPv6/],
    ['::ffff:7f00:1', /loopback/],
    ['::ffff:a9fe:a9fe', /cloud metadata/],
    ['::ffff:10.1.2.3', /private/],
    ['64:ff9b::a00:1', /private/],
    ['ff02::1', /multicast/],
    ['not-an-ip', /not a valid IP/],
  ];
  for (const [address, why] of blocked) {
    it(`refuses ${address}`, () => assert.match(blockedAddressReason(address) ?? '', why));
  }
  for (const address of ['8.8.8.8', '172.32.0.1', '100.128.0.1', '93.184.216.34', '2606:4700::1111', '::ffff:8.8.8.8']) {
    it(`allows the public address ${address}`, () => assert.equal(blockedAddressReason(address), undefined));
  }
});

describe('sandbox: vetUrl (SSRF guard)', () => {
  it('refuses loopback, private, link-local and metadata IP literals before any lookup', async () => {
    const dns = fakeDns({});
    await refused(vetUrl('http://127.0.0.1:8080/', { resolve: dns }), /127\.0\.0\.1 is a loopback address/);
    await refused(vetUrl('http://10.0.0.1/', { resolve: dns }), /private network/);
    await refused(vetUrl('http://169.254.169.254/latest/meta-data/', { resolve: dns }), /cloud metadata/);
    await refused(vetUrl('http://[::1]:3000/', { resolve: dns }), /::1 is a loopback/);
    await refused(vetUrl('http://[::ffff:127.0.0.1]/', { resolve: dns }), /loopback/);
    await refused(vetUrl('http://0.0.0.0/', { resolve: dns }), /unspecified/);
    // Shorthand IPv4 forms are normalised by the URL parser and still caught.
    await refused(vetUrl('http://2130706433/', { resolve: dns }), /loopback/);
    await refused(vetUrl('http://0x7f.1/', { resolve: dns }), /loopback/);
    assert.deepEqual(dns.calls, []);
  });

  it('refuses a host name that really resolves to loopback (localhost through the system resolver)', async () => {
    await refused(vetUrl('http://localhost:9/'), /'localhost' resolves to .*loopback/);
  });

  it('refuses cloud metadata host names whatever they resolve to', async () => {
    await refused(
      vetUrl('http://metadata.google.internal/computeMetadata/v1/', { resolve: fakeDns({}) }),
      /cloud metadata service/,
    );
  });

  it('refuses a name whose answers mix public and private addresses (rebinding signal)', async () => {
    const dns = fakeDns({ 'mixed.example': ['93.184.216.34', '10.0.0.5'] });
    const err = await refused(
      vetUrl('https://mixed.example/', { resolve: dns }),
      /resolves to 10\.0\.0\.5, a private network address/,
    );
    assert.equal(err.details.address, '10.0.0.5');
  });

  it('refuses schemes other than http and https', async () => {
    await refused(vetUrl('file:///etc/passwd'), /only http and https are allowed, not 'file'/);
    await refused(vetUrl('ftp://example.com/x'), /not 'ftp'/);
  });

  it('rejects a malformed URL and an unresolvable host with clear, non-sandbox errors', async () => {
    await assert.rejects(
      vetUrl('not a url'),
      (e: unknown) => isAgentError(e) && e.error_code === 'VALIDATION' && /not a valid absolute URL/.test(e.message),
    );
    await assert.rejects(
      vetUrl('https://nowhere.example/', { resolve: fakeDns({}) }),
      (e: unknown) =>
        isAgentError(e) &&
        e.error_code === 'CONNECTION' &&
        /Could not resolve host 'nowhere\.example' \(ENOTFOUND\)/.test(e.message),
    );
    await assert.rejects(
      vetUrl('https://empty.example/', { resolve: fakeDns({ 'empty.example': [] }) }),
      (e: unknown) => isAgentError(e) && /has no addresses/.test(e.message),
    );
  });

  it('accepts a public address and pins the first answer', async () => {
    const dns = fakeDns({ 'api.example': ['93.184.216.34', '2606:2800:220:1::1'] });
    const target = await vetUrl('https://API.example./v1?q=1', { resolve: dns });
    assert.equal(target.hostname, 'api.example');
    assert.equal(target.address, '93.184.216.34');
    assert.equal(target.family, 4);
    assert.equal(target.allowListed, false);
    assert.equal(target.url.pathname, '/v1');
  });

  it('lets allow-listed hosts and addresses through, including wildcard subdomains', async () => {
    const dns = fakeDns({ 'dev.local.test': ['127.0.0.1'], 'api.internal.test': ['10.1.1.1'] });
    assert.equal((await vetUrl('http://127.0.0.1:3000/', { allowHosts: ['127.0.0.1'] })).allowListed, true);
    assert.equal((await vetUrl('http://dev.local.test/', { allowHosts: ['DEV.local.test'], resolve: dns })).address, '127.0.0.1');
    assert.equal(
      (await vetUrl('http://api.internal.test/', { allowHosts: ['*.internal.test'], resolve: dns })).allowListed,
      true,
    );
    assert.equal((await vetUrl('http://[::1]/', { allowHosts: ['[0:0::1]'] })).family, 6);
    // An allow-listed address covers only itself.
    await refused(vetUrl('http://127.0.0.2/', { allowHosts: ['127.0.0.1'] }), /loopback/);
    // A wildcard does not match the bare parent domain.
    await refused(
      vetUrl('http://internal.test/', { allowHosts: ['*.internal.test'], resolve: fakeDns({ 'internal.test': ['10.0.0.1'] }) }),
      /private/,
    );
  });

  it('pinnedLookup always answers with the vetted address, in both callback shapes', () => {
    const lookup = pinnedLookup({ address: '203.0.113.7', family: 4 });
    let single: unknown[] = [];
    let all: unknown[] = [];
    (lookup as any)('evil.example', {}, (...args: unknown[]) => (single = args));
    (lookup as any)('evil.example', { all: true }, (...args: unknown[]) => (all = args));
    assert.deepEqual(single, [null, '203.0.113.7', 4]);
    assert.deepEqual(all, [null, [{ address: '203.0.113.7', family: 4 }]]);
  });
});
