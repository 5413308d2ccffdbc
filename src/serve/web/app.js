// assay serve: the viewer page (docs/serve.md#the-page). Plain JavaScript, no dependencies.
'use strict';

const params = new URLSearchParams(location.search);
const TOKEN = params.get('token') || '';
const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'onclick') e.addEventListener('click', v);
    else if (k === 'text') e.textContent = v;
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
};
const api = (ep, q) => {
  const u = new URLSearchParams(q);
  if (TOKEN) u.set('token', TOKEN);
  return '/api/' + ep + '?' + u.toString();
};
async function getJson(ep, q) {
  const r = await fetch(api(ep, q));
  const j = await r.json().catch(() => ({ error: { message: 'HTTP ' + r.status } }));
  if (!r.ok || j.error) throw new Error((j.error && j.error.message) || ('HTTP ' + r.status));
  return j;
}
const hex = (n) => '0x' + Number(n).toString(16);
// The ::STEP that names an entry in a path (its name, else #INDEX).
const stepOf = (e) => (e.name && !e.name.includes('::') ? e.name : '#' + e.index);
const isNum = (v) => typeof v === 'number' && Number.isFinite(v);
function human(n) {
  if (!isNum(n)) return String(n);
  const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0, v = n;
  while (v >= 1024 && i < u.length - 1) { v /= 1024; ++i; }
  return i === 0 ? n + ' B' : v.toFixed(v < 10 ? 2 : 1) + ' ' + u[i];
}

// ---- State -----------------------------------------------------------------------------------
// ticket: bumped whenever the container or the selection changes, so an answer that arrives late
// (info of the previous file, links of the previous row) does not overwrite what is shown now.
const state = { container: null, format: null, entries: [], sort: null, selected: null, ticket: 0, hex: { path: null, off: 0, mark: -1 } };

