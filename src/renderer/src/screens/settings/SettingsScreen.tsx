/** The Settings screen (being built). */
export function SettingsScreen() {
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        Settings
      </h1>
    </section>
  );
}
