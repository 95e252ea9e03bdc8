import type { ClerkMessage } from '../inventory/clerkMessages';

/**
 * Why an outbound order document was not sent, in a clerk's words. The service stores the
 * transport's reason (`ECONNREFUSED: connect …`, `503: …`, `ENOENT: remote directory …`), which
 * stays behind a "Details" toggle; the clerk reads who has to act: nobody (it is tried again),
 * or an administrator (the connection or its folder).
 */
export function sendErrorWords(error: string): ClerkMessage {
  const said = (text: string) => ({ text, detail: error });
  if (/^EHOSTKEY\b/.test(error) && !/does not match/.test(error)) {
    return said(
      'The connection has no valid host key fingerprint for the retailer’s server, so nothing was sent. Ask an administrator to check the connection.',
    );
  }
  if (/host key/i.test(error)) {
    return said(
      'The retailer’s server did not prove who it is (its host key does not match), so nothing was sent. Ask an administrator.',
    );
  }
  if (/^EAUTH\b|refused the login/i.test(error)) {
    return said(
      'The retailer’s server refused our login. Ask an administrator to check the connection.',
    );
  }
  if (
    /^(ECONNREFUSED|ECONNRESET|ECONNABORTED|ETIMEDOUT|EHOSTUNREACH|EHOSTDOWN|ENETUNREACH|ENETDOWN|ENOTFOUND|EAI_AGAIN|EPIPE|ENOTCONN)\b/.test(
      error,
    )
  ) {
    return said('The retailer’s system could not be reached.');
  }
  if (/^(ENOENT|ENOTDIR|EEXIST|EISDIR|EACCES|EPERM|EROFS|ENOSPC|EDQUOT|EIO):/.test(error)) {
    return said(
      /\bremote\b|Write stream|sftp/i.test(error)
        ? 'The retailer’s server has no folder for it or does not let us write there. Ask an administrator to check the connection’s folder.'
        : 'The document could not be written into the connection’s folder. Ask an administrator to check the folder.',
    );
  }
  const status = /^(\d{3}):/.exec(error)?.[1];
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
    return said(`The retailer’s system refused the document (HTTP ${code}).`);
  }
  return { text: error, detail: null };
}
