import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/**
 * What the proxy does with traffic, switchable at any time with `setMode`:
 * - `'pass'`: forwards bytes both ways; a FIN or a reset on one side reaches the other.
 * - `'drop'`: a cut network. New connections are accepted and reset at once; switching into
 *   `'drop'` also resets every open connection (keep-alive sockets included).
 * - `{ delay: ms }`: forwards, each chunk (and each FIN) held for `ms` in both directions, in
 *   order. Read per chunk: chunks that arrive after switching back to `'pass'` still queue
 *   behind delayed ones.
 * - `'drop_after_commit'`: the request reaches the target; when the target's first answer byte
 *   comes back, both sockets are destroyed and nothing is forwarded (the server did the work,
 *   the client never learns). A connection is armed when request bytes pass through it in this
 *   mode, so pooled keep-alive connections opened earlier are caught too; an armed connection
 *   drops on its next answer byte even if the mode changed in between.
 * - `{ dropAfterCommit: 'once' }`: as `'drop_after_commit'`, for exactly one answer; then the
 *   mode goes back to `'pass'` and connections armed by the same setMode call forward normally.
 */
export type ProxyMode =
  'pass' | 'drop' | { delay: number } | 'drop_after_commit' | { dropAfterCommit: 'once' };

export interface ProxyStats {
  /** Client connections accepted (including those reset in `'drop'` mode). */
  accepted: number;
  /** Connections that reached the target. */
  forwarded: number;
  /** Connections the proxy cut on purpose (drop mode, switch to drop, drop after commit). */
  dropped: number;
  /** Of `dropped`, those cut by drop-after-commit (a request the target answered). */
  droppedAfterCommit: number;
  /** Connections whose target could not be reached (the client is reset). */
  targetFailures: number;
}

export interface TcpProxy {
  /** The port the proxy listens on (127.0.0.1). */
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly mode: ProxyMode;
  /** A snapshot of the counters. */
  readonly stats: ProxyStats;
  readonly targetPort: number;
  setMode(mode: ProxyMode): void;
  /**
   * New connections go to `port` (e.g. after a service restart on a new port). Open ones keep
   * their old target: they fail on their own once it is gone.
   */
  retarget(port: number, host?: string): void;
  /** Connections currently open through the proxy. */
  openConnections(): number;
  /** Stops listening and destroys every open connection. */
  close(): Promise<void>;
}

export interface TcpProxyOptions {
  targetHost?: string;
  targetPort: number;
  mode?: ProxyMode;
}

/** A once-token: identity per `setMode({dropAfterCommit:'once'})` call, used after one drop. */
interface OnceToken {
  used: boolean;
}

interface Connection {
  client: Socket;
  target: Socket;
  toTarget: Forwarder;
  toClient: Forwarder;
  /** Set when request bytes passed in a drop-after-commit mode. */
  armed: 'always' | OnceToken | null;
}

/** One direction of a connection: writes chunks in order, each no earlier than its due time. */
class Forwarder {
  private readonly queue: { due: number; chunk: Buffer | null }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private lastDue = 0;
  private waitingForDrain = false;
  /** True once the source's FIN arrived (it may still wait in the queue). */
  ended = false;

  constructor(
    private readonly source: Socket,
    private readonly destination: Socket,
  ) {}

  /** `null` is the source's FIN. */
  push(chunk: Buffer | null, delayMs: number) {
    if (chunk === null) this.ended = true;
    const now = Date.now();
    const due = Math.max(now + delayMs, this.lastDue);
    this.lastDue = due;
    if (this.queue.length === 0 && due <= now) {
      this.write(chunk);
      return;
    }
    this.queue.push({ due, chunk });
    this.schedule();
  }

  cancel() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.queue.length = 0;
  }

  private schedule() {
    const next = this.queue[0];
    if (this.timer || !next) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.pump();
      },
      Math.max(0, next.due - Date.now()),
    );
  }

  private pump() {
    const now = Date.now();
    while (this.queue.length > 0 && this.queue[0]!.due <= now)
      this.write(this.queue.shift()!.chunk);
    this.schedule();
  }

  private write(chunk: Buffer | null) {
    if (this.destination.destroyed) return;
    if (chunk === null) {
      this.destination.end();
      return;
    }
    // Backpressure: a slow reader slows the writer, as a pipe would.
    if (!this.destination.write(chunk) && !this.waitingForDrain) {
      this.waitingForDrain = true;
      this.source.pause();
      this.destination.once('drain', () => {
        this.waitingForDrain = false;
        this.source.resume();
      });
    }
  }
}

