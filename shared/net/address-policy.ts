/**
 * Which IP addresses outbound requests may reach. ipaddr.js knows the special-purpose
 * ranges (IANA registries); this file only decides what each one means for egress and
 * looks inside the IPv6 forms that carry an IPv4 address (mapped, compatible, 6to4,
 * Teredo, NAT64), so `::ffff:169.254.169.254` is judged as `169.254.169.254`.
 */
import ipaddr from 'ipaddr.js';

/** Why an address is not public; undefined when it is a public unicast address. */
export interface AddressVerdict {
  /** Human kind used in error messages: "loopback", "private", "cloud metadata", ... */
  kind: string;
  /** Metadata endpoints hand out cloud credentials: no allow-list entry opens them. */
  neverAllowed: boolean;
  /** The IPv4 address an IPv6 form carries, when that is what was judged. */
  embedded?: string;
}

/**
 * Instance-metadata and platform endpoints (AWS IMDS and ECS/EKS credentials, Azure
 * wireserver, Alibaba). Some are inside ranges refused anyway; listing them keeps them
 * refused even when an operator allow-lists the range around them.
 */
const METADATA = new Set([
  '169.254.169.254', '169.254.170.2', '169.254.170.23', '169.254.169.123', '168.63.129.16', '100.100.100.200',
  'fd00:ec2::254', 'fd00:ec2::23',
]);

const KIND_NAMES: Record<string, string> = {
  unspecified: 'unspecified', broadcast: 'broadcast', multicast: 'multicast', linkLocal: 'link-local',
  loopback: 'loopback', carrierGradeNat: 'carrier-grade NAT', private: 'private', reserved: 'reserved',
  uniqueLocal: 'unique-local', deprecatedSiteLocal: 'site-local', discard: 'discard-only',
  benchmarking: 'benchmarking', as112: 'AS112', as112v6: 'AS112', amt: 'AMT', deprecatedOrchid: 'ORCHID',
  orchid2: 'ORCHID', droneRemoteIdProtocolEntityTags: 'reserved', segmentRouting: 'segment-routing',
};

/** The address's verdict, or undefined when it may be reached. Throws on a non-address. */
export function classifyAddress(text: string): AddressVerdict | undefined {
  const address = ipaddr.parse(text.replace(/^\[|\]$/g, ''));
  const normalized = address.toString();
  if (METADATA.has(normalized)) return { kind: 'cloud metadata', neverAllowed: true };
  if (address.kind() === 'ipv4') return verdictOfRange((address as ipaddr.IPv4).range());
  const v6 = address as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded === null) return { kind: KIND_NAMES[v6.range()] ?? 'non-public', neverAllowed: false };
  if (embedded) {
    const inner = classifyAddress(embedded.toString());
    return inner ? { ...inner, embedded: embedded.toString() } : undefined;
  }
  return verdictOfRange(v6.range());
}

function verdictOfRange(range: string): AddressVerdict | undefined {
  if (range === 'unicast') return undefined;
  return { kind: KIND_NAMES[range] ?? 'non-public', neverAllowed: false };
}

/**
 * The IPv4 address an IPv6 address stands for, undefined when it embeds none, null when
 * it is a translation form with no routable meaning here (local-use NAT64, rfc6145).
 */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | undefined | null {
  const bytes = v6.toByteArray();
  const v4 = (offset: number, xor = 0) => new ipaddr.IPv4(bytes.slice(offset, offset + 4).map((b) => b ^ xor));
  switch (v6.range()) {
    case 'ipv4Mapped':
      return v6.toIPv4Address();
    case '6to4':
      return v4(2);
    case 'teredo':
      return v4(12, 0xff); // the client address, stored inverted (RFC 4380)
    case 'rfc6052':
      // 64:ff9b::/96 carries the IPv4 address in its last 32 bits; 64:ff9b:1::/48 is local-use.
      return bytes.slice(4, 12).every((b) => b === 0) ? v4(12) : null;
    case 'rfc6145':
      return null;
    case 'unicast':
      // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks).
      return bytes.slice(0, 12).every((b) => b === 0) ? v4(12) : undefined;
    default:
      return undefined;
  }
}
