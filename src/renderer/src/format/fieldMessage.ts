/**
 * A schema message shown next to its field, as a sentence: `is required` reads
 * `This field is required`, `must be a whole number` reads `Must be a whole number`.
 */
export function fieldMessage(message: string): string {
  if (/^is\b/.test(message)) return `This field ${message}`;
  return message.charAt(0).toUpperCase() + message.slice(1);
}
