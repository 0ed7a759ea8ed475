// Written by `npm run iana` (scripts/iana-registries.ts) from IANA's Special-Purpose Address
// Registries as checked in (lib/events/iana/*.csv). Do not edit.

/**
 * One block of a registry entry, its columns as IANA gives them. A flag is absent where the
 * registry says N/A or, for a terminated entry, nothing.
 */
export interface SpecialPurposeBlock {
  readonly prefix: string;
  readonly name: string;
  readonly rfc: string;
  readonly allocated: string;
  readonly terminated?: string;
  readonly source?: boolean;
  readonly destination?: boolean;
  readonly forwardable?: boolean;
  readonly globallyReachable?: boolean;
  readonly reservedByProtocol?: boolean;
}

export interface SpecialPurposeRegistry {
  readonly registry: string;
  /** The registry page's "Last Updated" date of the copy checked in. */
  readonly lastUpdated: string;
  readonly blocks: readonly SpecialPurposeBlock[];
}

/** https://www.iana.org/assignments/iana-ipv4-special-registry/ (Last Updated 2025-10-09), from lib/events/iana/iana-ipv4-special-registry-1.csv. */
export const IPV4_SPECIAL_PURPOSE: SpecialPurposeRegistry = {
  registry: 'https://www.iana.org/assignments/iana-ipv4-special-registry/',
  lastUpdated: '2025-10-09',
  blocks: [
    {"prefix":"0.0.0.0/8","name":"\"This network\"","rfc":"[RFC791], Section 3.2","allocated":"1981-09","source":true,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"0.0.0.0/32","name":"\"This host on this network\"","rfc":"[RFC1122], Section 3.2.1.3","allocated":"1981-09","source":true,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"10.0.0.0/8","name":"Private-Use","rfc":"[RFC1918]","allocated":"1996-02","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"100.64.0.0/10","name":"Shared Address Space","rfc":"[RFC6598]","allocated":"2012-04","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"127.0.0.0/8","name":"Loopback","rfc":"[RFC1122], Section 3.2.1.3","allocated":"1981-09","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"169.254.0.0/16","name":"Link Local","rfc":"[RFC3927]","allocated":"2005-05","source":true,"destination":true,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"172.16.0.0/12","name":"Private-Use","rfc":"[RFC1918]","allocated":"1996-02","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.0.0.0/24","name":"IETF Protocol Assignments","rfc":"[RFC6890], Section 2.1","allocated":"2010-01","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.0.0.0/29","name":"IPv4 Service Continuity Prefix","rfc":"[RFC7335]","allocated":"2011-06","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.0.0.8/32","name":"IPv4 dummy address","rfc":"[RFC7600]","allocated":"2015-03","source":true,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.0.0.9/32","name":"Port Control Protocol Anycast","rfc":"[RFC7723]","allocated":"2015-10","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"192.0.0.10/32","name":"Traversal Using Relays around NAT Anycast","rfc":"[RFC8155]","allocated":"2017-02","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"192.0.0.170/32","name":"NAT64/DNS64 Discovery","rfc":"[RFC8880][RFC7050], Section 2.2","allocated":"2013-02","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"192.0.0.171/32","name":"NAT64/DNS64 Discovery","rfc":"[RFC8880][RFC7050], Section 2.2","allocated":"2013-02","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"192.0.2.0/24","name":"Documentation (TEST-NET-1)","rfc":"[RFC5737]","allocated":"2010-01","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.31.196.0/24","name":"AS112-v4","rfc":"[RFC7535]","allocated":"2014-12","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"192.52.193.0/24","name":"AMT","rfc":"[RFC7450]","allocated":"2014-12","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"192.88.99.0/24","name":"Deprecated (6to4 Relay Anycast)","rfc":"[RFC7526]","allocated":"2001-06","terminated":"2015-03"},
    {"prefix":"192.88.99.2/32","name":"6a44-relay anycast address","rfc":"[RFC6751]","allocated":"2012-10","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.168.0.0/16","name":"Private-Use","rfc":"[RFC1918]","allocated":"1996-02","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"192.175.48.0/24","name":"Direct Delegation AS112 Service","rfc":"[RFC7534]","allocated":"1996-01","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"198.18.0.0/15","name":"Benchmarking","rfc":"[RFC2544]","allocated":"1999-03","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"198.51.100.0/24","name":"Documentation (TEST-NET-2)","rfc":"[RFC5737]","allocated":"2010-01","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"203.0.113.0/24","name":"Documentation (TEST-NET-3)","rfc":"[RFC5737]","allocated":"2010-01","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"240.0.0.0/4","name":"Reserved","rfc":"[RFC1112], Section 4","allocated":"1989-08","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"255.255.255.255/32","name":"Limited Broadcast","rfc":"[RFC8190] [RFC919], Section 7","allocated":"1984-10","source":false,"destination":true,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
  ],
};

/** https://www.iana.org/assignments/iana-ipv6-special-registry/ (Last Updated 2025-10-09), from lib/events/iana/iana-ipv6-special-registry-1.csv. */
export const IPV6_SPECIAL_PURPOSE: SpecialPurposeRegistry = {
  registry: 'https://www.iana.org/assignments/iana-ipv6-special-registry/',
  lastUpdated: '2025-10-09',
  blocks: [
    {"prefix":"::1/128","name":"Loopback Address","rfc":"[RFC4291]","allocated":"2006-02","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"::/128","name":"Unspecified Address","rfc":"[RFC4291]","allocated":"2006-02","source":true,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"::ffff:0:0/96","name":"IPv4-mapped Address","rfc":"[RFC4291]","allocated":"2006-02","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
    {"prefix":"64:ff9b::/96","name":"IPv4-IPv6 Translat.","rfc":"[RFC6052]","allocated":"2010-10","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"64:ff9b:1::/48","name":"IPv4-IPv6 Translat.","rfc":"[RFC8215]","allocated":"2017-06","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"100::/64","name":"Discard-Only Address Block","rfc":"[RFC6666]","allocated":"2012-06","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"100:0:0:1::/64","name":"Dummy IPv6 Prefix","rfc":"[RFC9780]","allocated":"2025-04","source":true,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"2001::/23","name":"IETF Protocol Assignments","rfc":"[RFC2928]","allocated":"2000-09","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"2001::/32","name":"TEREDO","rfc":"[RFC4380] [RFC8190]","allocated":"2006-01","source":true,"destination":true,"forwardable":true,"reservedByProtocol":false},
    {"prefix":"2001:1::1/128","name":"Port Control Protocol Anycast","rfc":"[RFC7723]","allocated":"2015-10","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:1::2/128","name":"Traversal Using Relays around NAT Anycast","rfc":"[RFC8155]","allocated":"2017-02","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:1::3/128","name":"DNS-SD Service Registration Protocol Anycast","rfc":"[RFC9665]","allocated":"2024-04","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:2::/48","name":"Benchmarking","rfc":"[RFC5180][RFC Errata 1752]","allocated":"2008-04","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"2001:3::/32","name":"AMT","rfc":"[RFC7450]","allocated":"2014-12","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:4:112::/48","name":"AS112-v6","rfc":"[RFC7535]","allocated":"2014-12","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:10::/28","name":"Deprecated (previously ORCHID)","rfc":"[RFC4843]","allocated":"2007-03","terminated":"2014-03"},
    {"prefix":"2001:20::/28","name":"ORCHIDv2","rfc":"[RFC7343]","allocated":"2014-07","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:30::/28","name":"Drone Remote ID Protocol Entity Tags (DETs) Prefix","rfc":"[RFC9374]","allocated":"2022-12","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"2001:db8::/32","name":"Documentation","rfc":"[RFC3849]","allocated":"2004-07","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"2002::/16","name":"6to4","rfc":"[RFC3056]","allocated":"2001-02","source":true,"destination":true,"forwardable":true,"reservedByProtocol":false},
    {"prefix":"2620:4f:8000::/48","name":"Direct Delegation AS112 Service","rfc":"[RFC7534]","allocated":"2011-05","source":true,"destination":true,"forwardable":true,"globallyReachable":true,"reservedByProtocol":false},
    {"prefix":"3fff::/20","name":"Documentation","rfc":"[RFC9637]","allocated":"2024-07","source":false,"destination":false,"forwardable":false,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"5f00::/16","name":"Segment Routing (SRv6) SIDs","rfc":"[RFC9602]","allocated":"2024-04","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"fc00::/7","name":"Unique-Local","rfc":"[RFC4193] [RFC8190]","allocated":"2005-10","source":true,"destination":true,"forwardable":true,"globallyReachable":false,"reservedByProtocol":false},
    {"prefix":"fe80::/10","name":"Link-Local Unicast","rfc":"[RFC4291]","allocated":"2006-02","source":true,"destination":true,"forwardable":false,"globallyReachable":false,"reservedByProtocol":true},
  ],
};
