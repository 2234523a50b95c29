/**
 * The app (loaded by boot.ts once the sign-in is under way or done): styles, i18n with
 * the features' strings, the callback of the sign-in, then the providers and the router.
 */
// Before anything that builds a zod schema (zodConfig.ts).
import './zodConfig.ts';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { bootstrapAuth } from './auth/bootstrap.ts';
import { FEATURES } from './features/index.ts';
import { initI18n } from './i18n/index.ts';

/** `failure`: the sign-in could not start (boot.ts); the app shows why and offers to retry. */
export function startApp(failure?: unknown) {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  return Promise.all([bootstrapAuth(failure), initI18n(FEATURES)]).then(([boot]) => {
    root.render(
      <StrictMode>
        <App boot={boot} />
      </StrictMode>,
    );
  });
}
