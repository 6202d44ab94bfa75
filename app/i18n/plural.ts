/** Count plus the right noun form. French counts 0 and 1 as singular, English only 1. */
export const pluralEn = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
export const pluralFr = (n: number, one: string, many: string) => `${n} ${n <= 1 ? one : many}`;
