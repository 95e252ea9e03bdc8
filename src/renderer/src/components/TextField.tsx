import type { HTMLInputTypeAttribute } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface TextFieldProps {
  id: string;
  label: string;
  registration: UseFormRegisterReturn;
  type?: HTMLInputTypeAttribute;
  autoComplete?: string;
  autoFocus?: boolean;
  /** The longest text the service accepts here (take it from the shared schema). */
  maxLength?: number;
  /** Validation message; when set the input is marked invalid and described by it. */
  error?: string;
}

/** A labelled input with its validation message announced and tied to it. */
export function TextField({
  id,
  label,
  registration,
  type = 'text',
  autoComplete,
  autoFocus,
  maxLength,
  error,
}: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        maxLength={maxLength}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...registration}
      />
      {error ? (
        <p id={errorId} className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