function status(text, err) {
  $('status').textContent = text;
  $('status').className = 'status' + (err ? ' err' : '');
}
function setWhere(path) {
  $('where').textContent = path;
  $('where').title = path;
  history.replaceState(null, '', '?' + new URLSearchParams({ token: TOKEN, path }).toString());
}
function tab(name) {
  for (const b of $('tabs').querySelectorAll('button')) b.classList.toggle('on', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.pane')) p.classList.toggle('on', p.id === 'pane-' + name);
}
// A model entry, or an Oni OBAN (an object animation exported on its objects' geometry).
const hasModel = (e) => !!e && (e.kind === 'model' || (e.kind === 'animation' && e.tag === 'OBAN'));
const isDiscFolder = () => state.format === 'warriors' && !state.container.includes('::') && !state.entries.some((e) => e.kind === 'chunk');
// Which tabs apply to what is open: Preview for a texture, Model for a model, Links for Oni instances and igz
// objects, Loader for a Warriors container file or disc entry, Hex where there are bytes.
function updateTabs() {
  const open = state.container !== null;
  const show = {
    details: true,
    preview: !!(state.selected && state.selected.kind === 'texture'),
    model: hasModel(state.selected),
    sound: !!(state.selected && state.selected.kind === 'sound'),
    hex: open && (!isDiscFolder() || !!state.selected),
    verify: open,
    graph: open && (state.format === 'oni' || state.format === 'igz'),
    trace: open && state.format === 'warriors' && !state.container.includes('::'),
  };
  let current = null;
  for (const b of $('tabs').querySelectorAll('button')) {
    b.hidden = !show[b.dataset.tab];
    if (b.classList.contains('on')) current = b;
  }
  if (current && current.hidden) tab('details');
}
// A tab clicked by hand fills itself when it is still empty.
function tabClicked(name) {
  tab(name);
  const target = state.selected ? state.container + '::' + stepOf(state.selected) : state.container;
  if (!state.container) return;
  if (name === 'hex' && state.hex.path !== target) showHex(isDiscFolder() && !state.selected ? null : target, 0);
  else if (name === 'verify' && !$('verify').hasChildNodes()) verify(state.container, false);
  else if (name === 'graph' && !$('graph').hasChildNodes()) {
    if (state.format === 'igz') igzGraph(state.container);
    else $('graph').replaceChildren(el('p', { class: 'msg', text: 'Select an instance in the table to see its links.' }));
  } else if (name === 'trace' && !$('trace').hasChildNodes()) trace(target);
}

// ---- Lists (one request per container; select= asks the server which entry a step names) ------
const lists = new Map();  // path -> promise of the list JSON, the last few
function listJson(path, select) {
  if (select === undefined && lists.has(path)) return lists.get(path);
  const p = getJson('list', select === undefined ? { path } : { path, select });
  lists.delete(path);
  lists.set(path, p);
  p.catch(() => { if (lists.get(path) === p) lists.delete(path); });
  if (lists.size > 8) lists.delete(lists.keys().next().value);
  return p;
}

// ---- Tree ------------------------------------------------------------------------------------
// kind: 'folder', 'file' (a file on disk), 'disc' (a folder that is a container itself) or
// 'container' (an entry that is a container). Each wrapper has .node, .kids and .expand(open).
function treeNode(label, path, kind, note) {
  const wrap = el('div', { class: 'tnode' });
  const tw = el('span', { class: 'tw', text: '▸' });
  const node = el('div', { class: 'node', 'data-path': path, 'data-kind': kind, title: path }, tw, el('span', { class: 'label', text: label }));
  if (note) node.append(el('span', { class: 'fmt', text: note }));
  const kids = el('div', { class: 'children', hidden: '' });
  let loaded = null;
  wrap.node = node;
  wrap.kids = kids;
  wrap.expand = async (open) => {
    if (!loaded) loaded = kind === 'folder' ? fillFolder(kids, path, tw) : fillContainer(kids, path, tw);
    await loaded;
    if (!kids.childElementCount) return;
    kids.hidden = !open;
    tw.textContent = open ? '▾' : '▸';
  };
  tw.addEventListener('click', (ev) => { ev.stopPropagation(); wrap.expand(kids.hidden); });
  node.addEventListener('click', () => {
    if (kind === 'folder') { markNode(node); wrap.expand(kids.hidden); } else openPath(path);
  });
  wrap.append(node, kids);
  return wrap;
}
function markNode(node) {
  document.querySelectorAll('.node.sel').forEach((n) => n.classList.remove('sel'));
  node.classList.add('sel');
}
async function fillFolder(kids, path, tw) {
  try {
    const j = await getJson('dir', { path });
    if (j.format) kids.append(treeNode('(' + j.format + ' disc)', path, 'disc'));
    for (const e of j.entries) kids.append(treeNode(e.name, e.path, e.kind === 'folder' ? 'folder' : 'file'));
    if (!kids.childElementCount) tw.textContent = '';
  } catch (err) { kids.append(el('div', { class: 'err', text: err.message })); }
}
// The entries that are containers themselves ("container": true in the list).
async function fillContainer(kids, path, tw) {
  try {
    const j = await listJson(path);
    const inner = j.entries.filter((e) => e.container === true);
    for (const e of inner.slice(0, 500)) kids.append(treeNode(e.name || e.path || '#' + e.index, path + '::' + stepOf(e), 'container'));
    if (inner.length > 500) kids.append(el('div', { class: 'fmt', text: '… ' + (inner.length - 500) + ' more (see the table)' }));
    if (!inner.length) tw.textContent = '';
  } catch (err) { tw.textContent = ''; tw.title = err.message; }
}
const childWith = (scope, path, kind) => Array.from(scope.children).find((w) => w.node && w.node.dataset.path === path && (!kind || w.node.dataset.kind === kind));
// Expands the tree down to `path` (ROOT/dir/file::A::B), marks its node and scrolls it into view.
async function revealInTree(path) {
  const cut = path.indexOf('::');
  const file = cut < 0 ? path : path.slice(0, cut);
  const parts = file.split('/');
  const chain = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  if (cut >= 0) { let p = file; for (const s of path.slice(cut + 2).split('::')) chain.push(p += '::' + s); }
  let scope = $('tree'), last = null;
  for (let i = 0; i < chain.length; ++i) {
    let w = childWith(scope, chain[i]);
    if (!w) break;
    if (w.node.dataset.kind === 'folder' && i + 1 < chain.length && chain[i + 1].startsWith(chain[i] + '::')) {
      await w.expand(true);  // a disc folder: its container node has the folder's path
      const disc = childWith(w.kids, chain[i], 'disc');
      if (disc) w = disc;
    }
    last = w;
    await w.expand(true);
    scope = w.kids;
  }
  if (last && last.node.dataset.path === path) {
    markNode(last.node);
    last.node.scrollIntoView({ block: 'nearest' });
  }
}

// ---- Entry table -----------------------------------------------------------------------------
// The useful columns first; name and path are cut with an ellipsis (full text in the tooltip).
const FIRST = ['name', 'size', 'stored_size', 'width', 'height', 'format', 'pixel_format', 'mips', 'kind', 'tag', 'type', 'index', 'offset', 'path'];
const LABEL = { stored_size: 'packed', pixel_format: 'format', index: '#' };
const LONG = new Set(['name', 'path', 'build_path', 'file', 'type_name']);
const SKIP = new Set(['container']);
function columns(entries) {
  const present = (c) => entries.some((e) => e[c] !== undefined && e[c] !== null);
  const cols = FIRST.filter(present);
  if (cols.includes('format') && cols.includes('pixel_format')) cols.splice(cols.indexOf('pixel_format'), 1);
  for (const e of entries.slice(0, 50))
    for (const [k, v] of Object.entries(e))
      if (!cols.includes(k) && !SKIP.has(k) && (v === null || typeof v !== 'object') && cols.length < 14 && present(k)) cols.push(k);
  return cols;
}
function cell(e, c) {
  const v = e[c];
  if (v === null || v === undefined) return el('td');
  const text = c === 'offset' || c === 'hash' ? hex(v) : String(v);
  if (c === 'name' || (c === 'path' && e.name === null)) {
    const td = el('td', { class: 'long', title: String(v) });
    if (e.container === true) td.append(el('span', { class: 'box', text: '▸ ', title: 'a file with entries of its own: double-click to open' }));
    td.append(text);
    return td;
  }
  if (LONG.has(c)) return el('td', { class: 'long', title: String(v), text });
  return el('td', { class: isNum(v) ? 'num' : '', text });
}
function renderTable() {
  const table = $('entries');
  table.hidden = state.container === null;
  const cols = columns(state.entries);
  table.tHead.replaceChildren(el('tr', {}, ...cols.map((c) => el('th', {
    'data-col': c,
    text: (LABEL[c] || c) + (state.sort && state.sort.col === c ? (state.sort.dir > 0 ? ' ▴' : ' ▾') : ''),
    onclick: () => { state.sort = { col: c, dir: state.sort && state.sort.col === c ? -state.sort.dir : 1 }; renderTable(); },
  }))));
  const f = $('filter').value.toLowerCase();
  let rows = state.entries.filter((e) => !f || [e.name, e.path, e.kind, e.type, e.tag].some((v) => v && String(v).toLowerCase().includes(f)));
  if (state.sort) {
    const { col, dir } = state.sort;
    rows = rows.slice().sort((a, b) => {
      const x = a[col], y = b[col];
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * dir;
    });
  }
  let shown = rows.slice(0, 5000);
  if (state.selected && rows.length > 5000 && !shown.includes(state.selected)) shown.push(state.selected);
  table.tBodies[0].replaceChildren(...shown.map((e) => {
    const tr = el('tr', { 'data-index': e.index }, ...cols.map((c) => cell(e, c)));
    if (e.container === true) tr.classList.add('box');
    if (state.selected && state.selected.index === e.index) tr.classList.add('sel');
    tr.addEventListener('click', () => selectEntry(e));
    tr.addEventListener('dblclick', () => { if (e.container !== false) openPath(state.container + '::' + stepOf(e), true); });
    return tr;
  }));
  table.dataset.rows = String(rows.length);
}

async function openContainer(path, selectIndex) {
  const ticket = ++state.ticket;
  state.container = path; state.selected = null; state.sort = null; state.format = null; state.entries = [];
  state.hex = { path: null, off: 0, mark: -1 };
  for (const id of ['verify', 'graph', 'trace', 'hex']) $(id).replaceChildren();
  $('landing').hidden = true;
  setWhere(path);
  status('loading ' + path + ' …');
  const shown = revealInTree(path);
  try {
    const j = await listJson(path);
    if (ticket !== state.ticket) return;
    state.format = j.format; state.entries = j.entries;
    const inner = j.entries.filter((e) => e.container === true).length;
    status(j.entries.length + ' entries · ' + j.format + (inner ? ' · ' + inner + ' with entries of their own (▸)' : ''));
    renderTable();
    toolbar();
    updateTabs();
    const e = selectIndex === undefined ? null : state.entries.find((x) => x.index === selectIndex);
    if (e) selectEntry(e, true);
    else { tab('details'); await showInfo(path); }
  } catch (err) {
    if (ticket !== state.ticket) return;
    state.entries = []; renderTable(); $('toolbar').replaceChildren(); updateTabs();
    status(path + ': ' + err.message, true);
    renderDetails(path, { error: err.message });
  }
  await shown;
}
function toolbar() {
  const p = state.container;
  const b = [el('button', { text: 'Info', onclick: () => { ++state.ticket; tab('details'); showInfo(p); } }),
    el('button', { text: 'Verify', onclick: () => verify(p, false) }),
    el('button', { text: 'Verify deep', onclick: () => verify(p, true) }),
  ];
  if (!isDiscFolder()) b.push(el('button', { text: 'Hex', onclick: () => showHex(p, 0) }));
  if (state.format === 'igz') b.push(el('button', { text: 'Object graph', onclick: () => igzGraph(p) }));
  if (state.format === 'warriors' && !p.includes('::') && state.entries.some((e) => e.kind === 'chunk')) b.push(el('button', { text: 'Loader trace', onclick: () => trace(p) }));
  $('toolbar').replaceChildren(...b);
}
async function showInfo(path) {
  const ticket = state.ticket;
  let j;
  try { j = await getJson('info', { path }); } catch (err) { j = { error: err.message }; }
  if (ticket === state.ticket) renderDetails(path, j);
}

// ---- Details: a key/value table, the raw JSON one click away ---------------------------------
const HEXY = /offset|hash|flags|magic|checksum|crc|^id$|^type$/;
const SIZEY = /size|length|bytes/;
function valueText(k, v) {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (isNum(v)) {
    if (HEXY.test(k) && Number.isInteger(v) && v >= 0) return hex(v) + ' (' + v + ')';
    if (SIZEY.test(k) && v >= 1024) return v.toLocaleString('en') + ' (' + human(v) + ')';
    return String(v);
  }
  if (Array.isArray(v) && v.every((x) => x === null || typeof x !== 'object')) {
    const s = v.join(', ');
    return s.length > 300 ? s.slice(0, 300) + ' … (' + v.length + ' items)' : s;
  }
  if (typeof v === 'object') {
    const s = JSON.stringify(v);
    return s.length > 300 ? s.slice(0, 300) + ' …' : s;
  }
  return String(v);
}
// A value's cell: a list of long strings one a line, a list of flat records as a small table (the
// first 50, then how many more), anything else as valueText.
const CELL_ROWS = 50;
const flat = (x) => x !== null && typeof x === 'object' && !Array.isArray(x) && Object.values(x).every((y) => y === null || typeof y !== 'object');
function valueCell(k, v) {
  const more = (n) => (n > CELL_ROWS ? [el('div', { class: 'more', text: '… ' + (n - CELL_ROWS) + ' more (Raw JSON has them all)' })] : []);
  if (Array.isArray(v) && v.length && v.every((x) => typeof x === 'string') && v.some((x) => x.length > 24))
    return el('td', {}, el('ul', { class: 'plain cell-list' }, ...v.slice(0, CELL_ROWS).map((x) => el('li', { text: x }))), ...more(v.length));
  if (Array.isArray(v) && v.length && v.every(flat)) {
    const cols = [...new Set(v.flatMap((x) => Object.keys(x)))];
    const head = el('tr', {}, ...cols.map((c) => el('th', { text: c })));
    const body = v.slice(0, CELL_ROWS).map((x) => el('tr', {}, ...cols.map((c) => el('td', { text: x[c] === undefined ? '' : valueText(c, x[c]) }))));
    return el('td', {}, el('div', { class: 'cell-wide' }, el('table', { class: 'cell-table' }, el('thead', {}, head), el('tbody', {}, ...body))), ...more(v.length));
  }
  return el('td', { text: valueText(k, v) });
}
function renderDetails(title, obj, actions = []) {
  const rows = Object.entries(obj).filter(([k]) => !SKIP.has(k)).map(([k, v]) => el('tr', {}, el('th', { text: k }), valueCell(k, v)));
  if (obj.container !== undefined && obj.index !== undefined)
    rows.push(el('tr', {}, el('th', { text: 'container' }), el('td', { text: obj.container === null ? 'not checked' : obj.container ? 'yes: it has entries of its own' : 'no' })));
  $('pane-details').replaceChildren(
    ...(actions.length ? [el('div', { class: 'row' }, ...actions)] : []),
    el('h3', { class: 'title', text: title, title }),
    el('table', { class: 'kv', id: 'details' }, el('tbody', {}, ...rows)),
    el('details', { class: 'raw' }, el('summary', { text: 'Raw JSON' }), el('pre', { text: JSON.stringify(obj, null, 2) })));
}

// ---- Selecting an entry ----------------------------------------------------------------------
function selectEntry(e, scroll) {
  ++state.ticket;
  state.selected = e;
  const full = state.container + '::' + stepOf(e);
  setWhere(full);
  for (const tr of $('entries').tBodies[0].rows) {
    const on = tr.dataset.index === String(e.index);
    tr.classList.toggle('sel', on);
    if (on && scroll) tr.scrollIntoView({ block: 'center' });
  }
  const acts = [el('button', { text: 'Hex', 'data-act': 'hex', onclick: () => showHex(full, 0) }),
    el('a', { href: api('entry', { path: full, download: '1' }), text: 'Download', download: '', class: 'button', 'data-act': 'download' })];
  if (hasModel(e)) acts.push(el('a', { href: api('model', { path: full }), text: 'GLB', download: e.path || 'model.glb', class: 'button', 'data-act': 'glb' }));
  if (e.kind === 'sound') acts.push(el('a', { href: api('sound', { path: full }), text: 'WAV', download: (e.name || 'sound') + '.wav', class: 'button', 'data-act': 'wav' }));
  if (e.container !== false) acts.push(el('button', { text: e.container ? 'Open' : 'Try to open', 'data-act': 'open', onclick: () => openPath(full, true) }));
  if (state.format === 'warriors' && !state.container.includes('::')) acts.push(el('button', { text: 'Loader trace', 'data-act': 'trace', onclick: () => trace(full) }));
  renderDetails(e.name || e.path || '#' + e.index, e, acts);
  $('graph').replaceChildren();
  updateTabs();
  if (e.kind === 'texture') { showTexture(full, e); return; }
  if (hasModel(e)) { showModel(full); return; }
  if (e.kind === 'sound') { showSound(full, e); return; }
  if (state.format === 'oni') { oniLinks(full); return; }
  if (state.format === 'igz') { igzGraph(state.container, e.index); return; }
  tab('details');
}

// ---- Texture preview -------------------------------------------------------------------------
function showTexture(path, e) {
  const mips = Number(e.mips || e.mip_count || e.levels || 1);
  $('mip').replaceChildren(...Array.from({ length: Math.max(1, Math.min(mips, 16)) }, (_, i) => el('option', { value: i, text: i })));
  $('mip').onchange = () => loadTexture(path);
  $('zoom').onchange = () => zoom();
  tab('preview');
  loadTexture(path);
}
function loadTexture(path) {
  const img = $('texture');
  img.removeAttribute('data-loaded');
  $('preview-msg').textContent = 'decoding …';
  $('preview-msg').className = 'msg';
  img.onload = () => {
    img.dataset.loaded = '1';
    img.dataset.width = String(img.naturalWidth);
    img.dataset.height = String(img.naturalHeight);
    $('preview-msg').textContent = img.naturalWidth + ' × ' + img.naturalHeight;
    zoom();
  };
  img.onerror = async () => {
    img.dataset.loaded = '0';
    const r = await fetch(img.src).catch(() => null);
    const j = r ? await r.json().catch(() => null) : null;
    $('preview-msg').textContent = (j && j.error && j.error.message) || 'cannot decode this texture';
    $('preview-msg').className = 'msg err';
  };
  img.src = api('texture', { path, mip: $('mip').value || '0' });
}
function zoom() {
  const img = $('texture'), z = Number($('zoom').value);
  if (img.naturalWidth) { img.style.width = img.naturalWidth * z + 'px'; img.style.height = img.naturalHeight * z + 'px'; }
}

// ---- Sound (16-bit PCM WAV from the API, played by the browser) ------------------------------
function showSound(path, e) {
  tab('sound');
  const audio = $('audio');
  audio.removeAttribute('data-loaded');
  $('sound-msg').textContent = 'decoding …';
  $('sound-msg').className = 'msg';
  // samples: per channel (the entry's "frames")
  const facts = [['rate', e.rate ? e.rate + ' Hz' : '-'], ['channels', e.channels], ['samples', e.frames], ['codec', e.codec || '-'],
    ['duration', e.rate && e.frames ? (e.frames / e.rate).toFixed(3) + ' s' : '-']];
  $('sound-facts').replaceChildren(...facts.map(([k, v]) => el('tr', {}, el('td', { text: k }), el('td', { text: String(v ?? '-') }))));
  audio.onloadedmetadata = () => {
    audio.dataset.loaded = '1';
    $('sound-msg').textContent = audio.duration.toFixed(3) + ' s';
  };
  audio.onerror = async () => {
    audio.dataset.loaded = '0';
    const r = await fetch(audio.src).catch(() => null);
    const j = r ? await r.json().catch(() => null) : null;
    $('sound-msg').textContent = (j && j.error && j.error.message) || 'cannot decode this sound';
    $('sound-msg').className = 'msg err';
  };
  audio.src = api('sound', { path });
}

// ---- Model view (model.js: three.js, loaded on first use) ------------------------------------
let modelJs = null;
async function showModel(path) {
  tab('model');
  try {
    modelJs = modelJs || import('./model.js?token=' + encodeURIComponent(TOKEN));
    (await modelJs).showModel(api('model', { path }));
  } catch (err) {
    modelJs = null;
    $('model-msg').textContent = 'cannot load the 3D view: ' + err.message;
    $('model-msg').className = 'msg err';
  }
}

// ---- Hex view (paged by Range requests) ------------------------------------------------------
const PAGE = 4096;
async function showHex(path, offset) {
  tab('hex');
  if (!path) { $('hex').textContent = 'a folder has no bytes: select an entry'; return; }
  const page = Math.max(0, Math.floor(offset / PAGE) * PAGE);
  state.hex = { path, off: page, mark: offset };
  $('hex-off').value = hex(offset);
  try {
    const r = await fetch(api('entry', { path }), { headers: { Range: `bytes=${page}-${page + PAGE - 1}` } });
    if (r.status === 416) { $('hex').textContent = 'offset past the end'; return; }
    if (!r.ok) { const j = await r.json(); throw new Error(j.error.message); }
    const buf = new Uint8Array(await r.arrayBuffer());
    if (state.hex.path !== path || state.hex.off !== page) return;  // another page was asked for since
    const total = (r.headers.get('Content-Range') || '').split('/')[1] || buf.length;
    $('hex-info').textContent = path + ' · ' + total + ' bytes';
    const lines = [];
    for (let i = 0; i < buf.length; i += 16) {
      const row = buf.subarray(i, i + 16);
      const o = (page + i).toString(16).padStart(8, '0');
      const h = Array.from(row, (b) => b.toString(16).padStart(2, '0')).join(' ').padEnd(47);
      const a = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : '.')).join('');
      lines.push([o, h, a, page + i]);
    }
    $('hex').replaceChildren(...lines.map(([o, h, a, start]) => {
      const line = el('div', { text: o + '  ' + h + '  ' + a });
      if (offset >= start && offset < start + 16) line.classList.add('hi');
      return line;
    }));
    const hi = $('hex').querySelector('.hi');
    if (hi) hi.scrollIntoView({ block: 'center' });
  } catch (err) { $('hex').textContent = err.message; }
}

