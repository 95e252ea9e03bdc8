import { describe, expect, it } from 'vitest';
import { parseServiceFlags, UsageError } from '../../src/server/http/config';

const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  parseServiceFlags(argv, env, { dataDir: '/tmp/x' });
const ID = 'd1000000-0000-4000-8000-000000000001';

describe('sync flags', () => {
  it('standalone by default; --role central; a workstation from flags or environment', () => {
    expect(parse([]).sync).toEqual({ role: 'standalone' });
    expect(parse(['--role', 'central']).sync).toEqual({ role: 'central' });
    // Asked for by name, standalone also wins over sync settings saved in the app.
    expect(parse(['--role', 'standalone']).sync).toEqual({ role: 'standalone', explicit: true });
    const workstation = {
      role: 'workstation',
      centralUrl: 'http://127.0.0.1:9000',
      deviceId: ID,
      deviceSecret: 's3cret-s3cret-s3cret',
    };
    expect(
      parse([
        '--central',
        'http://127.0.0.1:9000/',
        '--device-id',
        ID.toUpperCase(),
        '--device-secret',
        's3cret-s3cret-s3cret',
      ]).sync,
    ).toEqual(workstation);
    expect(
      parse([], {
        CENTRAL: 'http://127.0.0.1:9000',
        DEVICE_ID: ID,
        DEVICE_SECRET: 's3cret-s3cret-s3cret',
      }).sync,
    ).toEqual(workstation);
    expect(
      parse(['--central', 'https://central.example.com', '--device-id', ID, '--device-secret', 'x'])
        .sync,
    ).toMatchObject({
      centralUrl: 'https://central.example.com',
    });
  });

  it.each([
    [['--role', 'hub'], /--role must be central, workstation or standalone/],
    [
      ['--role', 'central', '--central', 'http://127.0.0.1:1'],
      /--role central cannot be used with --central/,
    ],
    [['--role', 'workstation'], /--role workstation needs --central URL/],
    [['--central', 'http://127.0.0.1:1'], /--central needs --device-id and --device-secret/],
    [
      ['--central', 'http://127.0.0.1:1', '--device-id', 'reno-1', '--device-secret', 'x'],
      /--device-id must be the device ID the central service gave this workstation/,
    ],
    [
      ['--central', 'not a url', '--device-id', ID, '--device-secret', 'x'],
      /--central must be a URL/,
    ],
    // Password hashes come down from the central: plain HTTP only on loopback.
    [
      ['--central', 'http://central.example.com', '--device-id', ID, '--device-secret', 'x'],
      /--central must be an https:\/\/ URL/,
    ],
    [
      [
        '--central',
        'http://127.0.0.1:1',
        '--device-id',
        ID,
        '--device-secret',
        'x',
        '--seed',
        'demo',
      ],
      /--seed cannot be used with --central/,
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parse(argv)).toThrow(UsageError);
    expect(() => parse(argv)).toThrow(message);
  });
});
