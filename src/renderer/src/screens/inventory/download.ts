/** Offers `text` as a file download (a download link is not a fetch, so the CSP does not stop it). */
export function downloadText(fileName: string, text: string, type: string) {
  // A byte-order mark lets Excel open UTF-8 CSV with the right characters.
  const body = type.startsWith('text/csv') ? `\uFEFF${text}` : text;
  const url = URL.createObjectURL(new Blob([body], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
