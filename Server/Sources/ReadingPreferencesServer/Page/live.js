// Changes made elsewhere: the form is asked for again with If-None-Match (304 while nothing
// changed), every two seconds (`?poll=SECONDS`, 0: never). This is the one place that decides
// when to refresh; a push stream can call refresh() in its place.
import { query, state, say } from './page.js';
import { loadForm } from './form.js';

const every = query.has('poll') ? Math.max(0, Number(query.get('poll')) || 0) * 1000 : 2000;
let timer = null;

// Refreshes the form unless an edit is on its way or the reader is typing something not sent yet.
export async function refresh() {
  const active = document.activeElement;
  const typing = active && active.tagName === 'INPUT' && active.type === 'text' && active.value !== active.defaultValue;
  if (state.busy || typing) return;
  try {
    if (await loadForm(true)) say('Updated with a change made elsewhere.');
  } catch (error) {
    // A failed refresh is tried again at the next one.
  }
}

export function startLive() {
  stopLive();
  if (!every) return;
  const tick = async () => {
    await refresh();
    if (timer !== null) timer = setTimeout(tick, every);
  };
  timer = setTimeout(tick, every);
}

export function stopLive() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}
