/**
 * Path values of the demo workspace by parameter name, so a fuzzed route reaches its parsing and
 * rules rather than a 404. A fresh object each call: a test may add ids it looks up.
 */
export function demoPathValues(): Record<string, string | undefined> {
  return {
    order_id: '0d000000-0000-4000-8000-000000000011',
    brand_id: '0b000000-0000-4000-8000-000000000001',
    facility_id: '0f000000-0000-4000-8000-000000000001',
    retailer_id: '0e000000-0000-4000-8000-000000000001',
    connection_id: '0c000000-0000-4000-8000-000000000001',
    units: 'cartons',
  };
}

/** For a path parameter with no demo value: a demo order's id, a well-formed uuid. */
export const ANY_ID = '0d000000-0000-4000-8000-000000000011';
