// The public halves of the service's KMS keys, read at deploy time: a custom resource backed by its
// own function (functions/deploy/service-public-keys.ts) calls GetPublicKey on the signing key and
// on every retired one, and its attribute `Keys` becomes every function's SERVICE_PUBLIC_KEYS
// (lib/auth/service-public-keys.ts). So the functions that only verify tokens hold no kms:
// permission and make no KMS call at cold start. Not AwsCustomResource: it flattens an SDK answer's
// fields into attributes, which leaves no intact binary PublicKey.
import { CustomResource, Duration } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IKey } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { serviceFunction } from './service-function.ts';
import type { Settings } from './settings.ts';

const SERVICE_PUBLIC_KEYS_HANDLER = 'functions/deploy/service-public-keys.ts';

export class ServicePublicKeys extends Construct {
  /** The encoded public keys (a deploy-time token). */
  readonly value: string;

  constructor(scope: Construct, id: string, props: { settings: Settings; serviceKey: IKey }) {
    super(scope, id);
    const { settings, serviceKey } = props;
    const { fn, role } = serviceFunction(this, 'Reader', {
      settings,
      handler: SERVICE_PUBLIC_KEYS_HANDLER,
      description: 'Reads the token keys’ public halves for the stack (Custom::ServicePublicKeys)',
      purpose: 'Custom::ServicePublicKeys: KMS GetPublicKey at deploy time',
      timeout: Duration.seconds(30),
      environment: { LOG_LEVEL: settings.logLevel },
    });
    serviceKey.grant(role, 'kms:GetPublicKey');
    if (settings.retiredServiceKeyArns.length > 0) {
      role.addToPrincipalPolicy(new PolicyStatement({ actions: ['kms:GetPublicKey'], resources: settings.retiredServiceKeyArns }));
    }
    const keys = new CustomResource(this, 'Keys', {
      serviceToken: fn.functionArn,
      resourceType: 'Custom::ServicePublicKeys',
      // A new key generation or a change of the retired list changes them, and CloudFormation reads the keys again.
      properties: { KeyIds: [serviceKey.keyArn, ...settings.retiredServiceKeyArns] },
    });
    this.value = keys.getAttString('Keys');
  }
}
