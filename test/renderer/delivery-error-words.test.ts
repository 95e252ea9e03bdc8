import { describe, expect, it } from 'vitest';
import { deliveryErrorWords } from '../../src/renderer/src/format/deliveryErrorWords';

describe('why a document or file was not delivered, in a clerk’s words', () => {
  it.each([
    [
      'ECONNREFUSED: connect ECONNREFUSED 10.0.0.9:443',
      'The retailer’s system could not be reached.',
    ],
    ['ETIMEDOUT: request timed out after 10000 ms', 'The retailer’s system could not be reached.'],
    ['ECONNRESET: other side closed', 'The retailer’s system could not be reached.'],
    ['503: down for maintenance', 'The retailer’s system is busy or down (HTTP 503).'],
    ['429: slow down', 'The retailer’s system is busy or down (HTTP 429).'],
    // A partner's answer is worded by its status, whatever code its body names.
    ['503: upstream ECONNRESET', 'The retailer’s system is busy or down (HTTP 503).'],
    ['400: EACCES on /inbox', 'The retailer’s system refused the document (HTTP 400).'],
    ['400: bad receiver id', 'The retailer’s system refused the document (HTTP 400).'],
    [
      '401: Unauthorized',
      'The retailer’s system refused our credentials (HTTP 401). Ask an administrator to check the connection.',
    ],
    [
      "ENOTDIR: not a directory, mkdir '/data/outbox/r1'",
      'The document could not be written into the connection’s folder. Ask an administrator to check the folder.',
    ],
    [
      'ENOENT: remote directory /outbound does not exist',
      'The retailer’s server has no folder for it or does not let us write there. Ask an administrator to check the connection’s folder.',
    ],
    [
      'EHOSTKEY: host key of 10.0.0.9:22 does not match host_key_sha256',
      'The retailer’s server did not prove who it is (its host key does not match), so nothing was sent. Ask an administrator.',
    ],
    [
      'EHOSTKEY: no host_key_sha256 is configured for sftp 10.0.0.9:22; refusing to connect',
      'The connection has no valid host key fingerprint for the retailer’s server, so nothing was sent. Ask an administrator to check the connection.',
    ],
  ])('%s', (error, words) => {
    expect(deliveryErrorWords(error)).toEqual({ text: words, detail: error });
  });

  it('keeps a reason that is already in words as it is', () => {
    expect(deliveryErrorWords('Not sent: the connection is disabled')).toEqual({
      text: 'Not sent: the connection is disabled',
      detail: null,
    });
  });

  // Inventory advices say "file" and carry node's own texts too; the words are the same.
  it.each([
    [
      "EEXIST: file already exists, mkdir '/data/outbox/r1'",
      'The file could not be written into the connection’s folder. Ask an administrator to check the folder.',
    ],
    ['connect ECONNREFUSED 127.0.0.1:9', 'The retailer’s system could not be reached.'],
    ['The operation timed out', 'The retailer’s system could not be reached.'],
    ['404: no such feed', 'The retailer’s system refused the file (HTTP 404).'],
    ['503: Service Unavailable', 'The retailer’s system is busy or down (HTTP 503).'],
    [
      'EAUTH: All configured authentication methods failed',
      'The retailer’s server refused our login. Ask an administrator to check the connection.',
    ],
    [
      'Cannot build the document: GS02 is longer than 15 characters',
      'The document for this retailer could not be built from these rows. Ask an administrator; the details say why.',
    ],
  ])('for an advice: %s', (error, words) => {
    expect(deliveryErrorWords(error, 'file')).toEqual({ text: words, detail: error });
  });
});
