// The preview: a passage (and a picture) in the book's language, styled by the CSS route's
// Readium CSS user properties that take effect. A property the route lists in `notInEffect`
// (publisher styles on, an image filter outside the dark theme) is left out, as Readium CSS
// ignores it: the preview shows what the reader will see.
import { byId, configurable, bookBase, cssSuffix, api } from './page.js';

const passages = {
  en: 'It was a bright cold day in April, and the clocks were striking thirteen. The hallway smelt of boiled cabbage and old rag mats.',
  ar: 'كان يومًا مشرقًا باردًا من أيام أبريل، وكانت الساعات تدق الثالثة عشرة. وكانت رائحة الممر تفوح بالملفوف المسلوق.',
  he: 'זה היה יום בהיר וקר באפריל, והשעונים צלצלו שלוש־עשרה. המסדרון הדיף ריח של כרוב מבושל.',
  fa: 'روزی روشن و سرد در ماه آوریل بود و ساعت‌ها سیزده بار می‌نواختند.',
  ja: '四月の晴れた寒い日だった。時計が十三時を打っていた。廊下には煮たキャベツの匂いがしていた。',
};
const themes = { 'readium-night-on': ['#000000', '#FEFEFE'], 'readium-sepia-on': ['#FAF4E8', '#121212'] };

export async function loadPreview() {
  if (configurable !== 'epub') {
    document.querySelector('.preview-panel').hidden = true;
    return;
  }
  const response = await api('GET', `${bookBase}/css${cssSuffix}`);
  if (!response.ok) return;
  const css = await response.json();
  const preview = byId('preview');
  const language = css.lang || 'en';
  byId('preview-text').textContent = passages[language.toLowerCase().split('-')[0]] || passages.en;
  preview.setAttribute('lang', language);
  // The direction and writing mode as the book's stylesheet variant gives them.
  if (css.dir) preview.setAttribute('dir', css.dir); else preview.removeAttribute('dir');
  preview.classList.toggle('vertical', css.stylesheets === 'cjkVertical');
  const ignored = new Set(css.notInEffect || []);
  const properties = {};
  for (const [name, value] of Object.entries(css.properties || {})) if (!ignored.has(name)) properties[name] = value;
  for (const name of Array.from(preview.style)) preview.style.removeProperty(name);
  for (const [name, value] of Object.entries(properties)) preview.style.setProperty(name, value);
  const themed = themes[properties['--USER__appearance']];
  if (themed && !properties['--USER__backgroundColor']) preview.style.setProperty('--USER__backgroundColor', themed[0]);
  if (themed && !properties['--USER__textColor']) preview.style.setProperty('--USER__textColor', themed[1]);
  const columns = properties['--USER__colCount'];
  preview.style.setProperty('--preview-columns', columns && columns !== 'auto' ? columns : 'auto');
  preview.classList.toggle('filter-darken', properties['--USER__darkenImages'] === 'readium-darken-on');
  preview.classList.toggle('filter-invert', properties['--USER__invertImages'] === 'readium-invert-on');
}
