import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { tokenRequestSchema } from '../../../shared/auth';
import { describeError } from '../api/ApiError';
import { TextField } from '../components/TextField';
import { useAuth } from './AuthContext';

export function SignInScreen() {
  const { signIn, notice } = useAuth();
  const [serverError, setServerError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm({
    resolver: zodResolver(tokenRequestSchema),
    defaultValues: { email: '', password: '' },
  });

  const onSubmit = handleSubmit(async (credentials) => {
    setServerError(null);
    try {
      await signIn(credentials);
    } catch (error) {
      setServerError(describeError(error));
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
            registration={register('password')}
            error={errors.password?.message}
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
