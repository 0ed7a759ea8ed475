// The HTTP client of an import's source, a Productboard v2 API (Productboard's own, or any service
// that answers its documents, this one included): bearer token, JSON, pages followed by `links.next`
// (absent or null on the last page), 429 answered by waiting what `Retry-After` says (seconds or an
// HTTP date) and trying again, a 5xx or a dropped connection retried with backoff. It counts its
// requests and the time it waited, for the import's report against the source's budget. The token
// goes only to the source: every URL it requests — a `links.next`, a redirect's `Location` — must be
// on the `--source` origin and under its path, or the import stops before requesting it.
import { setTimeout as sleep } from 'node:timers/promises';
import { UsageError } from '../admin/command.ts';

/** A list item before its kind's reader looks at it. */
interface SourceItem {
  id: string;
  type: string;
}

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

/** Seconds or an HTTP date, as RFC 9110 allows; 1 s when absent or unreadable. */
function retryAfterMs(header: string | null, now = Date.now()): number {
  if (header === null) return 1000;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1000 : Math.max(0, at - now);
}

export class SourceClient {
  readonly stats: SourceStats = { requests: 0, throttled: 0, waitedMs: 0 };

  constructor(
    readonly baseUrl: string,
    private readonly token: string,
    private readonly fetchFn: typeof fetch = fetch,
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

  /** GET a JSON body; a refusal (4xx but 429) is a SourceError with the source's own detail. */
  async get(pathOrUrl: string): Promise<unknown> {
    let url = this.url(pathOrUrl);
    for (let attempt = 1, redirects = 0; ; attempt++) {
      let res: Response;
      try {
        this.stats.requests++;
        // Redirects are followed here, each checked as a link is: fetch would follow one anywhere.
        res = await this.fetchFn(url, { headers: { authorization: `Bearer ${this.token}`, accept: 'application/json' }, redirect: 'manual' });
      } catch (err) {
        if (attempt >= ATTEMPTS) throw new UsageError(`The source at ${this.baseUrl} is not reachable: ${(err as Error).message}`);
        await this.wait(Math.min(30_000, 250 * 2 ** attempt));
        continue;
      }
      const location = res.headers.get('location');
      if (res.status >= 300 && res.status < 400 && location !== null) {
        await res.arrayBuffer();
        if (++redirects > REDIRECTS) throw new UsageError(`GET ${url} was redirected more than ${REDIRECTS} times`);
        url = this.url(new URL(location, url).toString());
        continue;
      }
      if (res.status === 429) {
        this.stats.throttled++;
        await res.arrayBuffer();
        await this.wait(retryAfterMs(res.headers.get('retry-after')));
        continue;
      }
      if (res.status >= 500 && attempt < ATTEMPTS) {
        await res.arrayBuffer();
        await this.wait(Math.min(30_000, 250 * 2 ** attempt));
        continue;
      }
      const text = await res.text();
      if (res.status !== 200) {
        let detail = text.slice(0, 300);
        try {
          detail = (JSON.parse(text) as { errors?: Array<{ detail?: string }> }).errors?.[0]?.detail ?? detail;
        } catch {
          // not the error envelope: its text as it came
        }
        throw new SourceError(res.status, `GET ${url.replace(this.baseUrl, '')} answered ${res.status}: ${detail}`);
      }
      return JSON.parse(text) as unknown;
    }
  }

  private async wait(ms: number): Promise<void> {
    this.stats.waitedMs += ms;
    await sleep(ms);
  }

  /**
   * Each page of a list from `pathOrUrl` on, with the URL of the page after it (undefined on the
   * last). A next link naming a page already read would loop for ever: refused before its page is
   * given, so nothing is counted twice.
   */
  async *pages<T = SourceItem>(pathOrUrl: string): AsyncGenerator<{ data: T[]; next: string | undefined }> {
    const read = new Set<string>();
    for (let url: string | undefined = pathOrUrl; url !== undefined;) {
      read.add(this.url(url));
      const page = (await this.get(url)) as { data?: unknown; links?: { next?: unknown } } | null;
      const next = typeof page?.links?.next === 'string' && page.links.next !== '' ? page.links.next : undefined;
      if (next !== undefined && read.has(this.url(next)))
        throw new UsageError(
          `The source's list ${pathOrUrl} gave as its next page ${next}, a page it already gave: the list does not end; nothing more of it was read`,
        );
      // Records are checked where they are read (./productboard-kinds.ts): here only that a page is a list.
      yield { data: Array.isArray(page?.data) ? (page.data as T[]) : [], next };
      url = next;
    }
  }
}
