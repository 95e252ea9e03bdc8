/** The POS reports screen (being built). */
export function PosScreen() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        POS reports
      </h1>
    </section>
  );
}
