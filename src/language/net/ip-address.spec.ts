// The address classifier's table: every form an address can take maps to the class the egress
// check refuses, or to none for a public address.
import { classifyAddress, inAnyCidr, parseAddress, parseCidr } from './ip-address';

describe('classifyAddress', () => {
  it.each([
    // IPv4, dotted
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'cloud-metadata'],
    ['169.254.170.2', 'cloud-metadata'],
    ['100.100.100.200', 'cloud-metadata'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['198.18.0.1', 'reserved'],
    // IPv4, other forms a resolver or URL may carry
    ['2130706433', 'loopback'],
    ['0x7f000001', 'loopback'],
    ['0177.0.0.1', 'loopback'],
    ['0177.1', 'loopback'],
    ['127.1', 'loopback'],
    ['012.0.0.1', 'private'],
    ['0xa9.0xfe.0xa9.0xfe', 'cloud-metadata'],
    ['2852039166', 'cloud-metadata'],
    ['167772161', 'private'],
    // IPv6
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['febf::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'cloud-metadata'],
    ['2001:db8::1', 'reserved'],
    ['[::1]', 'loopback'],
    // IPv4 inside IPv6
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:169.254.169.254', 'cloud-metadata'],
    ['::ffff:a9fe:a9fe', 'cloud-metadata'],
    ['::127.0.0.1', 'loopback'],
    ['::2', 'unspecified'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:c0a8:101::1', 'private'],
    // Finding (issue 30): IPv6 was a block list; now global unicast 2000::/3 minus special ranges,
    // and the SIIT form ::ffff:0:a.b.c.d decoded.
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:10.0.0.1', 'private'],
    ['64:ff9b:1::a00:1', 'private'],
    ['64:ff9b:1:ffff::1', 'private'],
    ['2001::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:2::1', 'reserved'],
    ['2001:10::1', 'reserved'],
    ['2001:20::1', 'reserved'],
    ['2001:2f::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['3fff:fff::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['5f00::1', 'reserved'],
    ['e000::1', 'reserved'],
    ['1::1', 'reserved'],
    ['192.88.99.1', 'reserved'],
    // Public
    ['93.184.216.34', undefined],
    ['8.8.8.8', undefined],
    ['172.32.0.1', undefined],
    ['100.128.0.1', undefined],
    ['169.255.0.1', undefined],
    ['11.0.0.1', undefined],
    ['2606:4700:4700::1111', undefined],
    ['::ffff:8.8.8.8', undefined],
    ['2002:808:808::1', undefined],
    ['64:ff9b::8.8.8.8', undefined],
    ['::ffff:0:8.8.8.8', undefined],
    ['2a00:1450:4001::1', undefined],
    ['2001:4860:4860::8888', undefined],
    ['3ffe::1', undefined],
  ])('%s is %s', (text, expected) => {
    const bytes = parseAddress(text);
    expect(bytes).toBeDefined();
    expect(classifyAddress(bytes!)).toBe(expected);
  });
});

describe('parseAddress', () => {
  it.each([
    'example.com',
    'localhost',
    '256.0.0.1',
    '1.2.3.4.5',
    '0x1g.0.0.1',
    '08.0.0.1',
    '4294967296',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '::ffff:999.0.0.1',
    '',
  ])('%p is not an address', (text) => {
    expect(parseAddress(text)).toBeUndefined();
  });
});

describe('allowed ranges (HTTP_ACTION_ALLOW_PRIVATE)', () => {
  it.each([
    ['127.0.0.1/32', '127.0.0.1', true],
    ['127.0.0.1/32', '127.0.0.2', false],
    ['127.0.0.1/32', '::ffff:127.0.0.1', true],
    ['10.0.0.0/8', '10.9.8.7', true],
    ['10.0.0.0/8', '11.0.0.1', false],
    ['::1', '::1', true],
    ['fd00::/8', 'fd12::1', true],
    ['fd00::/8', '127.0.0.1', false],
  ])('%s contains %s: %p', (cidr, address, expected) => {
    expect(inAnyCidr(parseAddress(address)!, [parseCidr(cidr)!])).toBe(expected);
  });

  it.each(['127.0.0.1/33', '127.1/8', 'localhost', '::1/129', '10.0.0.0/8/1', '10.0.0.0/x'])(
    'refuses %p as a range',
    (text) => expect(parseCidr(text)).toBeUndefined(),
  );
});
