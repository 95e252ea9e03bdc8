import { saveBlob } from '../../components/saveBlob';

/** Offers `text` as a file download (a download link is not a fetch, so the CSP does not stop it). */
export function downloadText(fileName: string, text: string, type: string) {
  // A byte-order mark lets Excel open UTF-8 CSV with the right characters.
  const body = type.startsWith('text/csv') ? `\uFEFF${text}` : text;
  saveBlob(new Blob([body], { type }), fileName);
}
