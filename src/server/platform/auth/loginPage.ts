/**
 * The HTML pages the authorization server shows itself: the sign-in form (at the
 * interaction URL), the "signing out" page, and the page for an expired sign-in link.
 * Plain server-rendered HTML with no script dependency, so the console's bundle is not
 * needed to sign in; styled to match the console (light and dark), in the console's
 * languages: the one the console asks for (`ui_locales` of the authorization request),
 * else the browser's (`Accept-Language`), else English.
 */

import { createHash } from 'node:crypto';

export type PageLanguage = 'en' | 'fr';

/**
 * The sign-in form's one script (progressive: without it the form posts as usual). It
 * posts the form with fetch and, on success, goes on with `location.replace`: the form's
 * page leaves the history with the rest of the sign-in round trip, so Back from the
 * console goes to where the user was before signing in, not to an expired form. A refusal
 * is shown in the page; anything unexpected falls back to a plain post.
 */
const FORM_SCRIPT = `(()=>{const f=document.getElementById('login-form');if(!f||!window.fetch)return;f.addEventListener('submit',async(e)=>{e.preventDefault();const b=f.querySelector('button');b.disabled=true;try{const r=await fetch(f.action,{method:'POST',credentials:'same-origin',headers:{accept:'application/json','content-type':'application/x-www-form-urlencoded'},body:new URLSearchParams(new FormData(f))});const j=await r.json();if(r.ok&&j.location){location.replace(j.location);return}if(!j.error)throw new Error();let p=document.getElementById('login-error');if(!p){p=document.createElement('p');p.className='error';p.id='login-error';p.setAttribute('role','alert');f.prepend(p)}p.textContent=j.error;for(const i of f.querySelectorAll('input')){i.setAttribute('aria-invalid','true');i.setAttribute('aria-describedby','login-error')}const w=document.getElementById('password');w.value='';w.focus();b.disabled=false}catch{f.submit()}})})();`;

const sha256 = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The Content-Security-Policy source allowing that script and no other. */
export const FORM_SCRIPT_CSP = sha256(FORM_SCRIPT);

/** The signing-out page's one script: it confirms the sign-out the console asked for. */
const LOGOUT_SCRIPT = `document.getElementById('confirm').click()`;

/**
 * Headers of the authorization server's HTML pages (docs/security.md): scripts only by
 * hash (`scriptSrc`, or none), inline styles (the page's own), no framing, no Referer.
 */
export function pageSecurityHeaders(scriptSrc = "'none'"): Record<string, string> {
  return {
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; script-src ${scriptSrc}; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  };
}
/** For the signing-out page (logoutPage). */
export const LOGOUT_PAGE_HEADERS = pageSecurityHeaders(sha256(LOGOUT_SCRIPT));

const TEXT = {
  en: {
    signIn: 'Sign in',
    sub: 'Use your Fieldwork console account.',
    login: 'Login',
    password: 'Password',
    badCredentials: 'Login or password is incorrect.',
    tooMany: (s: number) => `Too many failed sign-ins. Try again in ${s} second${s === 1 ? '' : 's'}.`,
    footer: 'Field-service management console',
    expiredTitle: 'Sign-in expired',
    expiredHeading: 'This sign-in page has expired',
    expiredSub: 'Sign-in pages are valid for a short time only. Start again from the console.',
    back: 'Back to the console',
    signingOut: 'Signing out',
    signingOutHeading: 'Signing out…',
    signingOutSub: 'Ending your session.',
    signOut: 'Sign out',
    refused: 'Sign-in refused',
    invalid: 'The request is invalid.',
  },
  fr: {
    signIn: 'Connexion',
    sub: 'Utilisez votre compte de la console Fieldwork.',
    login: 'Identifiant',
    password: 'Mot de passe',
    badCredentials: 'Identifiant ou mot de passe incorrect.',
    tooMany: (s: number) => `Trop de connexions échouées. Réessayez dans ${s} seconde${s === 1 ? '' : 's'}.`,
    footer: 'Console de gestion des interventions',
    expiredTitle: 'Connexion expirée',
    expiredHeading: 'Cette page de connexion a expiré',
    expiredSub: 'Les pages de connexion ne sont valables que peu de temps. Recommencez depuis la console.',
    back: 'Retour à la console',
    signingOut: 'Déconnexion',
    signingOutHeading: 'Déconnexion…',
    signingOutSub: 'Fin de votre session.',
    signOut: 'Se déconnecter',
    refused: 'Connexion refusée',
    invalid: 'La demande est invalide.',
  },
} as const satisfies Record<PageLanguage, Record<string, string | ((n: number) => string)>>;

/** The page's language: the first of `ui_locales` the pages speak, else of Accept-Language. */
export function pageLanguage(uiLocales: unknown, acceptLanguage: string | undefined): PageLanguage {
  const tags = [
    ...(typeof uiLocales === 'string' ? uiLocales.split(/\s+/) : []),
    ...String(acceptLanguage ?? '')
      .split(',')
      .map((part) => part.trim().split(';')[0]),
  ];
  for (const tag of tags) {
    const base = tag.toLowerCase().split('-')[0];
    if (base === 'en' || base === 'fr') return base;
  }
  return 'en';
}

const esc = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );

