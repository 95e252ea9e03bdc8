import type { RefObject } from 'react';

/**
 * First stop for keyboard users. It moves focus itself: a plain `#main` link would
 * replace the hash the router lives in.
 */
export function SkipLink({ target }: { target: RefObject<HTMLElement | null> }) {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(event) => {
        event.preventDefault();
        target.current?.focus();
      }}
    >
      Skip to content
    </a>
  );
}
