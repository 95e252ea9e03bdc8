/** The Chargebacks screen (being built). */
export function ChargebacksScreen() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        Chargebacks
      </h1>
    </section>
  );
}
