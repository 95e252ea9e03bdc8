/** Stands in for the inventory screen until it is built. */
export function InventoryPlaceholder() {
  return (
    <section aria-labelledby="inventory-heading">
      <h1 id="inventory-heading" tabIndex={-1}>
        Inventory
      </h1>
      <p>The inventory upload screen is not available yet.</p>
    </section>
  );
}
