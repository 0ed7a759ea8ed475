// A DNS server for tests (UDP on a free loopback port): it answers A and AAAA queries for the names
// a test gives it — anything else is NXDOMAIN — so that the webhook destination guard resolves
// names through the same Node resolver it deploys with, pointed here by WEBHOOKS_DNS_SERVERS. The
// answers can change between queries (a host that later resolves elsewhere); TTL 0, nothing cached.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { isIP } from 'node:net';
import * as packet from 'dns-packet';

export interface TestDns {
  /** `127.0.0.1:<port>`, for WEBHOOKS_DNS_SERVERS. */
  server: string;
  /** Sets a name's addresses (IPv4 answer A queries, IPv6 AAAA); no addresses: NXDOMAIN. */
  answer(name: string, addresses: string[]): void;
  /** The names asked for, in order (lower-case). */
  readonly asked: string[];
  /** Points the guard back at the system's resolver and stops the server. */
  close(): Promise<void>;
}

/** Starts the server and points WEBHOOKS_DNS_SERVERS at it, with `answers` as its zone. */
export async function startDns(answers: Record<string, string[]> = {}): Promise<TestDns> {
  const zone = new Map(Object.entries(answers).map(([name, list]) => [name.toLowerCase(), list]));
  const asked: string[] = [];
  const socket = createSocket('udp4');
  socket.on('message', (message: Buffer, from: RemoteInfo) => {
    let query: packet.Packet;
    try {
      query = packet.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    asked.push(name);
    const list = zone.get(name);
    const family = question.type === 'A' ? 4 : question.type === 'AAAA' ? 6 : 0;
    const answers: packet.Answer[] = (list ?? [])
      .filter((address) => isIP(address) === family)
      .map((data) => ({ type: family === 4 ? 'A' : 'AAAA', class: 'IN', name: question.name, ttl: 0, data }));
    const reply = packet.encode({
      id: query.id,
      type: 'response',
      // Recursion desired and available; NXDOMAIN (rcode 3) for a name the zone does not hold.
      flags: packet.RECURSION_DESIRED | packet.RECURSION_AVAILABLE | (list && list.length > 0 ? 0 : 3),
      questions: [question],
      answers,
    });
    socket.send(reply, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const server = `127.0.0.1:${socket.address().port}`;
  const previous = process.env.WEBHOOKS_DNS_SERVERS;
  process.env.WEBHOOKS_DNS_SERVERS = server;
  return {
    server,
    asked,
    answer: (name, addresses) => void zone.set(name.toLowerCase(), addresses),
    close: () =>
      new Promise<void>((resolve) => {
        if (previous === undefined) delete process.env.WEBHOOKS_DNS_SERVERS;
        else process.env.WEBHOOKS_DNS_SERVERS = previous;
        socket.close(() => resolve());
      }),
  };
}
