// Pure. What the credential throttle counts failures under: the client's address as Express
// resolved it (req.ip, which honours TRUST_PROXY), an IPv6 address by its /64 (one host owns a
// whole /64, so keying by full address would let it try 2^64 times), IPv4-mapped IPv6 as IPv4.
import { isIPv4, isIPv6 } from 'node:net';

function expandIPv6(address: string): string[] {
  const [head, tail] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail !== '' ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) =>
    g.toLowerCase().replace(/^0+(?=.)/, ''),
  );
}

export function clientKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const plain = address.replace(/%.*$/, ''); // zone id
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped) return mapped[1];
  if (isIPv4(plain)) return plain;
  if (!isIPv6(plain) || plain.includes('.')) return plain.toLowerCase();
  return `${expandIPv6(plain).slice(0, 4).join(':')}::/64`;
}
