import { createHash, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface SqsCall {
  action: string;
  input: Record<string, any>;
}

/**
 * A stand-in for SQS on its JSON wire protocol (no emulator is available here): it records every
 * call and answers SendMessage, SendMessageBatch, ChangeMessageVisibility and its batch as SQS does, with the
 * MD5 digests the SDK checks.
 */
export function fakeSqs() {
  const calls: SqsCall[] = [];
  /**
   * refuseBatches: while set, SendMessageBatch reports every entry failed (as SQS does when throttled).
   * errors: answers given instead of the next calls' own, one each, as [status, error type].
   */
  const faults = { refuseBatches: false, errors: [] as Array<[number, string]> };
  const md5 = (s: string) => createHash('md5').update(s, 'utf8').digest('hex');
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const action = String(req.headers['x-amz-target']).replace(/^AmazonSQS\./, '');
      const input = JSON.parse(body || '{}') as Record<string, any>;
      calls.push({ action, input });
      const error = faults.errors.shift();
      if (error) {
        res.writeHead(error[0], { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: `com.amazonaws.sqs#${error[1]}`, message: `${error[1]} it is` }));
        return;
      }
      let out: unknown;
      if (action === 'SendMessage') out = { MessageId: randomUUID(), MD5OfMessageBody: md5(input.MessageBody), SequenceNumber: '1' };
      else if ((action === 'SendMessageBatch' || action === 'ChangeMessageVisibilityBatch') && faults.refuseBatches) {
        out = {
          Successful: [],
          Failed: (input.Entries as Array<{ Id: string }>).map((e) => ({ Id: e.Id, Code: 'ThrottlingException', SenderFault: false, Message: 'slow down' })),
        };
      } else if (action === 'SendMessageBatch') {
        out = {
          Successful: (input.Entries as Array<{ Id: string; MessageBody: string }>).map((e) => ({
            Id: e.Id,
            MessageId: randomUUID(),
            MD5OfMessageBody: md5(e.MessageBody),
            SequenceNumber: '1',
          })),
          Failed: [],
        };
      } else if (action === 'ChangeMessageVisibilityBatch') {
        // SQS refuses a visibility beyond 12 hours from the receive; a test's receive is moments ago.
        const entries = input.Entries as Array<{ Id: string; VisibilityTimeout: number }>;
        const tooLong = (e: { VisibilityTimeout: number }) => e.VisibilityTimeout >= 43_200;
        out = {
          Successful: entries.filter((e) => !tooLong(e)).map((e) => ({ Id: e.Id })),
          Failed: entries.filter(tooLong).map((e) => ({ Id: e.Id, Code: 'InvalidParameterValue', SenderFault: true, Message: 'too long' })),
        };
      } else if (action === 'ChangeMessageVisibility') out = {};
      else {
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidAction', message: `unexpected ${action}` }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
      res.end(JSON.stringify(out));
    });
  });
  return {
    calls,
    faults,
    of: (action: string) => calls.filter((c) => c.action === action).map((c) => c.input),
    listen: async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
