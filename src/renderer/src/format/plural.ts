/** `1 row`, `2 rows`; `many` for a plural that is not `one` + s. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
