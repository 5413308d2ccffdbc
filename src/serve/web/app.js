// assay serve: the viewer page (docs/serve.md). Plain JavaScript, no dependencies.
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
const stepOf = (e) => (e.name && !e.name.includes('::') ? e.name : '#' + e.index);

// ---- State -----------------------------------------------------------------------------------
const state = { container: null, format: null, entries: [], sort: null, selected: null, hex: { path: null, off: 0, mark: -1 } };

function status(text, err) {
  $('status').textContent = text;
  $('status').className = 'status' + (err ? ' err' : '');
}
function tab(name) {
  for (const b of $('tabs').querySelectorAll('button')) b.classList.toggle('on', b.dataset.tab === name);
  for (const p of document.querySelectorAll('.pane')) p.classList.toggle('on', p.id === 'pane-' + name);
}

// ---- Tree ------------------------------------------------------------------------------------
function treeNode(label, path, kind, fmt) {
  const wrap = el('div');
  const tw = el('span', { class: 'tw', text: kind === 'leaf' ? '' : '▸' });
  const node = el('div', { class: 'node', 'data-path': path }, tw, label);
  if (fmt) node.append(el('span', { class: 'fmt', text: fmt }));
  const kids = el('div', { class: 'children' });
  let loaded = false;
  node.addEventListener('click', async () => {
    document.querySelectorAll('.node.sel').forEach((n) => n.classList.remove('sel'));
    node.classList.add('sel');
    if (kind === 'folder') {
      if (!loaded) { loaded = true; await fillFolder(kids, path, tw); } else toggle(kids, tw);
    } else {
      if (!loaded) { loaded = true; await fillContainer(kids, path, tw); } else toggle(kids, tw);
      openContainer(path);
    }
  });
  wrap.append(node, kids);
  return wrap;
}
function toggle(kids, tw) {
  kids.hidden = !kids.hidden;
  tw.textContent = kids.hidden ? '▸' : '▾';
}
async function fillFolder(kids, path, tw) {
  try {
    const j = await getJson('dir', { path });
    tw.textContent = '▾';
    if (j.format) kids.append(treeNode('(' + j.format + ' container)', path, 'container', j.format));
    for (const e of j.entries) kids.append(treeNode(e.name, e.path, e.kind === 'folder' ? 'folder' : 'file'));
  } catch (err) { kids.append(el('div', { class: 'err', text: err.message })); }
}
async function fillContainer(kids, path, tw) {
  try {
    const j = await getJson('list', { path });
    tw.textContent = '▾';
    const nested = j.entries.filter((e) => e.nested);
    for (const e of nested.slice(0, 500)) kids.append(treeNode(e.name || e.path, path + '::' + stepOf(e), 'container'));
    if (nested.length > 500) kids.append(el('div', { class: 'fmt', text: '… ' + (nested.length - 500) + ' more (see the table)' }));
    if (!nested.length) tw.textContent = '';
  } catch (err) { tw.textContent = '!'; }
}

