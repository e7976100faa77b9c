import { promises as dns, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { AgentError } from '../errors/agentError';
import { blockedAddressReason } from './ipRanges';
import { SandboxViolationError } from './sandboxError';

/** Resolves a host name to all its addresses (the default is `dns.promises.lookup` with `all: true`). */
export type HostResolver = (hostname: string) => Promise<LookupAddress[]>;

/** How strict the guard is. */
export interface NetworkGuardOptions {
  /**
   * Host names or IP addresses that may be reached even when they are loopback or private
   * (e.g. a local dev server). `*.example.test` matches any subdomain. Case-insensitive.
   */
  allowHosts?: readonly string[];
  /** Replaces DNS resolution (tests, or a host with its own resolver). */
  resolve?: HostResolver;
}

/** A URL the guard accepted, with the one address the connection must use. */
export interface VettedTarget {
  url: URL;
  /** The host name without IPv6 brackets or a trailing dot, lower-case. */
  hostname: string;
  /** The vetted address; connect to this one only (see {@link pinnedLookup}). */
  address: string;
  family: 4 | 6;
  /** True when the host or the address is on the allow-list. */
  allowListed: boolean;
}

/** Names that reach cloud metadata services whatever they resolve to. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'instance-data.ec2.internal']);
const NOTHING_SENT = 'Nothing was sent.';

function canonicalHost(host: string): string {
  let h = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (isIP(h) === 6) h = new URL(`http://[${h}]`).hostname.replace(/^\[|\]$/g, '');
  return h;
}

function allowListed(allowHosts: readonly string[], name: string): boolean {
  return allowHosts.some((entry) => {
    const e = canonicalHost(entry.trim());
    if (e.startsWith('*.')) return name.endsWith(e.slice(1)) && name.length > e.length - 1;
    return e === name;
  });
}

function refuse(url: string, why: string, details: Record<string, unknown> = {}): never {
  throw new SandboxViolationError(`Refused request to '${url}': ${why}. ${NOTHING_SENT}`, { url, ...details });
}

const defaultResolve: HostResolver = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * Vets a URL before any byte is sent (SSRF guard): only http and https; the host is resolved
 * first and every address must be public, unless the host name or that address is allow-listed.
 * Refused: loopback, private (RFC 1918, fc00::/7), link-local, cloud metadata (169.254.169.254,
 * fd00:ec2::254, metadata.google.internal), unspecified, CGNAT, multicast/reserved, and those
 * same IPv4 ranges inside IPv4-mapped, -compatible or NAT64 IPv6 addresses. A name whose answers
 * mix public and blocked addresses is refused as well (a DNS rebinding signal). The caller must
 * connect to `address` only, through {@link pinnedLookup}, so a second DNS answer cannot differ.
 *
 * @throws SandboxViolationError when refused; AgentError `VALIDATION` for a malformed URL,
 * `CONNECTION` when the host does not resolve.
 */
export async function vetUrl(rawUrl: string, options: NetworkGuardOptions = {}): Promise<VettedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new AgentError(
      'VALIDATION',
      `'${rawUrl}' is not a valid absolute URL (expected e.g. https://example.com/path). ${NOTHING_SENT}`,
      { url: rawUrl },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    refuse(rawUrl, `only http and https are allowed, not '${url.protocol.replace(/:$/, '')}'`);
  }
  const hostname = canonicalHost(url.hostname);
  const allowHosts = options.allowHosts ?? [];
  const hostAllowed = allowListed(allowHosts, hostname);
  if (!hostAllowed && METADATA_HOSTS.has(hostname)) refuse(rawUrl, `'${hostname}' is a cloud metadata service`);

  let addresses: LookupAddress[];
  const literal = isIP(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: literal }];
  } else {
    try {
      addresses = await (options.resolve ?? defaultResolve)(hostname);
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'lookup failed';
      throw new AgentError('CONNECTION', `Could not resolve host '${hostname}' (${code}). Check the URL. ${NOTHING_SENT}`, {
        url: rawUrl,
        code,
      });
    }
    if (addresses.length === 0) {
      throw new AgentError('CONNECTION', `Host '${hostname}' has no addresses. ${NOTHING_SENT}`, { url: rawUrl });
    }
  }

  if (!hostAllowed) {
    for (const { address } of addresses) {
      const why = blockedAddressReason(address);
      if (why && !allowListed(allowHosts, canonicalHost(address))) {
        const via = literal ? `${address} is ${why}` : `'${hostname}' resolves to ${address}, ${why}`;
        refuse(
          rawUrl,
          `${via}; tools may not reach loopback, private, link-local or metadata addresses unless the host is allow-listed`,
          {
            address,
          },
        );
      }
    }
  }
  const chosen = addresses[0]!;
  return {
    url,
    hostname,
    address: chosen.address,
    family: chosen.family === 6 ? 6 : 4,
    allowListed: hostAllowed || allowListed(allowHosts, canonicalHost(chosen.address)),
  };
}

/**
 * A `lookup` for `node:http`/`node:https` request options that answers every lookup with the
 * vetted address, so the connection goes exactly where the guard looked (no DNS rebinding).
 * TLS still verifies the certificate against the original host name.
 */
export function pinnedLookup(target: Pick<VettedTarget, 'address' | 'family'>): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  }) as LookupFunction;
}
