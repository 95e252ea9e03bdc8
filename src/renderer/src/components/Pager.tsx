/** Previous and next page of a list, with a line saying where the shown rows sit. */
export function Pager({
  label,
  hint,
  page,
  hasNext,
  busy,
  onPage,
}: {
  /** Names the navigation, e.g. `Pages of orders`. */
  label: string;
  hint: string;
  page: number;
  hasNext: boolean;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  return (
    <nav className="pager" aria-label={label} aria-busy={busy || undefined}>
      <p className="hint">{hint}</p>
      <button
        type="button"
        className="button"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous page
      </button>
      <button type="button" className="button" disabled={!hasNext} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

/** A pager for a list whose total the service counts: `Orders 1–25 of 27 (page 1 of 2).` */
export function CountedPager({
  label,
  noun,
  nothing,
  page,
  pageSize,
  shown,
  total,
  busy,
  onPage,
}: {
  label: string;
  /** Plural of what is listed, e.g. `Orders`. */
  noun: string;
  /** What a page without rows says before `on page n`, e.g. `No orders` or `Nothing`. */
  nothing: string;
  page: number;
  pageSize: number;
  shown: number;
  total: number;
  busy: boolean;
  onPage: (page: number) => void;
}) {
  const first = (page - 1) * pageSize + 1;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <Pager
      label={label}
      hint={
        shown > 0
          ? `${noun} ${first}–${first + shown - 1} of ${total} (page ${page} of ${pages}).`
          : `${nothing} on page ${page} (${total} in all).`
      }
      page={page}
      hasNext={page < pages}
      busy={busy}
      onPage={onPage}
    />
  );
}

/** The URL state for another page: page 1 is the absent page. */
export function withPage<S extends { page?: number }>(search: S, page: number): S {
  return { ...search, page: page > 1 ? page : undefined };
}
