// oidcRuntime.ts first: ES modules are evaluated in the order of their imports.
import './oidcRuntime.ts';

export { default as Provider, errors } from 'oidc-provider';
