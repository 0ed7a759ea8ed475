// The workers in the stack (infra/event-workers.ts, docs/events.md): the table stream feeding the
// stream function through a filtered, bisecting event source mapping with a failure destination;
// the SQS FIFO delivery queue with its dead-letter queue; a scheduled worker's rule; alarms; and
// each worker's grants, exactly.
import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it, vi } from 'vitest';
import { EVENT_RECORD_FILTERS } from '#lib/store/stream-records.ts';
import { WORKERS, type Worker } from '#lib/workers.ts';
import { refsIn, resourcesOf, statementsOf, synth } from './synth.ts';

// Each synth takes seconds, more on a loaded machine; a slow synth is not a failure.
vi.setConfig({ testTimeout: 120_000 });

const { template } = synth();
const resources = resourcesOf(template);
const ofType = (type: string) => Object.entries(resources).filter(([, r]) => r.Type === type);
const arnOf = (id: string) => ({ 'Fn::GetAtt': [id, 'Arn'] });

const worker = (id: string) => {
  const [logicalId, fn] = ofType('AWS::Lambda::Function').find(([, r]) => String(r.Properties!.Description).endsWith(`(${id})`))!;
  const statements = statementsOf(resources, [...refsIn(fn.Properties!.Role)][0]!);
  const grants = statements.flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).map((a) => `${a} ${JSON.stringify(s.Resource)}`)).sort();
  return { logicalId, props: fn.Properties as Record<string, any>, grants };
};

const tableId = ofType('AWS::DynamoDB::Table')[0]![0];
const queueId = (pattern: RegExp) => ofType('AWS::SQS::Queue').find(([id]) => pattern.test(id))![0];
const deliveries = queueId(/^Events\/Deliveries/);
const deadLetters = queueId(/^Events\/DeadLetters/);
const streamFailures = queueId(/^Events\/StreamFailures/);
const stream = worker('streamEvents');
const deliver = worker('deliverWebhooks');
const sweeper = worker('sweepPendingWork');
const secretId = ofType('AWS::SecretsManager::Secret')[0]![0];

const r = (value: unknown) => JSON.stringify(value);

