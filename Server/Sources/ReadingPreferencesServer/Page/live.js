// Changes made elsewhere, pushed by the server (Specs/Page.md §4): an EventSource on the event
// stream, opened with a ticket (an EventSource cannot send the token, which never goes in a URL).
// Each `changed` event, and each (re)opening, asks the page to look again; when the stream
// cannot be opened or is lost, the page polls until the stream opens again.

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
    source.addEventListener('changed', () => changed());
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
