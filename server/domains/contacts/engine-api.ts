/**
 * What the engine's capability adapters may use of the address book (server/engine-adapters: the
 * `contacts` capability, the mail trigger's data, the signatures of mail.draft / mail.send).
 * Re-exports only; the code lives in the files named.
 */
export { resolveContact } from './resolution';
export { appendSignature, signatureFor, type SignatureBody } from './signature-of';
