// What the page's parts share: the URL's context, state, DOM helpers, the API client.
// Stored text goes into the page as text, never as markup.
export const byId = (id) => document.getElementById(id);
const enc = encodeURIComponent;
const tokenKey = 'readingprefs.token';

const parts = location.pathname.split('/').filter(Boolean);
export const configurable = decodeURIComponent(parts[1] || 'epub');
export const query = new URLSearchParams(location.search);
export const bookGiven = query.has('publication') && query.get('publication') !== '';
export const publication = bookGiven ? query.get('publication') : '-';
export const bookTitle = (query.get('title') || '').trim();
const contextQuery = new URLSearchParams();
export const publicationContext = {};
for (const name of ['layout', 'readingProgression']) {
  if (query.get(name)) contextQuery.set(name, publicationContext[name] = query.get(name));
}
for (const language of query.getAll('language')) contextQuery.append('language', language);
// The device's class (a layer) and the rule context.
export const deviceClass = query.get('deviceClass');
for (const name of ['deviceClass', 'appearance', 'time', 'collection']) for (const v of query.getAll(name)) contextQuery.append(name, v);
if (query.getAll('language').length) publicationContext.languages = query.getAll('language');
export const contextSuffix = contextQuery.toString() ? '?' + contextQuery.toString() : '';
// The preview's CSS: for the Readium CSS named (`?readiumCSS=2`; 1 by default).
const cssQuery = new URLSearchParams(contextQuery);
if (query.get('readiumCSS')) cssQuery.set('readiumCSS', query.get('readiumCSS'));
export const cssSuffix = cssQuery.toString() ? '?' + cssQuery.toString() : '';
export const base = `/v1/${enc(configurable)}`;
export const bookBase = `${base}/publications/${enc(publication)}`;

export const state = {
  token: null, form: null, etag: null, busy: false, queued: null, lastChange: null, edits: 0, loads: 0,
  outsideOpen: false, onSignedOut: () => {},
};

export function element(tag, attributes, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

export function say(text) {
  byId('status').textContent = text;
}

// The token: from the fragment (never sent to the server), kept in this tab only.
export function readToken() {
  // Read by hand: URLSearchParams would turn a '+' of the token into a space.
  let fromFragment = null;
  for (const part of location.hash.slice(1).split('&')) {
    if (part.startsWith('token=')) fromFragment = decodeURIComponent(part.slice('token='.length));
  }
  if (fromFragment) {
    sessionStorage.setItem(tokenKey, fromFragment);
    history.replaceState(null, '', location.pathname + location.search);
  }
  return sessionStorage.getItem(tokenKey);
}

export function keepToken(token) {
  sessionStorage.setItem(tokenKey, token);
  state.token = token;
}

export async function api(method, path, options = {}) {
  const headers = Object.assign({ Authorization: 'Bearer ' + state.token }, options.headers || {});
  let body;
  if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(path, { method, headers, body, cache: 'no-store', credentials: 'omit' });
  if (response.status === 401) {
    sessionStorage.removeItem(tokenKey);
    state.onSignedOut('Your token was not accepted. Paste it again.');
    throw new Error('unauthorized');
  }
  return response;
}

export async function problemText(response) {
  const problem = (await response.json().catch(() => null)) || {};
  return problem.detail || problem.title || `The server answered ${response.status}.`;
}

// Every row of the form, in order; one row by key.
export function rows(form = state.form) {
  return form ? form.sections.flatMap((section) => section.rows) : [];
}

export function rowOf(key, form = state.form) {
  return rows(form).find((row) => row.key === key);
}