function reset(socket: Socket) {
  if (!socket.destroyed) socket.resetAndDestroy();
}

/** A TCP proxy on 127.0.0.1 (port 0) in front of `targetHost:targetPort`, to cut the network. */
export async function startTcpProxy(options: TcpProxyOptions): Promise<TcpProxy> {
  let targetHost = options.targetHost ?? '127.0.0.1';
  let targetPort = options.targetPort;
  let mode: ProxyMode = 'pass';
  let onceToken: OnceToken | null = null;
  const stats: ProxyStats = {
    accepted: 0,
    forwarded: 0,
    dropped: 0,
    droppedAfterCommit: 0,
    targetFailures: 0,
  };
  const connections = new Set<Connection>();

  const delayMs = () => (typeof mode === 'object' && 'delay' in mode ? mode.delay : 0);

  const cut = (connection: Connection) => {
    connection.toTarget.cancel();
    connection.toClient.cancel();
    reset(connection.client);
    reset(connection.target);
    connections.delete(connection);
  };

  const onRequestBytes = (connection: Connection, chunk: Buffer) => {
    if (mode === 'drop_after_commit') connection.armed = 'always';
    else if (onceToken && !onceToken.used) connection.armed = onceToken;
    connection.toTarget.push(chunk, delayMs());
  };

  const onAnswerBytes = (connection: Connection, chunk: Buffer) => {
    const armed = connection.armed;
    if (armed === 'always' || (armed && !armed.used)) {
      if (armed !== 'always') {
        armed.used = true;
        if (onceToken === armed) setMode('pass');
      }
      stats.dropped++;
      stats.droppedAfterCommit++;
      cut(connection);
      return;
    }
    connection.armed = null;
    connection.toClient.push(chunk, delayMs());
  };

  const server = createServer({ allowHalfOpen: true }, (client) => {
    stats.accepted++;
    if (mode === 'drop') {
      stats.dropped++;
      client.on('error', () => undefined);
      reset(client);
      return;
    }
    // Half-open both ways: a client's FIN must not cut off an answer still on its way.
    const target = connect({ host: targetHost, port: targetPort, allowHalfOpen: true });
    const connection: Connection = {
      client,
      target,
      toTarget: new Forwarder(client, target),
      toClient: new Forwarder(target, client),
      armed: null,
    };
    connections.add(connection);
    let reached = false;
    target.once('connect', () => {
      reached = true;
      stats.forwarded++;
    });
    client.on('data', (chunk: Buffer) => onRequestBytes(connection, chunk));
    target.on('data', (chunk: Buffer) => onAnswerBytes(connection, chunk));
    client.on('end', () => connection.toTarget.push(null, delayMs()));
    target.on('end', () => connection.toClient.push(null, delayMs()));
    client.on('error', () => undefined);
    target.on('error', () => {
      if (!reached) stats.targetFailures++;
    });
    // A side that closed before both FINs were seen (error, reset) resets the other side; after
    // both FINs the other side closes by itself once its queued bytes are written.
    const onClose = () => {
      if (connection.toTarget.ended && connection.toClient.ended) connections.delete(connection);
      else cut(connection);
    };
    client.on('close', onClose);
    target.on('close', onClose);
  });

  function setMode(next: ProxyMode) {
    mode = typeof next === 'object' ? { ...next } : next;
    onceToken = typeof next === 'object' && 'dropAfterCommit' in next ? { used: false } : null;
    if (mode === 'drop') {
      for (const connection of [...connections]) {
        stats.dropped++;
        cut(connection);
      }
    }
  }
  if (options.mode) setMode(options.mode);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return mode;
    },
    get stats() {
      return { ...stats };
    },
    get targetPort() {
      return targetPort;
    },
    setMode,
    retarget(nextPort: number, host?: string) {
      targetPort = nextPort;
      if (host) targetHost = host;
    },
    openConnections: () => connections.size,
    close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of [...connections]) cut(connection);
      return closed;
    },
  };
}
