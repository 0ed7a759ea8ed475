// Alarms an operator acts on — 5xx rate, p99 latency, function throttles, DynamoDB throttling,
// webhook deliveries given up, stream batches failed, late events — and one dashboard.
import { Duration } from 'aws-cdk-lib';
import type { Stage } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  AlarmRule,
  AlarmState,
  ComparisonOperator,
  CompositeAlarm,
  Dashboard,
  GraphWidget,
  MathExpression,
  Metric,
  TreatMissingData,
  type IAlarmAction,
  type IMetric,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TABLE } from '#lib/store/table.ts';
import type { Settings } from './settings.ts';

const PERIOD = Duration.minutes(5);
/** CloudWatch allows at most 10 metrics in one metric-math alarm. */
const METRICS_PER_ALARM = 10;

interface MonitoringProps {
  settings: Settings;
  stage: Stage;
  table: ITable;
  functions: Array<{ id: string; fn: IFunction }>;
  /** Queues where any message means something was lost to its consumer: alarmed at one visible message. */
  queues?: Array<{ id: string; queue: IQueue; description: string }>;
  /** The table-stream consumer: alarmed when its records wait too long (events arrive late). */
  streamFunction?: IFunction | undefined;
}

/** Stream records older than this when the function gets them: webhook events are running late. */
const STREAM_LAG_ALARM = Duration.minutes(10);

/**
 * The sum of metrics that publish only when something happens (a function's throttles, DynamoDB's
 * throttle events): metric math adds two series only where both have a value, so a period in which one
 * has none would have no sum and the alarm would miss the other's; FILL counts a missing value as 0.
 */
const sumOfSparse = (metrics: Record<string, IMetric>): string =>
  Object.keys(metrics)
    .map((id) => `FILL(${id}, 0)`)
    .join(' + ');