// verify_deep labels an inner file's problems "ENTRY: structure" with offsets in that file's
// bytes (src/formats/container.cc): such an offset opens the entry's hex view.
function problemFile(path, p) {
  if (path !== state.container || !p.structure) return path;
  let best = null;
  for (const e of state.entries) {
    const label = e.name || e.path;
    if (label && (p.structure === label || p.structure.startsWith(label + ': ')) && (!best || label.length > (best.name || best.path).length)) best = e;
  }
  return best ? path + '::' + stepOf(best) : path;
}

// ---- Verify ----------------------------------------------------------------------------------
async function verify(path, deep) {
  tab('verify');
  $('verify').textContent = 'verifying …';
  try {
    const j = await getJson('verify', deep ? { path, deep: '1' } : { path });
    if (path !== state.container) return;
    const head = el('div', { class: j.ok ? 'ok' : 'err', text: `${j.file}: ${j.ok ? 'ok' : 'problems'} · ${j.errors} error(s), ${j.warnings} warning(s)` });
    const list = el('ul', { class: 'plain' }, ...j.problems.map((p) => el('li', {},
      el('span', { class: 'sev-' + p.severity, text: p.severity + ' ' }),
      p.offset !== null && p.offset !== undefined && typeof p.offset === 'number'
        ? el('a', { text: hex(p.offset), onclick: () => showHex(deep ? problemFile(path, p) : path, p.offset) }) : '',
      ' ' + (p.structure || '') + ': ' + p.message)));
    $('verify').replaceChildren(head, list);
  } catch (err) { $('verify').textContent = err.message; }
}

