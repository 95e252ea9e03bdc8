import type { ComponentProps, ReactNode } from 'react';

/** Why the whole form was not saved, announced at once. */
export function FormError({ message }: { message: string | null }) {
  return message ? (
    <p className="form-error" role="alert">
      {message}
    </p>
  ) : null;
}

/** What was saved, announced politely. */
export function SavedStatus({ message }: { message: string | null }) {
  return message ? (
    <p className="status-ok" role="status">
      {message}
    </p>
  ) : null;
}

/** The id of a field's message, and the marks that tie an invalid control to it. */
export function invalidProps(id: string, error: string | undefined) {
  return {
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  };
}

/** A labelled form control (spread `invalidProps` on it) with its message under it. */
export function FormField({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The common case of FormField: a labelled input tied to its message. The other props (with a
 * react-hook-form `register(...)`, whose ref React 19 passes as a prop) go to the input.
 */
export function InputField({
  id,
  label,
  error,
  ...input
}: { id: string; label: string; error: string | undefined } & ComponentProps<'input'>) {
  return (
    <FormField id={id} label={label} error={error}>
      <input id={id} {...invalidProps(id, error)} {...input} />
    </FormField>
  );
}
