// The settings page of readingprefs-server (Specs/Page.md): drawn from the form route, edited
// through the edits route, previewed through the CSS route. No framework; every text from
// stored data goes into the page as text, never as markup.
import { follow } from './live.js';

(() => {
  const byId = (id) => document.getElementById(id);
  const enc = encodeURIComponent;
  const tokenKey = 'readingprefs.token';

  const parts = location.pathname.split('/').filter(Boolean);
  const configurable = decodeURIComponent(parts[1] || 'epub');
  const query = new URLSearchParams(location.search);
  const bookGiven = query.has('publication') && query.get('publication') !== '';
  const publication = bookGiven ? query.get('publication') : '-';
  const contextQuery = new URLSearchParams();
  for (const name of ['layout', 'readingProgression']) {
    if (query.get(name)) contextQuery.set(name, query.get(name));
  }
  for (const language of query.getAll('language')) contextQuery.append('language', language);
  const contextSuffix = contextQuery.toString() ? '?' + contextQuery.toString() : '';
  // Changes made elsewhere come through the server's event stream; while it cannot be opened,
  // they are looked for every two seconds (`?poll=SECONDS`, 0: never).
  const pollMilliseconds = query.has('poll') ? Math.max(0, Number(query.get('poll')) || 0) * 1000 : 2000;
  const publicationContext = {};
  if (query.get('layout')) publicationContext.layout = query.get('layout');
  if (query.getAll('language').length) publicationContext.languages = query.getAll('language');
  if (query.get('readingProgression')) publicationContext.readingProgression = query.get('readingProgression');
  const base = `/v1/${enc(configurable)}`;
  const bookBase = `${base}/publications/${enc(publication)}`;

  const state = {
    token: null, form: null, etag: null, busy: false, queued: null, lastEdits: null, timer: null, edits: 0, loads: 0,
    live: null,
  };

  // ---- Token: from the fragment (never sent to the server), kept in this tab only.
  function readToken() {
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

  function askForToken(message) {
    stopLive();
    byId('app').hidden = true;
    byId('token-form').hidden = false;
    if (message) say(message);
    byId('token-input').focus();
  }

  // ---- Requests.
  async function api(method, path, options = {}) {
    const headers = Object.assign({ Authorization: 'Bearer ' + state.token }, options.headers || {});
    let body;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    const response = await fetch(path, { method, headers, body, cache: 'no-store', credentials: 'omit' });
    if (response.status === 401) {
      sessionStorage.removeItem(tokenKey);
      askForToken('Your token was not accepted. Paste it again.');
      throw new Error('unauthorized');
    }
    return response;
  }

  async function problemText(response) {
    try {
      const problem = await response.json();
      return problem.detail || problem.title || `The server answered ${response.status}.`;
    } catch (error) {
      return `The server answered ${response.status}.`;
    }
  }

  function say(text) {
    byId('status').textContent = text;
  }

  // ---- The form.
  async function loadForm(conditional) {
    const headers = conditional && state.etag ? { 'If-None-Match': state.etag } : {};
    const load = ++state.loads;
    const response = await api('GET', `${bookBase}/form${contextSuffix}`, { headers });
    // A newer load started meanwhile (an edit's): this answer may be older than what it shows.
    if (load !== state.loads) return false;
    if (response.status === 304) return false;
    if (!response.ok) {
      say(await problemText(response));
      return false;
    }
    const previous = state.form;
    state.form = await response.json();
    state.etag = response.headers.get('ETag');
    render();
    await loadPreview();
    return previous || true;
  }

  const sourceNames = {
    publication: 'this book', shared: 'all books', profile: 'the profile', override: 'a temporary override',
    default: "the app's default", publicationMetadata: "the book's own metadata", derived: 'another setting',
    forced: 'the device', fallback: 'the built-in value',
  };

  function layerChoice() {
    const checked = document.querySelector('input[name=layer]:checked');
    return checked ? checked.value : 'allBooks';
  }

  function storedInLayer(row) {
    const holders = row.storedIn || [];
    return layerChoice() === 'book'
      ? holders.includes('publication') : holders.includes('shared') || holders.includes('profile');
  }

  function element(tag, attributes, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? '' : value);
    }
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render() {
    const focused = document.activeElement && document.activeElement.id;
    const container = byId('form');
    container.replaceChildren();
    for (const section of state.form.sections) {
      const panel = element('section', { class: 'panel', 'aria-labelledby': `section-${section.id}` });
      panel.append(element('h2', { id: `section-${section.id}` }, section.title || titleOf(configurable)));
      for (const row of section.rows) panel.append(renderRow(row));
      container.append(panel);
    }
    const anyStored = state.form.sections.some((section) => section.rows.some(storedInLayer));
    byId('reset-all').hidden = !anyStored;
    if (focused && byId(focused)) byId(focused).focus();
  }

  function titleOf(name) {
    return ({ epub: 'Book settings', pdf: 'PDF settings', audio: 'Audio settings', tts: 'Read aloud' })[name] || name;
  }

  function renderRow(row) {
    const id = `ctl-${row.key}`;
    const describedBy = [`value-${row.key}`];
    if (row.reasons.length) describedBy.push(`reasons-${row.key}`);
    if ((row.activates || []).length) describedBy.push(`activates-${row.key}`);
    const wrapper = element('div', { class: row.isEffective ? 'row' : 'row ineffective', id: `row-${row.key}` });
    const body = element('div', { class: 'row-body' });
    const control = row.control || {};
    const kind = Object.keys(control)[0] || 'text';
    const details = control[kind] || {};
    if (kind === 'picker') {
      wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
      const select = element('select', { id, 'aria-describedby': describedBy.join(' ') });
      const hasNone = details.options.some((option) => option.value === undefined || option.value === null);
      // What is shown is what applies: the stored value, or with none stored, the "none" entry
      // where there is one, otherwise the effective value.
      const shown = row.storedValue !== undefined ? row.storedValue : hasNone ? undefined : row.effectiveValue;
      details.options.forEach((option, index) => {
        const none = option.value === undefined || option.value === null;
        const selected = none ? shown === undefined : JSON.stringify(option.value) === JSON.stringify(shown);
        select.append(element('option', { value: String(index), selected }, option.label));
      });
      select.addEventListener('change', () => {
        const option = details.options[Number(select.value)];
        edit(option.value === undefined || option.value === null
          ? [{ key: row.key, op: 'clear' }] : [{ key: row.key, op: 'set', value: option.value }]);
      });
      body.append(select);
    } else if (kind === 'toggle') {
      wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
      const box = element('input', {
        type: 'checkbox', id, checked: row.effectiveValue === true, 'aria-describedby': describedBy.join(' '),
      });
      box.addEventListener('change', () => edit([{ key: row.key, op: 'set', value: box.checked }]));
      body.append(box);
    } else if (kind === 'stepper' || kind === 'slider') {
      wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
      const [low, high] = details.range || [0, 1];
      const step = details.step || (high - low) / 100;
      const rangeWrap = element('div', { class: 'range-wrap' });
      const minus = element('button', { type: 'button', id: `dec-${row.key}`, 'aria-label': `Less: ${row.title}` }, '−');
      const plus = element('button', { type: 'button', id: `inc-${row.key}`, 'aria-label': `More: ${row.title}` }, '+');
      const value = typeof row.effectiveValue === 'number' ? row.effectiveValue : low;
      const slider = element('input', {
        type: 'range', id, min: low, max: high, step, value,
        'aria-valuetext': row.formattedValue || String(value), 'aria-describedby': describedBy.join(' '),
      });
      minus.addEventListener('click', () => edit([{ key: row.key, op: 'decrement' }]));
      plus.addEventListener('click', () => edit([{ key: row.key, op: 'increment' }]));
      slider.addEventListener('change', () => edit([{ key: row.key, op: 'set', value: Number(slider.value) }]));
      rangeWrap.append(minus, slider, plus);
      body.append(rangeWrap);
    } else if (kind === 'color') {
      wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
      const current = typeof row.effectiveValue === 'string' && /^#[0-9a-fA-F]{6}$/.test(row.effectiveValue)
        ? row.effectiveValue.toLowerCase() : '#ffffff';
      const well = element('input', { type: 'color', id, value: current, 'aria-describedby': describedBy.join(' ') });
      well.addEventListener('change', () => edit([{ key: row.key, op: 'set', value: well.value.toUpperCase() }]));
      body.append(well);
    } else if (kind === 'custom') {
      // A control the page does not know how to draw: its value, read only (Reset still works).
      wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
      body.append(element('input', {
        type: 'text', id, readonly: true, value: row.formattedValue || '', 'aria-describedby': describedBy.join(' '),
      }));
    } else {
      wrapper.append(element('label', { class: 'row-title', for: id }, row.title));
      const stored = typeof row.storedValue === 'string' ? row.storedValue : '';
      const field = element('input', { type: 'text', id, value: stored, 'aria-describedby': describedBy.join(' ') });
      field.addEventListener('change', () => {
        const text = field.value.trim();
        edit(text ? [{ key: row.key, op: 'set', value: text }] : [{ key: row.key, op: 'clear' }]);
      });
      body.append(field);
    }
    if (storedInLayer(row)) {
      const reset = element('button', {
        type: 'button', class: 'secondary', id: `reset-${row.key}`, 'aria-label': `Reset ${row.title}`,
      }, 'Reset');
      reset.addEventListener('click', async () => {
        await edit([{ key: row.key, op: 'clear' }]);
        if (byId(id)) byId(id).focus();
      });
      body.append(reset);
    }
    const meta = element('div', { class: 'row-meta' });
    meta.append(element('span', { class: 'value', id: `value-${row.key}` },
      `${row.formattedValue || 'None'}, from ${sourceNames[row.source] || row.source || 'nowhere'}`));
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

  // ---- Edits, and the 412 flow.
  async function edit(edits) {
    if (state.busy) {
      // Sent once this one is answered (the latest change wins: a slider moved twice).
      state.queued = edits;
      return;
    }
    state.busy = true;
    state.lastEdits = edits;
    const started = performance.now();
    try {
      const response = await api('POST', `${bookBase}/edits`, {
        body: { edits, publication: publicationContext, layer: layerChoice() },
        headers: { 'If-Match': state.etag || '*' },
      });
      if (response.status === 412) {
        await conflict();
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
      say('Saved.');
    } catch (error) {
      if (error.message !== 'unauthorized') say('The change could not be sent: ' + error.message);
    } finally {
      state.busy = false;
    }
    if (state.queued) {
      const next = state.queued;
      state.queued = null;
      await edit(next);
    }
  }

  function snapshot(form) {
    const values = new Map();
    if (!form) return values;
    for (const section of form.sections) {
      for (const row of section.rows) values.set(row.key, { title: row.title, text: row.formattedValue || 'None' });
    }
    return values;
  }

  async function conflict() {
    const before = snapshot(state.form);
    await loadForm(false);
    const after = snapshot(state.form);
    const list = byId('conflict-list');
    list.replaceChildren();
    for (const [key, now] of after) {
      const then = before.get(key);
      if (then && then.text !== now.text) list.append(element('li', {}, `${now.title}: ${then.text} → ${now.text}`));
    }
    if (!list.children.length) list.append(element('li', {}, 'Other settings changed; yours was not applied.'));
    byId('conflict').hidden = false;
    say('Your change was not applied: these settings changed elsewhere.');
    byId('conflict-retry').focus();
  }

  // ---- Profiles.
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

  // ---- The preview: Readium CSS user properties from the CSS route, given their effect here.
  const passages = {
    en: { dir: 'ltr', text: 'It was a bright cold day in April, and the clocks were striking thirteen. The hallway smelt of boiled cabbage and old rag mats.' },
    ar: { dir: 'rtl', text: 'كان يومًا مشرقًا باردًا من أيام أبريل، وكانت الساعات تدق الثالثة عشرة. وكانت رائحة الممر تفوح بالملفوف المسلوق.' },
    he: { dir: 'rtl', text: 'זה היה יום בהיר וקר באפריל, והשעונים צלצלו שלוש־עשרה. המסדרון הדיף ריח של כרוב מבושל.' },
    fa: { dir: 'rtl', text: 'روزی روشن و سرد در ماه آوریل بود و ساعت‌ها سیزده بار می‌نواختند.' },
    ja: { dir: 'ltr', text: '四月の晴れた寒い日だった。時計が十三時を打っていた。廊下には煮たキャベツの匂いがしていた。' },
  };

  async function loadPreview() {
    const panel = document.querySelector('.preview-panel');
    if (configurable !== 'epub') {
      panel.hidden = true;
      return;
    }
    const language = (query.getAll('language')[0] || 'en').toLowerCase();
    const primary = language.split('-')[0];
    const passage = passages[primary] || passages.en;
    const preview = byId('preview');
    const text = byId('preview-text');
    text.textContent = passage.text;
    preview.setAttribute('lang', language);
    preview.setAttribute('dir', passage.dir);
    // The direction the book is read in, as resolved (a stored preference, or its metadata).
    const effective = (key) => {
      for (const section of state.form ? state.form.sections : []) {
        const row = section.rows.find((candidate) => candidate.key === key);
        if (row) return row.effectiveValue;
      }
      return undefined;
    };
    const progression = effective('readingProgression') || query.get('readingProgression');
    if (progression === 'rtl' || progression === 'ltr') preview.setAttribute('dir', progression);
    const vertical = effective('verticalText') === true || (primary === 'ja' && progression === 'rtl' && effective('verticalText') === undefined);
    preview.classList.toggle('vertical', vertical);
    const response = await api('GET', `${bookBase}/css${contextSuffix}`);
    if (!response.ok) return;
    const css = await response.json();
    for (const name of Array.from(preview.style)) preview.style.removeProperty(name);
    const properties = css.properties || {};
    for (const [name, value] of Object.entries(properties)) preview.style.setProperty(name, value);
    const appearance = properties['--USER__appearance'] || '';
    const themed = { 'readium-night-on': ['#000000', '#FEFEFE'], 'readium-sepia-on': ['#FAF4E8', '#121212'] }[appearance];
    if (themed && !properties['--USER__backgroundColor']) preview.style.setProperty('--USER__backgroundColor', themed[0]);
    if (themed && !properties['--USER__textColor']) preview.style.setProperty('--USER__textColor', themed[1]);
    const columns = properties['--USER__colCount'];
    preview.style.setProperty('--preview-columns', columns && columns !== 'auto' ? columns : 'auto');
    preview.classList.toggle('filter-darken', properties['--USER__darkenImages'] === 'readium-darken-on');
    preview.classList.toggle('filter-invert', properties['--USER__invertImages'] === 'readium-invert-on');
  }

  // ---- Live: the event stream (live.js), or conditional requests while it cannot be open.
  async function lookAgain() {
    const active = document.activeElement;
    // Not while an edit is on its way, or while the reader is typing something not sent yet.
    const typing = active && active.tagName === 'INPUT' && active.type === 'text' && active.value !== active.defaultValue;
    if (state.busy || typing) return false;
    try {
      const changed = await loadForm(true);
      if (changed) say('Updated with a change made elsewhere.');
      return true;
    } catch (error) {
      return false;
    }
  }

  function startLive() {
    stopLive();
    state.live = follow({
      ticket: async () => {
        const response = await api('POST', '/v1/events/tickets');
        if (!response.ok) throw new Error(await problemText(response));
        return (await response.json()).ticket;
      },
      changed: () => { lookAgain(); },
      mode: (way) => {
        document.body.dataset.live = way;
        if (way === 'stream') stopPolling(); else if (state.timer === null) startPolling();
      },
    });
  }

  function stopLive() {
    if (state.live) state.live.stop();
    state.live = null;
    stopPolling();
  }

  function startPolling() {
    stopPolling();
    if (!pollMilliseconds) return;
    const tick = async () => {
      await lookAgain();
      if (state.timer !== null) state.timer = setTimeout(tick, pollMilliseconds);
    };
    state.timer = setTimeout(tick, pollMilliseconds);
  }

  function stopPolling() {
    if (state.timer !== null) clearTimeout(state.timer);
    state.timer = null;
  }

  async function open() {
    byId('token-form').hidden = true;
    byId('app').hidden = false;
    byId('book-line').textContent = bookGiven ? `Book: ${publication}` : 'All books';
    if (!bookGiven) {
      document.querySelector('input[name=layer][value=book]').closest('label').hidden = true;
    }
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

  document.addEventListener('DOMContentLoaded', () => {
    byId('page-title').textContent = titleOf(configurable);
    byId('token-form').addEventListener('submit', (event) => {
      event.preventDefault();
      const token = byId('token-input').value.trim();
      if (!token) return;
      sessionStorage.setItem(tokenKey, token);
      state.token = token;
      byId('token-input').value = '';
      open();
    });
    for (const radio of document.querySelectorAll('input[name=layer]')) {
      radio.addEventListener('change', () => state.form && render());
    }
    byId('profile-select').addEventListener('change', switchProfile);
    byId('reset-all').addEventListener('click', () => edit([{ op: 'clearAll' }]));
    byId('conflict-retry').addEventListener('click', () => state.lastEdits && edit(state.lastEdits));
    byId('conflict-dismiss').addEventListener('click', () => {
      byId('conflict').hidden = true;
      say('Kept the settings as they are now.');
      byId('page-title').focus();
    });
    state.token = readToken();
    if (state.token) open(); else askForToken();
  });
})();