// ---- Links: igz object edges, Oni instance links ----------------------------------------------
async function igzGraph(path, focus) {
  tab('graph');
  const ticket = state.ticket;
  try {
    const j = await getJson('igz', { path });
    if (ticket !== state.ticket) return;
    const items = j.objects.map((o) => el('li', { class: 'obj', id: 'obj-' + o.index },
      el('b', { text: '#' + o.index + ' ' + o.type }), ' @' + hex(o.offset) + ' ',
      ...o.edges.map((e) => e.target_object === null || e.target_object === undefined
        ? el('span', { text: ' ·' + hex(e.field) + '→' + hex(e.target) })
        : el('span', {}, ' ·' + hex(e.field) + '→', el('a', { text: '#' + e.target_object, onclick: () => focusObject(e.target_object) })))));
    $('graph').replaceChildren(el('div', { text: j.objects.length + ' objects, ' + (j.edges ? j.edges.length : 0) + ' edges' }), el('ul', { class: 'plain' }, ...items));
    if (focus !== undefined) focusObject(focus, true);
  } catch (err) { if (ticket === state.ticket) $('graph').textContent = err.message; }
}
function focusObject(i, quiet) {
  document.querySelectorAll('.obj.sel').forEach((n) => n.classList.remove('sel'));
  const li = $('obj-' + i);
  if (li) { li.classList.add('sel'); li.scrollIntoView({ block: 'center' }); }
  if (!quiet) {
    const e = state.entries.find((x) => x.index === i);
    if (e) {
      state.selected = e;
      for (const tr of $('entries').tBodies[0].rows) {
        const on = tr.dataset.index === String(i);
        tr.classList.toggle('sel', on);
        if (on) tr.scrollIntoView({ block: 'nearest' });
      }
    }
  }
}
async function oniLinks(path) {
  tab('graph');
  const ticket = state.ticket;
  try {
    const j = await getJson('oni', { path });
    if (ticket !== state.ticket) return;
    const link = (p, text) => (p ? el('a', { text, title: p, onclick: () => openPath(p) }) : el('span', { text }));
    $('graph').replaceChildren(
      el('div', { text: (j.name || '#' + j.index) + ': ' + j.links.length + ' link(s), linked by ' + j.linked_by.length }),
      el('ul', { class: 'plain' }, ...j.links.map((l) => el('li', {}, '+' + hex(l.offset) + ' → ', link(l.path, (l.name || ('#' + l.target)) + (l.bad ? ' (bad)' : ''))))),
      el('div', { text: 'linked by' }),
      el('ul', { class: 'plain' }, ...j.linked_by.map((l) => el('li', {}, link(l.path, '#' + l.instance), ' +' + hex(l.offset)))));
  } catch (err) { if (ticket === state.ticket) $('graph').textContent = err.message; }
}

