/** Shared helpers of the inventory advice tests (bundle variants, requests, row counts). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { X12Parser, type X12Interchange, type X12Segment } from 'node-x12';
import { expect } from 'vitest';
import { baseBundle } from '../helpers/fixtures';
import type { TestService } from '../helpers/service';

export type Bundle = ReturnType<typeof baseBundle>;
export type Connection = Bundle['connections'][number];
export type Transport =
  | { type: 'http'; url: string; headers?: Record<string, string> }
  | {
      type: 'sftp';
      host: string;
      port: number;
      username: string;
      password: string;
      directory: string;
    }
  | { type: 'file'; directory: string };

/** A small, fast delivery policy for failure tests. */
export const FAST_POLICY = {
  attemptTimeoutMs: 300,
  totalBudgetMs: 1500,
  maxAttempts: 3,
  baseBackoffMs: 10,
  maxBackoffMs: 50,
};

export const ediSettings = (n: number) => ({
  sender_qualifier: 'ZZ',
  sender_id: `SENDER${n}`,
  receiver_qualifier: 'ZZ',
  receiver_id: `RECEIVER${n}`,
  version: '004010',
  usage_indicator: 'T',
});

/** Points an existing connection of the bundle at another transport. */
export function setTransport(bundle: Bundle, connectionId: string, transport: Transport) {
  const connection = bundle.connections.find((c) => c.id === connectionId);
  if (!connection) throw new Error(`no connection ${connectionId}`);
  (connection as { transport: Transport }).transport = transport;
}

export const http = (url: string): Transport => ({ type: 'http', url });

export function tmpDir(prefix: string): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), `inv-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export const facilityUrl = (brandId: string, facilityId: string) =>
  `/api/v1/inventory/brand/${brandId}/facility/${facilityId}`;

/** POSTs `payload` (an object, or raw JSON text) with a bearer token. */
export function post(
  svc: TestService,
  bearer: string,
  url: string,
  payload: unknown,
): Promise<LightMyRequestResponse> {
  return svc.app.inject({
    method: 'POST',
    url,
    headers: { authorization: bearer, 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

export function get(svc: TestService, bearer: string, url: string) {
  return svc.app.inject({ method: 'GET', url, headers: { authorization: bearer } });
}

/** Rows in the tables an advice writes to. */
export async function rowCounts(svc: TestService) {
  const count = async (table: 'advice_snapshots' | 'advice_deliveries' | 'transactions') => {
    const row = await svc.ctx.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  return {
    snapshots: await count('advice_snapshots'),
    deliveries: await count('advice_deliveries'),
    transactions: await count('transactions'),
  };
}

export async function controlCounters(svc: TestService) {
  return svc.ctx.db
    .selectFrom('connections')
    .select(['id', 'interchange_counter', 'group_counter'])
    .orderBy('id')
    .execute();
}

export interface ErrorBody {
  message: string;
  error: { code: string; details?: unknown; errors?: unknown };
}

/** A 400 INVALID_REQUEST with exactly `{message, error:{code, <extra>}}`. */
export function expect400(response: LightMyRequestResponse, message: string, extra: string) {
  expect(response.statusCode, response.body).toBe(400);
  const body = response.json() as ErrorBody;
  expect(Object.keys(body).sort()).toEqual(['error', 'message']);
  expect(body.message).toBe(message);
  expect(Object.keys(body.error).sort()).toEqual(['code', extra]);
  expect(body.error.code).toBe('INVALID_REQUEST');
  return body;
}

export interface FieldProblem {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/** The field-problem 400: `Validation failed` with `details` a list of `{loc, msg, type}`. */
export function expectFieldProblems(response: LightMyRequestResponse): FieldProblem[] {
  const body = expect400(response, 'Validation failed', 'details');
  const details = body.error.details as FieldProblem[];
  expect(Array.isArray(details)).toBe(true);
  expect(details.length).toBeGreaterThan(0);
  for (const problem of details) {
    expect(Object.keys(problem).sort()).toEqual(['loc', 'msg', 'type']);
    expect(Array.isArray(problem.loc)).toBe(true);
    for (const part of problem.loc) expect(['string', 'number']).toContain(typeof part);
    expect(typeof problem.msg).toBe('string');
    expect(problem.msg).not.toBe('');
    expect(typeof problem.type).toBe('string');
    expect(problem.type).not.toBe('');
  }
  return details;
}

export interface RowProblem {
  row_index: number;
  field: string;
  message: string;
}

/** The row-problem 400: `Inventory advice validation failed` with `errors`. */
export function expectRowProblems(response: LightMyRequestResponse): RowProblem[] {
  const body = expect400(response, 'Inventory advice validation failed', 'errors');
  const errors = body.error.errors as RowProblem[];
  expect(Array.isArray(errors)).toBe(true);
  for (const problem of errors) {
    expect(Object.keys(problem).sort()).toEqual(['field', 'message', 'row_index']);
    expect(Number.isInteger(problem.row_index)).toBe(true);
    expect(typeof problem.message).toBe('string');
  }
  return errors;
}

/** Strict re-parse with node-x12: ISA width, SE01, GE01/GE02 and IEA01/IEA02 are checked. */
export function strictParse(text: string): X12Interchange {
  return new X12Parser(true).parse(text) as X12Interchange;
}

/** Segments split with the separators the document declares in its ISA. */
export function splitX12(text: string): string[][] {
  const element = text[3]!;
  const terminator = text[105]!;
  expect(text.endsWith(terminator)).toBe(true);
  return text
    .slice(0, -1)
    .split(terminator)
    .map((segment) => segment.split(element));
}

export function transactionSegments(text: string): X12Segment[] {
  const transaction = strictParse(text).functionalGroups[0]!.transactions[0]!;
  return [transaction.header, ...transaction.segments, transaction.trailer];
}

/** `{sku: quantity}` as the 846 carries it (LIN03 -> following QTY02). */
export function x12Quantities(text: string): Record<string, number> {
  const segments = splitX12(text);
  const out: Record<string, number> = {};
  segments.forEach((segment, i) => {
    if (segment[0] !== 'LIN') return;
    const qty = segments[i + 1]!;
    expect(qty[0]).toBe('QTY');
    out[segment[3]!] = Number(qty[2]);
  });
  return out;
}

export const isa13Of = (text: string) => splitX12(text)[0]![13]!;
export const gs06Of = (text: string) => splitX12(text).find((s) => s[0] === 'GS')![6]!;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
