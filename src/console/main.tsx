/** Entry of the console: sign-in first (tokens in memory), then the app. */
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { bootstrapAuth } from './auth/bootstrap.ts';
import { i18nReady } from './i18n/index.ts';

const root = createRoot(document.getElementById('root') as HTMLElement);

Promise.all([bootstrapAuth(), i18nReady]).then(([boot]) => {
  root.render(
    <StrictMode>
      <App boot={boot} />
    </StrictMode>,
  );
});
