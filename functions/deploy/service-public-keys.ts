// Custom::ServicePublicKeys (infra/service-public-keys.ts): at deploy time, reads the public halves
// of the service's KMS keys — the signing key first, then the retired ones — and gives them to the
// stack as the attribute `Keys`, which every function gets as SERVICE_PUBLIC_KEYS
// (lib/auth/service-public-keys.ts). Delete has nothing to undo.
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { kmsClient, publicKeyOf } from '#lib/auth/service-key-kms.ts';
import { encodePublicKeys } from '#lib/auth/service-public-keys.ts';
import { answerCustomResource } from '#lib/custom-resource.ts';

/** The resource's physical id: one per stack, kept across updates (an update changes its `Keys` only). */
const PHYSICAL_ID = 'service-public-keys';

export const handler = (event: CloudFormationCustomResourceEvent): Promise<void> =>
  answerCustomResource(event, async ({ RequestType, ResourceProperties }) => {
    if (RequestType === 'Delete') return { physicalResourceId: PHYSICAL_ID };
    const keyIds: unknown = ResourceProperties.KeyIds;
    if (!Array.isArray(keyIds) || keyIds.length === 0 || !keyIds.every((id) => typeof id === 'string' && id !== '')) {
      throw new Error('KeyIds must be a non-empty list of KMS key ids');
    }
    const kms = kmsClient();
    const keys = await Promise.all(keyIds.map((keyId: string) => publicKeyOf(kms, keyId)));
    return { physicalResourceId: PHYSICAL_ID, data: { Keys: encodePublicKeys(keys) } };
  });
