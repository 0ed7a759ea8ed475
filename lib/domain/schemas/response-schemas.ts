// What the routes answer, for the OpenAPI document only: every success body, OAuth refusal body and
// webhook notification body a handler's declaration names (by name, ./responses.ts) is one of these.
// Only the OpenAPI generator (lib/http/openapi.ts) imports this module, so these schemas, and the zod
// kinds only they use, stay out of the functions: nothing at run time reads them (the contract tests
// hold every response to the document instead). Request schemas come from their own modules.
export { Application, ApplicationKey, ApplicationList, RegisteredApplication } from './applications.ts';
export { AuthorizationServerMetadata, ClientRegistrationResponse, OAuthErrorBody, OAuthTokenResponse } from './authorization.ts';
export { NoteCommentList, NoteCommentReferenceResponse } from './comment.ts';
export { ConfigurationList, ConfigurationResponse } from './configuration.ts';
export { EntityList, EntityReferenceResponse, EntityRelationshipList, EntityRelationshipResponse, EntityResponse } from './entity.ts';
export { McpResponseBody, ProtectedResourceMetadata } from './mcp.ts';
export { MemberList, MemberResponse } from './member.ts';
export { NoteList, NoteReferenceResponse, NoteRelationshipList, NoteRelationshipResponse, NoteResponse } from './note.ts';
export { OpenApiDocument } from './openapi-document.ts';
export { CustomerDemandResponse } from './demand.ts';
export { CustomerScoreResponse } from './score.ts';
export { TeamList, TeamMemberList, TeamReferenceResponse, TeamResponse } from './team.ts';
export { FieldValueList, FieldValueReferenceResponse } from './value-sets.ts';
export { OAuthError, TokenResponse } from './token.ts';
export { WebhookListResponse, WebhookNotificationBody, WebhookReferenceResponse, WebhookResponse } from './webhooks.ts';
