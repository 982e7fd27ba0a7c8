// A native control per kind of row (Specs/Page.md §2). Each change is sent with what it is in
// words ("Font size one step up"), which a conflict names.
import { element } from './page.js';
import { edit } from './edits.js';

const isNone = (option) => option.value === undefined || option.value === null;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

export function control(row, id, describedBy) {
  const kind = Object.keys(row.control || {})[0] || 'text';
  const details = (row.control || {})[kind] || {};
  const make = { picker, suggestions, toggle, stepper: range, slider: range, color, custom }[kind] || text;
  return make(row, id, describedBy, details, kind);
}

function choose(row, option) {
  return edit(isNone(option) ? [{ key: row.key, op: 'clear' }] : [{ key: row.key, op: 'set', value: option.value }],
    `${row.title} to ${option.label}`);
}

function select(row, id, describedBy, options) {
  const node = element('select', { id, 'aria-describedby': describedBy });
  const hasNone = options.some(isNone);
  // What is shown is what applies: the stored value, or with none stored, the "none" entry
  // where there is one, otherwise the effective value.
  const shown = row.storedValue !== undefined ? row.storedValue : hasNone ? undefined : row.effectiveValue;
  options.forEach((option, index) => {
    const selected = isNone(option) ? shown === undefined : same(option.value, shown);
    node.append(element('option', { value: String(index), selected }, option.label));
  });
  node.addEventListener('change', () => choose(row, options[Number(node.value)]));
  return node;
}

function picker(row, id, describedBy, details) {
  return [select(row, id, describedBy, details.options)];
}

// The values the app offers (its fonts) with the reader's own kept among them, and a box for another.
function suggestions(row, id, describedBy, details) {
  const other = element('input', { type: 'text', id: `other-${row.key}`, class: 'other', placeholder: 'Another…' });
  other.addEventListener('change', () => {
    const value = other.value.trim();
    if (value) edit([{ key: row.key, op: 'set', value }], `${row.title} to ${value}`);
  });
  const label = element('label', { for: other.id, class: 'note' }, `Another ${row.title.toLowerCase()}`);
  return [select(row, id, describedBy, details.options), label, other];
}

function toggle(row, id, describedBy) {
  const box = element('input', { type: 'checkbox', id, checked: row.effectiveValue === true, 'aria-describedby': describedBy });
  box.addEventListener('change', () => edit([{ key: row.key, op: 'set', value: box.checked }], `${row.title} ${box.checked ? 'on' : 'off'}`));
  return [box];
}

function range(row, id, describedBy, details, kind) {
  const [low, high] = details.range || [0, 1];
  const step = details.step || (high - low) / 100;
  const wrap = element('div', { class: 'range-wrap' });
  const minus = element('button', { type: 'button', id: `dec-${row.key}`, 'aria-label': `Less: ${row.title}` }, '−');
  const plus = element('button', { type: 'button', id: `inc-${row.key}`, 'aria-label': `More: ${row.title}` }, '+');
  const value = typeof row.effectiveValue === 'number' ? row.effectiveValue : low;
  const slider = element('input', {
    type: 'range', id, min: low, max: high, step, value,
    'aria-valuetext': row.formattedValue || String(value), 'aria-describedby': describedBy,
  });
  minus.addEventListener('click', () => edit([{ key: row.key, op: 'decrement' }], `${row.title} one step down`));
  plus.addEventListener('click', () => edit([{ key: row.key, op: 'increment' }], `${row.title} one step up`));
  slider.addEventListener('change', () => {
    const number = Number(slider.value);
    const shown = kind === 'slider' ? `${Math.round(number * 100)}%` : String(number);
    edit([{ key: row.key, op: 'set', value: number }], `${row.title} to ${shown}`);
  });
  wrap.append(minus, slider, plus);
  return [wrap];
}

function color(row, id, describedBy) {
  const current = typeof row.effectiveValue === 'string' && /^#[0-9a-fA-F]{6}$/.test(row.effectiveValue)
    ? row.effectiveValue.toLowerCase() : '#ffffff';
  const well = element('input', { type: 'color', id, value: current, 'aria-describedby': describedBy });
  well.addEventListener('change', () => {
    const value = well.value.toUpperCase();
    edit([{ key: row.key, op: 'set', value }], `${row.title} to ${value}`);
  });
  return [well];
}

// A control the page does not know how to draw: its value, read only (Reset still works).
function custom(row, id, describedBy) {
  return [element('input', { type: 'text', id, readonly: true, value: row.formattedValue || '', 'aria-describedby': describedBy })];
}

// A text value shows what applies: the stored text, or with none stored, the effective value.
function text(row, id, describedBy) {
  const shown = typeof row.storedValue === 'string' ? row.storedValue
    : typeof row.effectiveValue === 'string' ? row.effectiveValue : '';
  const field = element('input', { type: 'text', id, value: shown, 'aria-describedby': describedBy });
  field.addEventListener('change', () => {
    const value = field.value.trim();
    if (value === shown) return;
    edit(value ? [{ key: row.key, op: 'set', value }] : [{ key: row.key, op: 'clear' }],
      value ? `${row.title} to “${value}”` : `reset ${row.title}`);
  });
  return [field];
}
