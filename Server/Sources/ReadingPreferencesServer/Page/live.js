// Changes made elsewhere (Specs/Page.md §4): the event stream, opened with a ticket (an
// EventSource cannot send the token); each event or (re)opening makes the page look again (304
// while nothing changed). Without a stream the page polls (`?poll=SECONDS`, 2 by default, 0:
// never). The one place that decides when to refresh.
import { query, state, say, api, problemText } from './page.js';
import { loadForm } from './form.js';

const every = query.has('poll') ? Math.max(0, Number(query.get('poll')) || 0) * 1000 : 2000;
let timer = null;
let live = null;

// Refreshes the form unless an edit is on its way or the reader is typing something not sent yet.
export async function refresh() {
  const active = document.activeElement;
  const typing = active && active.tagName === 'INPUT' && active.type === 'text' && active.value !== active.defaultValue;
  if (state.busy || typing) return;
  try {
    if (await loadForm(true)) say('Updated with a change made elsewhere.');
  } catch (error) {
    // A failed refresh is tried again at the next event or poll.
  }
}

export function startLive() {
  stopLive();
  live = follow({
    ticket: async () => {
      const response = await api('POST', '/v1/events/tickets');
      if (!response.ok) throw new Error(await problemText(response));
      return (await response.json()).ticket;
    },
    changed: refresh,
    mode: (way) => {
      document.body.dataset.live = way;
      if (way === 'stream') stopPolling(); else if (timer === null) startPolling();
    },
  });
}

export function stopLive() {
  if (live) live.stop();
  live = null;
  stopPolling();
}

function startPolling() {
  stopPolling();
  if (!every) return;
  const tick = async () => {
    await refresh();
    if (timer !== null) timer = setTimeout(tick, every);
  };
  timer = setTimeout(tick, every);
}

function stopPolling() {
  if (timer !== null) clearTimeout(timer);
  timer = null;
}

// follow({ ticket, changed, mode }): `ticket()` resolves to a new ticket; `changed()` is called
// on each event and each time the stream opens; `mode('stream' | 'polling')` says which way the
// page learns of changes now. Answers { stop() }.
//
// While the page is hidden (another tab, or kept in the back-forward cache) the stream is closed:
// a browser holds few connections to one server over HTTP/1.1 (six in Chromium), and a stream
// holds one for as long as it is open. It opens again, and the page looks again, once the page
// is shown.
export function follow({ ticket, changed, mode, retryCeiling = 30000 }) {
  let source = null;
  let timer = null;
  let failures = 0;
  let stopped = false;
  let paused = false;

  async function open() {
    timer = null;
    if (stopped || paused) return;
    let value;
    try {
      value = await ticket();
    } catch (error) {
      lost();
      return;
    }
    if (stopped || paused || source) return;
    source = new EventSource('/v1/events?ticket=' + encodeURIComponent(value));
    source.addEventListener('open', () => {
      failures = 0;
      mode('stream');
      // Anything may have changed while no stream was open.
      changed();
    });
    source.addEventListener('changed', changed);
    // The server ended the stream or it failed: the browser would reconnect with the same
    // ticket, which is used up. A new ticket is asked for instead, and the page polls meanwhile.
    source.addEventListener('error', () => {
      close();
      lost();
    });
  }

  function close() {
    if (source) source.close();
    source = null;
  }

  function lost() {
    if (stopped || paused) return;
    failures += 1;
    mode('polling');
    const delay = Math.min(retryCeiling, 1000 * 2 ** (failures - 1));
    timer = setTimeout(open, delay);
  }

  function pause() {
    paused = true;
    close();
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function resume() {
    if (stopped || !paused) return;
    paused = false;
    open();
  }

  const visibility = () => (document.visibilityState === 'hidden' ? pause() : resume());
  const shown = (event) => { if (event.persisted) resume(); };
  document.addEventListener('visibilitychange', visibility);
  window.addEventListener('pagehide', pause);
  window.addEventListener('pageshow', shown);
  if (document.visibilityState === 'hidden') paused = true; else open();
  return {
    stop() {
      stopped = true;
      pause();
      document.removeEventListener('visibilitychange', visibility);
      window.removeEventListener('pagehide', pause);
      window.removeEventListener('pageshow', shown);
    },
  };
}
