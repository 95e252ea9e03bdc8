import { Link, useParams, useRouterState } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import {
  FINAL_STATUSES,
  ORDER_DATE_FIELDS,
  type OrderDateField,
  type OrderDetails,
  type Pallet,
} from '../../../../shared/orders';
import { localDay } from '../../../../shared/inventory';
import { shipByDate, shipByStatus } from '../../../../shared/ship-by';
import { loadStateOf } from '../../api/queries';
import { BolPanel } from './BolPanel';
import { ChangeFacilityPanel } from './ChangeFacilityPanel';
import { timelineOf } from './orderFormat';
import { formatDate, formatShortTime, formatTime } from '../../format/time';
import { OrderNotShown, isOrderNotFound } from './OrderNotShown';
import { RetailerDocumentsPanel } from './RetailerDocumentsPanel';
import { useOrder } from './orderQueries';
import { SHIP_BY_MEANING, ShipByDay } from './ShipBy';

const NONE = '—';

const DATE_LABELS: Record<OrderDateField, string> = {
  requested_ship_date: 'Requested ship',
  earliest_ship_date: 'Earliest ship',
  latest_ship_date: 'Latest ship',
  stage_by: 'Stage by',
  cancel_by_date: 'Cancel by',
  requested_delivery_date: 'Requested delivery',
  earliest_delivery_date: 'Earliest delivery',
  latest_delivery_date: 'Latest delivery',
};

