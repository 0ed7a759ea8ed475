// The response bodies a handler's declaration names (lib/http/operation.ts): each one a name of
// ./response-schemas.ts, typed by its schema. A handler gets the schema's type for its result and the
// OpenAPI generator the schema by that name; the function itself carries neither the schema nor the
// zod kinds it uses (nothing at run time reads a response schema).
import type * as z from 'zod/mini';
import type * as SCHEMAS from './response-schemas.ts';

/** A response schema by name; `schema` is never set, it carries the schema's type. */
export interface ResponseBody<S extends z.ZodMiniType = z.ZodMiniType> {
  readonly responseSchema: keyof typeof SCHEMAS;
  readonly schema?: S;
}

/** A response body's type as a core writes it (the schema's input). */
export type BodyOf<R> = R extends ResponseBody<infer S> ? z.input<S> : never;

const named = <N extends keyof typeof SCHEMAS>(responseSchema: N): ResponseBody<(typeof SCHEMAS)[N]> => ({ responseSchema });

export const Application = named('Application');
export const ApplicationKey = named('ApplicationKey');
export const ApplicationList = named('ApplicationList');
export const AuthorizationServerMetadata = named('AuthorizationServerMetadata');
export const ClientRegistrationResponse = named('ClientRegistrationResponse');
export const ConfigurationList = named('ConfigurationList');
export const ConfigurationResponse = named('ConfigurationResponse');
export const CustomerDemandResponse = named('CustomerDemandResponse');
export const CustomerScoreResponse = named('CustomerScoreResponse');
export const EntityList = named('EntityList');
export const EntityReferenceResponse = named('EntityReferenceResponse');
export const EntityRelationshipList = named('EntityRelationshipList');
export const EntityRelationshipResponse = named('EntityRelationshipResponse');
export const EntityResponse = named('EntityResponse');
export const FieldValueList = named('FieldValueList');
export const FieldValueReferenceResponse = named('FieldValueReferenceResponse');
export const McpResponseBody = named('McpResponseBody');
export const MemberList = named('MemberList');
export const MemberResponse = named('MemberResponse');
export const NoteCommentList = named('NoteCommentList');
export const NoteCommentReferenceResponse = named('NoteCommentReferenceResponse');
export const NoteList = named('NoteList');
export const NoteReferenceResponse = named('NoteReferenceResponse');
export const NoteRelationshipList = named('NoteRelationshipList');
export const NoteRelationshipResponse = named('NoteRelationshipResponse');
export const NoteResponse = named('NoteResponse');
export const OAuthError = named('OAuthError');
export const OAuthErrorBody = named('OAuthErrorBody');
export const OAuthTokenResponse = named('OAuthTokenResponse');
export const OpenApiDocument = named('OpenApiDocument');
export const ProtectedResourceMetadata = named('ProtectedResourceMetadata');
export const RegisteredApplication = named('RegisteredApplication');
export const TeamList = named('TeamList');
export const TeamMemberList = named('TeamMemberList');
export const TeamReferenceResponse = named('TeamReferenceResponse');
export const TeamResponse = named('TeamResponse');
export const TokenResponse = named('TokenResponse');
export const WebhookListResponse = named('WebhookListResponse');
export const WebhookNotificationBody = named('WebhookNotificationBody');
export const WebhookReferenceResponse = named('WebhookReferenceResponse');
export const WebhookResponse = named('WebhookResponse');
