// The answer of a Lambda-backed CloudFormation custom resource, as AWS CloudFormation's user guide
// ("Custom resources", the response objects) defines it: a JSON object PUT to the pre-signed
// ResponseURL of the request. A function that never answers holds the stack operation for an hour,
// so every outcome is answered, a failure with its message as the reason.
import type { CloudFormationCustomResourceEvent, CloudFormationCustomResourceResponse } from 'aws-lambda';
import { log } from './log.ts';

/** What the resource's `run` does with a request: its physical id and the attributes Fn::GetAtt reads. */
interface CustomResourceOutcome {
  physicalResourceId: string;
  data?: Record<string, string>;
}

/** How long the answer's PUT may take: the function's own timeout must leave room for it. */
const ANSWER_TIMEOUT_MS = 10_000;

/** Runs `run` for the request and answers CloudFormation with its outcome, or with its failure. */
export async function answerCustomResource(
  event: CloudFormationCustomResourceEvent,
  run: (event: CloudFormationCustomResourceEvent) => Promise<CustomResourceOutcome>,
): Promise<void> {
  const common = { StackId: event.StackId, RequestId: event.RequestId, LogicalResourceId: event.LogicalResourceId };
  let response: CloudFormationCustomResourceResponse;
  try {
    const outcome = await run(event);
    response = { ...common, Status: 'SUCCESS', PhysicalResourceId: outcome.physicalResourceId, ...(outcome.data ? { Data: outcome.data } : {}) };
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // Never the ResponseURL: it is a credential for this stack operation's answer.
    log.error('custom resource failed', { requestType: event.RequestType, logicalResourceId: event.LogicalResourceId, error: err });
    // A failed Create has no resource yet: CloudFormation needs some physical id all the same.
    const physicalResourceId = event.RequestType === 'Create' ? `${event.LogicalResourceId}-failed` : event.PhysicalResourceId;
    response = { ...common, Status: 'FAILED', Reason: reason.slice(0, 1_000), PhysicalResourceId: physicalResourceId };
  }
  // A body with no content type: the URL is signed without one.
  const answer = await fetch(event.ResponseURL, {
    method: 'PUT',
    body: Buffer.from(JSON.stringify(response)),
    signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
  });
  if (!answer.ok) throw new Error(`CloudFormation refused the custom resource's answer: HTTP ${answer.status}`);
}
