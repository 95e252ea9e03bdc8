import { useState, type FormEvent } from 'react';
import { MOVABLE_STATUSES, type OrderDetails } from '../../../../shared/orders';
import { describeError } from '../../api/ApiError';
import { useFacilities } from '../../api/lookupQueries';
import { useAnnounce } from '../../status/StatusContext';
import { useBrandWorksAt, useChangeFacility, useRetailerConnectedAt } from './orderQueries';

/**
 * Moves the order to another facility the user sees, where the brand works and the order's retailer
 * is connected to it (endpoint 6 refuses any other).
 */
export function ChangeFacilityPanel({ order }: { order: OrderDetails }) {
  const ids = order.identifiers;
  const facilities = useFacilities();
  const visible = facilities.data ?? [];
  const others = visible.filter((facility) => facility.id !== ids.facility.id);
  const worksAt = useBrandWorksAt(
    others.map((facility) => facility.id),
    ids.brand.brand_id,
  );
  const connected = useRetailerConnectedAt(
    worksAt.facilityIds,
    ids.brand.brand_id,
    ids.retailer.retailer_id,
  );
  const destinations = others
    .filter((facility) => connected.facilityIds.includes(facility.id))
    .sort((a, b) => a.name.localeCompare(b.name));
  const move = useChangeFacility();
  const announce = useAnnounce();
  const [destination, setDestination] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const movable = MOVABLE_STATUSES.includes(order.status);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = destinations.find((facility) => facility.id === destination);
    if (!target) return;
    setDone(null);
    move.mutate(
      {
        picksheet_code: ids.picksheet_code,
        brand_id: ids.brand.brand_id,
        retailer_id: ids.retailer.retailer_id,
        facility_id: target.id,
      },
      {
        onSuccess: () => {
          const text = `Moved to ${target.name}.`;
          setDone(text);
          setDestination('');
          announce(text);
        },
      },
    );
  };

  const loading = facilities.isPending || worksAt.loading || connected.loading;
  return (
    <section className="panel" aria-labelledby="order-move">
      <h2 id="order-move">Facility</h2>
      <p>
        Ships from <strong>{ids.facility.name}</strong>.
      </p>
      {done ? <p role="status">{done}</p> : null}
      {!movable ? (
        <p className="hint">
          A {order.status.toLowerCase()} order stays where it is: only open orders and orders being
          picked can move.
        </p>
      ) : loading ? (
        <p role="status">Loading the facilities it can move to…</p>
      ) : facilities.isError || worksAt.failed ? (
        <p role="alert">
          Could not load facilities: {describeError(facilities.error ?? worksAt.failed)}
        </p>
      ) : destinations.length === 0 ? (
        <p className="hint">
          {worksAt.facilityIds.length === 0
            ? `${ids.brand.name} works at no other facility you can see, so the order cannot move.`
            : `${ids.retailer.name} is not connected to ${ids.brand.name} at any other facility you can see, so the order cannot move.`}
        </p>
      ) : (
        <form className="inline-form" onSubmit={submit}>
          <div className="field">
            <label htmlFor="order-move-destination">Move to facility</label>
            <select
              id="order-move-destination"
              value={destination}
              onChange={(event) => setDestination(event.target.value)}
              aria-describedby="order-move-hint"
            >
              <option value="">Choose a facility</option>
              {destinations.map((facility) => (
                <option key={facility.id} value={facility.id}>
                  {facility.name} ({facility.external_facility_code})
                </option>
              ))}
            </select>
            <p id="order-move-hint" className="hint">
              Facilities where {ids.brand.name} works.
            </p>
          </div>
          <button
            type="submit"
            className="button"
            aria-disabled={!destination || move.isPending || undefined}
            disabled={move.isPending}
            onClick={(event) => {
              if (!destination) event.preventDefault();
            }}
          >
            {move.isPending ? 'Moving…' : 'Move order'}
          </button>
          {move.isError ? (
            <p className="field-error" role="alert">
              Could not move the order: {describeError(move.error)}
            </p>
          ) : null}
        </form>
      )}
    </section>
  );
}
