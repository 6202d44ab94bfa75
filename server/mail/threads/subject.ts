/**
 * Subjects as a fallback thread key: reply and forward prefixes (in the languages mail clients write
 * them) and list tags removed, whitespace collapsed, lower-cased. Generic subjects ("hello", "test",
 * none at all) never group anything: too many unrelated conversations share them.
 */

/** Longest subject looked at; a key is at most this long. */
const maxKeyChars = 300;

// One prefix: a word from the list, an optional counter ("Re[2]", "Re(2)"), a colon (ASCII or
// full-width). Matched at the start only, one at a time, so the pattern stays linear.
const prefix = /^(?:re|fw|fwd|aw|wg|sv|vs|tr|rif|r|réf|ref|antw|odp|enc|res|rv|fs|vb|ynt|转发|回复|答复)\s*(?:\[\d{1,3}\]|\(\d{1,3}\))?\s*[:：]\s*/iu;
// A list tag: "[dev-list] ".
const listTag = /^\[[^\]\r\n]{1,64}\]\s*/u;
const replyPrefix = /^(?:re|aw|sv|vs|rif|r|antw|odp|res|rv|ynt|回复|答复)\s*(?:\[\d{1,3}\]|\(\d{1,3}\))?\s*[:：]/iu;
const forwardPrefix = /^(?:fw|fwd|wg|tr|enc|fs|vb|转发)\s*[:：]/iu;

const generic = new Set([
  'no subject',
  '(no subject)',
  'untitled',
  'hi',
  'hello',
  'hey',
  'test',
  'thanks',
  'thank you',
  'question',
  'fyi',
  'info',
  'update',
  'sans objet',
  '(sans objet)',
  'bonjour',
  'salut',
  'merci',
]);

/** The subject without prefixes and tags, whitespace collapsed (case kept). */
export function baseSubject(subject: string | null | undefined): string {
  let text = (subject ?? '').slice(0, maxKeyChars * 2).replace(/\s+/g, ' ').trim();
  // Bounded rounds: "Re: Fwd: [list] Re: x" peels one layer per round.
  for (let round = 0; round < 20; round += 1) {
    const next = text.replace(prefix, '').replace(listTag, '').trim();
    if (next === text) break;
    text = next;
  }
  return text.slice(0, maxKeyChars);
}

/** The grouping key of a subject, or null when it must not group (empty, generic, too short). */
export function subjectKey(subject: string | null | undefined): string | null {
  const key = baseSubject(subject).toLowerCase();
  if (key.length < 3 || generic.has(key)) return null;
  return key;
}

/** Whether the subject says it answers or forwards an earlier message. */
export function hasReplyPrefix(subject: string | null | undefined): boolean {
  let text = (subject ?? '').slice(0, 200).trim();
  for (let round = 0; round < 5; round += 1) {
    if (replyPrefix.test(text) || forwardPrefix.test(text)) return true;
    const next = text.replace(listTag, '').trim();
    if (next === text) return false;
    text = next;
  }
  return false;
}
