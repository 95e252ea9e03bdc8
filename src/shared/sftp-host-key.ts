import { z } from 'zod';

/**
 * The SHA-256 fingerprint of an SFTP server's host key: OpenSSH's `SHA256:<base64>` (what
 * `ssh-keygen -lf` prints; the prefix and `=` padding are optional) or 64 hex digits (colons
 * between bytes allowed). Outbound transports and inbound directories both require one: the
 * service never talks to an unverified server.
 */
export const HOST_KEY_SHA256_PATTERN =
  /^(?:(?:SHA256:)?[A-Za-z0-9+/]{43}=?|[0-9a-fA-F]{64}|[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){31})$/;

export const hostKeySha256Schema = z
  .string({
    error: (issue) =>
      issue.input === undefined
        ? 'required: the SHA-256 fingerprint of the server host key (SHA256:… from ssh-keygen -lf)'
        : 'must be a string',
  })
  .trim()
  .regex(
    HOST_KEY_SHA256_PATTERN,
    'must be the SHA-256 fingerprint of the server host key, e.g. SHA256:… from ssh-keygen -lf',
  );
