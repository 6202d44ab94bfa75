/**
 * Every plain route of the service (routes that are not JSON procedures). Adding a route here is all
 * it takes: the web server, the pipeline and the OpenAPI document all read this list.
 */
import { openApiDocumentOf } from '../../openapi/document';
import { referenceAssetRoute, referencePageRoute } from '../api-reference/reference-routes';
import { approvalLinkDecideRoute, approvalLinkPageRoute } from '../approval-link-routes';
import { attachmentDownloadRoute, attachmentUploadRoute } from '../attachment-routes';
import { healthzRoute, readyzRoute } from '../health-routes';
import { oauthCallbackRoute } from '../oauth-callback-route';
import { openApiRoute } from '../openapi-route';
import { tableExportRoute } from '../table-export-route';
import { contactsCsvExportRoute, contactsVcardExportRoute } from '../contacts-export-route';
import { webhookRoute } from '../webhook-route';
import type { PlainRoute } from './plain-route';
import { createPlainRouter } from './plain-router';

export const plainRoutes: readonly PlainRoute[] = [
  tableExportRoute,
  contactsVcardExportRoute,
  contactsCsvExportRoute,
  openApiRoute((lang) => openApiDocument(lang)),
  referencePageRoute,
  referenceAssetRoute,
  healthzRoute,
  readyzRoute,
  oauthCallbackRoute,
  attachmentDownloadRoute,
  attachmentUploadRoute,
  webhookRoute,
  approvalLinkPageRoute,
  approvalLinkDecideRoute,
];

/** The service's OpenAPI document in each language: the procedures and the plain routes above. */
export const openApiDocument = openApiDocumentOf(() => plainRoutes);

export const plainRouter = createPlainRouter(plainRoutes);
