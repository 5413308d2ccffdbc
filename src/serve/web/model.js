// assay serve: the Model tab (docs/serve.md#model). An ES module loaded by app.js when a model
// entry is first shown; three.js is Debian's libjs-three, embedded in the binary under
// /vendor/three/. The server puts the token into these imports when it sends the file.
import * as THREE from "./vendor/three/three.module.js?token=__ASSAY_TOKEN__";
import { GLTFLoader } from "./vendor/three/GLTFLoader.js?token=__ASSAY_TOKEN__";
import { OrbitControls } from "./vendor/three/OrbitControls.js?token=__ASSAY_TOKEN__";

export const BACKGROUND = [0x2b, 0x30, 0x3a];  // the canvas's clear colour (tests compare with it)
const $ = (id) => document.getElementById(id);
let view = null;  // { renderer, scene, camera, controls, root }
let shown = 0;    // bumped per model asked for: a late answer is dropped
let anim = null;  // the shown model's animations: { mixer, clips, action, playing, last, raf }

function draw() {
  if (view) view.renderer.render(view.scene, view.camera);
}

// Keeps the drawing buffer the size of the canvas on screen.
function fit() {
  const c = view.renderer.domElement;
  const w = Math.max(1, c.clientWidth), h = Math.max(1, c.clientHeight);
  if (c.width !== w || c.height !== h) {
    view.renderer.setSize(w, h, false);
    view.camera.aspect = w / h;
    view.camera.updateProjectionMatrix();
  }
  draw();
}

// One renderer for the page: ambient light plus a directional light that follows the camera,
// so models without lights of their own are seen from every side.
function setup() {
  const canvas = $('model-canvas');
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setClearColor(new THREE.Color(...BACKGROUND.map((v) => v / 255)));
  renderer.gammaOutput = true;
  renderer.gammaFactor = 2.2;
  const scene = new THREE.Scene();
  scene.add(new THREE.AmbientLight(0xffffff, 0.55));
  const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1000);
  const sun = new THREE.DirectionalLight(0xffffff, 0.85);
  sun.position.set(0.5, 1, 1);
  camera.add(sun);
  scene.add(camera);
  const controls = new OrbitControls(camera, canvas);
  controls.addEventListener('change', draw);
  view = { renderer, scene, camera, controls, root: null };
  new ResizeObserver(fit).observe(canvas);
  $('model-wire').addEventListener('change', wireframe);
  $('model-anim-pick').addEventListener('change', choose);
  $('model-play').addEventListener('click', () => anim && anim.action && playing(!anim.playing));
  $('model-anim-speed').addEventListener('change', () => { if (anim) anim.mixer.timeScale = Number($('model-anim-speed').value); });
}

// ---- Animations (an Oni character's TRAMs, one glTF animation each): a picker listing the GLB's
// animations by name, play/pause, three.js's AnimationMixer on the loaded gltf.animations. Picking
// one shows its first frame; "none" stops it and the mixer puts the rest pose back.
function option(value, text) {
  return Object.assign(document.createElement('option'), { value, textContent: text });
}

// Forgets the previous model's animations; offers `clips` (the picker hidden when there are none).
function setupAnimations(root, clips) {
  if (anim) {
    playing(false);
    anim.mixer.stopAllAction();
    anim.mixer.uncacheRoot(anim.mixer.getRoot());
  }
  anim = clips.length ? { mixer: new THREE.AnimationMixer(root), clips, action: null, playing: false, last: 0, raf: 0 } : null;
  if (anim) anim.mixer.timeScale = Number($('model-anim-speed').value);
  $('model-anim').hidden = !anim;
  $('model-anim-pick').replaceChildren(option('', 'none (rest pose)'), ...clips.map((c, i) => option(String(i), c.name || 'animation ' + i)));
  $('model-anim-pick').value = '';
  $('model-play').disabled = true;
  $('model-play').textContent = 'play';
  $('model-anim-info').textContent = '';
  const canvas = $('model-canvas');
  canvas.dataset.animations = String(clips.length);
  canvas.dataset.anim = '';
  canvas.dataset.playing = '0';
}

function animInfo() {
  if (!anim || !anim.action) { $('model-anim-info').textContent = ''; return; }
  const d = anim.action.getClip().duration;
  $('model-anim-info').textContent = anim.action.time.toFixed(3) + ' / ' + d.toFixed(3) + ' s';
}

function choose() {
  if (!anim) return;
  playing(false);
  if (anim.action) anim.action.stop();  // its last user gone, a bound property gets its rest value back
  anim.action = null;
  const i = $('model-anim-pick').value;
  if (i !== '') {
    anim.action = anim.mixer.clipAction(anim.clips[Number(i)]);
    anim.action.reset().play();  // loops (THREE.LoopRepeat)
  }
  anim.mixer.update(0);  // the first frame, or the rest pose
  frame(view.root, anim.action ? sweep(anim.action) : undefined);
  $('model-play').disabled = !anim.action;
  $('model-canvas').dataset.anim = anim.action ? anim.action.getClip().name : '';
  animInfo();
  draw();
}

