// The settings page (Specs/Page.md), no framework; its parts: page.js (context, state, API),
// form.js, controls.js, edits.js, conflicts.js, preview.js, live.js.
import { byId, deviceClass, bookGiven, bookTitle, publication, configurable, base, state, element, say, problemText, api, readToken, keepToken } from './page.js';
import { loadForm, render, titleOf } from './form.js';
import { edit } from './edits.js';
import { wireConflicts } from './conflicts.js';
import { startLive, stopLive } from './live.js';

function askForToken(message) {
  stopLive();
  byId('app').hidden = true;
  byId('token-form').hidden = false;
  if (message) say(message);
  byId('token-input').focus();
}

async function loadProfiles() {
  const response = await api('GET', `${base}/profiles`);
  const select = byId('profile-select');
  select.replaceChildren(element('option', { value: '' }, 'No profile'));
  if (!response.ok) return;
  for (const profile of await response.json()) {
    select.append(element('option', { value: profile.id, selected: profile.active }, profile.name));
  }
}

async function switchProfile() {
  const id = byId('profile-select').value;
  const response = await api('PUT', `${base}/profiles/active`, { body: { id: id || null } });
  if (!response.ok) say(await problemText(response));
  await loadForm(false);
  say(id ? 'Profile switched.' : 'No profile in use.');
}

// The book by its title when the context gives one, else by its identifier.
function showBook() {
  const line = byId('book-line');
  if (!bookGiven) {
    line.textContent = 'All books';
  } else if (bookTitle) {
    line.textContent = bookTitle;
    line.title = publication;
    document.title = `${bookTitle} · ${titleOf(configurable)}`;
  } else {
    line.textContent = `Book: ${publication}`;
  }
}

async function open() {
  byId('token-form').hidden = true;
  byId('app').hidden = false;
  showBook();
  if (deviceClass) byId('class-choice').hidden = !(byId('class-name').textContent = deviceClass);
  if (!bookGiven) document.querySelector('input[name=layer][value=book]').closest('label').hidden = true;
  try {
    await loadProfiles();
    await loadForm(false);
    // From navigation to the form fetched and drawn (User Timing, for measurements).
    performance.measure('readingprefs-first-render');
    document.body.dataset.ready = 'true';
    startLive();
  } catch (error) {
    if (error.message !== 'unauthorized') say('The settings could not be loaded: ' + error.message);
  }
}

byId('page-title').textContent = titleOf(configurable);
state.onSignedOut = askForToken;
byId('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const token = byId('token-input').value.trim();
  if (!token) return;
  keepToken(token);
  byId('token-input').value = '';
  open();
});
for (const radio of document.querySelectorAll('input[name=layer]')) {
  radio.addEventListener('change', () => state.form && render());
}
byId('profile-select').addEventListener('change', switchProfile);
byId('reset-all').addEventListener('click', () => edit([{ op: 'clearAll' }], 'reset all in this layer'));
wireConflicts();
state.token = readToken();
if (state.token) open(); else askForToken();
