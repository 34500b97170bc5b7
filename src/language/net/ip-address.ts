// Which network an IP address belongs to, for the egress check of the http-request action
// (docs/RELIABILITY.md, "SSRF surface"): loopback, private, link-local, CGNAT, metadata and
// the other non-public ranges are refused after DNS resolution. Parses every form a resolver or a
// URL may produce (dotted, decimal, octal and hex IPv4, IPv6 with embedded IPv4) into bytes, so
// `0177.1` or `::ffff:7f00:1` is 127.0.0.1 here too. Pure: no I/O.

/** 4 bytes (IPv4) or 16 bytes (IPv6). */
export type AddressBytes = readonly number[];

/** Why an address is not a public internet address; undefined when it is one. */
export type AddressClass =
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unspecified'
  | 'cloud-metadata'
  | 'multicast'
  | 'reserved';

/** inet_aton forms: 1-4 parts, each decimal, octal (leading 0) or hex (0x); the last fills the rest. */
export function parseIPv4(text: string): AddressBytes | undefined {
  const parts = text.split('.');
  if (parts.length < 1 || parts.length > 4) return undefined;
  const values: number[] = [];
  for (const part of parts) {
    let n: number;
    if (/^0x[0-9a-f]*$/i.test(part)) n = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) n = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) n = Number(part);
    else return undefined;
    values.push(n);
  }
  const last = values.pop()!;
  if (values.some((v) => v > 255)) return undefined;
  const lastBytes = 4 - values.length;
  if (last >= 2 ** (8 * lastBytes)) return undefined;
  const tail = [];
  for (let i = lastBytes - 1; i >= 0; i--) tail.push(Math.floor(last / 2 ** (8 * i)) % 256);
  return [...values, ...tail];
}