// The box the model covers over the whole animation (its root motion may walk it far from the
// rest pose): sampled along the clip, then back to the first frame.
function sweep(action) {
  const box = new THREE.Box3(), scale = anim.mixer.timeScale, d = action.getClip().duration, n = 32;
  anim.mixer.timeScale = 1;
  for (let k = 0; k <= n; ++k) {
    anim.mixer.setTime(Math.min(d * k / n, d * 0.9999));
    box.union(new THREE.Box3().setFromObject(view.root));
  }
  anim.mixer.setTime(0);
  anim.mixer.timeScale = scale;
  return box;
}

function playing(on) {
  if (!anim) return;
  anim.playing = on;
  cancelAnimationFrame(anim.raf);
  $('model-play').textContent = on ? 'pause' : 'play';
  $('model-canvas').dataset.playing = on ? '1' : '0';
  if (on) {
    anim.last = performance.now();
    anim.raf = requestAnimationFrame(tick);
  }
}

function tick(now) {
  if (!anim || !anim.playing) return;
  if (!$('pane-model').classList.contains('on')) { playing(false); return; }  // another tab or entry shown
  anim.mixer.update(Math.max(0, now - anim.last) / 1000);
  anim.last = now;
  animInfo();
  draw();
  anim.raf = requestAnimationFrame(tick);
}

function wireframe() {
  if (!view || !view.root) return;
  const on = $('model-wire').checked;
  view.root.traverse((o) => {
    if (!o.isMesh) return;
    for (const m of Array.isArray(o.material) ? o.material : [o.material]) m.wireframe = on;
  });
  draw();
}

// Puts the camera in front of the model's bounding box (or `box`), the orbit centred on it.
function frame(root, box = new THREE.Box3().setFromObject(root)) {
  if (box.isEmpty()) return;
  const size = box.getSize(new THREE.Vector3()).length() || 1;
  const centre = box.getCenter(new THREE.Vector3());
  const { camera, controls } = view;
  const dist = size / (2 * Math.tan((camera.fov * Math.PI) / 360));
  camera.near = size / 1000;
  camera.far = size * 100;
  camera.position.copy(centre).add(new THREE.Vector3(0.6, 0.4, 1).normalize().multiplyScalar(dist));
  camera.updateProjectionMatrix();
  controls.target.copy(centre);
  controls.update();
}

function dispose(root) {
  root.traverse((o) => {
    if (o.geometry) o.geometry.dispose();
    for (const m of o.material ? (Array.isArray(o.material) ? o.material : [o.material]) : []) {
      if (m.map) m.map.dispose();
      m.dispose();
    }
  });
}

function message(text, err) {
  $('model-msg').textContent = text;
  $('model-msg').className = 'msg' + (err ? ' err' : '');
}

function nodeList(json) {
  const names = (json.nodes || []).map((n, i) => n.name || '#' + i);
  $('model-nodes').replaceChildren(...names.map((n) => Object.assign(document.createElement('li'), { textContent: n })));
  return names.length;
}

function parse(bytes) {
  return new Promise((resolve, reject) => new GLTFLoader().parse(bytes, '', resolve, reject));
}

// Fetches url (the GLB of /api/model) and shows it; errors are the API's message.
export async function showModel(url) {
  const ticket = ++shown;
  const canvas = $('model-canvas');
  canvas.dataset.loaded = '';
  message('loading …');
  try {
    if (!view) setup();  // throws without WebGL
    playing(false);
    const r = await fetch(url);
    if (!r.ok) {
      const j = await r.json().catch(() => null);
      throw new Error((j && j.error && j.error.message) || 'HTTP ' + r.status);
    }
    const gltf = await parse(await r.arrayBuffer());
    if (ticket !== shown) return;
    if (view.root) { view.scene.remove(view.root); dispose(view.root); }
    view.root = gltf.scene;
    view.scene.add(gltf.scene);
    const n = nodeList(gltf.parser.json);
    setupAnimations(gltf.scene, gltf.animations || []);
    wireframe();
    frame(gltf.scene);
    fit();
    const a = (gltf.animations || []).length;
    message(n + ' node(s)' + (a ? ' · ' + a + ' animation(s)' : '') + ' · drag to orbit, wheel to zoom');
    canvas.dataset.loaded = '1';
    canvas.dataset.nodes = String(n);
  } catch (err) {
    if (ticket !== shown) return;
    message(err.message || String(err), true);
    canvas.dataset.loaded = '0';
  }
}
