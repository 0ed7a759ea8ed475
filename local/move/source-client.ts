// The HTTP client of an import's source, a Productboard v2 API (Productboard's own, or any service
// that answers its documents, this one included): bearer token, JSON, pages followed by `links.next`
// (absent or null on the last page), 429 answered by waiting what `Retry-After` says (seconds or an
// HTTP date) and trying again, a 5xx, a dropped connection or a request unanswered within its
// timeout retried with backoff. It counts its requests and the time it waited, for the import's
// report against the source's budget. A source is held to SOURCE_LIMITS: what breaks one — a wait
// asked for beyond it, a body too large, a body that is not JSON — stops the import with a message
// naming the request. The token goes only to the source: every URL it requests — a `links.next`, a
// redirect's `Location` — must be on the `--source` origin and under its path, or the import stops
// before requesting it.
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../admin/command.ts';

export class SourceError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'SourceError';
  }
}

export interface SourceStats {
  requests: number;
  throttled: number;
  waitedMs: number;
}

const ATTEMPTS = 8;
/** Redirects followed for one request (each within the source). */
const REDIRECTS = 5;
const MiB = 1024 * 1024;

/** What the client holds a source to. */
interface SourceLimits {
  /** The longest one request may take, its whole body read: then it is tried again, as a 5xx is. */
  timeoutMs: number;
  /** The longest one request waits on 429s in all: a source asking for more stops the import, naming the request. */
  maxWaitMs: number;
  /** The largest body read: a page of 100 records is far smaller, and a body is held whole to be parsed. */
  maxBodyBytes: number;
}

export const SOURCE_LIMITS: SourceLimits = { timeoutMs: 60_000, maxWaitMs: 15 * 60_000, maxBodyBytes: 64 * MiB };

/**
 * Seconds or an HTTP date, as RFC 9110 allows; 1 s when absent or unreadable, and at least 1 s, so a
 * source answering 429 without a wait is not asked again at once.
 */
function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 1000;
  const at = /^\d+$/.test(header.trim()) ? now + Number(header.trim()) * 1000 : Date.parse(header);
  return Number.isNaN(at) ? 1000 : Math.max(1000, at - now);
}

