import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServiceContext } from '../../src/server/core/context';

// Count signature checks: a device's token string is verified once, then only its expiry.
vi.mock('jose', async (importOriginal) => {
  const jose = await importOriginal<typeof import('jose')>();
  return { ...jose, jwtVerify: vi.fn(jose.jwtVerify) };
});
const { jwtVerify } = await import('jose');
const { deviceOfToken, openDeviceSession, DEVICE_TOKEN_SECONDS } =
  await import('../../src/server/sync/devices');
const { signAccessToken, verifyAccessToken } = await import('../../src/server/access/tokens');
const { DEVICES, startCentral, seedInto } = await import('./helpers/cluster');
type TestCentral = Awaited<ReturnType<typeof startCentral>>;

const verifications = vi.mocked(jwtVerify);
const START = Date.parse('2026-11-26T12:00:00.000Z');

describe('device tokens on the central: verified once per token string', () => {
  let central: TestCentral;
  let now = START;
  let ctx: ServiceContext;
  beforeAll(async () => {
    central = await startCentral();
    ctx = { ...central.context, clock: { now: () => new Date(now) } };
  });
  afterAll(async () => {
    await central?.close();
  });
  beforeEach(() => {
    now = START;
    verifications.mockClear();
  });

  const session = async (device: (typeof DEVICES)['w1']) =>
    (await openDeviceSession(ctx, device.id, device.secret)).token;

  it('checks the signature once, then only the expiry, to the second', async () => {
    const token = await session(DEVICES.w1);
    for (let i = 0; i < 5; i++) {
      now = START + i * 1000;
      expect((await deviceOfToken(ctx, `Bearer ${token}`)).id).toBe(DEVICES.w1.id);
    }
    expect(verifications).toHaveBeenCalledTimes(1);
    now = START + (DEVICE_TOKEN_SECONDS - 1) * 1000 + 999;
    expect((await deviceOfToken(ctx, `Bearer ${token}`)).id).toBe(DEVICES.w1.id);
    now = START + DEVICE_TOKEN_SECONDS * 1000;
    await expect(deviceOfToken(ctx, `Bearer ${token}`)).rejects.toThrow(
      'Invalid or expired device token',
    );
    now = START;
    // Forgotten once expired: its signature is checked again, and it still verifies.
    expect((await deviceOfToken(ctx, `Bearer ${token}`)).id).toBe(DEVICES.w1.id);
    expect(verifications).toHaveBeenCalledTimes(2);
  });

  it('a remembered token of a device disabled since is refused at once', async () => {
    const token = await session(DEVICES.w2);
    expect((await deviceOfToken(ctx, `Bearer ${token}`)).id).toBe(DEVICES.w2.id);
    await seedInto(central, { devices: [{ ...DEVICES.w2, disabled: true }] });
    await expect(deviceOfToken(ctx, `Bearer ${token}`)).rejects.toThrow(
      'Invalid or expired device token',
    );
  });

  it("a user's token verified as one is still no device token; a tampered token never passes", async () => {
    const seconds = Math.floor(START / 1000);
    const userToken = await signAccessToken(ctx.secret, DEVICES.w1.id, seconds);
    expect(await verifyAccessToken(ctx.secret, userToken, seconds)).toBe(DEVICES.w1.id);
    await expect(deviceOfToken(ctx, `Bearer ${userToken}`)).rejects.toThrow(
      'Invalid or expired device token',
    );
    const token = await session(DEVICES.w1);
    const tampered = `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`;
    for (let i = 0; i < 2; i++) {
      await expect(deviceOfToken(ctx, `Bearer ${tampered}`)).rejects.toThrow(
        'Invalid or expired device token',
      );
    }
  });
});
