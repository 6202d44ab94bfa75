/**
 * A provider folder's sync state in the mirror's `delta_token` column: a version prefix and
 * URL-encoded fields (`g1:h=123&ip=...`). Decoding is forgiving: a token that is not ours, a field
 * with an unexpected shape or a value past its bound is dropped, so a damaged cursor costs a re-read
 * (the sink never duplicates), never a crash. Pure.
 */

export type FieldKind = 'text' | 'digits' | 'int' | 'flag';

/** Longest text field kept (Graph delta links are long URLs). */
const maxTextLength = 4096;

export type DecodedFields<Spec extends Record<string, FieldKind>> = {
  [Name in keyof Spec]?: Spec[Name] extends 'int' ? number : Spec[Name] extends 'flag' ? true : string;
};

export function encodeFields(prefix: string, fields: Record<string, string | number | boolean | null | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined || value === null || value === false) continue;
    params.set(name, value === true ? '1' : String(value));
  }
  return `${prefix}${params.toString()}`;
}

/** No control characters (a token is printed into URLs and logs). */
function isPrintable(value: string): boolean {
  for (let index = 0; index < value.length; index += 1) if (value.charCodeAt(index) < 0x20 || value.charCodeAt(index) === 0x7f) return false;
  return true;
}

export function decodeFields<Spec extends Record<string, FieldKind>>(prefix: string, token: string | null | undefined, spec: Spec): DecodedFields<Spec> {
  const decoded: Record<string, string | number | true> = {};
  if (typeof token !== 'string' || !token.startsWith(prefix) || token.length > 4 * maxTextLength) return decoded as DecodedFields<Spec>;
  const params = new URLSearchParams(token.slice(prefix.length));
  for (const [name, kind] of Object.entries(spec)) {
    const value = params.get(name);
    if (value === null) continue;
    if (kind === 'flag') {
      if (value === '1') decoded[name] = true;
    } else if (kind === 'digits') {
      if (/^\d{1,30}$/.test(value)) decoded[name] = value;
    } else if (kind === 'int') {
      if (/^-?\d{1,16}$/.test(value) && Number.isSafeInteger(Number(value))) decoded[name] = Number(value);
    } else if (value.length > 0 && value.length <= maxTextLength && isPrintable(value)) {
      decoded[name] = value;
    }
  }
  return decoded as DecodedFields<Spec>;
}
