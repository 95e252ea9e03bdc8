/** SSCC-18 (GS1 AI 00) arithmetic, shared by the service (making and checking SSCCs) and the UI (reading scans). */

/** GS1 mod-10: from the right, weights 3, 1, 3, …; the digit that makes the sum a multiple of 10. */
export function gs1CheckDigit(digits: string): number {
  if (!/^\d+$/.test(digits)) throw new Error('gs1CheckDigit: digits only');
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    sum += digit * (i % 2 === 0 ? 3 : 1);
  }
  return (10 - (sum % 10)) % 10;
}

/** 18 digits whose last is the GS1 check digit of the first 17. */
export function isValidSscc(sscc: string): boolean {
  return /^\d{18}$/.test(sscc) && gs1CheckDigit(sscc.slice(0, 17)) === Number(sscc[17]);
}