describe('webhook workers in the stack', () => {
  it('one function per worker of lib/workers.ts: nodejs22.x on arm64, Text log format, timeouts 60 s (stream, sweeper) and 120 s (delivery)', () => {
    expect(WORKERS.map((w) => w.id)).toEqual(['streamEvents', 'deliverWebhooks', 'sweepPendingWork']);
    for (const { props } of [stream, deliver, sweeper])
      expect([props.Runtime, props.Architectures, props.LoggingConfig]).toEqual(['nodejs22.x', ['arm64'], { LogFormat: 'Text', LogGroup: expect.anything() }]);
    expect([stream.props.Timeout, deliver.props.Timeout, sweeper.props.Timeout]).toEqual([60, 120, 60]);
  });

  it('the sweeper of pending work runs every minute on an EventBridge rule (a tick older than a minute dropped, a failed run never retried: the next run does the work), with the table actions it needs on the table and its three indexes by name; no key, no secret', () => {
    const rules = ofType('AWS::Events::Rule');
    expect(rules.map(([, rule]) => rule.Properties)).toEqual([
      expect.objectContaining({
        ScheduleExpression: 'rate(1 minute)',
        State: 'ENABLED',
        Targets: [expect.objectContaining({ Arn: arnOf(sweeper.logicalId), RetryPolicy: { MaximumEventAgeInSeconds: 60 } })],
      }),
    ]);
    const permissions = ofType('AWS::Lambda::Permission').filter(([, p]) => refsIn(p.Properties!.FunctionName).has(sweeper.logicalId));
    expect(permissions.map(([, p]) => p.Properties)).toEqual([
      { Action: 'lambda:InvokeFunction', FunctionName: arnOf(sweeper.logicalId), Principal: 'events.amazonaws.com', SourceArn: arnOf(rules[0]![0]) },
    ]);
    expect(ofType('AWS::Lambda::EventInvokeConfig').map(([, c]) => c.Properties)).toEqual([
      { FunctionName: { Ref: sweeper.logicalId }, MaximumEventAgeInSeconds: 60, MaximumRetryAttempts: 0, Qualifier: '$LATEST' },
    ]);
    const table = arnOf(tableId);
    const onTable = r([table, ...['gsi1', 'gsi2', 'gsi3'].map((g) => ({ 'Fn::Join': ['', [table, `/index/${g}`]] }))]);
    const actions = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'];
    const logGroup = r(arnOf([...refsIn(sweeper.props.LoggingConfig.LogGroup)][0]!));
    expect(sweeper.grants).toEqual(
      [...actions.map((a) => `dynamodb:${a} ${onTable}`), `logs:CreateLogStream ${logGroup}`, `logs:PutLogEvents ${logGroup}`].sort(),
    );
  });

  it('the stream function reads the table stream from LATEST, batched, bisecting failures, reporting the failed record, filtered to entity/note/link items, failures to a queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: stream.logicalId },
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      StartingPosition: 'LATEST',
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: 1,
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      DestinationConfig: { OnFailure: { Destination: arnOf(streamFailures) } },
      FilterCriteria: { Filters: EVENT_RECORD_FILTERS.map((f) => ({ Pattern: JSON.stringify(f) })) },
    });
  });

  it('deliveries: SQS FIFO in high-throughput mode, SSE, 14 days, visibility 6 × the function timeout, redrive to a FIFO dead-letter queue', () => {
    expect(resources[deliveries]!.Properties).toEqual({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      DeduplicationScope: 'messageGroup',
      FifoThroughputLimit: 'perMessageGroupId',
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
      VisibilityTimeout: 720,
      RedrivePolicy: { deadLetterTargetArn: arnOf(deadLetters), maxReceiveCount: 100 },
    });
    expect(resources[deadLetters]!.Properties).toEqual({
      FifoQueue: true,
      ContentBasedDeduplication: false,
      MessageRetentionPeriod: 14 * 86_400,
      SqsManagedSseEnabled: true,
    });
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: deliver.logicalId },
      EventSourceArn: arnOf(deliveries),
      BatchSize: 10,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
  });

  it('every queue refuses requests without TLS', () => {
    for (const q of [deliveries, deadLetters, streamFailures]) {
      template.hasResourceProperties('AWS::SQS::QueuePolicy', {
        Queues: [{ Ref: q }],
        PolicyDocument: { Statement: [Match.objectLike({ Effect: 'Deny', Action: 'sqs:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })] },
      });
    }
  });

  it('alarms: any dead delivery, any failed stream batch, and stream records older than 10 minutes', () => {
    const alarms = ofType('AWS::CloudWatch::Alarm').map(([, a]) => a.Properties as Record<string, any>);
    const depth = (q: string) => alarms.find((a) => a.MetricName === 'ApproximateNumberOfMessagesVisible' && r(a.Dimensions).includes(q))!;
    for (const q of [deadLetters, streamFailures]) {
      expect(depth(q)).toMatchObject({ Namespace: 'AWS/SQS', Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', Statistic: 'Maximum' });
    }
    const lag = alarms.find((a) => a.MetricName === 'IteratorAge')!;
    expect(lag).toMatchObject({ Namespace: 'AWS/Lambda', Threshold: 600_000, Dimensions: [{ Name: 'FunctionName', Value: { Ref: stream.logicalId } }] });
  });

  it('least privilege, the stream function: read the stream, query the table (no index), send to the delivery queue and its failure destination; no key, no secret, no writes', () => {
    const q = (id: string) => r(arnOf(id));
    expect(stream.grants).toEqual(
      [
        `dynamodb:Query ${r(arnOf(tableId))}`,
        `dynamodb:DescribeStream ${r({ 'Fn::GetAtt': [tableId, 'StreamArn'] })}`,
        `dynamodb:GetRecords ${r({ 'Fn::GetAtt': [tableId, 'StreamArn'] })}`,
        `dynamodb:GetShardIterator ${r({ 'Fn::GetAtt': [tableId, 'StreamArn'] })}`,
        'dynamodb:ListStreams "*"',
        `sqs:SendMessage ${q(deliveries)}`,
        `sqs:GetQueueAttributes ${q(deliveries)}`,
        `sqs:GetQueueUrl ${q(deliveries)}`,
        `sqs:SendMessage ${q(streamFailures)}`,
        `sqs:GetQueueAttributes ${q(streamFailures)}`,
        `sqs:GetQueueUrl ${q(streamFailures)}`,
        `logs:CreateLogStream ${r(arnOf([...refsIn(stream.props.LoggingConfig.LogGroup)][0]!))}`,
        `logs:PutLogEvents ${r(arnOf([...refsIn(stream.props.LoggingConfig.LogGroup)][0]!))}`,
      ].sort(),
    );
  });

  it('least privilege, the delivery function: get and update table items, read the service secret (no key: it checks and mints no token), consume its queue, send to the dead-letter queue', () => {
    const q = (id: string) => r(arnOf(id));
    expect(deliver.grants).toEqual(
      [
        `dynamodb:GetItem ${r(arnOf(tableId))}`,
        `dynamodb:UpdateItem ${r(arnOf(tableId))}`,
        `secretsmanager:GetSecretValue ${r({ Ref: secretId })}`,
        `secretsmanager:DescribeSecret ${r({ Ref: secretId })}`,
        ...['ReceiveMessage', 'ChangeMessageVisibility', 'GetQueueUrl', 'DeleteMessage', 'GetQueueAttributes'].map((a) => `sqs:${a} ${q(deliveries)}`),
        ...['SendMessage', 'GetQueueAttributes', 'GetQueueUrl'].map((a) => `sqs:${a} ${q(deadLetters)}`),
        `logs:CreateLogStream ${r(arnOf([...refsIn(deliver.props.LoggingConfig.LogGroup)][0]!))}`,
        `logs:PutLogEvents ${r(arnOf([...refsIn(deliver.props.LoggingConfig.LogGroup)][0]!))}`,
      ].sort(),
    );
  });

  it('environments: queue URLs (not the sweeper) and (delivery only) the secret id; never the key id or the local-only settings (loopback receivers, compressed retries)', () => {
    const vars = (p: Record<string, any>) => p.Environment.Variables as Record<string, unknown>;
    expect(Object.keys(vars(stream.props)).sort()).toEqual(['DELIVERY_QUEUE_URL', 'LOG_LEVEL', 'PUBLIC_APP_URL', 'PUBLIC_BASE_URL', 'TABLE_NAME']);
    expect(Object.keys(vars(deliver.props)).sort()).toEqual([
      'DELIVERY_DLQ_URL',
      'DELIVERY_QUEUE_URL',
      'LOG_LEVEL',
      'PUBLIC_APP_URL',
      'PUBLIC_BASE_URL',
      'SERVICE_KEY_EPOCH',
      'SERVICE_SECRET_ID',
      'TABLE_NAME',
    ]);
    expect(vars(deliver.props)).toMatchObject({ DELIVERY_QUEUE_URL: { Ref: deliveries }, DELIVERY_DLQ_URL: { Ref: deadLetters } });
    expect(Object.keys(vars(sweeper.props)).sort()).toEqual(['LOG_LEVEL', 'PUBLIC_APP_URL', 'PUBLIC_BASE_URL', 'TABLE_NAME']);
    const all = JSON.stringify(ofType('AWS::Lambda::Function').map(([, f]) => f.Properties!.Environment));
    expect(all).not.toContain('WEBHOOKS_ALLOW_LOOPBACK');
  });

  it('the dead-letter queue and the stream-failure queue are outputs for operators', () => {
    expect(template.findOutputs('WebhookDeadLettersUrl').WebhookDeadLettersUrl!.Value).toEqual({ Ref: deadLetters });
    expect(template.findOutputs('StreamFailuresUrl').StreamFailuresUrl!.Value).toEqual({ Ref: streamFailures });
  });
});

describe("a scheduled worker (source schedule): an EventBridge rule at its rate invokes it, with its row's grants only", () => {
  // The stack built with a scheduled row of other settings (every 5 minutes, the table alone) in place of lib/workers.ts's.
  const others = WORKERS.filter((w) => w.source !== 'schedule');
  const sweeper: Worker = {
    id: 'sweepPending',
    handler: 'functions/events/stream.ts',
    source: 'schedule',
    everyMinutes: 5,
    tableActions: [
      'dynamodb:Query',
      'dynamodb:Scan',
      'dynamodb:BatchWriteItem',
      'dynamodb:PutItem',
      'dynamodb:UpdateItem',
      'dynamodb:DeleteItem',
      'dynamodb:ConditionCheckItem',
    ],
    secret: false,
    summary: 'Sweeps pending clean-up work',
  };
  const { template: t } = synth({}, { workers: [...others, sweeper] });
  const res = resourcesOf(t);
  const [fnId, fn] = Object.entries(res).find(([, r]) => r.Type === 'AWS::Lambda::Function' && String(r.Properties!.Description).endsWith('(sweepPending)'))!;
  const rules = Object.entries(res).filter(([, r]) => r.Type === 'AWS::Events::Rule');

  it('one rule, rate(5 minutes), enabled, targeting the function; a tick older than one period is dropped', () => {
    expect(rules).toHaveLength(1);
    const [, rule] = rules[0]!;
    expect(rule.Properties).toMatchObject({ ScheduleExpression: 'rate(5 minutes)', State: 'ENABLED' });
    expect((rule.Properties!.Targets as unknown[]).map((target) => ({ ...(target as object), Id: undefined }))).toEqual([
      { Arn: arnOf(fnId), Id: undefined, RetryPolicy: { MaximumEventAgeInSeconds: 300 } },
    ]);
  });

  it('only EventBridge, from that rule, may invoke it; a failed run is not retried (the next run does its work)', () => {
    const [ruleId] = rules[0]!;
    const permissions = Object.values(res).filter((r) => r.Type === 'AWS::Lambda::Permission' && refsIn(r.Properties!.FunctionName).has(fnId));
    expect(permissions.map((p) => p.Properties)).toEqual([
      { Action: 'lambda:InvokeFunction', FunctionName: arnOf(fnId), Principal: 'events.amazonaws.com', SourceArn: arnOf(ruleId) },
    ]);
    const invokeConfigs = Object.values(res).filter((r) => r.Type === 'AWS::Lambda::EventInvokeConfig');
    expect(invokeConfigs.map((c) => c.Properties)).toEqual([
      { FunctionName: { Ref: fnId }, MaximumEventAgeInSeconds: 300, MaximumRetryAttempts: 0, Qualifier: '$LATEST' },
    ]);
  });

  it("a run may take one period (Lambda timeout 300 s); its grants are exactly its row's table actions on the table and its own logs", () => {
    expect(fn.Properties!.Timeout).toBe(300);
    const grants = statementsOf(res, [...refsIn(fn.Properties!.Role)][0]!)
      .flatMap((s) => (Array.isArray(s.Action) ? s.Action : [s.Action]).map((a) => `${a} ${JSON.stringify(s.Resource)}`))
      .sort();
    const logGroup = [...refsIn((fn.Properties as Record<string, any>).LoggingConfig.LogGroup)][0]!;
    expect(grants).toEqual(
      [
        ...sweeper.tableActions.map((a) => `${a} ${r(arnOf(tableId))}`),
        `logs:CreateLogStream ${r(arnOf(logGroup))}`,
        `logs:PutLogEvents ${r(arnOf(logGroup))}`,
      ].sort(),
    );
  });

  it('its throttles are alarmed with every other function', () => {
    const watched = Object.values(res)
      .filter((a) => a.Type === 'AWS::CloudWatch::Alarm')
      .flatMap((a) =>
        ((a.Properties!.Metrics ?? []) as Array<{ MetricStat?: { Metric: { MetricName: string; Dimensions: unknown } } }>).filter(
          (m) => m.MetricStat?.Metric.MetricName === 'Throttles',
        ),
      )
      .flatMap((m) => [...refsIn(m.MetricStat!.Metric.Dimensions)]);
    expect(watched).toContain(fnId);
  });

  it.each([0, 2.5, 1441])('everyMinutes %s is refused at synth', (everyMinutes) => {
    expect(() => synth({}, { workers: [...others, { ...sweeper, everyMinutes }] })).toThrow(
      `lib/workers.ts sweepPending: everyMinutes must be a whole number of minutes from 1 to 1440, not ${everyMinutes}`,
    );
  });
});
