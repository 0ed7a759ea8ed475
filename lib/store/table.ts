// The single table's shape and name, once: the local launcher creates it from this and the CDK stack
// declares it from this. Keys are generic strings; lib/store/keys.ts says what goes in them.
import { config } from '../config.ts';

/** The configured table's name (TABLE_NAME). */
export const tableName = () => config.tableName;

export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes the item some time after (readers must still check expiry). */
  ttlAttribute: 'ttl',
  /** Every committed item change, with both images: webhook events are derived from it (lib/domain/events.ts). */
  stream: 'NEW_AND_OLD_IMAGES',
  globalIndexes: [
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  ],
} as const;

/** A CreateTable input for DynamoDB Local (on-demand, same keys and indexes as the stack). */
export function createTableInput(tableName: string) {
  const attrs = new Set<string>([TABLE.partitionKey, TABLE.sortKey]);
  for (const g of TABLE.globalIndexes) attrs.add(g.partitionKey).add(g.sortKey);
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [...attrs].map((AttributeName) => ({ AttributeName, AttributeType: 'S' as const })),
    KeySchema: [
      { AttributeName: TABLE.partitionKey, KeyType: 'HASH' as const },
      { AttributeName: TABLE.sortKey, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: TABLE.globalIndexes.map((g) => ({
      IndexName: g.name,
      KeySchema: [
        { AttributeName: g.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: g.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: TABLE.stream },
  };
}
