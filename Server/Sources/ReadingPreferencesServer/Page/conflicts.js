// A 412: the keys this change replaces changed elsewhere (another device or tab). The form is
// read again, the panel names the change that was not applied and what changed meanwhile, and
// offers the change again; nothing is applied over the other change without the reader.
import { byId, state, say, element, rows, rowOf } from './page.js';
import { loadForm } from './form.js';
import { edit } from './edits.js';

export async function showConflict(response, what) {
  let changed = [];
  try {
    changed = (await response.json()).changed || [];
  } catch (error) {
    // No body: the whole settings changed (reset all), listed below by comparison.
  }
  const before = state.form;
  await loadForm(false);
  const list = byId('conflict-list');
  list.replaceChildren();
  const keys = changed.length ? changed.map((item) => item.key) : rows().map((row) => row.key);
  for (const key of keys) {
    const then = rowOf(key, before);
    const now = rowOf(key);
    if (!now) continue;
    const old = then ? then.formattedValue || 'None' : 'None';
    const current = now.formattedValue || 'None';
    if (changed.length || old !== current) list.append(element('li', {}, `${now.title}: ${old} → ${current}, changed elsewhere`));
  }
  if (!list.children.length) list.append(element('li', {}, 'Other settings changed elsewhere.'));
  byId('conflict-change').textContent = `Your change (${what}) was not applied: what it changes was changed elsewhere meanwhile.`;
  byId('conflict-retry').textContent = `Apply my change again: ${what}`;
  byId('conflict').hidden = false;
  say(`Not applied: ${what}.`);
  byId('conflict-retry').focus();
}

export function wireConflicts() {
  byId('conflict-retry').addEventListener('click', () => {
    const change = state.lastChange;
    if (change) edit(change.ops, change.what);
  });
  byId('conflict-dismiss').addEventListener('click', () => {
    byId('conflict').hidden = true;
    say('Kept the settings as they are now.');
    byId('page-title').focus();
  });
}
