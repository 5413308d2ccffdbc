#!/usr/bin/env python3
"""Clicks through the viewer as a person would, in ONE page of headless Chromium (issue 29 item 1).

usage: browser_click.py CHROMEDRIVER CHROMIUM URL SAMPLES_ROOT_OR_EMPTY SCREENSHOT_DIR [TEXTURED_URL [SOUNDS [CHARACTERS]]]

Talks W3C WebDriver to chromedriver with the standard library only. URL is the page `assay serve`
printed; the served roots are `ss` (make-samples output plus nest.pak, built by browser_test.sh
with `assay pack igarchive` from actors/zap.igz = sample_v9_be.igz, inner.arc =
demo_v11_be_deflate.arc and notes.txt) and, when given, `samples` (../shared/samples).
TEXTURED_URL, when given, serves `rw-parser` (the samples' folder) with --txd a dictionary holding
a texture named "wuzimu" (browser_test.sh). SOUNDS and CHARACTERS, when given, are the Oni goldens'
folders served as the roots `sounds` and `characters`.
The expected values are the make-samples definitions (src/formats/*/samples), what
browser_test.sh packed, and the samples' READMEs; never the page's own output.
"""
import base64
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'  # W3C WebDriver's element key


class Fail(Exception):
    pass


class Driver:
    def __init__(self, chromedriver, chromium, profile):
        with socket.socket() as s:
            s.bind(('127.0.0.1', 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen([chromedriver, '--port=%d' % self.port], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                if self._call('GET', '/status').get('ready'):
                    break
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.1)
        args = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
                '--disable-background-networking', '--disable-component-update', '--disable-sync',
                '--window-size=1400,800', '--user-data-dir=' + profile,
                '--enable-unsafe-swiftshader']  # WebGL (the Model tab) in software without a GPU
        caps = {'capabilities': {'alwaysMatch': {'browserName': 'chrome', 'goog:chromeOptions': {'binary': chromium, 'args': args}}}}
        self.session = self._call('POST', '/session', caps)['sessionId']

    def _call(self, method, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request('http://127.0.0.1:%d%s' % (self.port, path), data=data, method=method,
                                     headers={'Content-Type': 'application/json'})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return json.loads(r.read() or b'{}').get('value')
        except urllib.error.HTTPError as e:
            raise Fail('webdriver %s %s: %s' % (method, path, e.read()[:500]))

    def cmd(self, method, path, body=None):
        return self._call(method, '/session/%s%s' % (self.session, path), body)

    def js(self, script, *args):
        return self.cmd('POST', '/execute/sync', {'script': script, 'args': list(args)})

    def find(self, css):
        els = self.cmd('POST', '/elements', {'using': 'css selector', 'value': css})
        return (els[0].get(ELEMENT) or els[0].get('ELEMENT')) if els else None

    def wait(self, what, script, *args, timeout=15):
        end = time.time() + timeout
        while time.time() < end:
            v = self.js(script, *args)
            if v:
                return v
            time.sleep(0.1)
        raise Fail('timed out waiting for %s; status line: %r; where: %r' % (
            what, self.js("return document.getElementById('status').textContent"),
            self.js("return document.getElementById('where').textContent")))

    def click(self, css, what=None):
        eid = self.wait(what or css, 'return document.querySelector(arguments[0]) !== null', css) and self.find(css)
        self.cmd('POST', '/element/%s/click' % eid, {})

    def double_click(self, css):
        self.wait(css, 'return document.querySelector(arguments[0]) !== null', css)
        eid = self.find(css)
        down_up = [{'type': 'pointerDown', 'button': 0}, {'type': 'pointerUp', 'button': 0}]
        self.cmd('POST', '/actions', {'actions': [{'type': 'pointer', 'id': 'mouse', 'parameters': {'pointerType': 'mouse'},
                                                   'actions': [{'type': 'pointerMove', 'origin': {ELEMENT: eid}, 'x': 0, 'y': 0}] + down_up + down_up}]})
        self.cmd('DELETE', '/actions')

    def screenshot(self, path):
        with open(path, 'wb') as f:
            f.write(base64.b64decode(self.cmd('GET', '/screenshot')))

    def quit(self):
        try:
            self.cmd('DELETE', '')
        except Exception:
            pass
        self.proc.terminate()
        self.proc.wait(10)


# ---- page helpers (CSS selectors of the page's own structure) --------------------------------
def q(s):
    return s.replace('\\', '\\\\').replace('"', '\\"')


def node(path):
    return '.node[data-path="%s"]' % q(path)


def row(name):
    return '#entries tbody tr[data-index] td[title="%s"]' % q(name)


def tab_button(name):
    return '#tabs button[data-tab="%s"]' % name


STATUS = "return document.getElementById('status').textContent"


def wait_status(d, prefix):
    d.wait('status "%s"' % prefix, "const s = document.getElementById('status');"
           "return !s.classList.contains('err') && s.textContent.startsWith(arguments[0])", prefix)


def tabs_shown(d):
    return d.js("return Array.from(document.querySelectorAll('#tabs button')).filter((b) => !b.hidden).map((b) => b.textContent)")


def detail(d, key):
    return d.js("const r = Array.from(document.querySelectorAll('#details > tbody > tr')).find((t) => t.cells[0].textContent === arguments[0]);"
                "return r ? r.cells[1].textContent : null", key)


def expect(cond, msg):
    if not cond:
        raise Fail(msg)


def no_page_error(d):
    s = d.js(STATUS)
    expect('Cannot' not in s and 'null' not in s, 'status line shows a script error: %r' % s)
    errs = d.js('return window.__errors || []')
    expect(not errs, 'uncaught errors in the page: %r' % errs)


def watch_errors(d):
    d.js("window.__errors = []; window.addEventListener('error', (e) => window.__errors.push(e.message));"
         "window.addEventListener('unhandledrejection', (e) => window.__errors.push(String(e.reason)))")


# The Model tab's canvas read back (the renderer keeps its drawing buffer): how many pixels differ
# from the clear colour (model.js BACKGROUND, #2b303a), and whether a corner has that colour (so
# the read-back is real). Null until the page marks the model drawn.
CANVAS_DRAWN = """
const c = document.getElementById('model-canvas');
if (!c || c.dataset.loaded !== '1' || !c.width || !c.height) return null;
const t = document.createElement('canvas');
t.width = c.width; t.height = c.height;
const g = t.getContext('2d');
g.drawImage(c, 0, 0);
const px = g.getImageData(0, 0, t.width, t.height).data, bg = [0x2b, 0x30, 0x3a];
let differ = 0, coloured = 0;
for (let i = 0; i < px.length; i += 4) {
  if (Math.abs(px[i] - bg[0]) + Math.abs(px[i + 1] - bg[1]) + Math.abs(px[i + 2] - bg[2]) > 12) ++differ;
  if (Math.max(px[i], px[i + 1], px[i + 2]) - Math.min(px[i], px[i + 1], px[i + 2]) > 60) ++coloured;
}
return {differ, coloured, total: px.length / 4, corner: [px[0], px[1], px[2]].join(','), nodes: Number(c.dataset.nodes),
        names: Array.from(document.querySelectorAll('#model-nodes li')).map((l) => l.textContent)};
"""


def model_drawn(d, what, part=None):
    """Waits for the model to be drawn; with `part`, fails unless more than that part of the
    canvas's pixels differ from the clear colour (not blank)."""
    d.wait(what + ': the Model tab', "return document.querySelector('#pane-model.on') !== null")
    d.wait(what + ': model loaded', "const c = document.getElementById('model-canvas');"
           "const m = document.getElementById('model-msg'); return c.dataset.loaded === '1' || m.classList.contains('err')")
    expect(d.js("return document.getElementById('model-canvas').dataset.loaded") == '1',
           '%s: the model did not load: %r' % (what, d.js("return document.getElementById('model-msg').textContent")))
    px = d.js(CANVAS_DRAWN)
    expect(px and px['corner'] == '43,48,58', '%s: canvas read-back: %r' % (what, px and px['corner']))
    if part is not None:
        expect(px['differ'] > px['total'] * part, '%s: the canvas is blank (%d of %d pixels drawn)' % (what, px['differ'], px['total']))
    return px


def rw_model(d, url):
    """make-samples' rw_model.dff: frames "root" and "body", one geometry of 4 positions (i, 2i, 0)
    (writer::clump), on one line: drawn filled it covers next to nothing, its wireframe a line."""
    d.cmd('POST', '/url', {'url': url})
    watch_errors(d)
    d.wait('start-up', "return document.body.dataset.ready === '1'")
    if not d.find(node('ss/rw_model.dff')):
        d.click(node('ss'))
    d.click(node('ss/rw_model.dff'))
    wait_status(d, '2 entries · renderware')  # the atomic "root" and the model "rw_model"
    d.click(row('rw_model'))
    expect('Model' in tabs_shown(d) and 'Preview' not in tabs_shown(d), 'model tabs: %r' % tabs_shown(d))
    filled = model_drawn(d, 'rw_model')
    expect('root' in filled['names'] and 'body' in filled['names'], 'rw_model nodes: %r' % filled['names'])
    expect(anim_state(d)['hidden'], 'an animation picker for rw_model, which has no animations')
    d.click('#model-wire')
    wire = model_drawn(d, 'rw_model wireframe', 0.001)
    expect(wire['differ'] > filled['differ'], 'the wireframe box changed nothing: %r -> %r' % (filled['differ'], wire['differ']))
    d.click(row('root'))  # an atomic: no Model tab
    d.wait('atomic details', "return document.querySelector('#pane-details h3').textContent === 'root'")
    expect('Model' not in tabs_shown(d), 'Model tab for an atomic: %r' % tabs_shown(d))
    no_page_error(d)
    d.cmd('POST', '/url', {'url': url + '&path=ss/rw_model.dff::rw_model'})
    watch_errors(d)
    model_drawn(d, 'deep link to rw_model')
    d.click('#model-wire')
    model_drawn(d, 'deep link to rw_model, wireframe', 0.001)
    no_page_error(d)


def textured(d, texurl, untextured):
    """wuzimu.dff with --txd: its texture (the colourful ramp_pal8 PNG) is on the model; without
    it the white material under white lights is grey."""
    d.cmd('POST', '/url', {'url': texurl + '&path=rw-parser/wuzimu.dff::wuzimu'})
    watch_errors(d)
    px = model_drawn(d, 'textured wuzimu', 0.02)
    expect(untextured['coloured'] < untextured['total'] // 1000, 'untextured wuzimu is coloured: %r' % untextured['coloured'])
    expect(px['coloured'] > px['total'] // 100, 'wuzimu shows no texture: %d of %d pixels coloured' % (px['coloured'], px['total']))
    no_page_error(d)


def model_view(d, url, samples, shots, texurl):
    """The Model tab: rw_model.dff, then the shared sample wuzimu.dff (a GTA SA ped) when present."""
    rw_model(d, url)
    wuzimu = 'samples/renderware/rw-parser/wuzimu.dff'
    if not samples or not os.path.exists(os.path.join(samples, 'renderware/rw-parser/wuzimu.dff')):
        d.screenshot(os.path.join(shots, 'serve-model.png'))
        return
    # Tree clicks down to the file, then its model row (one clump: named after the file's stem).
    d.cmd('POST', '/url', {'url': url})
    watch_errors(d)
    d.wait('start-up', "return document.body.dataset.ready === '1'")
    for folder in ['samples', 'samples/renderware', 'samples/renderware/rw-parser']:
        d.click(node(folder))
    d.click(node(wuzimu))
    wait_status(d, '2 entries · renderware')
    d.click(row('wuzimu'))
    px = model_drawn(d, 'wuzimu', 0.02)
    # GTA SA ped frames (the skin's "Normal", the bones from " Pelvis" down).
    expect('Normal' in px['names'] and ' Pelvis' in px['names'], 'wuzimu nodes: %r' % px['names'])
    no_page_error(d)
    d.cmd('POST', '/url', {'url': url + '&path=' + wuzimu + '::wuzimu'})
    watch_errors(d)
    px = model_drawn(d, 'deep link to wuzimu', 0.02)
    expect(d.js("return document.getElementById('where').textContent") == wuzimu + '::wuzimu', 'where of the model')
    no_page_error(d)
    d.screenshot(os.path.join(shots, 'serve-model.png'))
    if texurl:
        textured(d, texurl, px)
        d.screenshot(os.path.join(shots, 'serve-model-textured.png'))


# ---- the walk through the make-samples files ----------------------------------------------------
def drag(d, css, dx):
    """Presses the mouse on the element's centre, moves it dx pixels to the right, releases it."""
    eid = d.find(css)
    d.cmd('POST', '/actions', {'actions': [{'type': 'pointer', 'id': 'mouse', 'parameters': {'pointerType': 'mouse'},
                                           'actions': [{'type': 'pointerMove', 'origin': {ELEMENT: eid}, 'x': 0, 'y': 0},
                                                       {'type': 'pointerDown', 'button': 0},
                                                       {'type': 'pointerMove', 'origin': 'pointer', 'x': dx // 2, 'y': 0, 'duration': 50},
                                                       {'type': 'pointerMove', 'origin': 'pointer', 'x': dx - dx // 2, 'y': 0, 'duration': 50},
                                                       {'type': 'pointerUp', 'button': 0}]}]})
    d.cmd('DELETE', '/actions')


def width(d, css):
    return d.js('return document.querySelector(arguments[0]).getBoundingClientRect().width', css)


def resize_panes(d, url):
    """A person drags the separators: the tree grows by what the mouse moved, the side pane by what it
    moved left; the widths stay after a reload; a double-click gives the tree its first width back."""
    tree0, side0 = width(d, '#tree'), width(d, '#side')
    drag(d, '#split-tree', 150)
    tree1 = width(d, '#tree')
    expect(abs(tree1 - (tree0 + 150)) <= 2, 'tree %r wide after dragging +150 from %r' % (tree1, tree0))
    drag(d, '#split-side', -100)
    side1 = width(d, '#side')
    expect(abs(side1 - (side0 + 100)) <= 2, 'side pane %r wide after dragging -100 from %r' % (side1, side0))
    d.cmd('POST', '/url', {'url': url})
    d.wait('start-up after reload', "return document.body.dataset.ready === '1'")
    expect(abs(width(d, '#tree') - tree1) <= 2 and abs(width(d, '#side') - side1) <= 2,
           'widths after reload: tree %r (was %r), side %r (was %r)' % (width(d, '#tree'), tree1, width(d, '#side'), side1))
    d.double_click('#split-tree')
    expect(abs(width(d, '#tree') - tree0) <= 2, 'tree %r wide after double-click, first %r' % (width(d, '#tree'), tree0))
    d.double_click('#split-side')
    expect(abs(width(d, '#side') - side0) <= 2, 'side %r wide after double-click, first %r' % (width(d, '#side'), side0))


def walk_samples(d, url, shots):
    d.cmd('POST', '/url', {'url': url})
    watch_errors(d)
    # Landing page: what to do, no table, no Links/Loader tab.
    d.wait('landing page', "return document.getElementById('landing') && !document.getElementById('landing').hidden")
    landing = d.js("return document.getElementById('landing').textContent")
    expect('Pick a file' in landing and 'Double-click' in landing, 'landing text: %r' % landing[:200])
    expect(tabs_shown(d) == ['Details'], 'landing tabs: %r' % tabs_shown(d))
    d.wait('start-up', "return document.body.dataset.ready === '1'")
    if not d.find(node('ss/rw_ps2.txd')):  # one root folder is expanded at start; with two, open ss
        d.click(node('ss'))
    d.click(node('ss/rw_ps2.txd'))
    wait_status(d, '2 entries · renderware')  # make-samples: checker_pal4, ramp_pal8
    expect(d.js("return document.getElementById('landing').hidden"), 'landing still shown')
    # The useful columns come first.
    cols = d.js("return Array.from(document.querySelectorAll('#entries th')).map((t) => t.dataset.col)")
    expect(cols[:3] == ['name', 'size', 'stored_size'] and cols.index('width') < cols.index('kind'), 'columns: %r' % cols)
    d.click(row('ramp_pal8'))
    d.wait('64-pixel preview', "const i = document.getElementById('texture'); return i.dataset.loaded === '1' && i.dataset.width === '64'")
    shown = tabs_shown(d)
    expect('Preview' in shown and 'Links' not in shown and 'Loader' not in shown, 'txd tabs: %r' % shown)
    d.click(tab_button('details'))
    expect(detail(d, 'width') == '64' and detail(d, 'height') == '64', 'details width/height: %r %r' % (detail(d, 'width'), detail(d, 'height')))
    expect(d.js("return document.querySelector('#pane-details details.raw summary').textContent") == 'Raw JSON', 'no raw JSON toggle')
    # Another file after a row was clicked: the bug of issue 29 item 1 (showInfo wrote to a <pre> selectEntry had removed).
    d.click(node('ss/demo_v8_lzma.bld'))
    wait_status(d, '3 entries · igarchive')
    d.wait('info of the archive', "const r = Array.from(document.querySelectorAll('#details > tbody > tr')).find((t) => t.cells[0].textContent === 'format');"
           "return r && r.cells[1].textContent === 'igarchive'")
    no_page_error(d)
    expect('Preview' not in tabs_shown(d), 'Preview shown for an archive: %r' % tabs_shown(d))
    d.click(row('readme.txt'))
    d.wait('readme details', "return document.querySelector('#pane-details h3') && document.querySelector('#pane-details h3').textContent === 'readme.txt'")
    d.click(tab_button('hex'))  # "A demo igArchive made by assay's own writer.\n"
    d.wait('hex of readme.txt', "return document.getElementById('hex').textContent.includes('41 20 64 65 6d 6f 20 69 67 41 72 63 68 69 76 65')")
    d.click(tab_button('verify'))
    d.wait('verify ok', "return document.getElementById('verify').textContent.includes('demo_v8_lzma.bld: ok')")
    d.click(tab_button('details'))
    d.click(row('levels.txt'))
    d.wait('levels.txt details', "return document.querySelector('#pane-details h3').textContent === 'levels.txt'")
    # Oni: a row's links, then a link into another level file.
    d.click(node('ss/level1_X.dat'))
    wait_status(d, '5 entries · oni')  # walk, level1_only, list, missing, brick
    no_page_error(d)
    shown = tabs_shown(d)
    expect('Links' in shown and 'Loader' not in shown, 'oni tabs: %r' % shown)
    d.click(row('ZLSTlist'))
    d.click('#graph a[title="ss/level0_Final.dat::ZANMwalk"]', 'the link to ZANMwalk')
    wait_status(d, '6 entries · oni')  # level 0: walk, brick, (unnamed ZPTS), brick, menu, level1_only
    d.wait('ZANMwalk selected', "const r = document.querySelector('#entries tr.sel td[title]'); return r && r.title === 'ZANMwalk'")
    expect(d.js("return document.getElementById('where').textContent") == 'ss/level0_Final.dat::ZANMwalk', 'where after the link')
    d.wait('tree follows the link', "const n = document.querySelector('.node.sel'); return n && n.dataset.path === 'ss/level0_Final.dat'")
    d.click(node('ss/rw_ps2.txd'))  # and back to a file after following a link
    wait_status(d, '2 entries · renderware')
    no_page_error(d)
    # Containers inside containers: nest.pak holds an igz and an igArchive; notes.txt is text.
    d.click(node('ss/nest.pak'))
    wait_status(d, '3 entries · igarchive · 2 with entries of their own')
    d.wait('inner containers in the tree', "return !!document.querySelector('.node[data-path=\"ss/nest.pak::actors/zap.igz\"]') &&"
           "!!document.querySelector('.node[data-path=\"ss/nest.pak::inner.arc\"]')")
    expect(not d.find(node('ss/nest.pak::notes.txt')), 'notes.txt shown as a container')
    d.double_click(row('inner.arc'))
    wait_status(d, '3 entries · igarchive')  # demo_v11_be_deflate.arc: spyro, cynder, fonts
    d.wait('inner archive rows', "return !!document.querySelector('#entries td[title=\"actors/cynder.txt\"]')")
    expect(d.js("return document.getElementById('where').textContent") == 'ss/nest.pak::inner.arc', 'where after double-click')
    d.click(node('ss/nest.pak'))
    d.click(row('actors/zap.igz'))
    d.click('#pane-details button[data-act="open"]', 'the Open button')
    d.wait('Open of the igz', "return document.getElementById('status').textContent.includes(' · igz') && document.getElementById('where').textContent === 'ss/nest.pak::actors/zap.igz'")
    shown = tabs_shown(d)
    expect('Links' in shown and 'Loader' not in shown and 'Preview' not in shown, 'igz tabs: %r' % shown)
    d.click(node('ss/nest.pak::inner.arc'))  # a tree node of an inner container
    wait_status(d, '3 entries · igarchive')
    expect(d.js("return document.getElementById('where').textContent") == 'ss/nest.pak::inner.arc', 'tree click on an inner container')
    # Warriors: the Loader tab only here.
    d.click(node('ss/warriors_level1.lev'))
    d.wait('warriors list', "return document.getElementById('status').textContent.includes(' · warriors')")
    expect('Loader' in tabs_shown(d) and 'Links' not in tabs_shown(d), 'warriors tabs: %r' % tabs_shown(d))
    d.click(tab_button('trace'))
    d.wait('loader trace', "return document.getElementById('trace').textContent.includes('loaded')")
    no_page_error(d)
    d.click(node('ss/rw_ps2.txd'))
    wait_status(d, '2 entries · renderware')
    d.click(row('checker_pal4'))
    d.wait('preview', "return document.getElementById('texture').dataset.loaded === '1'")
    d.screenshot(os.path.join(shots, 'serve-clicks.png'))


def deep_links(d, url, samples):
    # A deep link spelled in another case and with '/' (the archive is case-insensitive): opens the igz.
    d.cmd('POST', '/url', {'url': url + '&path=ss/nest.pak::ACTORS/ZAP.IGZ'})
    watch_errors(d)
    d.wait('deep link to an inner igz', "return document.getElementById('status').textContent.includes(' · igz')")
    expect(d.js("return document.getElementById('where').textContent") == 'ss/nest.pak::actors/zap.igz', 'deep link not rewritten')
    d.wait('tree expanded to the igz', "const n = document.querySelector('.node.sel'); return n && n.dataset.path === 'ss/nest.pak::actors/zap.igz'")
    no_page_error(d)
    if not samples:
        return
    # skylanders_zap.pak stores "actors\zap.igz" (alchemy/README.md: 88 files, 59 of them igz).
    d.cmd('POST', '/url', {'url': url + '&path=samples/alchemy/skylanders_zap.pak'})
    wait_status(d, '88 entries · igarchive · 59 with entries of their own')
    d.cmd('POST', '/url', {'url': url + '&path=samples/alchemy/skylanders_zap.pak::actors/zap.igz'})
    d.wait('zap.igz opened', "return document.getElementById('status').textContent.includes(' · igz')")
    where = d.js("return document.getElementById('where').textContent")
    expect(where == 'samples/alchemy/skylanders_zap.pak::actors\\zap.igz', 'where: %r' % where)
    d.wait('tree expanded to zap.igz', "const n = document.querySelector('.node.sel'); return n && n.dataset.path === arguments[0]", where)
    d.screenshot(os.path.join(shots_dir, 'serve-zap.png'))
    # A deep link to a row far down the table: it is selected and scrolled into view. HUD has 70
    # textures (renderware/more2/README.md); the last row is below the fold of an 800-pixel window.
    d.cmd('POST', '/url', {'url': url + '&path=samples/renderware/more2/gtasa_ps2_HUD_70tex.txd::%2369'})
    wait_status(d, '70 entries · renderware')
    d.wait('row 69 selected and visible', "const r = document.querySelector('#entries tr.sel'); if (!r || r.dataset.index !== '69') return false;"
           "const b = r.getBoundingClientRect(), c = document.getElementById('center').getBoundingClientRect();"
           "return b.top >= c.top && b.bottom <= c.bottom")
    # Oni: level 1 (19 instances) links into level 0 (31 instances) (oni/README.md).
    d.cmd('POST', '/url', {'url': url + '&path=samples/oni/GameDataFolder/level1_Final.dat'})
    wait_status(d, '19 entries · oni')
    d.cmd('POST', '/url', {'url': url + '&path=samples/oni/GameDataFolder/level0_Final.dat'})
    wait_status(d, '31 entries · oni')
    # VEHICLE2: one 32x32 texture vehmirref32.
    d.cmd('POST', '/url', {'url': url + '&path=samples/renderware/more2/gtasa_ps2_VEHICLE2_pal4.txd::vehmirref32'})
    d.wait('32-pixel preview', "const i = document.getElementById('texture'); return i.dataset.loaded === '1' && i.dataset.width === '32'")
    no_page_error(d)


def oni_model(d, url, shots):
    """An Oni M3GM in the Model tab: the cube OniSplit made (goldens/oni/models: 24 vertices, 12
    triangles, textured with TXMPgrad_bgr32, a gradient through red, green and blue). Clicked in
    level 0's table it is drawn textured: white lights on the untextured white material would give
    grey, so coloured pixels are the texture. Then level 1's M3GMpyramid by deep link, whose
    TXMPcheck_bgra32 is a placeholder there (level 0's copy is drawn)."""
    d.cmd('POST', '/url', {'url': url + '&path=samples/oni/GameDataFolder/level0_Final.dat'})
    watch_errors(d)
    wait_status(d, '31 entries · oni')
    d.click(row('M3GMcube'))
    shown = tabs_shown(d)
    expect('Model' in shown and 'Sound' not in shown and 'Preview' not in shown, 'M3GM tabs: %r' % shown)
    px = model_drawn(d, 'oni M3GMcube', 0.01)
    expect(px['coloured'] > px['differ'] // 4, 'M3GMcube shows no texture: %d of %d drawn pixels coloured' % (px['coloured'], px['differ']))
    expect(d.find('#pane-details a[data-act="glb"]'), 'no GLB download button for M3GMcube')
    expect(anim_state(d)['hidden'], 'an animation picker for M3GMcube, which has no animations')
    no_page_error(d)
    d.screenshot(os.path.join(shots, 'serve-model-oni.png'))
    d.cmd('POST', '/url', {'url': url + '&path=samples/oni/GameDataFolder/level1_Final.dat::M3GMpyramid'})
    watch_errors(d)
    pyr = model_drawn(d, 'oni M3GMpyramid', 0.005)
    expect(pyr['coloured'] > pyr['differ'] // 4, 'M3GMpyramid shows no texture: %d of %d drawn pixels coloured' % (pyr['coloured'], pyr['differ']))
    no_page_error(d)
    print('ok: the Model tab drew M3GMcube (%d of %d pixels coloured) and M3GMpyramid textured' % (px['coloured'], px['differ']))


def igz_model(d, url, shots):
    """A PS3 EDGE model of skylanders_zap.pak (alchemy/README.md): actors\\zap.igz's first
    igPS3EdgeGeometry, clicked in the igz's table, is drawn with its material's unit-0 texture
    ColorMap_Zap_C_11.igz, which the viewer finds in the archive's textures\\ folder (the model's
    TDEP names materials:/Zap_igb_materials.igz, whose TDEP names the texture). Untextured, the
    white material under white lights would be grey."""
    d.cmd('POST', '/url', {'url': url + '&path=samples/alchemy/skylanders_zap.pak::actors/zap.igz'})
    watch_errors(d)
    d.wait('zap.igz opened', "return document.getElementById('status').textContent.includes(' · igz')")
    # Its Details: the three EXIDs one a line, each saying its namespace hash 0xe696c190 (FNV-1a of
    # "zap_igb_materials", worked out outside assay) is the TDEP's; the pools as a table with the
    # columns docs/cli.md gives.
    cell = "const r = Array.from(document.querySelectorAll('#details > tbody > tr')).find((t) => t.cells[0].textContent === arguments[0]);"
    ext = d.wait('externals one a line', cell + "return r ? Array.from(r.querySelectorAll('li')).map((l) => l.textContent) : null", 'externals')
    expect(len(ext) == 3 and all(x.startswith('external exid %d: e696c190::' % i) and
                                 x.endswith('(namespace Zap_igb_materials, TDEP materials:/Zap_igb_materials.igz)') for i, x in enumerate(ext)),
           'externals of zap.igz: %r' % ext)
    cols = d.js(cell + "return r ? Array.from(r.querySelectorAll('thead th')).map((t) => t.textContent) : null", 'pools')
    expect(cols == ['index', 'name', 'offset', 'size', 'alignment'], 'pools table columns: %r' % cols)
    d.click(row('igPS3EdgeGeometry'))
    shown = tabs_shown(d)
    expect('Model' in shown and 'Preview' not in shown, 'EDGE geometry tabs: %r' % shown)
    px = model_drawn(d, 'zap EDGE model', 0.01)
    expect(px['coloured'] > px['differ'] // 4, 'the zap EDGE model shows no texture: %d of %d drawn pixels coloured' % (px['coloured'], px['differ']))
    no_page_error(d)
    d.screenshot(os.path.join(shots, 'serve-model-igz.png'))
    print('ok: the Model tab drew zap.igz\'s EDGE mesh textured (%d of %d pixels coloured)' % (px['coloured'], px['differ']))


# The canvas read back and kept under a name (window.__shots[arguments[0]], when given); returns how
# many pixels differ from the one kept under arguments[1] (null when there is none).
CANVAS_SHOT = """
const c = document.getElementById('model-canvas');
const t = document.createElement('canvas');
t.width = c.width; t.height = c.height;
const g = t.getContext('2d');
g.drawImage(c, 0, 0);
const px = g.getImageData(0, 0, t.width, t.height).data;
window.__shots = window.__shots || {};
const ref = arguments[1] ? window.__shots[arguments[1]] : null;
if (arguments[0]) window.__shots[arguments[0]] = px;
if (!ref || ref.length !== px.length) return null;
let differ = 0;
for (let i = 0; i < px.length; i += 4)
  if (Math.abs(px[i] - ref[i]) + Math.abs(px[i + 1] - ref[i + 1]) + Math.abs(px[i + 2] - ref[i + 2]) > 12) ++differ;
return differ;
"""


def shot(d, keep=None, against=None):
    return d.js(CANVAS_SHOT, keep, against)


def anim_state(d):
    return d.js("const c = document.getElementById('model-canvas'), p = document.getElementById('model-play');"
                "return {anim: c.dataset.anim, playing: c.dataset.playing, play_disabled: p.disabled, play_text: p.textContent,"
                "        hidden: document.getElementById('model-anim').hidden, info: document.getElementById('model-anim-info').textContent}")


def pick_animation(d, name):
    """Picks `name` in the animation picker by clicking its <option> (the picker's own text)."""
    k = d.js("return Array.from(document.querySelectorAll('#model-anim-pick option')).findIndex((o) => o.textContent === arguments[0])", name)
    expect(k is not None and k >= 0, 'no option %r in the picker' % name)
    d.click('#model-anim-pick option:nth-child(%d)' % (k + 1))


def oni_character(d, url, shots):
    """An Oni character in the Model tab: ONCCchar4 of the character goldens (goldens/oni/README.md
    "characters/": a 4-part body and two animations, TRAMbody4_ekey and TRAMbody4_qkey, src/*.xml).
    The picker lists both; playing one moves the parts (the canvas changes from frame to frame),
    pause holds the picture, and "none" puts the rest pose back (the first picture again)."""
    d.cmd('POST', '/url', {'url': url + '&path=characters/GameDataFolder/level0_Final.dat'})
    watch_errors(d)
    d.click(row('ONCCchar4'))
    shown = tabs_shown(d)
    expect('Model' in shown and 'Sound' not in shown and 'Preview' not in shown, 'ONCC tabs: %r' % shown)
    px = model_drawn(d, 'ONCCchar4', 0.001)
    expect(all(p in px['names'] for p in ['pelvis', 'left_thigh', 'left_calf', 'left_foot']), 'ONCCchar4 nodes: %r' % px['names'])
    st = anim_state(d)
    expect(not st['hidden'] and st['play_disabled'] and st['anim'] == '', 'the picker at rest: %r' % st)
    opts = d.js("return Array.from(document.querySelectorAll('#model-anim-pick option')).map((o) => [o.value, o.textContent])")
    expect(len(opts) == 3 and opts[0][0] == '' and sorted(o[1] for o in opts[1:]) == ['TRAMbody4_ekey', 'TRAMbody4_qkey'],
           'the picker lists %r' % opts)
    shot(d, 'rest')
    pick_animation(d, 'TRAMbody4_ekey')
    d.wait('TRAMbody4_ekey picked', "return document.getElementById('model-canvas').dataset.anim === 'TRAMbody4_ekey'")
    st = anim_state(d)
    expect(not st['play_disabled'] and st['playing'] == '0', 'picked, not playing: %r' % st)
    shot(d, 'first')
    d.click('#model-play')
    d.wait('playing', "return document.getElementById('model-canvas').dataset.playing === '1'")
    # Two pictures a little apart while it plays differ (the parts move), within a few tries.
    total = px['total']
    moved = 0
    for _ in range(20):
        shot(d, 'a')
        time.sleep(0.05)
        moved = max(moved, shot(d, None, 'a') or 0)
        if moved > total // 2000:
            break
    expect(moved > total // 2000, 'TRAMbody4_ekey plays but the canvas does not change (%d of %d pixels)' % (moved, total))
    expect(anim_state(d)['play_text'] == 'pause', 'the play button while playing: %r' % anim_state(d))
    d.screenshot(os.path.join(shots, 'serve-model-oni-character.png'))
    d.click('#model-play')  # pause: the picture holds
    d.wait('paused', "return document.getElementById('model-canvas').dataset.playing === '0'")
    shot(d, 'paused')
    time.sleep(0.2)
    held = shot(d, None, 'paused')
    expect(held == 0, 'paused, the canvas still changes (%r pixels)' % held)
    pick_animation(d, 'none (rest pose)')
    d.wait('none picked', "return document.getElementById('model-canvas').dataset.anim === ''")
    st = anim_state(d)
    expect(st['play_disabled'] and st['playing'] == '0' and not st['hidden'], 'after none: %r' % st)
    back = shot(d, None, 'rest')
    expect(back is not None and back <= total // 10000, 'none does not give the rest pose back (%r pixels differ)' % back)
    # Playing again, then another model of the level, a part's M3GM (instance 6, unnamed; no
    # animations): the loop stops and the picker goes.
    pick_animation(d, 'TRAMbody4_qkey')
    d.wait('TRAMbody4_qkey picked', "return document.getElementById('model-canvas').dataset.anim === 'TRAMbody4_qkey'")
    d.click('#model-play')
    d.wait('playing', "return document.getElementById('model-canvas').dataset.playing === '1'")
    d.click('#entries tbody tr[data-index="6"] td')
    d.wait('the M3GM of instance 6 shown', "const c = document.getElementById('model-canvas');"
           "return c.dataset.loaded === '1' && c.dataset.animations === '0'")
    model_drawn(d, 'the M3GM of instance 6', 0.0001)
    st = anim_state(d)
    expect(st['hidden'] and st['playing'] == '0' and st['anim'] == '', 'a model without animations after a character: %r' % st)
    no_page_error(d)
    print('ok: the Model tab played ONCCchar4\'s TRAMbody4_ekey (%d of %d pixels moved between two frames)' % (moved, total))


def sound_facts(d):
    return d.js("return Object.fromEntries(Array.from(document.querySelectorAll('#sound-facts tr')).map((t) => [t.cells[0].textContent, t.cells[1].textContent]))")


def sound_view(d, url):
    """The Sound tab: SNDDsine440_m22 of the sound goldens' PC level, MS ADPCM mono at 22,050 Hz,
    22,264 frames (goldens/oni/README.md: 22 blocks x 1,012), plays as a 1.0097-second WAV."""
    d.cmd('POST', '/url', {'url': url + '&path=sounds/GameDataFolder/level0_Final.dat'})
    watch_errors(d)
    wait_status(d, '7 entries · oni')  # six SNDD and the OSBD group
    d.click(row('SNDDsine440_m22'))
    shown = tabs_shown(d)
    expect('Sound' in shown and 'Model' not in shown and 'Preview' not in shown, 'sound tabs: %r' % shown)
    d.wait('the sound loaded', "const a = document.getElementById('audio'); return a.dataset.loaded === '1' ||"
           "document.getElementById('sound-msg').classList.contains('err')")
    expect(d.js("return document.getElementById('audio').dataset.loaded") == '1',
           'the sound did not load: %r' % d.js("return document.getElementById('sound-msg').textContent"))
    dur = d.js("return document.getElementById('audio').duration")
    expect(abs(dur - 22264 / 22050) < 0.005, 'duration %r, want %r' % (dur, 22264 / 22050))
    expect(d.find('#pane-details a[data-act="wav"]'), 'no WAV download button')
    # beside the player, the golden's stored fields (json/GameDataFolder__SNDDsine440_m22.json)
    facts = sound_facts(d)
    want = {'rate': '22050 Hz', 'channels': '1', 'samples': '22264', 'codec': 'ms_adpcm', 'duration': '1.010 s'}
    expect(all(facts.get(k) == v for k, v in want.items()), 'sound facts %r, want %r' % (facts, want))
    d.click(row('OSBDgrp_sine'))  # a binding, not a sound: no Sound tab
    expect('Sound' not in tabs_shown(d), 'Sound tab on a binding: %r' % tabs_shown(d))
    no_page_error(d)
    print('ok: the Sound tab played SNDDsine440_m22 (%.4f s)' % dur)


shots_dir = '.'


def main():
    global shots_dir
    chromedriver, chromium, url, samples, shots_dir = sys.argv[1:6]
    texurl = sys.argv[6] if len(sys.argv) > 6 else ''
    sounds = sys.argv[7] if len(sys.argv) > 7 else ''
    characters = sys.argv[8] if len(sys.argv) > 8 else ''
    os.makedirs(shots_dir, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:
        d = Driver(chromedriver, chromium, profile)
        try:
            walk_samples(d, url, shots_dir)
            resize_panes(d, url)
            deep_links(d, url, samples)
            model_view(d, url, samples, shots_dir, texurl)
            if samples:
                oni_model(d, url, shots_dir)
                igz_model(d, url, shots_dir)
            if sounds:
                sound_view(d, url)
            if characters:
                oni_character(d, url, shots_dir)
        except Fail as e:
            try:
                d.screenshot(os.path.join(shots_dir, 'serve-failed.png'))
            except Exception:
                pass
            print('FAIL:', e, file=sys.stderr)
            return 1
        finally:
            d.quit()
    print('ok: clicked through the viewer')
    return 0


if __name__ == '__main__':
    sys.exit(main())
