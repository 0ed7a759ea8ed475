// The stream function: records of the table's stream (only entity, note and link changes reach it:
// lib/store/stream-records.ts EVENT_RECORD_FILTERS) → events → one delivery job per subscription
// that asked for them, sent in order to the SQS FIFO delivery queue. A record that fails is
// reported, so Lambda hands it and everything after it over again (or bisects the batch).
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { config } from '#lib/config.ts';
import { fanOut } from '#lib/events/fan-out.ts';
import { sendJobs } from '#lib/events/sqs.ts';
import { log } from '#lib/log.ts';

export const handler = async (event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> => {
  const result = await fanOut(event.Records, sendJobs, config.baseUrl);
  if (result.failedAt === undefined) return { batchItemFailures: [] };
  log.error('stream records failed; handing them back', { failedAt: result.failedAt, jobsSent: result.jobs, error: result.error });
  return { batchItemFailures: [{ itemIdentifier: result.failedAt }] };
};