export class Monitoring extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const { settings, stage, table, functions, queues = [], streamFunction } = props;
    const actions: IAlarmAction[] = settings.alarms.topicArn ? [new SnsAction(Topic.fromTopicArn(this, 'AlarmTopic', settings.alarms.topicArn))] : [];
    const alarm = (a: Alarm) => {
      for (const action of actions) a.addAlarmAction(action);
      this.alarms.push(a);
      return a;
    };

    const requests = stage.metricCount({ period: PERIOD, statistic: 'Sum' });
    const serverErrors = stage.metricServerError({ period: PERIOD, statistic: 'Sum' });
    const serverErrorRate = new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      label: '5xx responses (%)',
      period: PERIOD,
    });
    alarm(
      new Alarm(this, 'ServerErrorRate', {
        alarmDescription: `More than ${settings.alarms.serverErrorPercent}% of responses were 5xx in two of three 5-minute periods.`,
        metric: serverErrorRate,
        threshold: settings.alarms.serverErrorPercent,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    const latencyP99 = stage.metricLatency({ period: PERIOD, statistic: 'p99' });
    alarm(
      new Alarm(this, 'LatencyP99', {
        alarmDescription: `p99 latency above ${settings.alarms.latencyP99Ms} ms in two of three 5-minute periods.`,
        metric: latencyP99,
        threshold: settings.alarms.latencyP99Ms,
        comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluationPeriods: 3,
        datapointsToAlarm: 2,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    // Function throttles, summed in groups that fit one alarm each, joined by a composite alarm.
    const throttleAlarms: Alarm[] = [];
    for (let i = 0; i < functions.length; i += METRICS_PER_ALARM) {
      const group = functions.slice(i, i + METRICS_PER_ALARM);
      const usingMetrics: Record<string, IMetric> = {};
      group.forEach(({ fn }, j) => (usingMetrics[`t${j}`] = fn.metricThrottles({ period: PERIOD, statistic: 'Sum' })));
      const n = throttleAlarms.length + 1;
      throttleAlarms.push(
        new Alarm(this, `FunctionThrottles${n}`, {
          alarmDescription: `Throttled invocations of ${group.map((g) => g.id).join(', ')}.`,
          metric: new MathExpression({ expression: sumOfSparse(usingMetrics), usingMetrics, label: 'Throttles', period: PERIOD }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    const throttles = new CompositeAlarm(this, 'Throttles', {
      alarmDescription: 'Some function was throttled (Lambda concurrency exhausted).',
      alarmRule: AlarmRule.anyOf(...throttleAlarms.map((a) => AlarmRule.fromAlarm(a, AlarmState.ALARM))),
    });
    for (const action of actions) throttles.addAlarmAction(action);

    // DynamoDB throttling on the table and on every index the store uses.
    const ddb = (metricName: string, index?: string) =>
      new Metric({
        namespace: 'AWS/DynamoDB',
        metricName,
        dimensionsMap: { TableName: table.tableName, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
        period: PERIOD,
        statistic: 'Sum',
      });
    const throttleMetrics: Record<string, IMetric> = { read: ddb('ReadThrottleEvents'), write: ddb('WriteThrottleEvents') };
    TABLE.globalIndexes.forEach((g, i) => {
      throttleMetrics[`read${i}`] = ddb('ReadThrottleEvents', g.name);
      throttleMetrics[`write${i}`] = ddb('WriteThrottleEvents', g.name);
    });
    const tableThrottles = new MathExpression({
      expression: sumOfSparse(throttleMetrics),
      usingMetrics: throttleMetrics,
      label: 'DynamoDB throttle events',
      period: PERIOD,
    });
    alarm(
      new Alarm(this, 'DynamoDbThrottles', {
        alarmDescription: 'DynamoDB throttled reads or writes on the table or its indexes.',
        metric: tableThrottles,
        threshold: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods: 1,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      }),
    );

    for (const { id: queueId, queue, description } of queues) {
      alarm(
        new Alarm(this, `${queueId}Depth`, {
          alarmDescription: description,
          metric: queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
          threshold: 1,
          comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
          evaluationPeriods: 1,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    }
    if (streamFunction) {
      alarm(
        new Alarm(this, 'StreamLag', {
          alarmDescription: `Table-stream records reach the event function more than ${STREAM_LAG_ALARM.toMinutes()} minutes after their change: webhook events are late.`,
          metric: streamFunction.metric('IteratorAge', { period: Duration.minutes(1), statistic: 'Maximum' }),
          threshold: STREAM_LAG_ALARM.toMilliseconds(),
          comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
          evaluationPeriods: 5,
          datapointsToAlarm: 3,
          treatMissingData: TreatMissingData.NOT_BREACHING,
        }),
      );
    }

    const allThrottles: Record<string, IMetric> = {};
    functions.forEach(({ fn }, j) => (allThrottles[`t${j}`] = fn.metricThrottles({ period: PERIOD, statistic: 'Sum' })));
    new Dashboard(this, 'Dashboard', {
      dashboardName: `pm-api-${settings.stage}`,
      widgets: [
        [
          new GraphWidget({
            title: 'Requests and errors',
            left: [requests, stage.metricClientError({ period: PERIOD, statistic: 'Sum' }), serverErrors],
            width: 12,
          }),
          new GraphWidget({ title: '5xx rate (%)', left: [serverErrorRate], width: 12 }),
        ],
        [
          new GraphWidget({
            title: 'Latency (ms)',
            left: [stage.metricLatency({ period: PERIOD, statistic: 'p50' }), latencyP99, stage.metricIntegrationLatency({ period: PERIOD, statistic: 'p99' })],
            width: 12,
          }),
          new GraphWidget({
            title: 'Function throttles',
            left: [
              new MathExpression({ expression: Object.keys(allThrottles).join(' + ') || '0', usingMetrics: allThrottles, label: 'Throttles', period: PERIOD }),
            ],
            width: 12,
          }),
        ],
        [
          new GraphWidget({
            title: 'DynamoDB consumed capacity',
            left: [table.metricConsumedReadCapacityUnits({ period: PERIOD }), table.metricConsumedWriteCapacityUnits({ period: PERIOD })],
            width: 12,
          }),
          new GraphWidget({ title: 'DynamoDB throttle events', left: [tableThrottles], width: 12 }),
        ],
        ...(queues.length || streamFunction
          ? [
              [
                new GraphWidget({
                  title: 'Webhooks: messages waiting',
                  left: queues.map(({ queue }) => queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' })),
                  width: 12,
                }),
                new GraphWidget({
                  title: 'Webhooks: stream lag (ms)',
                  left: streamFunction ? [streamFunction.metric('IteratorAge', { period: PERIOD, statistic: 'Maximum' })] : [],
                  width: 12,
                }),
              ],
            ]
          : []),
      ],
    });
  }
}
