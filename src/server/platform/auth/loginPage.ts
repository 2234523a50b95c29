/**
 * The HTML pages the authorization server shows itself: the sign-in form (at the
 * interaction URL), the "signing out" page, and the page for an expired sign-in link.
 * Plain server-rendered HTML with no script dependency, so the console's bundle is not
 * needed to sign in; styled to match the console (light and dark).
 */

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

function page(title: string, body: string, extraHead = ''): string {
  return `<!doctype html>
<html lang="en">
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

export function loginPage(opts: { action: string; login?: string; error?: string }): string {
  const error = opts.error ? `<p class="error" role="alert" id="login-error">${esc(opts.error)}</p>` : '';
  const describedBy = opts.error ? ' aria-describedby="login-error" aria-invalid="true"' : '';
  return page(
    'Sign in',
    `<div class="card">
<h1>Sign in</h1>
<p class="sub">Use your Fieldwork console account.</p>
<form method="post" action="${esc(opts.action)}" novalidate>
${error}
<label for="login">Login</label>
<input id="login" name="login" autocomplete="username" required autocapitalize="none" spellcheck="false" value="${esc(opts.login ?? '')}"${opts.login ? '' : ' autofocus'}${describedBy}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required${opts.login ? ' autofocus' : ''}${describedBy}>
<button type="submit">Sign in</button>
</form>
</div>
<footer>Field-service management console</footer>`,
  );
}

export function expiredPage(consoleUrl: string): string {
  return page(
    'Sign-in expired',
    `<div class="card">
<h1>This sign-in page has expired</h1>
<p class="sub">Sign-in pages are valid for a short time only. Start again from the console.</p>
<a class="button" href="${esc(consoleUrl)}">Back to the console</a>
</div>`,
  );
}

/**
 * RP-initiated logout: oidc-provider gives the confirmation form; the console has already
 * asked for the sign-out, so the page submits it at once (button kept for no-script).
 */
export function logoutPage(form: string): string {
  return page(
    'Signing out',
    `<div class="card">
<h1>Signing out…</h1>
<p class="sub">Ending your session.</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" id="confirm">Sign out</button>
</div>
<script>document.getElementById('confirm').click()</script>`,
  );
}

/** oidc-provider's error page (a refused authorization request that cannot redirect back). */
export function errorPage(out: { error?: string; error_description?: string }, consoleUrl: string): string {
  return page(
    'Sign-in refused',
    `<div class="card">
<h1>Sign-in refused</h1>
<p class="sub">${esc(String(out.error_description ?? out.error ?? 'The request is invalid.'))}</p>
<a class="button" href="${esc(consoleUrl)}">Back to the console</a>
</div>`,
  );
}
