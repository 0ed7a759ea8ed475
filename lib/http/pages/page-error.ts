// A refusal on a page route that the member must read: rendered as the error page (never the JSON
// envelope, never a redirect) by lib/http/error-map.ts, like every other error of a page route.
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly problem: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(problem);
    this.name = 'PageError';
  }
}
