/**
 * The contacts domain's public face: what other domains, the engine's adapters, the runner and the HTTP
 * layer may import from it (ESLint refuses their imports of any other file here). Re-exports only; the
 * code lives in the files named.
 */
export { resolveContact, resolveContacts } from './resolution';
export { appendSignature, signatureFor, type SignatureBody } from './signature-of';
export { suggestFromAddressBook } from './suggest';
export { normaliseAddress, normaliseDomain, normaliseValue } from './normalise';
export { contactLayers, precedence, type ContactLayer, type Resolved, type Sources } from './resolve';
// The export download (server/http/contacts-export-route.ts): its query, its prose, the stream.
export { openContactsExport } from './import-export/export';
export { contactsExportQuery } from './import-export/schemas';
export { importExportDocs } from './import-export/docs';
