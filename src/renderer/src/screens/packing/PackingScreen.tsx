/** The Packing screen (being built). */
export function PackingScreen() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        Packing
      </h1>
    </section>
  );
}
