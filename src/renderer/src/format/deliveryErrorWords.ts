import type { ClerkMessage } from './clerkMessage';

/**
 * Why a file or document did not reach the retailer, in a clerk's words. The service stores the
 * transport's reason (`ECONNREFUSED: connect …`, `503: …`, `ENOENT: remote directory …`, or
 * node's own `connect ECONNREFUSED …`), which stays behind "Details"; the clerk reads who has to
 * act: nobody (the screen's schedule says when it is tried again), or an administrator (the
 * connection or its folder). One wording for inventory advices (a "file") and order documents
 * (a "document"), whatever the transport.
 */
export function deliveryErrorWords(
  error: string,
  thing: 'file' | 'document' = 'document',
): ClerkMessage {
  const said = (text: string) => ({ text, detail: error });
  if (/^Cannot build the document/.test(error)) {
    return said(
      'The document for this retailer could not be built from these rows. Ask an administrator; the details say why.',
    );
  }
  // A partner's answer first: its body may name any code ("503: upstream ECONNRESET").
  const status = /^(\d{3})\b/.exec(error)?.[1];
  if (status) {
    const code = Number(status);
    if (code === 401 || code === 403) {
      return said(
        `The retailer’s system refused our credentials (HTTP ${code}). Ask an administrator to check the connection.`,
      );
    }
    if (code === 408 || code === 429 || code >= 500) {
      return said(`The retailer’s system is busy or down (HTTP ${code}).`);
    }
    return said(`The retailer’s system refused the ${thing} (HTTP ${code}).`);
  }
  if (/\bEHOSTKEY\b/.test(error) && !/does not match/.test(error)) {
    return said(
      'The connection has no valid host key fingerprint for the retailer’s server, so nothing was sent. Ask an administrator to check the connection.',
    );
  }
  if (/host key/i.test(error)) {
    return said(
      'The retailer’s server did not prove who it is (its host key does not match), so nothing was sent. Ask an administrator.',
    );
  }
  if (/\bEAUTH\b|refused the login/i.test(error)) {
    return said(
      'The retailer’s server refused our login. Ask an administrator to check the connection.',
    );
  }
  if (
    /\b(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EHOSTUNREACH|EHOSTDOWN|ENETUNREACH|ENETDOWN|ENOTFOUND|EAI_AGAIN|EPIPE|ENOTCONN)\b|\btimed? ?out\b/i.test(
      error,
    )
  ) {
    return said('The retailer’s system could not be reached.');
  }
  if (/^(ENOENT|ENOTDIR|EEXIST|EISDIR|EACCES|EPERM|EROFS|ENOSPC|EDQUOT|EIO)\b/.test(error)) {
    return said(
      /\bremote\b|Write stream|sftp/i.test(error)
        ? 'The retailer’s server has no folder for it or does not let us write there. Ask an administrator to check the connection’s folder.'
        : `The ${thing} could not be written into the connection’s folder. Ask an administrator to check the folder.`,
    );
  }
  return { text: error, detail: null };
}
