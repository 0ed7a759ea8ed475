// A webhook record's receiver, held to the rule its subscription's creation holds it to, without DNS
// (each delivery checks the addresses again). Restore refuses a file holding a receiver the rule
// refuses, and export holds what it writes to the same rule, under the same setting
// (WEBHOOKS_ALLOW_LOOPBACK, which the admin CLI takes from the local stack: local/admin.ts).
import { config } from '#lib/config.ts';
import { checkDestinationOffline, DestinationRejected } from '#lib/events/destination.ts';

/** Why the receiver `url` is refused, in a line's words, or undefined when it is not. */
export async function receiverProblem(url: string): Promise<string | undefined> {
  try {
    await checkDestinationOffline(url, { allowLoopback: config.webhooksAllowLoopback });
    return undefined;
  } catch (err) {
    if (!(err instanceof DestinationRejected)) throw err;
    const why = err.message.replace(/\.$/, '');
    return `'/url' is refused: ${why.charAt(0).toLowerCase()}${why.slice(1)}`;
  }
}
