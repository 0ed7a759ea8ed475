// The cold-start baseline infra/bundle-sizes.ts measures every function against: a hello-world Middy
// handler that reads one item with the project's DynamoDB document client (lib/store/client.ts), the
// way the handlers do, bundled with the same options. Never deployed.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import middy from '@middy/core';
import { db, tableName } from '#lib/store/client.ts';

export const handler = middy(async () => {
  const { Item } = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: 'hello', sk: 'world' }, ConsistentRead: true }));
  return { statusCode: 200, body: JSON.stringify({ hello: Item ? 'again' : 'world' }) };
});
