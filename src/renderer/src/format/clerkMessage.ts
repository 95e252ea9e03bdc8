/** A message in a clerk's words, with the service's own text behind a "Details" toggle. */
export interface ClerkMessage {
  text: string;
  /** The original message, when it differs from `text`. */
  detail: string | null;
}
