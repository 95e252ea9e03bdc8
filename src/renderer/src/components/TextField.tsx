import type { HTMLInputTypeAttribute } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { FormField, invalidProps } from './FormMessages';

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
  return (
    <FormField id={id} label={label} error={error}>
      <input
        id={id}
        type={type}
        autoComplete={autoComplete}
        autoFocus={autoFocus}
        maxLength={maxLength}
        {...invalidProps(id, error)}
        {...registration}
      />
    </FormField>
  );
}
