import { isIP } from 'node:net';

/** One blocked IPv4 range: its base address as a number, its prefix length, and why it is blocked. */
interface V4Range {
  base: number;
  bits: number;
  why: string;
}

function v4ToNumber(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

function v4(cidr: string, why: string): V4Range {
  const [base, bits] = cidr.split('/');
  return { base: v4ToNumber(base!), bits: Number(bits), why };
}

// Order matters only for the message: the most specific reason comes first.
const BLOCKED_V4: V4Range[] = [
  v4('169.254.169.254/32', 'a cloud metadata address'),
  v4('0.0.0.0/8', 'an unspecified ("this network") address'),
  v4('127.0.0.0/8', 'a loopback address'),
  v4('10.0.0.0/8', 'a private network address'),
  v4('172.16.0.0/12', 'a private network address'),
  v4('192.168.0.0/16', 'a private network address'),
  v4('169.254.0.0/16', 'a link-local address'),
  v4('100.64.0.0/10', 'a carrier-grade NAT (shared) address'),
  v4('192.0.0.0/24', 'an IETF protocol assignment address'),
  v4('198.18.0.0/15', 'a network benchmarking address'),
  v4('224.0.0.0/4', 'a multicast address'),
  v4('240.0.0.0/4', 'a reserved or broadcast address'),
];

function blockedV4(ip: string): string | undefined {
  const n = v4ToNumber(ip);
  for (const range of BLOCKED_V4) {
    const size = 2 ** (32 - range.bits);
    if (Math.floor(n / size) === Math.floor(range.base / size)) return range.why;
  }
  return undefined;
}

/** Expands an IPv6 address (possibly with `::` and a trailing dotted IPv4 part) to eight 16-bit groups. */
function v6Groups(ip: string): number[] {
  let text = ip.split('%')[0]!.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const n = v4ToNumber(dotted[1]!);
    text = `${text.slice(0, dotted.index)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string | undefined): number[] => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

function embeddedV4(groups: number[]): string {
  const hi = groups[6]!;
  const lo = groups[7]!;
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

function blockedV6(ip: string): string | undefined {
  const g = v6Groups(ip);
  const allZeroUpTo = (n: number): boolean => g.slice(0, n).every((x) => x === 0);
  if (allZeroUpTo(8)) return 'an unspecified address';
  if (allZeroUpTo(7) && g[7] === 1) return 'a loopback address';
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address.
  const mapped = allZeroUpTo(5) && g[5] === 0xffff;
  const compatible = allZeroUpTo(6);
  const nat64 = g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0);
  if (mapped || compatible || nat64) {
    const why = blockedV4(embeddedV4(g));
    return why ? `${why} (embedded in an IPv6 address)` : undefined;
  }
  if (g[0] === 0xfd00 && g[1] === 0x0ec2 && g.slice(2, 7).every((x) => x === 0) && g[7] === 0x254)
    return 'a cloud metadata address';
  if ((g[0]! & 0xfe00) === 0xfc00) return 'a unique local (private) address';
  if ((g[0]! & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g[0]! & 0xffc0) === 0xfec0) return 'a site-local (private) address';
  if ((g[0]! & 0xff00) === 0xff00) return 'a multicast address';
  return undefined;
}

/**
 * Why an IP address must not be reached from a tool (loopback, private, link-local, cloud
 * metadata, unspecified, CGNAT, multicast/reserved, and IPv4 addresses embedded in IPv6 forms),
 * or undefined for a public address. A string that is not an IP address is refused too.
 */
export function blockedAddressReason(address: string): string | undefined {
  const family = isIP(address.split('%')[0]!);
  if (family === 4) return blockedV4(address);
  if (family === 6) return blockedV6(address);
  return 'not a valid IP address';
}
