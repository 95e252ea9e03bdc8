import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Invoice, InvoiceOrderDetail } from '../../src/shared/billing';
import {
  SUMMARY_CSV_FIELDS,
  actionColumnsOf,
  orderDetailsCsv,
  summaryCsv,
} from '../../src/renderer/src/screens/billing/billingCsv';
import {
  BILLED_WORK_RULE,
  metricLabel,
} from '../../src/renderer/src/screens/billing/billingFormat';
import {
  fetchAllOrderDetails,
  progressText,
  type ExportProgress,
} from '../../src/renderer/src/screens/billing/exportDetails';

const invoice: Invoice = {
  brands: [
    {
      brand_id: 'b1',
      brand_name: 'Summit Outdoor',
      line_items: [
        { metric: 'Orders', count: 8, price_dollars: 10, unit_price_dollars: 1.25 },
        { metric: 'Units', count: 1300, price_dollars: 65, unit_price_dollars: 0.05 },
      ],
      action_items: [
        {
          type: 'Carton Workflow',
          metric: 'Pack',
          count: 16,
          price_dollars: 1.6,
          unit_price_dollars: 0.1,
        },
      ],
      total_price_dollars: 76.6,
    },
    {
      brand_id: 'b2',
      brand_name: '=Bramble, "& Co"',
      line_items: [],
      action_items: [],
      total_price_dollars: 0,
    },
  ],
  total_price_dollars: 76.6,
};

const allRows = (text: string) => Papa.parse<string[]>(text.trim(), { newline: '\r\n' }).data;
/** The table under the first line (the billed-work rule, checked here every time). */
const parse = (text: string) => {
  const rows = allRows(text);
  expect(rows[0]).toEqual([BILLED_WORK_RULE]);
  return rows.slice(1);
};

describe('billing CSV exports', () => {
  it('state on their first line which orders the bill counts', () => {
    for (const text of [summaryCsv(invoice), orderDetailsCsv([])]) {
      expect(text.split('\r\n')[0]).toBe(
        '"Billed work: orders packed or shipped in the dates chosen; with no dates, every order packed or shipped so far. Orders never packed (Open, or Picking before their first Complete packing) and cancelled orders are not billed."',
      );
    }
  });
});

describe('billing summary CSV', () => {
  it('has a header, one line per metric and action, a total per brand and the total', () => {
    const text = summaryCsv(invoice);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.startsWith('\uFEFF')).toBe(false); // the download adds the BOM
    expect(parse(text)).toEqual([
      SUMMARY_CSV_FIELDS,
      ['Summit Outdoor', 'Metric', '', 'Orders', '8', '1.25', '10.00'],
      ['Summit Outdoor', 'Metric', '', 'Units', '1300', '0.05', '65.00'],
      ['Summit Outdoor', 'Action', 'Carton Workflow', 'Pack', '16', '0.10', '1.60'],
      ['Summit Outdoor', 'Brand total', '', '', '', '', '76.60'],
      ['\'=Bramble, "& Co"', 'Brand total', '', '', '', '', '0.00'],
      ['All brands', 'Total', '', '', '', '', '76.60'],
    ]);
  });

  it('quotes commas and quotes, and escapes values a spreadsheet would run', () => {
    expect(summaryCsv(invoice)).toContain('"\'=Bramble, ""& Co"""');
  });

  it('writes amounts as plain numbers with cents, without float noise', () => {
    const noisy: Invoice = {
      brands: [],
      total_price_dollars: 0.1 + 0.2,
    };
    expect(parse(summaryCsv(noisy)).at(-1)).toEqual([
      'All brands',
      'Total',
      '',
      '',
      '',
      '',
      '0.30',
    ]);
  });
});

const detail = (id: string, patch: Partial<InvoiceOrderDetail> = {}): InvoiceOrderDetail => ({
  order_id: id,
  picksheet_code: `PS-${id}`,
  retailer: 'Peak Sports',
  brand: 'Summit Outdoor',
  core: {
    pallets: 1,
    cartons: 2,
    units: 30,
    skus: 3,
    labels_generated: 4,
    pallet_label_qr_printed: 0,
    pallet_label_gs1_printed: 1,
    pallet_label_placard_printed: 0,
    carton_label_gs1_printed: 2,
    carton_label_qr_printed: 0,
    carton_label_parcel_printed: 0,
    vas_actions: 5,
    packing_slips: 1,
  },
  carton_actions: {},
  pallet_actions: {},
  vas_actions: {},
  ...patch,
});