// ---- Warriors loader trace -------------------------------------------------------------------
async function trace(path) {
  tab('trace');
  $('trace').textContent = 'loading …';
  try {
    const j = await getJson('warriors', { path });
    const parts = [el('div', { class: j.ok ? '' : 'err', text: `${j.file}: ${j.container} loader, ${j.ok ? 'loaded' : 'failed'} · ${j.chunks} chunks` })];
    if (j.error) parts.push(el('div', { class: 'err' }, 'error: ' + j.error.message + ' at ', el('a', { text: hex(j.error.offset || 0), onclick: () => showHex(path, j.error.offset || 0) })));
    if (j.chunk_stack) parts.push(el('div', { text: 'chunk stack (bottom first)' }), el('ul', { class: 'plain' }, ...j.chunk_stack.map((c) => el('li', { text: JSON.stringify(c) }))));
    if (j.chunk_counts) parts.push(el('div', { text: 'chunk counts' }), el('ul', { class: 'plain' }, ...j.chunk_counts.map((c) => el('li', { text: `${hex(c.type)} ${c.name}: ${c.count}` }))));
    parts.push(el('details', {}, el('summary', { text: 'Raw JSON' }), el('pre', { text: JSON.stringify(j, null, 2) })));
    $('trace').replaceChildren(...parts);
  } catch (err) { $('trace').textContent = err.message; }
}

