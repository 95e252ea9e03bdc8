import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { tokenRequestSchema } from '../../../shared/auth';
import { describeError, isApiError } from '../api/ApiError';
import { TextField } from '../components/TextField';
import { useAuth } from './AuthContext';

export function SignInScreen() {
  const { signIn, notice } = useAuth();
  const [serverError, setServerError] = useState<string | null>(null);
  // Refused credentials are shown on the password field, the usual culprit, and focus goes there.
  const [credentialsError, setCredentialsError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(tokenRequestSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    setServerError(null);
    setCredentialsError(null);
    try {
      await signIn(credentials);
    } catch (error) {
      if (isApiError(error) && error.code === 'INVALID_CREDENTIALS') {
        setCredentialsError(describeError(error));
      } else {
        setServerError(describeError(error));
      }
      // The button is disabled while signing in, which drops focus to the page: give it back
      // to the field to fix (or to retype the password after a network failure).
      setFocus('password', { shouldSelect: true });
    }
  });

  return (
    <main className="sign-in">
      <div className="sign-in-card">
        <p className="product-name">Fulfillment Integration</p>
        <h1>Sign in</h1>
        {notice ? (
          <p className="notice" role="status">
            {notice}
          </p>
        ) : null}
        <form onSubmit={onSubmit} noValidate aria-label="Sign in">
          <TextField
            id="sign-in-email"
            label="Email"
            type="email"
            autoComplete="username"
            autoFocus
            registration={register('email')}
            error={errors.email?.message}
          />
          <TextField
            id="sign-in-password"
            label="Password"
            type="password"
            autoComplete="current-password"
            registration={register('password', { onChange: () => setCredentialsError(null) })}
            error={errors.password?.message ?? credentialsError ?? undefined}
          />
          {serverError ? (
            <p className="form-error" role="alert">
              {serverError}
            </p>
          ) : null}
          <button type="submit" className="button primary" disabled={isSubmitting}>
            {isSubmitting ? 'Signing in…' : 'Sign in'}
          </button>
        </form>
      </div>
    </main>
  );
}