describe('order details CSV', () => {
  it('lists every count and one column per priced action, blank where the brand has no price', () => {
    const items = [
      detail('1', { carton_actions: { Pack: 2 }, vas_actions: { Ticketing: 0 } }),
      detail('2', { brand: 'Bramble & Co', pallet_actions: { 'Stretch Wrap': 1 } }),
    ];
    const rows = parse(orderDetailsCsv(items));
    expect(rows[0]).toEqual([
      'Order ID',
      'Picksheet code',
      'Brand',
      'Retailer',
      'Pallets',
      'Cartons',
      'Units',
      'SKUs',
      'Labels Generated',
      'Pallet Label Printed - QR Code',
      'Pallet Label Printed - GS1 Label',
      'Pallet Label Printed - Placard',
      'Carton Label Printed - GS1 Label',
      'Carton Label Printed - QR Code',
      'Carton Label Printed - Parcel Label',
      'Value-added services',
      'Packing Slips',
      'Carton Workflow: Pack',
      'Pallet Workflow: Stretch Wrap',
      'Value-added services: Ticketing',
    ]);
    expect(rows[1]).toEqual([
      '1',
      'PS-1',
      'Summit Outdoor',
      'Peak Sports',
      '1',
      '2',
      '30',
      '3',
      '4',
      '0',
      '1',
      '0',
      '2',
      '0',
      '0',
      '5',
      '1',
      '2',
      '',
      '0',
    ]);
    expect(rows[2]?.slice(-3)).toEqual(['', '1', '']);
  });

  it('sorts action columns by group, then name', () => {
    expect(
      actionColumnsOf([
        detail('1', { vas_actions: { Kitting: 1 }, carton_actions: { Tape: 1, Pack: 1 } }),
      ]).map((column) => column.label),
    ).toEqual(['Carton Workflow: Pack', 'Carton Workflow: Tape', 'Value-added services: Kitting']);
  });

  it('is just the header when nothing matches', () => {
    expect(parse(orderDetailsCsv([]))).toHaveLength(1);
  });
});

describe('exporting every page', () => {
  const pages = (total: number, size: number) => async (page: number) => {
    const from = (page - 1) * size;
    const count = Math.max(0, Math.min(size, total - from));
    return {
      items: Array.from({ length: count }, (_, i) => detail(String(from + i + 1))),
      total_count: total,
      page,
      page_size: size,
    };
  };

  it('asks page after page until the total, reporting progress', async () => {
    const asked: number[] = [];
    const progress: ExportProgress[] = [];
    const fetchPage = pages(250, 100);
    const items = await fetchAllOrderDetails(
      (page) => {
        asked.push(page);
        return fetchPage(page);
      },
      (step) => progress.push(step),
    );
    expect(items.map((item) => item.order_id)).toEqual(
      Array.from({ length: 250 }, (_, i) => String(i + 1)),
    );
    expect(asked).toEqual([1, 2, 3]);
    expect(progress).toEqual([
      { loaded: 100, total: 250 },
      { loaded: 200, total: 250 },
      { loaded: 250, total: 250 },
    ]);
  });

  it('asks once when there is nothing, and stops at an exact last page', async () => {
    const asked: number[] = [];
    const empty = await fetchAllOrderDetails(
      (page) => {
        asked.push(page);
        return pages(0, 100)(page);
      },
      () => undefined,
    );
    expect(empty).toEqual([]);
    expect(asked).toEqual([1]);
    asked.length = 0;
    await fetchAllOrderDetails(
      (page) => {
        asked.push(page);
        return pages(200, 100)(page);
      },
      () => undefined,
    );
    expect(asked).toEqual([1, 2]);
  });

  it('stops at an empty page when orders vanish during the export', async () => {
    const asked: number[] = [];
    const items = await fetchAllOrderDetails(
      async (page) => {
        asked.push(page);
        return page === 1 ? pages(300, 100)(1) : { ...(await pages(100, 100)(page)) };
      },
      () => undefined,
    );
    expect(items).toHaveLength(100);
    expect(asked).toEqual([1, 2]);
  });

  it('passes a failure on (nothing half-downloaded)', async () => {
    await expect(
      fetchAllOrderDetails(
        (page) => (page === 2 ? Promise.reject(new Error('down')) : pages(150, 100)(page)),
        () => undefined,
      ),
    ).rejects.toThrow('down');
  });

  it('words the progress', () => {
    expect(progressText({ loaded: 200, total: 1234 }, 'en-US')).toBe(
      'Fetched 200 of 1,234 orders…',
    );
  });
});

describe('metric words', () => {
  it('say value-added services, not VAS actions; other metrics keep their names', () => {
    expect(metricLabel('VAS Actions')).toBe('Value-added services');
    expect(metricLabel('Orders')).toBe('Orders');
  });
});
