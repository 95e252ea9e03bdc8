import type { Socket } from 'node:net';
import { STATUS_CODES, type ServerResponse } from 'node:http';

interface ClientError extends Error {
  code?: string;
}

/** What a request the HTTP parser refused gets: status and the interface's error envelope. */
export function clientErrorAnswer(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'Request timed out' };
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'Request headers are too large' };
    default:
      return { status: 400, message: 'Malformed HTTP request' };
  }
}

/**
 * Fastify's `clientErrorHandler`: the request never reached Fastify (bad request line, bad header,
 * header overflow, timeout), so the raw socket is answered with the interface's envelope and
 * closed, since the parser cannot find where a next request on it would start.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  // A reset peer has gone; nothing can be sent.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (inFlight && !inFlight.writableFinished) {
    if (inFlight.req.complete) {
      // An earlier pipelined request is still being answered: answers go out in request
      // order, so this one waits until that response is written.
      inFlight.once('finish', () => writeAnswer(error, socket));
      inFlight.once('close', () => {
        if (!inFlight.writableFinished) socket.destroy();
      });
      return;
    }
    // The body of the request being answered is malformed: it gets the answer, unless its
    // response has already begun, which cannot be taken back.
    if (inFlight.headersSent) {
      socket.destroy();
      return;
    }
  }
  writeAnswer(error, socket);
}

function writeAnswer(error: ClientError, socket: Socket): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, message } = clientErrorAnswer(error.code);
  const body = JSON.stringify({ message, error: { code: 'INVALID_REQUEST' } });
  const head = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
  ].join('\r\n');
  // Destroy once flushed: the server's sockets are half-open, so end() alone could linger.
  socket.end(`${head}\r\n\r\n${body}`, () => socket.destroy());
}