// ---- Opening a path (tree clicks, deep links, link targets) ----------------------------------
// FILE::A::B: each step is looked up by the server (select=), as the API looks up a path, so
// "actors/zap.igz" finds "actors\zap.igz" and an alias finds its entry. The path is rewritten
// with each entry's own step. The last step is opened when it is a container (or, with `open`,
// when it may be one: not checked), else selected.
async function openPath(path, open) {
  const cut = path.indexOf('::');
  if (cut < 0) return openContainer(path);
  let cur = path.slice(0, cut);
  const steps = path.slice(cut + 2).split('::');
  for (let i = 0; i < steps.length; ++i) {
    let j;
    try { j = await listJson(cur, steps[i]); } catch (_) { return openContainer(cur); }  // shows the error
    const e = j.selected === null || j.selected === undefined ? null : j.entries.find((x) => x.index === j.selected);
    if (!e) {
      await openContainer(cur);
      status('no entry ' + steps[i] + ' in ' + cur, true);
      return;
    }
    if (i === steps.length - 1 && !(e.container === true || (open && e.container !== false))) return openContainer(cur, e.index);
    cur += '::' + stepOf(e);
  }
  return openContainer(cur);
}

// ---- Resizable panes ---------------------------------------------------------------------------
// A separator sets the width of the pane beside it (the tree left of the first, the side pane right
// of the second) by dragging or with the arrow keys; double-click resets it. Widths are kept in
// localStorage, so the page opens as it was left.
const SPLITS = [{ id: 'split-tree', pane: 'tree', prop: '--tree-w', sign: 1 }, { id: 'split-side', pane: 'side', prop: '--side-w', sign: -1 }];
function setPaneWidth(sp, px) {
  const main = document.querySelector('main');
  if (px === null) {
    main.style.removeProperty(sp.prop);
    try { localStorage.removeItem('assay' + sp.prop); } catch (_) { /* storage off */ }
    return;
  }
  const w = Math.round(Math.max(120, Math.min(px, window.innerWidth - 360)));
  main.style.setProperty(sp.prop, w + 'px');
  try { localStorage.setItem('assay' + sp.prop, String(w)); } catch (_) { /* storage off */ }
}
function splitters() {
  for (const sp of SPLITS) {
    const h = $(sp.id);
    let saved = null;
    try { saved = Number(localStorage.getItem('assay' + sp.prop)); } catch (_) { /* storage off */ }
    if (saved) setPaneWidth(sp, saved);
    h.addEventListener('pointerdown', (e) => {
      const x0 = e.clientX, w0 = $(sp.pane).getBoundingClientRect().width;
      h.setPointerCapture(e.pointerId);
      h.classList.add('drag');
      const move = (m) => setPaneWidth(sp, w0 + sp.sign * (m.clientX - x0));
      const up = () => { h.classList.remove('drag'); h.removeEventListener('pointermove', move); h.removeEventListener('pointerup', up); };
      h.addEventListener('pointermove', move);
      h.addEventListener('pointerup', up);
      e.preventDefault();
    });
    h.addEventListener('dblclick', () => setPaneWidth(sp, null));
    h.addEventListener('keydown', (e) => {
      const step = e.key === 'ArrowRight' ? 16 : e.key === 'ArrowLeft' ? -16 : 0;
      if (step) { setPaneWidth(sp, $(sp.pane).getBoundingClientRect().width + sp.sign * step); e.preventDefault(); }
    });
  }
}

