/** Money is integer cents inside and dollars at the edge. */
export const centsOf = (dollars: number) => Math.round(dollars * 100);
export const dollarsOf = (cents: number) => cents / 100;
