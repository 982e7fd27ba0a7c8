// Edits: one POST per change. Each op says the value it replaces (`expect`, Specs/Page.md §3),
// so a change elsewhere to another key is no conflict; "reset all" sends the settings ETag.
import { byId, bookBase, contextSuffix, publicationContext, state, say, problemText, api, rowOf } from './page.js';
import { loadForm, layerChoice } from './form.js';
import { showConflict } from './conflicts.js';

// The op with the stored value it replaces, as the form showed it (null: none stored).
function expecting(op) {
  if (!op.key) return op;
  const row = rowOf(op.key);
  return Object.assign({}, op, { expect: row && row.storedValue !== undefined ? row.storedValue : null });
}

export async function edit(ops, what) {
  if (state.busy) {
    // Sent once this one is answered (the latest change wins: a slider moved twice).
    state.queued = { ops, what };
    return;
  }
  state.busy = true;
  state.lastChange = { ops, what };
  const started = performance.now();
  try {
    const whole = ops.some((op) => !op.key);
    const response = await api('POST', `${bookBase}/edits${contextSuffix}`, {
      body: { edits: ops.map(expecting), publication: publicationContext, layer: layerChoice() },
      headers: whole ? { 'If-Match': state.etag || '*' } : {},
    });
    if (response.status === 412) {
      await showConflict(response, what);
      return;
    }
    if (!response.ok) {
      say(await problemText(response));
      await loadForm(false);
      return;
    }
    byId('conflict').hidden = true;
    await loadForm(false);
    // From the control changed to the preview restyled (User Timing, for measurements).
    performance.measure('readingprefs-edit', { start: started });
    state.edits += 1;
    document.body.dataset.edits = String(state.edits);
    say(`Saved: ${what}.`);
  } catch (error) {
    if (error.message !== 'unauthorized') say('The change could not be sent: ' + error.message);
  } finally {
    state.busy = false;
  }
  if (state.queued) {
    const next = state.queued;
    state.queued = null;
    await edit(next.ops, next.what);
  }
}
