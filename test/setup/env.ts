import { inject } from 'vitest';

process.env.DYNAMODB_ENDPOINT = inject('dynamodbEndpoint');
process.env.TABLE_NAME = inject('tableName');
process.env.SERVICE_KEY_FILE = inject('serviceKeyFile');
process.env.LOG_LEVEL ??= 'silent';
// Tests make many requests per second with one token; the rate-limit tests set their own limit.
process.env.RATE_LIMIT_PER_SECOND ??= '0';
// Every test registers clients from the one loopback address; the registration test sets its own limit.
process.env.REGISTRATION_LIMIT_PER_HOUR ??= '0';
