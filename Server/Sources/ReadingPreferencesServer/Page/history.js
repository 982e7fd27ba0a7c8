// Who set a value and the way back (Specs/Page.md §3.1): a row's provenance line, and its
// earlier values, read from the history route when opened, each offered again through revert.
import { base, publication, bookGiven, contextSuffix, state, element, say, problemText, api } from './page.js';

const causes = {
  handEdit: ' (by hand)', import: ' (imported)', revert: ' (gone back)', move: ' (moved)', firstJoin: ' (first sync)',
};
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const steps = [['year', 31536000], ['month', 2592000], ['week', 604800], ['day', 86400], ['hour', 3600], ['minute', 60]];

// "3 days ago", "just now" (English, like the page); a time over a minute after this clock (a
// device's clock ahead) is "59 minutes ahead of this device's clock", never "in 59 minutes".
export function ago(iso) {
  const seconds = (Date.now() - Date.parse(iso)) / 1000;
  if (!Number.isFinite(seconds)) return '';
  for (const [unit, length] of steps) {
    const count = Math.floor(Math.abs(seconds) / length);
    if (!count) continue;
    return seconds > 0 ? relative.format(-count, unit) : `${count} ${unit}${count > 1 ? 's' : ''} ahead of this device's clock`;
  }
  return 'just now';
}

// A device as a reader knows it: its name, or the start of its id when it gave none.
export function deviceName(device) {
  if (!device) return 'an unknown device';
  return device.name || `device ${String(device.id || '').slice(0, 8)}`;
}

// The row's provenance line, or nothing when no device is known to have set the value.
export function provenanceLine(row) {
  const provenance = row.provenance;
  if (!provenance || !provenance.device) return null;
  const text = `Set on ${deviceName(provenance.device)}, ${ago(provenance.time)}${causes[provenance.cause] || ''}`;
  return element('span', { class: 'provenance', id: `provenance-${row.key}`, title: provenance.time }, text);
}

// The layer of a history entry as the revert route names it.
function revertLayer({ layer, layerID }) {
  if (layer === 'publication') return { layer: 'book', publication: layerID };
  // An id as a route's path segment (decoded there).
  const folder = { profile: 'profiles/', deviceClass: 'classes/' }[layer];
  return { layer: folder ? folder + encodeURIComponent(layerID) : layer };
}

function describe(value, removed) {
  if (removed) return 'no value';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// Where a value comes from, and the layer a change was made in, as a reader says it.
export const sourceNames = {
  publication: 'this book', shared: 'all books', profile: 'the profile', deviceClass: 'devices like this', override: 'a temporary override', overrides: 'an override',
  default: "the app's default", publicationMetadata: "the book's own metadata", derived: 'another setting',
  forced: 'the device', fallback: 'the built-in value',
};

// "Earlier values": a disclosure that loads the key's history when opened, newest first, each
// earlier value with a button that puts it back in its layer.
// Kept open across the form's redraws (a change from elsewhere redraws every row).
const opened = new Set();

export function earlierValues(row, reload) {
  const details = element('details', { class: 'history', id: `history-${row.key}`, open: opened.has(row.key) });
  details.append(element('summary', { 'aria-label': `Earlier values of ${row.title}` }, 'Earlier values'));
  const list = element('ul', { class: 'history-list', id: `history-list-${row.key}` });
  details.append(list);
  details.addEventListener('toggle', async () => {
    if (!details.open) {
      opened.delete(row.key);
      return;
    }
    opened.add(row.key);
    list.replaceChildren(element('li', {}, 'Loading…'));
    // The page's class and rule context: the documents its rows resolve from.
    const query = new URLSearchParams(contextSuffix.slice(1));
    query.set('key', row.key);
    if (bookGiven) query.set('publication', publication);
    let entries = [];
    try {
      const response = await api('GET', `${base}/history?${query}`);
      if (!response.ok) {
        list.replaceChildren(element('li', {}, await problemText(response)));
        return;
      }
      entries = (await response.json()).entries || [];
    } catch (error) {
      if (error.message !== 'unauthorized') list.replaceChildren(element('li', {}, 'The history could not be read.'));
      return;
    }
    list.replaceChildren(...historyItems(row, entries, reload));
  });
  return details;
}

function historyItems(row, entries, reload) {
  // The newest change of each layer is what the layer holds now: only the ones before it are
  // values to go back to.
  const newestOfLayer = new Set();
  const items = [];
  for (const entry of [...entries].reverse()) {
    const layer = `${entry.layer}/${entry.layerID || ''}`;
    if (!newestOfLayer.has(layer)) {
      newestOfLayer.add(layer);
      continue;
    }
    if (items.length === 5) break;
    const value = describe(entry.new, entry.removed);
    const item = element('li', {}, `${value} in ${sourceNames[entry.layer] || entry.layer}, set on ${deviceName(entry.device)}, ${ago(entry.time)} `);
    const button = element('button', { type: 'button', class: 'secondary', 'data-entry': entry.id,
      'aria-label': `Use ${value} again for ${row.title}` }, 'Use again');
    button.addEventListener('click', () => goBack(row, entry, value, reload));
    item.append(button);
    items.push(item);
  }
  if (!items.length) items.push(element('li', {}, 'No earlier values are recorded.'));
  return items;
}

async function goBack(row, entry, value, reload) {
  if (state.busy) return;
  state.busy = true;
  try {
    const body = Object.assign({ key: row.key, to: { entry: entry.id } }, revertLayer(entry));
    const response = await api('POST', `${base}/revert`, { body });
    if (!response.ok) {
      say(await problemText(response));
      return;
    }
    await reload();
    state.edits += 1;
    document.body.dataset.edits = String(state.edits);
    say(`Saved: ${row.title} back to ${value}.`);
  } catch (error) {
    if (error.message !== 'unauthorized') say('The change could not be sent: ' + error.message);
  } finally {
    state.busy = false;
  }
}
