/** UID lists as IMAP sequence sets ("1:5,7,9:12"), in slices so no command line grows unbounded. */

export function packUids(uids: readonly number[]): string {
  const sorted = [...new Set(uids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let index = 0; index < sorted.length; ) {
    const start = sorted[index]!;
    let end = start;
    while (index + 1 < sorted.length && sorted[index + 1] === end + 1) {
      index += 1;
      end = sorted[index]!;
    }
    parts.push(start === end ? String(start) : `${start}:${end}`);
    index += 1;
  }
  return parts.join(',');
}

/** Consecutive slices of at most `size` UIDs (ascending). */
export function uidSlices(uids: readonly number[], size: number): number[][] {
  const sorted = [...new Set(uids)].sort((a, b) => a - b);
  const slices: number[][] = [];
  for (let index = 0; index < sorted.length; index += size) slices.push(sorted.slice(index, index + size));
  return slices;
}

/** Slices of at most `size` UIDs from the highest down (each ascending): the newest slice is a full one. */
export function uidSlicesFromNewest(uids: readonly number[], size: number): number[][] {
  const sorted = [...new Set(uids)].sort((a, b) => a - b);
  const slices: number[][] = [];
  for (let end = sorted.length; end > 0; end -= size) slices.push(sorted.slice(Math.max(0, end - size), end));
  return slices;
}
