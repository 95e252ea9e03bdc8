import { isApiError } from '../api/ApiError';

/** A service complaint placed on one form field (`items.0.quantity`-style path). */
export interface FieldProblem {
  path: string;
  message: string;
}

/** What a rejected save shows: problems next to their fields, and the rest above the form. */
export interface SaveProblems {
  fields: FieldProblem[];
  /** Shown at the top of the form; null when every problem found its field. */
  formMessage: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `items[2].quantity`, `items -> 2 -> quantity` and `body.items.2.quantity` as `items.2.quantity`. */
export function normaliseFieldPath(text: string): string {
  return text
    .replace(/\[(\d+)\]/g, '.$1')
    .replace(/\s*->\s*/g, '.')
    .replace(/^body\./, '')
    .replace(/^\.+|\.+$/g, '');
}

/** The longest of `paths` that `text` names (so `bill_to_contact.email` beats `email`). */
function pathNamedIn(text: string, paths: readonly string[]): string | undefined {
  const normalised = normaliseFieldPath(text);
  let best: string | undefined;
  for (const path of paths) {
    const named = new RegExp(`(^|[^\\w.])${path.replace(/\./g, '\\.')}($|[^\\w])`).test(normalised);
    if (named && (best === undefined || path.length > best.length)) best = path;
  }
  return best;
}

/** The service's message without the endpoint's prefix ("Failed to create order: "). */
function withoutPrefix(message: string): string {
  const colon = message.indexOf(': ');
  return colon >= 0 ? message.slice(colon + 2) : message;
}

/** Entries of `error.details` when it is the `{loc, msg}` list the service uses for field problems. */
function locatedDetails(details: unknown): { path: string; message: string }[] | null {
  if (!Array.isArray(details)) return null;
  const found: { path: string; message: string }[] = [];
  for (const entry of details) {
    if (!isRecord(entry) || !Array.isArray(entry.loc) || typeof entry.msg !== 'string') return null;
    const loc = entry.loc.filter((part) => typeof part === 'string' || typeof part === 'number');
    found.push({ path: normaliseFieldPath(loc.join('.')), message: entry.msg });
  }
  return found;
}

/**
 * Places a rejected save's problems on the form's fields. `paths` are the form's field paths
 * (item rows included); a problem that names none of them stays a form-level message.
 */
export function saveProblemsOf(error: unknown, paths: readonly string[]): SaveProblems {
  // 400 (invalid), 409 (a taken picksheet code) and 422 can name fields; others cannot.
  if (!isApiError(error) || ![400, 409, 422].includes(error.status)) {
    return { fields: [], formMessage: isApiError(error) ? error.message : String(error) };
  }
  const body = isRecord(error.body) ? error.body : {};
  const details = isRecord(body.error) ? body.error.details : undefined;
  const fields: FieldProblem[] = [];
  const leftovers: string[] = [];

  const located = locatedDetails(details);
  if (located) {
    for (const problem of located) {
      const path = paths.includes(problem.path) ? problem.path : pathNamedIn(problem.path, paths);
      if (path) fields.push({ path, message: problem.message });
      else leftovers.push(problem.path ? `${problem.path}: ${problem.message}` : problem.message);
    }
  } else {
    // The service writes `details` as `path: problem; path: problem`; a part, or the message,
    // that names a field goes next to it. The general message ("Invalid request body") is only
    // worth showing when nothing is placed.
    const parts = typeof details === 'string' ? details.split(/;\s+/) : [];
    for (const part of [...parts, error.message]) {
      const labelled = /^([\w.[\]]+):\s*(.+)$/.exec(part);
      const named = labelled ? normaliseFieldPath(labelled[1] ?? '') : '';
      const path = paths.includes(named) ? named : pathNamedIn(part, paths);
      const message = path === named && labelled ? (labelled[2] ?? part) : withoutPrefix(part);
      if (path && !fields.some((field) => field.path === path)) {
        fields.push({ path, message });
      } else if (!path && part !== error.message) {
        leftovers.push(part);
      }
    }
  }
  const formMessage =
    leftovers.length > 0
      ? `${error.message}: ${[...new Set(leftovers)].join('; ')}`
      : fields.length > 0
        ? null
        : error.message;
  return { fields, formMessage };
}
