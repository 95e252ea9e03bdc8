/** The Billing screen (being built). */
export function BillingScreen() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        Billing
      </h1>
    </section>
  );
}