/** Full, `::`-compressed and IPv4-tailed forms; a zone (`%eth0`) and brackets are ignored. */
export function parseIPv6(text: string): AddressBytes | undefined {
  const bare = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (!bare.includes(':')) return undefined;
  const halves = bare.split('::');
  if (halves.length > 2) return undefined;
  const groups = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const pieces = s.split(':');
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i];
      if (i === pieces.length - 1 && piece.includes('.')) {
        const v4 = /^\d{1,3}(\.\d{1,3}){3}$/.test(piece) ? parseIPv4(piece) : undefined;
        if (!v4) return undefined;
        out.push(v4[0] * 256 + v4[1], v4[2] * 256 + v4[3]);
      } else if (/^[0-9a-f]{1,4}$/i.test(piece)) out.push(parseInt(piece, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const all = [...head, ...new Array<number>(missing).fill(0), ...tail];
  return all.flatMap((g) => [g >> 8, g & 0xff]);
}

/** Any literal address form, or undefined for a host name. */
export function parseAddress(text: string): AddressBytes | undefined {
  return parseIPv6(text) ?? parseIPv4(text);
}

/** The IPv4 address an IPv6 address carries (mapped, compatible, NAT64, 6to4), if any. */
export function embeddedIPv4(bytes: AddressBytes): AddressBytes | undefined {
  if (bytes.length !== 16) return undefined;
  const zero = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  // ::ffff:0:a.b.c.d, the SIIT "IPv4-translated" form (RFC 2765).
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return bytes.slice(12);
  // ::a.b.c.d (deprecated "compatible"), but not :: and ::1 themselves.
  if (zero(0, 12) && !(zero(12, 15) && bytes[15] <= 1)) return bytes.slice(12);
  // 64:ff9b::/96, the NAT64 well-known prefix, reaches the embedded IPv4 address.
  if (bytes[0] === 0 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && zero(4, 12))
    return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

/** Prefix match of `bytes` against `net`/`bits` (same family). */
export function inPrefix(bytes: AddressBytes, net: AddressBytes, bits: number): boolean {
  if (bytes.length !== net.length) return false;
  for (let i = 0; i < bytes.length && bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (net[i] & mask)) return false;
  }
  return true;
}

type Range = [string, number, AddressClass];

// Metadata first: it is also link-local, but its own name says more in a refusal.
const V4_RANGES: Range[] = [
  ['169.254.169.254', 32, 'cloud-metadata'],
  ['169.254.170.2', 32, 'cloud-metadata'],
  ['100.100.100.200', 32, 'cloud-metadata'],
  ['0.0.0.0', 8, 'unspecified'],
  ['127.0.0.0', 8, 'loopback'],
  ['10.0.0.0', 8, 'private'],
  ['172.16.0.0', 12, 'private'],
  ['192.168.0.0', 16, 'private'],
  ['100.64.0.0', 10, 'cgnat'],
  ['169.254.0.0', 16, 'link-local'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'reserved'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['192.88.99.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

// IPv6 is an allow-list: only global unicast (2000::/3) is public, minus the special-purpose
// ranges inside it (IANA IPv6 Special-Purpose Address Registry). Everything outside 2000::/3 is
// refused, named by its class where it has one (an embedded IPv4 form was decoded before).
const V6_RANGES: Range[] = [
  ['fd00:ec2::254', 128, 'cloud-metadata'],
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['fc00::', 7, 'private'],
  ['fec0::', 10, 'private'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
  // Local-use NAT64 (RFC 8215): reaches whatever IPv4 network the operator's translator serves.
  ['64:ff9b:1::', 48, 'private'],
  // IETF protocol assignments: Teredo 2001::/32, benchmarking, ORCHID, ORCHIDv2 2001:20::/28, ...
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'reserved'],
  ['3fff::', 20, 'reserved'],
];
const GLOBAL_UNICAST = { net: [0x20, ...new Array<number>(15).fill(0)], bits: 3 };

const compiled = (ranges: Range[]) =>
  ranges.map(([net, bits, cls]) => ({ net: parseAddress(net)!, bits, cls }));
const V4 = compiled(V4_RANGES);
const V6 = compiled(V6_RANGES);

/** The class of a non-public address; undefined for a public one. */
export function classifyAddress(bytes: AddressBytes): AddressClass | undefined {
  const v4 = bytes.length === 4 ? bytes : embeddedIPv4(bytes);
  if (v4) return V4.find((r) => inPrefix(v4, r.net, r.bits))?.cls;
  const special = V6.find((r) => inPrefix(bytes, r.net, r.bits))?.cls;
  if (special) return special;
  return inPrefix(bytes, GLOBAL_UNICAST.net, GLOBAL_UNICAST.bits) ? undefined : 'reserved';
}

/** `a.b.c.d/n` or `v6/n` (a bare address is /32 or /128). */
export interface Cidr {
  net: AddressBytes;
  bits: number;
  text: string;
}

export function parseCidr(text: string): Cidr | undefined {
  const [addr, bitsText, extra] = text.trim().split('/');
  if (extra !== undefined) return undefined;
  const net = parseIPv6(addr) ?? (/^\d{1,3}(\.\d{1,3}){3}$/.test(addr) ? parseIPv4(addr) : undefined);
  if (!net) return undefined;
  const max = net.length * 8;
  const bits = bitsText === undefined ? max : /^\d{1,3}$/.test(bitsText) ? Number(bitsText) : NaN;
  if (!(bits >= 0 && bits <= max)) return undefined;
  return { net, bits, text: text.trim() };
}

/** Whether an address falls in one of the CIDRs (an IPv4-mapped IPv6 address matches IPv4 CIDRs). */
export function inAnyCidr(bytes: AddressBytes, cidrs: readonly Cidr[]): boolean {
  const v4 = bytes.length === 16 ? embeddedIPv4(bytes) : undefined;
  return cidrs.some(
    (c) => inPrefix(bytes, c.net, c.bits) || (v4 !== undefined && inPrefix(v4, c.net, c.bits)),
  );
}