function Facts({ facts }: { facts: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {facts.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value === null || value === undefined || value === '' ? NONE : value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Identifiers({ order }: { order: OrderDetails }) {
  const ids = order.identifiers;
  return (
    <section className="panel" aria-labelledby="order-identifiers">
      <h2 id="order-identifiers">Identifiers</h2>
      <Facts
        facts={[
          ['Picksheet code', <code key="p">{ids.picksheet_code}</code>],
          ['PO number', ids.po_number],
          ['External order id', ids.external_order_id],
          [
            'Brand',
            `${ids.brand.name}${ids.brand.external_brand_code ? ` (${ids.brand.external_brand_code})` : ''}`,
          ],
          ['Retailer', ids.retailer.name],
          ['Facility', `${ids.facility.name} (${ids.facility.external_facility_code})`],
          ['Department', ids.dept_number],
          ['PO type', ids.purchase_order_type],
          ['Transportation', ids.transportation_method],
          ['Carrier', ids.carrier],
          ['Bill of lading number', ids.bill_of_lading_number],
          ['PRO number', ids.pro_number],
          ['Carrier alpha code', ids.carrier_alpha_code],
          ['Load number', ids.external_load_number],
          [
            'Scheduled delivery',
            order.scheduled_delivery_date ? formatTime(order.scheduled_delivery_date) : null,
          ],
        ]}
      />
    </section>
  );
}

function Timeline({ order }: { order: OrderDetails }) {
  const steps = timelineOf(order);
  return (
    <section className="panel" aria-labelledby="order-timeline">
      <h2 id="order-timeline">Status: {order.status}</h2>
      <ol className="timeline">
        {steps.map((step) => (
          <li
            key={step.label}
            className={step.at ? 'done' : 'pending'}
            aria-current={step.status === order.status ? 'step' : undefined}
          >
            <span className="timeline-label">{step.label}</span>{' '}
            <span className="timeline-time">{step.at ? formatShortTime(step.at) : 'not yet'}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Dates({ order }: { order: OrderDetails }) {
  const shipBy = shipByDate(order.dates);
  const from = order.dates.latest_ship_date ? 'latest ship date' : 'requested ship date';
  return (
    <section className="panel" aria-labelledby="order-dates">
      <h2 id="order-dates">Dates</h2>
      <Facts
        facts={[
          [
            'Ship by',
            shipBy ? (
              <>
                <ShipByDay
                  day={shipBy}
                  status={shipByStatus(shipBy, order.status, localDay(new Date()))}
                />{' '}
                <span className="hint">(the {from})</span>
              </>
            ) : null,
          ],
          ...ORDER_DATE_FIELDS.map((field): [string, ReactNode] => [
            DATE_LABELS[field],
            formatDate(order.dates[field] ?? null),
          ]),
        ]}
      />
      <p className="hint">{SHIP_BY_MEANING}</p>
    </section>
  );
}

type Contact = Record<string, string | null | undefined> | null;

function addressLines(contact: Contact): string[] {
  if (!contact) return [];
  const place = [contact.city, contact.province ?? contact.state, contact.zip]
    .filter(Boolean)
    .join(', ');
  return [
    contact.name,
    contact.address_line1,
    contact.address_line2,
    place,
    contact.country,
  ].filter((line): line is string => !!line);
}

function Address({ title, contact, extra }: { title: string; contact: Contact; extra: string[] }) {
  const lines = addressLines(contact);
  return (
    <div className="card">
      <h3>{title}</h3>
      {lines.length === 0 ? (
        <p className="hint">Not given.</p>
      ) : (
        <address>
          {lines.map((line) => (
            <span key={line} className="address-line">
              {line}
            </span>
          ))}
          {extra
            .filter((line) => !line.endsWith(': '))
            .map((line) => (
              <span key={line} className="address-line hint">
                {line}
              </span>
            ))}
        </address>
      )}
    </div>
  );
}

function Addresses({ order }: { order: OrderDetails }) {
  const {
    ship_to_contact: shipTo,
    bill_to_contact: billTo,
    mark_for_contact: markFor,
  } = order.address_data;
  return (
    <section className="panel" aria-labelledby="order-addresses">
      <h2 id="order-addresses">Addresses</h2>
      <div className="cards">
        <Address
          title="Ship to"
          contact={shipTo}
          extra={[
            `DC number: ${shipTo?.dc_number ?? ''}`,
            `Facility code: ${shipTo?.facility_code ?? ''}`,
          ]}
        />
        <Address
          title="Bill to"
          contact={billTo}
          extra={[
            `E-mail: ${billTo?.email ?? ''}`,
            `Address number: ${billTo?.address_number ?? ''}`,
          ]}
        />
        <Address
          title="Mark for"
          contact={markFor}
          extra={[`Address number: ${markFor?.address_number ?? ''}`]}
        />
      </div>
    </section>
  );
}

function Items({ order }: { order: OrderDetails }) {
  const units = order.items.reduce((sum, item) => sum + item.quantity, 0);
  return (
    <section className="panel" aria-labelledby="order-items">
      <h2 id="order-items">Items</h2>
      <div className="table-scroll">
        <table className="data-table">
          <caption>
            {order.items.length} {order.items.length === 1 ? 'line' : 'lines'}, {units} units
          </caption>
          <thead>
            <tr>
              <th scope="col">SKU</th>
              <th scope="col">UPC</th>
              <th scope="col">Quantity</th>
              <th scope="col">Case pack</th>
              <th scope="col">Case barcode</th>
              <th scope="col">Vendor part</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {order.items.map((item) => (
              <tr key={item.sku}>
                <td>
                  <code>{item.sku}</code>
                </td>
                <td>{item.upc ?? NONE}</td>
                <td>{item.quantity}</td>
                <td>{item.case_pack_quantity ?? NONE}</td>
                <td>{item.case_barcode ? <code>{item.case_barcode}</code> : NONE}</td>
                <td>{item.vendor_pn ?? NONE}</td>
                <td>{item.description ?? NONE}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function PalletCard({ pallet, index }: { pallet: Pallet; index: number }) {
  return (
    <li className="pallet">
      <h3>
        Pallet {index + 1} {pallet.sscc ? <code>{pallet.sscc}</code> : null}{' '}
        <span className="badge">{pallet.status}</span>
      </h3>
      <p className="hint">
        {pallet.cartonQuantity} {pallet.cartonQuantity === 1 ? 'carton' : 'cartons'}
        {pallet.staged_at ? `, staged ${formatTime(pallet.staged_at)}` : ''}
        {pallet.weight !== null ? `, ${pallet.weight} ${pallet.weight_unit ?? ''}` : ''}
      </p>
      <ul className="cartons">
        {pallet.cartons.map((carton) => (
          <li key={carton.id}>
            Carton {carton.sscc ? <code>{carton.sscc}</code> : null}
            {carton.parcel_tracking_number
              ? `, tracking ${carton.parcel_tracking_number}`
              : ''}:{' '}
            {carton.skus
              .map(
                (sku) =>
                  `${sku.quantity} × ${sku.sku}${sku.serial_numbers.length > 0 ? ` (serials ${sku.serial_numbers.join(', ')})` : ''}`,
              )
              .join('; ') || 'empty'}
          </li>
        ))}
      </ul>
    </li>
  );
}

function Pallets({ order }: { order: OrderDetails }) {
  if (order.pallets.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="order-pallets">
      <h2 id="order-pallets">Pallets and cartons</h2>
      <ol className="pallets">
        {order.pallets.map((pallet, index) => (
          <PalletCard key={pallet.id} pallet={pallet} index={index} />
        ))}
      </ol>
    </section>
  );
}

/** One order: identifiers, status timeline, dates, addresses, items, pallets and its BOL. */
export function OrderPage() {
  const { orderId } = useParams({ from: '/orders/$orderId' });
  const query = useOrder(orderId);
  const state = loadStateOf(query);
  const notFound = isOrderNotFound(query.error);
  const order = state.status === 'ready' ? state.data : null;
  // "Order saved." after the form, in view: the live region said it already, so no role here.
  const doneNote = useRouterState({ select: (router) => router.location.state.doneNote });

  // One heading element whatever the state: the shell focuses it when the page opens, and a
  // heading that replaced it once the order arrived would drop keyboard users to the page top.
  return (
    <section className="order-page" aria-labelledby="order-heading">
      <p className="breadcrumb">
        <Link to="/orders">Orders</Link>
      </p>
      <div className="screen-header">
        <h1 id="order-heading" tabIndex={-1}>
          {order ? (
            <>
              Order {order.identifiers.picksheet_code} <span className="badge">{order.status}</span>
            </>
          ) : notFound ? (
            'Order not found'
          ) : (
            'Order'
          )}
        </h1>
        {order && !FINAL_STATUSES.includes(order.status) ? (
          <div className="action-bar">
            <Link to="/orders/$orderId/pack" params={{ orderId }} className="button primary">
              Pack
            </Link>
            <Link to="/orders/$orderId/edit" params={{ orderId }} className="button">
              Edit order
            </Link>
          </div>
        ) : order ? (
          <p className="hint">A {order.status.toLowerCase()} order can no longer be changed.</p>
        ) : null}
      </div>
      {order && doneNote ? <p className="status-ok">{doneNote}</p> : null}
      {order ? (
        <>
          <Identifiers order={order} />
          <Timeline order={order} />
          <Items order={order} />
          <Dates order={order} />
          <Addresses order={order} />
          <Pallets order={order} />
          <BolPanel order={order} />
          <ChangeFacilityPanel order={order} />
          <RetailerDocumentsPanel orderId={orderId} orderStatus={order.status} />
        </>
      ) : (
        <OrderNotShown
          error={state.status === 'error' ? state.message : null}
          notFound={notFound}
          onRetry={() => void query.refetch()}
        />
      )}
    </section>
  );
}
