// What the engine may reach with an http-request (docs/RELIABILITY.md, "SSRF surface"): http and
// https only, hosts on the allow-list only, and no address that is not public (loopback, private,
// link-local, CGNAT, metadata, ...) unless its range is allowed explicitly. The same checks run
// for the first URL and for every redirect; addresses are checked after DNS resolution, and the
// connection is pinned to the address checked (egress-client.ts). Pure: no I/O.
import { classifyAddress, inAnyCidr, parseAddress, parseCidr, type Cidr } from './ip-address';

export interface EgressPolicy {
  allowedHosts: readonly string[];
  allowPrivate: readonly Cidr[];
}

export type RefusalCode =
  'egress_scheme_refused' | 'egress_host_not_allowed' | 'egress_address_refused' | 'egress_url_invalid';

/** A request the engine will not send, and why, in words an operator can act on. */
export class EgressRefusedError extends Error {
  override readonly name = 'EgressRefusedError';
  constructor(
    readonly code:
      | RefusalCode
      | 'egress_too_many_redirects'
      | 'egress_redirect_refused'
      | 'egress_header_invalid'
      | 'egress_path_refused'
      | 'egress_secret_refused',
    message: string,
  ) {
    super(message);
  }
}

export function egressPolicy(config: { allowedHosts: readonly string[]; allowPrivate: readonly string[] }) {
  return {
    allowedHosts: config.allowedHosts.map((h) => h.toLowerCase()),
    allowPrivate: config.allowPrivate.map((c) => parseCidr(c)).filter((c): c is Cidr => c !== undefined),
  };
}

/** The host as the allow-list names it: lower case, IPv6 without brackets. */
export const bareHost = (url: URL): string => url.hostname.toLowerCase().replace(/^\[|\]$/g, '');

/** An allow-list entry: a host (or `*.` and a registrable name) and, optionally, the one port allowed. */
export interface HostPattern {
  host: string;
  port?: number;
}

/** `erp.example.com`, `erp.example.com:8443`, `*.example.com`, `10.0.0.1:80`, `::1`, `[::1]:8443`. */
export function parseHostPattern(entry: string): HostPattern {
  const e = entry.trim().toLowerCase();
  const bracketed = /^\[([0-9a-f:.]+)\](?::(\d{1,5}))?$/.exec(e);
  if (bracketed) return { host: bracketed[1], ...(bracketed[2] ? { port: Number(bracketed[2]) } : {}) };
  const withPort = /^([^:]+):(\d{1,5})$/.exec(e);
  return withPort ? { host: withPort[1], port: Number(withPort[2]) } : { host: e };
}

/**
 * `erp.example.com` matches itself; `*.example.com` matches its subdomains, not example.com, and
 * never an address literal (`*.0.0.1` is no pattern for 127.0.0.1). An entry with a port allows
 * that port only; `port` undefined (a written-out URL checked by `validate`) ignores ports.
 */
export function hostAllowed(host: string, allowedHosts: readonly string[], port?: number): boolean {
  const h = host.toLowerCase();
  const literal = parseAddress(h) !== undefined;
  return allowedHosts.some((entry) => {
    const pattern = parseHostPattern(entry);
    if (pattern.port !== undefined && port !== undefined && pattern.port !== port) return false;
    const p = pattern.host;
    if (!p.startsWith('*.')) return h === p;
    return !literal && h.endsWith(p.slice(1)) && h.length > p.length - 1;
  });
}

/** The port a URL connects to. */
export const urlPort = (url: URL): number =>
  url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;

/** Checks of the URL alone, before any DNS: scheme, credentials, allow-list, literal addresses. */
export function checkUrl(url: URL, policy: EgressPolicy): EgressRefusedError | undefined {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return new EgressRefusedError(
      'egress_scheme_refused',
      `refused ${url.protocol.replace(/:$/, '')} URL: only http and https are allowed`,
    );
  if (url.username || url.password)
    return new EgressRefusedError(
      'egress_url_invalid',
      'refused: the URL carries credentials; put them in a header naming a secret',
    );
  const host = bareHost(url);
  if (policy.allowedHosts.length === 0)
    return new EgressRefusedError(
      'egress_host_not_allowed',
      `refused host ${host}: no host is allowed (HTTP_ACTION_ALLOWED_HOSTS is empty)`,
    );
  if (!hostAllowed(host, policy.allowedHosts, urlPort(url)))
    return new EgressRefusedError(
      'egress_host_not_allowed',
      hostAllowed(host, policy.allowedHosts)
        ? `refused host ${host}: port ${urlPort(url)} is not the port the allow-list names (HTTP_ACTION_ALLOWED_HOSTS)`
        : `refused host ${host}: not on the allow-list (HTTP_ACTION_ALLOWED_HOSTS)`,
    );
  return parseAddress(host) ? checkAddress(host, host, policy) : undefined;
}

/** Checks one resolved address of `host` (the address itself for a literal). */
export function checkAddress(
  host: string,
  address: string,
  policy: EgressPolicy,
): EgressRefusedError | undefined {
  const bytes = parseAddress(address);
  if (!bytes)
    return new EgressRefusedError(
      'egress_address_refused',
      `refused host ${host}: "${address}" is not an address`,
    );
  const cls = classifyAddress(bytes);
  if (cls === undefined || inAnyCidr(bytes, policy.allowPrivate)) return undefined;
  const from = host === address ? '' : ` (resolved from ${host})`;
  return new EgressRefusedError(
    'egress_address_refused',
    `refused address ${address}${from}: ${cls} addresses are not reachable (HTTP_ACTION_ALLOW_PRIVATE allows a range)`,
  );
}
