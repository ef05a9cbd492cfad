import { $, call, el, reason, show, type Answer } from './page-kit';

interface Account {
  name: string;
}

/** The key a page's calls present and its account's name: set by signing in, cleared by signing out, kept nowhere else. */
export interface Session {
  readonly key: string | null;
  readonly account: string | null;
}

/**
 * Wires a page's sign-in form (#sign-in with #key and #sign-in-message, #who, #signed-out, #signed-in
 * and #sign-out): a key is kept only once GET /Integration/Account accepts it. `onSignOut` clears what
 * the page showed for that key; `onSignIn` loads what the page shows for it from the start.
 */
export function signInForm(onSignOut: () => void, onSignIn?: () => void): Session {
  const session: { key: string | null; account: string | null } = { key: null, account: null };

  async function signIn(event: Event): Promise<void> {
    event.preventDefault();
    const presented = $<HTMLInputElement>('key').value.trim();
    if (!presented) return show($('sign-in-message'), 'error', 'Type an API key.');
    session.key = presented;
    const me = await call<Account>(presented, 'GET', '/Integration/Account');
    if (me.status !== 200 || !me.body) {
      session.key = null;
      return show($('sign-in-message'), 'error', reason(me));
    }
    session.account = me.body.name;
    $<HTMLInputElement>('key').value = '';
    show($('sign-in-message'), 'info', '');
    $('who').textContent = `Signed in: ${me.body.name}`;
    $('signed-out').hidden = true;
    $('signed-in').hidden = false;
    onSignIn?.();
  }

  function signOut(): void {
    session.key = null;
    session.account = null;
    onSignOut();
    $('who').textContent = '';
    $('signed-in').hidden = true;
    $('signed-out').hidden = false;
  }

  $('sign-in').addEventListener('submit', (event) => void signIn(event));
  $('sign-out').addEventListener('click', signOut);
  return session;
}

/**
 * Downloads `path` with the key and saves it under `name` through a temporary link, as a browser
 * download; a refusal is answered instead, its body as the API gave it.
 */
export async function download(key: string, path: string, name: string): Promise<Answer<unknown> | null> {
  const response = await fetch(path, { headers: { 'X-API-KEY': key } });
  if (response.status !== 200) return { status: response.status, body: await response.json().catch(() => null) };
  const url = URL.createObjectURL(await response.blob());
  const link = el('a', { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return null;
}
