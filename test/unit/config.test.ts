import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseServiceFlags, UsageError, USAGE } from '../../src/server/http/config';
import {
  createHostGuard,
  hostNameOf,
  isLoopbackAddress,
  isLoopbackHost,
} from '../../src/server/http/host-guard';

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

  it('reads HOST, PORT, DATA_DIR, SEED and ALLOWED_HOST from the environment', () => {
    const options = parse([], {
      HOST: '0.0.0.0',
      PORT: '9000',
      DATA_DIR: '/tmp/somewhere',
      SEED: 'demo',
      ALLOWED_HOST: 'warehouse-pc',
    });
    expect(options).toMatchObject({
      host: '0.0.0.0',
      allowedHosts: ['warehouse-pc'],
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

const LOOPBACK_PEERS = ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '::FFFF:127.0.0.5'];
const REMOTE_PEERS = [
  '192.168.1.20',
  '10.0.0.7',
  'fd00::2',
  '::ffff:192.168.1.20',
  '::ffff:128.0.0.1',
  '0.0.0.0',
  '1.127.0.0',
  undefined,
];

describe('isLoopbackAddress / isLoopbackHost', () => {
  it.each(LOOPBACK_PEERS)('peer %j is loopback', (peer) => {
    expect(isLoopbackAddress(peer)).toBe(true);
  });
  it.each(REMOTE_PEERS)('peer %j is not loopback', (peer) => {
    expect(isLoopbackAddress(peer)).toBe(false);
  });
  it('localhost, 127.x and ::1 are loopback hosts; others are not', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '::1'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '::', '192.168.1.5', 'warehouse-pc', 'localhost.evil'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

describe('createHostGuard: peer x Host header', () => {
  const LOOPBACK_HOSTS = [
    'localhost',
    'localhost:8787',
    'LocalHost:8787',
    '127.0.0.1',
    '127.0.0.1:8787',
    '127.1.2.3',
    '[::1]:8787',
    '[::ffff:127.0.0.1]:8787',
  ];
  const FOREIGN_HOSTS = [
    undefined,
    '',
    'evil.example',
    '127.evil.com',
    '127.0.0.1.evil.com',
    '1270.0.0.1',
    '127.0.0',
    'localhost.evil.com',
    '192.168.1.6',
    '0.0.0.0',
    'warehouse-pc.evil.com',
  ];
  const guard = createHostGuard(['warehouse-pc', '192.168.1.5']);

  for (const peer of LOOPBACK_PEERS) {
    it.each(LOOPBACK_HOSTS)(`loopback peer ${peer}, Host %j -> allowed`, (host) => {
      expect(guard(host, peer)).toBe(true);
    });
  }
  for (const peer of REMOTE_PEERS) {
    it.each(LOOPBACK_HOSTS)(`remote peer ${String(peer)}, Host %j -> refused`, (host) => {
      expect(guard(host, peer)).toBe(false);
    });
  }
  for (const peer of [...LOOPBACK_PEERS, ...REMOTE_PEERS.filter(Boolean)]) {
    it.each(['warehouse-pc', 'WAREHOUSE-PC:8787', '192.168.1.5:8787'])(
      `peer ${peer}, allowed Host %j -> allowed`,
      (host) => {
        expect(guard(host, peer)).toBe(true);
      },
    );
    it.each(FOREIGN_HOSTS)(`peer ${peer}, foreign Host %j -> refused`, (host) => {
      expect(guard(host, peer)).toBe(false);
    });
  }

  it('without allowed hosts, only loopback peers using loopback names get through', () => {
    const loopbackOnly = createHostGuard();
    expect(loopbackOnly('localhost:8787', '127.0.0.1')).toBe(true);
    expect(loopbackOnly('localhost:8787', '192.168.1.20')).toBe(false);
    expect(loopbackOnly('0.0.0.0:8787', '127.0.0.1')).toBe(false);
    expect(loopbackOnly('[::]:8787', '::1')).toBe(false);
  });

  it('allowed names given with brackets or a port are matched by name', () => {
    const allowed = createHostGuard(['[fd00::2]']);
    expect(allowed('[fd00::2]:8787', 'fd00::9')).toBe(true);
  });
});

describe('parseServiceFlags: --allowed-host and exposure', () => {
  it('loopback binds need no allowed host', () => {
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1'])
      expect(parse(['--host', host]).allowedHosts, host).toEqual([]);
  });

  it.each(['0.0.0.0', '::', '192.168.1.5', 'warehouse-pc.lan'])(
    'a non-loopback bind (%s) without --allowed-host is refused, naming the flag',
    (host) => {
      const message = usageErrorOf(['--host', host]).message;
      expect(message).toContain(`--host ${host} is reachable from the network`);
      expect(message).toContain('--allowed-host NAME');
    },
  );

  it('HOST=0.0.0.0 from the environment is refused the same way', () => {
    expect(usageErrorOf([], { HOST: '0.0.0.0' }).message).toContain('--allowed-host');
  });

  it('--allowed-host is repeatable, lower-cased, deduplicated, brackets dropped', () => {
    const options = parse([
      '--host',
      '0.0.0.0',
      '--allowed-host',
      'Warehouse-PC.lan',
      '--allowed-host=192.168.1.5',
      '--allowed-host',
      'warehouse-pc.LAN',
      '--allowed-host',
      '[FD00::2]',
    ]);
    expect(options.allowedHosts).toEqual(['warehouse-pc.lan', '192.168.1.5', 'fd00::2']);
  });

  it('ALLOWED_HOST is comma-separated; flags win over it', () => {
    expect(parse([], { HOST: '0.0.0.0', ALLOWED_HOST: 'a.lan, b.lan,,' }).allowedHosts).toEqual([
      'a.lan',
      'b.lan',
    ]);
    expect(
      parse(['--allowed-host', 'c.lan'], { HOST: '0.0.0.0', ALLOWED_HOST: 'a.lan' }).allowedHosts,
    ).toEqual(['c.lan']);
  });

  it.each(['localhost', '127.0.0.1', '::1', '[::1]'])(
    'a loopback name (%s) cannot be an allowed host',
    (name) => {
      const message = usageErrorOf(['--host', '0.0.0.0', '--allowed-host', name]).message;
      expect(message).toContain('loopback');
    },
  );

  it.each(['host:8787', 'http://host', 'a b', '*', '0.0.0.0', '::', '-bad.lan', 'a..lan', 'x/y'])(
    'a malformed allowed host (%j) is refused',
    (name) => {
      const message = usageErrorOf(['--host', '0.0.0.0', `--allowed-host=${name}`]).message;
      expect(message).toContain('--allowed-host must be a host name or IP address');
    },
  );
});

describe('--database-url and --pool-size', () => {
  const url = 'postgres://app@db.example:5432/central';

  it('default to SQLite in the data dir', () => {
    expect(parse([])).toMatchObject({ databaseUrl: null, poolSize: 10 });
  });

  it('take a postgres:// URL and a pool size, from flags or DATABASE_URL and POOL_SIZE', () => {
    expect(parse(['--database-url', url, '--pool-size', '25'])).toMatchObject({
      databaseUrl: url,
      poolSize: 25,
    });
    expect(parse([], { DATABASE_URL: url, POOL_SIZE: '4' })).toMatchObject({
      databaseUrl: url,
      poolSize: 4,
    });
    expect(parse(['--database-url', 'postgresql://app@h/db']).databaseUrl).toBe(
      'postgresql://app@h/db',
    );
  });

  it('refuse another scheme without echoing the URL, which may hold a password', () => {
    const error = usageErrorOf(['--database-url', 'mysql://u:hunter2pw@h/db']);
    expect(error.message).toMatch(/^--database-url must be a postgres:\/\/ URL/);
    expect(error.message).not.toContain('hunter2pw');
    expect(usageErrorOf(['--database-url', 'not a url']).message).toMatch(/postgres:\/\//);
  });

  it('refuse a pool size that is not 1 to 500, and one without a database URL', () => {
    for (const size of ['0', '501', '2.5', 'ten', '']) {
      expect(usageErrorOf(['--database-url', url, '--pool-size', size]).message).toContain(
        `--pool-size must be a whole number from 1 to 500, got '${size}'`,
      );
    }
    expect(usageErrorOf(['--pool-size', '5']).message).toMatch(/^--pool-size needs --database-url/);
  });

  it('take --role central, and refuse a workstation, which keeps its data in SQLite', () => {
    expect(
      parseServiceFlags(['--database-url', url, '--role', 'central'], {}, { dataDir: 'd' }),
    ).toMatchObject({
      databaseUrl: url,
      sync: { role: 'central' },
    });
    const workstation = [
      '--central',
      'https://central.example',
      '--device-id',
      '7d4a3a52-4a5e-4d0e-9a51-0d6d6f1f4c11',
      '--device-secret',
      's',
    ];
    expect(usageErrorOf(['--database-url', url, ...workstation]).message).toMatch(
      /^--central cannot be used with --database-url/,
    );
  });

  it('are in the usage text', () => {
    expect(USAGE).toContain('--database-url postgres://');
    expect(USAGE).toContain('DATABASE_URL, POOL_SIZE');
  });
});
