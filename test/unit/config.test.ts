import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServiceFlags, UsageError, USAGE } from '../../src/main/service/config';
import { createHostGuard, hostNameOf } from '../../src/main/service/host-guard';

const defaults = { dataDir: './data' };
const parse = (argv: string[], env: NodeJS.ProcessEnv = {}) =>
  parseServiceFlags(argv, env, defaults);

function usageErrorOf(argv: string[], env: NodeJS.ProcessEnv = {}): UsageError {
  try {
    parse(argv, env);
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe('parseServiceFlags', () => {
  it('defaults: loopback, 8787, the given data dir (absolute), no seed', () => {
    const options = parse([]);
    expect(options.host).toBe('127.0.0.1');
    expect(options.port).toBe(8787);
    expect(options.dataDir).toBe(resolve('./data'));
    expect(options.seed).toBeNull();
    expect(options.uiDir).toBeNull();
    expect(options.logger).toBe(false);
  });

  it('passes the UI dir through from the defaults', () => {
    expect(parseServiceFlags([], {}, { dataDir: 'd', uiDir: '/ui' }).uiDir).toBe('/ui');
  });

  it('reads HOST, PORT, DATA_DIR and SEED from the environment', () => {
    const options = parse([], {
      HOST: '0.0.0.0',
      PORT: '9000',
      DATA_DIR: '/tmp/somewhere',
      SEED: 'demo',
    });
    expect(options).toMatchObject({
      host: '0.0.0.0',
      port: 9000,
      dataDir: '/tmp/somewhere',
      seed: 'demo',
    });
  });

  it('ignores lower-case and unrelated environment variables', () => {
    const options = parse([], { port: '1', host: 'x', DATA: 'y', SEED_FILE: 'z' });
    expect(options).toMatchObject({ host: '127.0.0.1', port: 8787, seed: null });
  });

  it('treats empty environment variables as unset', () => {
    const options = parse([], { HOST: '', PORT: '', DATA_DIR: '', SEED: '' });
    expect(options).toMatchObject({ host: '127.0.0.1', port: 8787, seed: null });
    expect(options.dataDir).toBe(resolve('./data'));
  });

  it('flags win over environment variables', () => {
    const options = parse(
      ['--host', '::1', '--port', '0', '--data-dir', 'rel/dir', '--seed', 'bundle.json'],
      { HOST: '0.0.0.0', PORT: '9000', DATA_DIR: '/tmp/env', SEED: 'demo' },
    );
    expect(options).toMatchObject({
      host: '::1',
      port: 0,
      dataDir: resolve('rel/dir'),
      seed: 'bundle.json',
    });
  });

  it('accepts --flag=value and mixes flags with env', () => {
    const options = parse(['--port=1234', '--seed=demo'], { HOST: 'localhost' });
    expect(options).toMatchObject({ host: 'localhost', port: 1234, seed: 'demo' });
  });

  it('resolves the data dir to an absolute path', () => {
    expect(parse(['--data-dir', 'x/../y']).dataDir).toBe(resolve('y'));
  });

  it('port 0 (pick a free port) and 65535 are valid', () => {
    expect(parse(['--port', '0']).port).toBe(0);
    expect(parse(['--port', '65535']).port).toBe(65535);
  });

  it('--log-requests turns the logger on', () => {
    expect(parse(['--log-requests']).logger).toBe(true);
  });

  it.each(['abc', '-1', '65536', '99999', '1.5', '80x', '0x50', '', ' 80', '1e3'])(
    'bad port %j -> UsageError naming --port, with the usage text',
    (port) => {
      const error = usageErrorOf(['--port', port]);
      expect(error.message).toContain('--port');
      expect(error.message).toContain(USAGE);
    },
  );

  it('a bad PORT from the environment is a UsageError too', () => {
    expect(usageErrorOf([], { PORT: 'eighty' }).message).toContain("'eighty'");
  });

  it.each([
    [['--verbose']],
    [['--prot', '80']],
    [['-p', '80']],
    [['serve']],
    [['--host']],
    [['--port']],
  ])('%j -> UsageError with the usage text', (argv) => {
    expect(usageErrorOf(argv).message).toContain(USAGE);
  });
});

describe('hostNameOf', () => {
  it.each([
    ['localhost', 'localhost'],
    ['localhost:8787', 'localhost'],
    ['LocalHost:8787', 'localhost'],
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.1:80', '127.0.0.1'],
    ['[::1]', '::1'],
    ['[::1]:8787', '::1'],
    ['  localhost:1 ', 'localhost'],
    ['example.com', 'example.com'],
  ])('%j -> %j', (header, name) => {
    expect(hostNameOf(header)).toBe(name);
  });

  it.each([
    undefined,
    '',
    'a:b:c',
    '::1',
    '[::1',
    '::1]:80',
    'localhost:',
    'localhost:123456',
    'localhost:80x',
    '[evil.com]',
  ])('%j -> null', (header) => {
    expect(hostNameOf(header)).toBeNull();
  });
});

describe('createHostGuard', () => {
  it('loopback names are always allowed', () => {
    const allowed = createHostGuard('127.0.0.1');
    for (const host of [
      'localhost',
      'localhost:8787',
      '127.0.0.1:8787',
      '[::1]:8787',
      '127.1.2.3',
    ]) {
      expect(allowed(host), host).toBe(true);
    }
  });

  it('foreign names, look-alikes and missing headers are refused', () => {
    const allowed = createHostGuard('127.0.0.1');
    for (const host of [
      undefined,
      '',
      'evil.example',
      '127.evil.com',
      '127.0.0.1.evil.com',
      '1270.0.0.1',
      '127.0.0',
      'localhost.evil.com',
      '192.168.1.5',
      '0.0.0.0',
    ]) {
      expect(allowed(host), String(host)).toBe(false);
    }
  });

  it('the configured bind host is allowed, case-insensitively', () => {
    const allowed = createHostGuard('192.168.1.5');
    expect(allowed('192.168.1.5:8787')).toBe(true);
    expect(allowed('192.168.1.6:8787')).toBe(false);
    expect(createHostGuard('My-Box.lan')('my-box.LAN:8787')).toBe(true);
  });

  it('a wildcard bind host is not itself an allowed name', () => {
    expect(createHostGuard('0.0.0.0')('0.0.0.0:8787')).toBe(false);
    expect(createHostGuard('::')('[::]:8787')).toBe(false);
    expect(createHostGuard('0.0.0.0')('localhost:8787')).toBe(true);
  });

  it('extra allowed hosts are honoured, case-insensitively', () => {
    const allowed = createHostGuard('0.0.0.0', ['Warehouse-PC']);
    expect(allowed('warehouse-pc:8787')).toBe(true);
    expect(allowed('WAREHOUSE-PC')).toBe(true);
    expect(allowed('warehouse-pc.evil.com')).toBe(false);
  });
});
