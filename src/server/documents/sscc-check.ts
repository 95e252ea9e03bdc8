import { gs1CheckDigit } from '../../shared/sscc';

/** SSCC-18 (GS1 AI 00): extension digit, company prefix and serial (17 digits), then a check digit. */
const SSCC_PATTERN = /^\d{18}$/;

// The fulfilment steps make SSCCs with this check digit; the documents check them with the same.
export { gs1CheckDigit };

/** Why an SSCC is not valid, or null when it is (18 digits, check digit right). */
export function ssccProblem(sscc: string | null | undefined): string | null {
  if (sscc === null || sscc === undefined || sscc === '') return 'no SSCC';
  if (!SSCC_PATTERN.test(sscc)) return `SSCC ${sscc} is not 18 digits`;
  const expected = gs1CheckDigit(sscc.slice(0, 17));
  if (Number(sscc[17]) !== expected) {
    return `SSCC ${sscc} has check digit ${sscc[17]}, expected ${expected}`;
  }
  return null;
}

/** The human-readable line under a GS1-128 barcode: `(00) 006141410000000012`. */
export const ssccHumanReadable = (sscc: string) => `(00) ${sscc}`;