/** A length of time as a person reads it. */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} minutes`;
  return s < 2 * 86_400 ? `${Math.round(s / 3600)} hours` : `${Math.round(s / 86_400)} days`;
}

/** Text from the source, for a message: on one line, without control characters, cut short. */
const quoted = (text: string, max: number) =>
  text
    .slice(0, max)
    .replace(/[\p{Cc}\p{Cf}\u2028\u2029]+/gu, ' ')
    .trim() + (text.length > max ? ' …' : '');

/** A request answered, its body read whole (within the limits). */
interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

export class SourceClient {
  readonly stats: SourceStats = { requests: 0, throttled: 0, waitedMs: 0 };

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchFn: typeof fetch = fetch,
    private readonly limits: SourceLimits = SOURCE_LIMITS,
  ) {}

  /**
   * The absolute URL of a path under the base URL or of an absolute link the source gave, refused
   * unless it is on the base URL's origin (scheme, host, port) and under its path.
   */
  url(pathOrUrl: string): string {
    const base = new URL(this.baseUrl);
    let url: URL | undefined;
    try {
      url = new URL(/^[a-z][a-z\d+.-]*:/i.test(pathOrUrl) ? pathOrUrl : `${this.baseUrl}${pathOrUrl}`);
    } catch {
      url = undefined;
    }
    const basePath = base.pathname.replace(/\/+$/, '');
    if (
      !url ||
      url.origin !== base.origin ||
      url.username !== '' ||
      url.password !== '' ||
      !(url.pathname === basePath || url.pathname.startsWith(`${basePath}/`))
    )
      throw new UsageError(
        `The source gave the link ${pathOrUrl}, which is not under --source ${this.baseUrl}: not followed (the source token is sent to the source only)`,
      );
    return url.toString();
  }

  /** The request as messages name it: its method and its path under the base URL. */
  private named(url: string): string {
    return `GET ${url.replace(this.baseUrl, '')}`;
  }

  /** GET a JSON body; a refusal (4xx but 429) is a SourceError with the source's own detail. */
  async get(pathOrUrl: string): Promise<unknown> {
    let url = this.url(pathOrUrl);
    let throttledMs = 0;
    for (let attempt = 1, redirects = 0; ; attempt++) {
      let res: Answer;
      try {
        res = await this.send(url);
      } catch (err) {
        if (err instanceof UsageError) throw err;
        const timedOut = (err as Error).name === 'TimeoutError';
        if (attempt >= ATTEMPTS)
          throw new UsageError(
            timedOut
              ? `${this.named(url)} got no whole answer within ${duration(this.limits.timeoutMs)}, ${ATTEMPTS} times: the source at ${this.baseUrl} does not answer`
              : `The source at ${this.baseUrl} is not reachable: ${(err as Error).message}`,
          );
        await this.wait(Math.min(30_000, 250 * 2 ** attempt));
        continue;
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        if (++redirects > REDIRECTS) throw new UsageError(`GET ${url} was redirected more than ${REDIRECTS} times`);
        url = this.url(new URL(location, url).toString());
        continue;
      }
      if (res.status === 429) {
        this.stats.throttled++;
        const header = res.headers.get('retry-after');
        const ms = retryAfterMs(header);
        // A wait that long is no rate limit to wait out within one run (and past what a timer holds).
        if (throttledMs + ms > this.limits.maxWaitMs)
          throw new UsageError(
            `${this.named(url)} answered 429 asking to wait ${duration(ms)} (${header === null ? 'no Retry-After' : `Retry-After: ${quoted(header, 100)}`})${throttledMs ? `, after ${duration(throttledMs)} waited already` : ''}: more than the ${duration(this.limits.maxWaitMs)} the import waits for one request. Run the same command later: it continues where it stopped`,
          );
        throttledMs += ms;
        await this.wait(ms);
        continue;
      }
      if (res.status >= 500 && attempt < ATTEMPTS) {
        await this.wait(Math.min(30_000, 250 * 2 ** attempt));
        continue;
      }
      if (res.status !== 200) {
        let detail = res.body;
        try {
          detail = (JSON.parse(res.body) as { errors?: Array<{ detail?: string }> }).errors?.[0]?.detail ?? detail;
        } catch {
          // not the error envelope: its text as it came
        }
        throw new SourceError(res.status, `${this.named(url)} answered ${res.status}: ${quoted(String(detail), 300)}`);
      }
      try {
        return JSON.parse(res.body) as unknown;
      } catch {
        throw new UsageError(
          `${this.named(url)} answered 200 with a body that is not JSON (${res.headers.get('content-type') ?? 'no content-type'}): ${quoted(res.body, 100) || '(empty)'}`,
        );
      }
    }
  }

  /** One request, its body read whole within the time and size limits; a dropped connection or the timeout throws as fetch does. */
  private async send(url: string): Promise<Answer> {
    this.stats.requests++;
    const signal = AbortSignal.timeout(this.limits.timeoutMs);
    // Redirects are followed by the caller, each checked as a link is: fetch would follow one anywhere.
    const res = await this.fetchFn(url, { headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' }, redirect: 'manual', signal });
    const tooLarge = () =>
      new UsageError(
        `${this.named(url)} answered ${res.status} with a body larger than ${this.limits.maxBodyBytes / MiB} MiB: not read (a page of the source is far smaller)`,
      );
    if (Number(res.headers.get('content-length')) > this.limits.maxBodyBytes) {
      await res.body?.cancel();
      throw tooLarge();
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    // Leaving the loop (the limit passed) cancels the stream: the rest is never received.
    for await (const chunk of (res.body ?? []) as AsyncIterable<Uint8Array>) {
      size += chunk.byteLength;
      if (size > this.limits.maxBodyBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return { status: res.status, headers: res.headers, body: new TextDecoder().decode(Buffer.concat(chunks)) };
  }

  private async wait(ms: number): Promise<void> {
    this.stats.waitedMs += ms;
    await sleep(ms);
  }

  /**
   * Each page of a list from `pathOrUrl` on, with the URL of the page after it (undefined on the
   * last). A next link naming a page already read would loop for ever: refused before its page is
   * given, so nothing is counted twice. Its items as they came: each is checked where it is read
   * (./productboard-kinds.ts).
   */
  async *pages(pathOrUrl: string): AsyncGenerator<{ data: unknown[]; next: string | undefined }> {
    const read = new Set<string>();
    for (let url: string | undefined = pathOrUrl; url !== undefined;) {
      read.add(this.url(url));
      const page = await this.get(url);
      // A page without its list is no page of a list (a proxy's answer, say): read as empty, it would lose the rest.
      if (typeof page !== 'object' || page === null || !Array.isArray((page as { data?: unknown }).data))
        throw new UsageError(`${this.named(this.url(url))} answered 200 with no \`data\` list: not a page of a list`);
      const { data, links } = page as { data: unknown[]; links?: { next?: unknown } | null };
      const next = typeof links?.next === 'string' && links.next !== '' ? links.next : undefined;
      if (next !== undefined && read.has(this.url(next)))
        throw new UsageError(
          `The source's list ${pathOrUrl} gave as its next page ${next}, a page it already gave: the list does not end; nothing more of it was read`,
        );
      yield { data, next };
      url = next;
    }
  }
}
