/** The packing screen's one-key commands, shown on their buttons and in the key list. */
export const PACKING_KEYS = {
  closeCarton: 'F2',
  newPallet: 'F3',
  printLabel: 'F4',
  // Not F5: it reloads the page in a browser, and a clerk may still want that.
  packingSlip: 'F6',
  complianceReport: 'F7',
  allLabels: 'F8',
} as const;
export type PackingCommand = keyof typeof PACKING_KEYS;

/** The command a key press stands for (modifier keys held: none, so Ctrl+F4 etc. stay the OS's). */
export function commandOfKey(event: {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): PackingCommand | null {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return null;
  const entry = Object.entries(PACKING_KEYS).find(([, key]) => key === event.key);
  return entry ? (entry[0] as PackingCommand) : null;
}