// ---- Entry table -----------------------------------------------------------------------------
const FIRST = ['index', 'name', 'path', 'kind', 'size', 'stored_size', 'offset'];
function columns(entries) {
  const cols = FIRST.filter((c) => entries.some((e) => e[c] !== undefined && e[c] !== null));
  for (const e of entries.slice(0, 50))
    for (const [k, v] of Object.entries(e))
      if (!cols.includes(k) && k !== 'nested' && (v === null || typeof v !== 'object') && cols.length < 12) cols.push(k);
  return cols;
}
function renderTable() {
  const cols = columns(state.entries);
  const thead = $('entries').tHead, tbody = $('entries').tBodies[0];
  thead.replaceChildren(el('tr', {}, ...cols.map((c) => el('th', {
    text: c + (state.sort && state.sort.col === c ? (state.sort.dir > 0 ? ' ▴' : ' ▾') : ''),
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
  tbody.replaceChildren(...rows.slice(0, 5000).map((e) => {
    const tr = el('tr', { 'data-index': e.index }, ...cols.map((c) => el('td', { text: e[c] === null || e[c] === undefined ? '' : (c === 'offset' ? hex(e[c]) : String(e[c])) })));
    if (state.selected && state.selected.index === e.index) tr.classList.add('sel');
    tr.addEventListener('click', () => selectEntry(e));
    tr.addEventListener('dblclick', () => { if (e.nested) openContainer(state.container + '::' + stepOf(e)); });
    return tr;
  }));
  $('entries').dataset.rows = String(rows.length);
}

async function openContainer(path, selectStep) {
  state.container = path; state.selected = null; state.sort = null;
  $('where').textContent = path;
  history.replaceState(null, '', '?' + new URLSearchParams({ token: TOKEN, path }).toString());
  status('loading ' + path + ' …');
  try {
    const j = await getJson('list', { path });
    state.format = j.format; state.entries = j.entries;
    status(j.entries.length + ' entries · ' + j.format);
    renderTable();
    toolbar();
    await showInfo(path);
    if (selectStep) {
      const e = state.entries.find((x) => stepOf(x) === selectStep || x.name === selectStep || x.path === selectStep || '#' + x.index === selectStep);
      if (e) selectEntry(e); else status('no entry ' + selectStep + ' in ' + path, true);
    }
  } catch (err) {
    state.entries = []; renderTable(); $('toolbar').replaceChildren();
    status(path + ': ' + err.message, true);
  }
}
function toolbar() {
  const p = state.container;
  const b = [el('button', { text: 'Info', onclick: () => showInfo(p) }),
    el('button', { text: 'Verify', onclick: () => verify(p, false) }),
    el('button', { text: 'Verify deep', onclick: () => verify(p, true) }),
  ];
  if (!(state.format === 'warriors' && !p.includes('::') && !state.entries.some((e) => e.kind === 'chunk')))
    b.push(el('button', { text: 'Hex', onclick: () => showHex(p, 0) }));  // not for a disc folder
  if (state.format === 'igz') b.push(el('button', { text: 'Object graph', onclick: () => igzGraph(p) }));
  if (state.format === 'warriors' && !p.includes('::') && state.entries.some((e) => e.kind === 'chunk')) b.push(el('button', { text: 'Loader trace', onclick: () => trace(p) }));
  $('toolbar').replaceChildren(...b);
}
async function showInfo(path) {
  try { $('details').textContent = JSON.stringify(await getJson('info', { path }), null, 2); }
  catch (err) { $('details').textContent = err.message; }
  if (!state.selected) tab('details');
}

// ---- Selecting an entry ----------------------------------------------------------------------
function selectEntry(e) {
  state.selected = e;
  const full = state.container + '::' + stepOf(e);
  history.replaceState(null, '', '?' + new URLSearchParams({ token: TOKEN, path: full }).toString());
  $('where').textContent = full;
  for (const tr of $('entries').tBodies[0].rows) tr.classList.toggle('sel', tr.dataset.index === String(e.index));
  const acts = el('div', { class: 'row' },
    el('button', { text: 'Hex', onclick: () => showHex(full, 0) }),
    el('a', { href: api('entry', { path: full, download: '1' }), text: 'Download', download: '' }));
  if (e.nested) acts.append(' ', el('button', { text: 'Open', onclick: () => openContainer(full) }));
  if (state.format === 'warriors' && !state.container.includes('::')) acts.append(' ', el('button', { text: 'Loader trace', onclick: () => trace(full) }));
  const pre = el('pre', { text: JSON.stringify(e, null, 2) });
  $('pane-details').replaceChildren(acts, pre);
  if (e.kind === 'texture') { showTexture(full, e); return; }
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

// ---- Hex view (paged by Range requests) ------------------------------------------------------
const PAGE = 4096;
async function showHex(path, offset) {
  const page = Math.max(0, Math.floor(offset / PAGE) * PAGE);
  state.hex = { path, off: page, mark: offset };
  tab('hex');
  $('hex-off').value = hex(offset);
  try {
    const r = await fetch(api('entry', { path }), { headers: { Range: `bytes=${page}-${page + PAGE - 1}` } });
    if (r.status === 416) { $('hex').textContent = 'offset past the end'; return; }
    if (!r.ok) { const j = await r.json(); throw new Error(j.error.message); }
    const buf = new Uint8Array(await r.arrayBuffer());
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
    const head = el('div', { class: j.ok ? '' : 'err', text: `${j.file}: ${j.ok ? 'ok' : 'problems'} · ${j.errors} error(s), ${j.warnings} warning(s)` });
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
  try {
    const j = await getJson('igz', { path });
    const items = j.objects.map((o) => el('li', { class: 'obj', id: 'obj-' + o.index },
      el('b', { text: '#' + o.index + ' ' + o.type }), ' @' + hex(o.offset) + ' ',
      ...o.edges.map((e) => e.target_object === null || e.target_object === undefined
        ? el('span', { text: ' ·' + hex(e.field) + '→' + hex(e.target) })
        : el('span', {}, ' ·' + hex(e.field) + '→', el('a', { text: '#' + e.target_object, onclick: () => focusObject(e.target_object) })))));
    $('graph').replaceChildren(el('div', { text: j.objects.length + ' objects, ' + (j.edges ? j.edges.length : 0) + ' edges' }), el('ul', { class: 'plain' }, ...items));
    if (focus !== undefined) focusObject(focus, true);
  } catch (err) { $('graph').textContent = err.message; }
}
function focusObject(i, quiet) {
  document.querySelectorAll('.obj.sel').forEach((n) => n.classList.remove('sel'));
  const li = $('obj-' + i);
  if (li) { li.classList.add('sel'); li.scrollIntoView({ block: 'center' }); }
  if (!quiet) {
    const e = state.entries.find((x) => x.index === i);
    if (e) { state.selected = e; for (const tr of $('entries').tBodies[0].rows) tr.classList.toggle('sel', tr.dataset.index === String(i)); }
  }
}
async function oniLinks(path) {
  tab('graph');
  try {
    const j = await getJson('oni', { path });
    const link = (p, text) => (p ? el('a', { text, onclick: () => openPath(p) }) : el('span', { text }));
    $('graph').replaceChildren(
      el('div', { text: (j.name || '#' + j.index) + ': ' + j.links.length + ' link(s), linked by ' + j.linked_by.length }),
      el('ul', { class: 'plain' }, ...j.links.map((l) => el('li', {}, '+' + hex(l.offset) + ' → ', link(l.path, (l.name || ('#' + l.target)) + (l.bad ? ' (bad)' : ''))))),
      el('div', { text: 'linked by' }),
      el('ul', { class: 'plain' }, ...j.linked_by.map((l) => el('li', {}, link(l.path, '#' + l.instance), ' +' + hex(l.offset)))));
  } catch (err) { $('graph').textContent = err.message; }
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
    parts.push(el('details', {}, el('summary', { text: 'JSON' }), el('pre', { text: JSON.stringify(j, null, 2) })));
    $('trace').replaceChildren(...parts);
  } catch (err) { $('trace').textContent = err.message; }
}

// ---- Opening a path (deep links, link targets) -----------------------------------------------
async function openPath(path) {
  const cut = path.lastIndexOf('::');
  if (cut < 0) return openContainer(path);
  // FILE::A::B: B opened as a container when it is one (not a texture), else selected in FILE::A.
  const parent = path.slice(0, cut), step = path.slice(cut + 2);
  try {
    const j = await getJson('list', { path: parent });
    const e = j.entries.find((x) => stepOf(x) === step || x.name === step || x.path === step || '#' + x.index === step);
    if (e && e.nested && e.kind !== 'texture') return openContainer(path);
  } catch (_) { /* the parent's error shows below */ }
  return openContainer(parent, step);
}

async function start() {
  for (const b of $('tabs').querySelectorAll('button')) b.addEventListener('click', () => tab(b.dataset.tab));
  $('filter').addEventListener('input', renderTable);
  $('hex-go').addEventListener('click', () => showHex(state.hex.path, parseInt($('hex-off').value, 16) || 0));
  $('hex-prev').addEventListener('click', () => showHex(state.hex.path, Math.max(0, state.hex.off - PAGE)));
  $('hex-next').addEventListener('click', () => showHex(state.hex.path, state.hex.off + PAGE));
  try {
    const j = await getJson('roots', {});
    $('tree').replaceChildren(...j.roots.map((r) => treeNode(r.name, r.path, r.kind === 'folder' ? 'folder' : 'file')));
    if (j.roots.length === 1 && j.roots[0].kind === 'folder') $('tree').querySelector('.node').click();
  } catch (err) { status(err.message, true); }
  const deep = params.get('path');
  if (!deep) return;
  await openPath(deep);
  // &view=verify|hex|trace opens that view of the deep link (bookmarks, tests).
  const view = params.get('view');
  if (view === 'verify') verify(state.container, false);
  else if (view === 'hex') showHex(deep, Number(params.get('offset')) || 0);
  else if (view === 'trace') trace(deep);
}
start();