async function start() {
  splitters();
  for (const b of $('tabs').querySelectorAll('button')) b.addEventListener('click', () => tabClicked(b.dataset.tab));
  $('filter').addEventListener('input', renderTable);
  $('hex-go').addEventListener('click', () => showHex(state.hex.path, parseInt($('hex-off').value, 16) || 0));
  $('hex-prev').addEventListener('click', () => showHex(state.hex.path, Math.max(0, state.hex.off - PAGE)));
  $('hex-next').addEventListener('click', () => showHex(state.hex.path, state.hex.off + PAGE));
  $('entries').hidden = true;
  try {
    const j = await getJson('roots', {});
    $('tree').replaceChildren(...j.roots.map((r) => treeNode(r.name, r.path, r.kind === 'folder' ? 'folder' : 'file')));
    const deep = params.get('path');
    if (j.roots.length === 1 && j.roots[0].kind === 'folder' && !deep) await $('tree').firstChild.expand(true);
  } catch (err) { status(err.message, true); }
  const deep = params.get('path');
  if (deep) await openPath(deep);
  document.body.dataset.ready = '1';  // start-up done (tests wait for it)
  if (!deep) return;
  // &view=verify|hex|trace opens that view of the deep link (bookmarks, tests).
  const view = params.get('view');
  if (view === 'verify') verify(state.container, false);
  else if (view === 'hex') showHex(deep, Number(params.get('offset')) || 0);
  else if (view === 'trace') trace(deep);
}
start();
