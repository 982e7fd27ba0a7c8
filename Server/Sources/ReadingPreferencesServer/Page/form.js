// The form: fetched from the form route (the one function that loads or refreshes it), drawn as
// sections of rows. Settings that cannot apply to this book sit in a collapsed group of their own.
import { byId, configurable, bookBase, contextSuffix, state, element, say, problemText, rows, api } from './page.js';
import { control } from './controls.js';
import { edit } from './edits.js';
import { loadPreview } from './preview.js';
import { sourceNames, provenanceLine, earlierValues } from './history.js';

const outsideID = 'notForThisPublication';

// Loads the form (conditionally: 304 keeps what is shown), draws it; answers if it changed.
export async function loadForm(conditional) {
  const headers = conditional && state.etag ? { 'If-None-Match': state.etag } : {};
  const load = ++state.loads;
  const response = await api('GET', `${bookBase}/form${contextSuffix}`, { headers });
  // A newer load started meanwhile (an edit's): this answer may be older than what it shows.
  if (load !== state.loads || response.status === 304) return false;
  if (!response.ok) {
    say(await problemText(response));
    return false;
  }
  state.form = await response.json();
  state.etag = response.headers.get('ETag');
  render();
  await loadPreview();
  return true;
}

export function layerChoice() {
  const checked = document.querySelector('input[name=layer]:checked');
  return checked ? checked.value : 'allBooks';
}

function storedInLayer(row) {
  const holders = row.storedIn || [], layer = layerChoice();
  return layer === 'book' ? holders.includes('publication') : layer === 'class' ? holders.includes('deviceClass') : holders.includes('shared') || holders.includes('profile');
}

export function titleOf(name) {
  return ({ epub: 'Book settings', pdf: 'PDF settings', audio: 'Audio settings', tts: 'Read aloud' })[name] || name;
}

export function render() {
  const focused = document.activeElement && document.activeElement.id;
  const container = byId('form');
  container.replaceChildren();
  for (const section of state.form.sections) container.append(renderSection(section));
  byId('reset-all').hidden = !rows().some(storedInLayer);
  if (focused && byId(focused)) byId(focused).focus();
}

function renderSection(section) {
  const heading = `section-${section.id}`;
  if (section.id === outsideID) {
    // Collapsed, and reachable by keyboard: its summary takes focus and opens with Enter or Space.
    const group = element('details', { class: 'panel', id: heading, open: state.outsideOpen });
    group.addEventListener('toggle', () => { state.outsideOpen = group.open; });
    group.append(element('summary', {}, `${section.title || 'Not for this book'} (${section.rows.length})`));
    for (const row of section.rows) group.append(renderRow(row));
    return group;
  }
  const panel = element('section', { class: 'panel', 'aria-labelledby': heading });
  panel.append(element('h2', { id: heading }, section.title || titleOf(configurable)));
  for (const row of section.rows) panel.append(renderRow(row));
  return panel;
}

// One setting: its title and control, Reset where this layer stores it, then what applies and why.
export function renderRow(row) {
  const id = `ctl-${row.key}`;
  const describedBy = [`value-${row.key}`];
  if (row.reasons.length) describedBy.push(`reasons-${row.key}`);
  if ((row.activates || []).length) describedBy.push(`activates-${row.key}`);
  const wrapper = element('div', { class: row.isEffective ? 'row' : 'row ineffective', id: `row-${row.key}` });
  const body = element('div', { class: 'row-body' });
  wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
  body.append(...control(row, id, describedBy.join(' ')));
  if (storedInLayer(row)) {
    const reset = element('button', { type: 'button', class: 'secondary', id: `reset-${row.key}`, 'aria-label': `Reset ${row.title}` }, 'Reset');
    reset.addEventListener('click', async () => {
      await edit([{ key: row.key, op: 'clear' }], `reset ${row.title}`);
      if (byId(id)) byId(id).focus();
    });
    body.append(reset);
  }
  const meta = element('div', { class: 'row-meta' });
  meta.append(element('span', { class: 'value', id: `value-${row.key}` },
    `${row.formattedValue || 'None'}, from ${sourceNames[row.source] || row.source || 'nowhere'}` +
    (row.chosenBy?.rule ? ` (rule ${row.chosenBy.rule})` : '')));
  // Who set it and when, and the values it had before (a row with no recorded change has none).
  const provenance = provenanceLine(row);
  if (provenance) meta.append(provenance, earlierValues(row, () => loadForm(false)));
  if (row.reasons.length) {
    const list = element('ul', { class: 'reasons', id: `reasons-${row.key}` });
    for (const reason of row.reasons) list.append(element('li', {}, reason.text));
    meta.append(list);
  }
  if ((row.activates || []).length) {
    // Said before the edit is made: what it will also turn on or off.
    const text = row.activates.map((a) => `${a.title} to ${a.formattedValue}`).join(', ');
    meta.append(element('span', { class: 'note', id: `activates-${row.key}` }, `Changing this also sets ${text}.`));
  }
  wrapper.append(body, meta);
  return wrapper;
}
