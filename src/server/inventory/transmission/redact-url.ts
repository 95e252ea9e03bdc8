/**
 * Takes secrets out of URLs before they are logged or stored (the transaction log's
 * `request_url`, delivery error texts). Partners often put credentials in the user-info
 * (`https://user:pw@host`, or an API key as the user name) or in the query (`?api_key=…`).
 *
 * Rules: the user-info is removed whole; every query value becomes `REDACTED` (names are kept, so
 * a log still shows which parameters were sent); a fragment becomes `#REDACTED`. Everything else
 * is kept byte for byte (no normalisation), so a URL without secrets is returned unchanged.
 * Secrets in the path itself (`/hooks/T0/B0/secret`) cannot be told apart and are kept.
 */

export const REDACTED = 'REDACTED';

/** `scheme://` then the authority, which ends at the first `/`, `?`, `#` (or `\` as browsers do). */
const WITH_AUTHORITY = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#\\]*)([\s\S]*)$/i;

export function redactUrl(url: string): string {
  const match = WITH_AUTHORITY.exec(url);
  if (!match) return redactQueryAndFragment(url);
  const [, scheme, authority, rest] = match as unknown as [string, string, string, string];
  const at = authority.lastIndexOf('@');
  const host = at === -1 ? authority : authority.slice(at + 1);
  return scheme + host + redactQueryAndFragment(rest);
}

function redactQueryAndFragment(text: string): string {
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt === -1 ? text : text.slice(0, hashAt);
  const fragment = hashAt === -1 ? '' : hashAt === text.length - 1 ? '#' : `#${REDACTED}`;
  const queryAt = beforeHash.indexOf('?');
  if (queryAt === -1) return beforeHash + fragment;
  const query = beforeHash
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      // A bare `?token` may itself be the secret; only an empty part stays as it is.
      if (equals === -1) return pair === '' ? pair : REDACTED;
      return `${pair.slice(0, equals)}=${REDACTED}`;
    })
    .join('&');
  return `${beforeHash.slice(0, queryAt)}?${query}${fragment}`;
}

/** URLs written inside free text, such as an error message; ends at whitespace or quotes. */
const URL_IN_TEXT = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>`]+/gi;

/** Redacts every `scheme://…` URL found in a text (error messages can quote the URL). */
export function redactUrlsInText(text: string): string {
  return text.replace(URL_IN_TEXT, (url) => redactUrl(url));
}
