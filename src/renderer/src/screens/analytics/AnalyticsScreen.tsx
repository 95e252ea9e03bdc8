/** The Analytics screen (being built). */
export function AnalyticsScreen() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        Analytics
      </h1>
    </section>
  );
}
