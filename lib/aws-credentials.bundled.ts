// What deployed bundles load instead of ./aws-credentials.ts (infra/bundling.ts): the execution role's
// credentials as the Lambda runtime sets them in every execution environment (AWS_ACCESS_KEY_ID,
// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN), read at each signature as the SDK's environment source
// reads them.
import type { awsCredentials as chain } from './aws-credentials.ts';

export const awsCredentials: typeof chain = () => () => {
  const { AWS_ACCESS_KEY_ID: accessKeyId, AWS_SECRET_ACCESS_KEY: secretAccessKey, AWS_SESSION_TOKEN: sessionToken } = process.env;
  if (!accessKeyId || !secretAccessKey) return Promise.reject(new Error('No AWS credentials: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY are not set'));
  return Promise.resolve({ accessKeyId, secretAccessKey, ...(sessionToken ? { sessionToken } : {}) });
};
