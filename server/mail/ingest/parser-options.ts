/**
 * The options mailparser runs with at ingest (./parse-mime.ts), shared with the fast path
 * (./fast-mime.ts), which builds mailparser's header reader and mailsplit's nodes with the same ones.
 * Link detection and text-to-HTML conversion are off: the mirror stores neither.
 */
import { ingestLimits } from './limits';

export const parserOptions = {
  skipTextToHtml: true,
  skipTextLinks: true,
  skipImageLinks: true,
  // mailsplit options (MailParser hands its options to the splitter).
  maxChildNodes: ingestLimits.mimeNodes,
  maxHeadSize: ingestLimits.headBytes,
};