const STYLE = `
:root{color-scheme:light dark;--bg:#f1f3f5;--card:#fff;--text:#212529;--dim:#495057;--border:#adb5bd;--accent:#1971c2;--accent-h:#1864ab;--err-bg:#fff5f5;--err:#c92a2a}
@media (prefers-color-scheme:dark){:root{--bg:#1a1b1e;--card:#25262b;--text:#e9ecef;--dim:#a6a7ab;--border:#424448;--accent:#4dabf7;--accent-h:#74c0fc;--err-bg:#3b1f1f;--err:#ffa8a8}}
*{box-sizing:border-box}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{width:min(400px,calc(100vw - 32px))}
.brand{display:flex;align-items:center;gap:10px;justify-content:center;margin-bottom:20px;font-weight:700;font-size:20px}
.logo{width:34px;height:34px;border-radius:8px;background:var(--accent);color:#fff;display:grid;place-items:center;font-size:18px}
.card{background:var(--card);border:1px solid var(--border);border-radius:10px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:20px;margin:0 0 4px}
p.sub{margin:0 0 20px;color:var(--dim);font-size:14px}
label{display:block;font-weight:600;font-size:14px;margin:14px 0 6px}
input{width:100%;padding:9px 12px;font:inherit;color:inherit;background:transparent;border:1px solid var(--border);border-radius:6px}
input:focus{outline:2px solid var(--accent);outline-offset:1px;border-color:var(--accent)}
button,a.button{display:block;width:100%;margin-top:22px;padding:10px;border:0;border-radius:6px;background:var(--accent);color:#fff;font:inherit;font-weight:600;cursor:pointer;text-align:center;text-decoration:none}
@media (prefers-color-scheme:dark){button,a.button{color:#101113}}
button:hover,a.button:hover{background:var(--accent-h)}
button:focus-visible,a.button:focus-visible{outline:2px solid var(--text);outline-offset:2px}
.error{margin:0 0 8px;padding:10px 12px;border-radius:6px;background:var(--err-bg);color:var(--err);font-size:14px;border:1px solid currentColor}
footer{margin-top:16px;text-align:center;color:var(--dim);font-size:13px}
`;

function page(lang: PageLanguage, title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${esc(title)} · Fieldwork</title>
<style>${STYLE}</style>
${extraHead}
</head>
<body>
<main>
<div class="brand" aria-hidden="true"><span class="logo">F</span><span>Fieldwork</span></div>
${body}
</main>
</body>
</html>`;
}

export function loginPage(opts: {
  action: string;
  login?: string;
  /** The last attempt was refused. */
  failed?: boolean;
  /** Too many failed sign-ins: seconds before the next may be tried. */
  retryAfter?: number;
  lang?: PageLanguage;
}): string {
  const lang = opts.lang ?? 'en';
  const tx = TEXT[lang];
  const message =
    opts.retryAfter !== undefined ? tx.tooMany(opts.retryAfter) : opts.failed ? tx.badCredentials : undefined;
  const error = message ? `<p class="error" role="alert" id="login-error">${esc(message)}</p>` : '';
  const describedBy = message ? ' aria-describedby="login-error" aria-invalid="true"' : '';
  return page(
    lang,
    tx.signIn,
    `<div class="card">
<h1>${esc(tx.signIn)}</h1>
<p class="sub">${esc(tx.sub)}</p>
<form method="post" action="${esc(opts.action)}" id="login-form" novalidate>
${error}
<label for="login">${esc(tx.login)}</label>
<input id="login" name="login" autocomplete="username" required autocapitalize="none" spellcheck="false" value="${esc(opts.login ?? '')}"${opts.login ? '' : ' autofocus'}${describedBy}>
<label for="password">${esc(tx.password)}</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.login ? ' autofocus' : ''}${describedBy}>
<button type="submit">${esc(tx.signIn)}</button>
</form>
</div>
<footer>${esc(tx.footer)}</footer>
<script>${FORM_SCRIPT}</script>`,
  );
}

/** The refusal of a sign-in posted by the form's script (JSON instead of the page). */
export function badCredentialsJson(lang: PageLanguage = 'en') {
  return { error: TEXT[lang].badCredentials };
}

/** The same, while failed sign-ins are limited: when to try again. */
export function tooManyJson(retryAfter: number, lang: PageLanguage = 'en') {
  return { error: TEXT[lang].tooMany(retryAfter), retryAfter };
}

export function expiredPage(consoleUrl: string, lang: PageLanguage = 'en'): string {
  const tx = TEXT[lang];
  return page(
    lang,
    tx.expiredTitle,
    `<div class="card">
<h1>${esc(tx.expiredHeading)}</h1>
<p class="sub">${esc(tx.expiredSub)}</p>
<a class="button" href="${esc(consoleUrl)}">${esc(tx.back)}</a>
</div>`,
  );
}

/**
 * RP-initiated logout: oidc-provider gives the confirmation form; the console has already
 * asked for the sign-out, so the page submits it at once (button kept for no-script).
 */
export function logoutPage(form: string, lang: PageLanguage = 'en'): string {
  const tx = TEXT[lang];
  return page(
    lang,
    tx.signingOut,
    `<div class="card">
<h1>${esc(tx.signingOutHeading)}</h1>
<p class="sub">${esc(tx.signingOutSub)}</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" id="confirm">${esc(tx.signOut)}</button>
</div>
<script>${LOGOUT_SCRIPT}</script>`,
  );
}

/** oidc-provider's error page (a refused authorization request that cannot redirect back). */
export function errorPage(
  out: { error?: string; error_description?: string },
  consoleUrl: string,
  lang: PageLanguage = 'en',
): string {
  const tx = TEXT[lang];
  return page(
    lang,
    tx.refused,
    `<div class="card">
<h1>${esc(tx.refused)}</h1>
<p class="sub">${esc(String(out.error_description ?? out.error ?? tx.invalid))}</p>
<a class="button" href="${esc(consoleUrl)}">${esc(tx.back)}</a>
</div>`,
  );
}
