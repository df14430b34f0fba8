// The viewer page: loads the open job, draws it and the results the user
// chooses, and exposes a small read-only state as window.gussetViewer for
// tests and scripts (counts, the chosen case, a checksum of the deflected
// geometry, frame timings).

import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { Api, AuthError, setKey } from './api.js';
import * as M from './model.js';
import * as R from './results.js';

const api = new Api();
const $ = (id) => document.getElementById(id);

// state is what window.gussetViewer shows; only this module writes it.
const state = {
  ready: false,
  busy: false,
  errors: [],
  job: null,
  counts: { nodes: 0, members: 0, plates: 0, supports: 0 },
  available: { static: false, buckling: false, dynamic: false },
  cases: [],
  loadCase: null,
  deflected: null,
  mode: null,
  // What the result overlays show, for tests to compare with the
  // service's numbers: the diagram's component, its segments and largest
  // |value|; the member and plate colourings with their legends' ranges
  // (job units).
  diagram: null,
  memberColour: null,
  // Drawn marks, for tests: released member ends and rigid-offset
  // segments.
  releases: 0,
  offsets: 0,
  plateColour: null,
  timings: { firstFrameMs: null, lastFrameMs: null, frames: 0 },
  requests: 0,
};
window.gussetViewer = {
  get state() { return JSON.parse(JSON.stringify({ ...state, requests: api.requests })); },
  selectCase: (id) => selectCase(id),
  selectMode: (kind, lc, mode) => selectMode(kind, lc, mode),
  view: (name) => setView(name),
  // screenOf is where an object's centre is on the canvas, in CSS pixels of
  // the page: tests click there to pick it.
  screenOf: (kind, id) => screenOf(kind, id),
  // displacementAt is the drawn displacement of a member's station (1 is
  // end A), in the job's translation units: [tx, ty, tz] global.
  displacementAt: (member, station) => displacementAt(member, station),
  // shapeChecksum sums the coordinates of the shape drawn now: it moves
  // while a mode shape is animated.
  shapeChecksum: () => (deformable ? deformable.checksum() : null),
  // plateValue is the value a plate is coloured by now, or null.
  plateValue: (id) => (data.plateMesh && data.plateMesh.userData.values ? data.plateMesh.userData.values.get(id) ?? null : null),
};

// Scene.
const canvas = $('scene');
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(window.devicePixelRatio || 1);
const scene = new THREE.Scene();
scene.background = new THREE.Color(M.colours.background);
scene.add(new THREE.AmbientLight(0xffffff, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.4);
sun.position.set(1, 2, 3);
scene.add(sun);
const camera = new THREE.PerspectiveCamera(45, 1, 0.01, 1e6);
const controls = new OrbitControls(camera, canvas);
controls.enableDamping = false;

const layers = { model: new THREE.Group(), loads: new THREE.Group(), results: new THREE.Group() };
Object.values(layers).forEach((g) => scene.add(g));

// Model data, kept for results and picking.
const data = { nodes: [], nodeById: new Map(), geom: [], geomById: new Map(), plates: [], up: new THREE.Vector3(0, 1, 0),
  toLength: 1, size: 1, centre: new THREE.Vector3(), lines: null, extruded: null, members: null, outlines: null };
let deformable = null; // the drawn deflected or mode shape
let animating = false;

function resize() {
  const w = canvas.clientWidth, h = canvas.clientHeight;
  if (canvas.width !== w || canvas.height !== h) {
    renderer.setSize(w, h, false);
    camera.aspect = w / Math.max(1, h);
    camera.updateProjectionMatrix();
  }
}

let last = performance.now();
function frame(now) {
  resize();
  if (animating && deformable) deformable.setScale(scaleValue() * Math.sin(now / 400));
  controls.update();
  renderer.render(scene, camera);
  state.timings.lastFrameMs = now - last;
  last = now;
  state.timings.frames++;
  // From the start of navigation (the time origin): page, scripts, job
  // and the first frame of the model.
  if (state.ready && state.timings.firstFrameMs === null) state.timings.firstFrameMs = now;
  requestAnimationFrame(frame);
}

function status(text) {
  $('status').textContent = text;
}

function fail(err) {
  if (err instanceof AuthError) {
    $('keyform').hidden = false;
    status('An API key is needed.');
    return;
  }
  state.errors.push(String(err.message || err));
  status(String(err.message || err));
}

// Camera.
function setView(name) {
  const up = data.up;
  const d = data.size * 1.6 + 1e-9;
  const dirs = {
    front: up.y ? new THREE.Vector3(0, 0, 1) : new THREE.Vector3(0, -1, 0),
    side: new THREE.Vector3(1, 0, 0),
    top: up.clone(),
    iso: up.y ? new THREE.Vector3(1, 0.8, 1.2) : new THREE.Vector3(1, -1.2, 0.8),
  };
  const dir = (dirs[name] || dirs.iso).clone().normalize();
  camera.up.copy(name === 'top' ? (up.y ? new THREE.Vector3(0, 0, -1) : new THREE.Vector3(0, 1, 0)) : up);
  camera.position.copy(data.centre).addScaledVector(dir, d);
  camera.near = d / 1000;
  camera.far = d * 100;
  camera.updateProjectionMatrix();
  controls.target.copy(data.centre);
  controls.update();
}

// Loading.
const GEOMETRY_PAGE = 200000;
async function load() {
  status('Reading the job…');
  const st = (await api.get('/job/status')).body;
  if (!st.state || !st.state.isOpen) {
    status('No job is open: open or create one through the API, then reload.');
    state.ready = true;
    return;
  }
  const job = st.job;
  state.job = { heading: job.headings.heading, units: job.units, verticalAxis: job.settings.verticalAxis };
  $('title').textContent = job.headings.heading || job.headings.projectHeading || 'gusset job';
  data.up = job.settings.verticalAxis === 'ZAxis' ? new THREE.Vector3(0, 0, 1) : new THREE.Vector3(0, 1, 0);
  data.toLength = R.translationToLength(job.units);
  const s = st.structure;
  // A geometry page costs the server the whole model's geometry, whatever
  // its size (degenerate members are left out, so it cannot know where a
  // page starts without deriving those before it): the geometry is read
  // in pages of GEOMETRY_PAGE rows, one request for most jobs.
  const [nodes, geom, plates, restraints, sections] = await Promise.all([
    api.all('/job/structure/nodes'),
    s.members ? api.all('/job/query/geometry/members', {}, GEOMETRY_PAGE) : [],
    s.plates ? api.all('/job/query/geometry/plates', {}, GEOMETRY_PAGE) : [],
    s.nodeRestraints ? api.all('/job/structure/node-restraints') : [],
    s.sections ? api.all('/job/structure/sections') : [],
  ]);
  data.nodes = nodes;
  nodes.forEach((n) => data.nodeById.set(n.id, n));
  data.geom = geom;
  geom.forEach((g) => data.geomById.set(g.member, g));
  data.plates = plates;
  $('plate-colour-label').hidden = !plates.length;
  const box = new THREE.Box3();
  nodes.forEach((n) => box.expandByPoint(new THREE.Vector3(n.x, n.y, n.z)));
  box.getCenter(data.centre);
  data.size = Math.max(box.getSize(new THREE.Vector3()).length(), 1e-6);

  data.lines = M.membersLines(geom);
  layers.model.add(data.lines);
  const offsets = M.offsetLines(geom);
  layers.model.add(offsets);
  state.offsets = offsets.geometry.getAttribute('position').count / 2;
  data.outlines = new Map(sections.map((x) => [x.id, M.sectionOutline(x, lengthPerSectionUnit(job.units))]));
  // The member records (sections, releases) are the largest read: the
  // model is drawn without waiting for them, and the release marks and
  // section outlines follow.
  data.members = s.members ? api.all('/job/structure/members') : Promise.resolve([]);
  data.members.then((members) => {
    const marks = M.releaseMarks(geom, new Map(members.map((m) => [m.id, m.releases])));
    layers.model.add(marks);
    state.releases = marks.geometry.getAttribute('position').count;
    state.membersLoaded = true;
  }).catch(fail);
  const pl = M.platesMesh(plates);
  data.plateMesh = pl.mesh;
  layers.model.add(pl.mesh, pl.outline);
  layers.model.add(M.nodesPoints(nodes));
  const sup = M.supportsMesh(restraints, data.nodeById, data.size * 0.025, data.up);
  layers.model.add(sup);
  state.counts = sceneCounts(sup);
  setView('iso');

  // Combinations are load cases of type Combination: one list has them all.
  const cases = await api.all('/job/loads/load-cases');
  state.cases = cases.map((c) => ({ id: c.id, title: c.title, type: c.type }));
  const sel = $('case');
  sel.innerHTML = '';
  for (const c of cases) sel.add(new Option(`${c.id}: ${c.title}${c.type === 'Combination' ? ' (combination)' : ''}`, String(c.id)));
  await loadAvailability(st.analysis);
  state.ready = true;
  status(`${nodes.length} nodes, ${geom.length} members, ${plates.length} plates, ${restraints.length} supports`);
  if (state.cases.length) {
    const first = state.cases.find((c) => resultCases.has(c.id)) || state.cases[0];
    sel.value = String(first.id);
    await selectCase(first.id);
  }
}

// showSections swaps the member lines for their swept section outlines,
// built the first time they are asked for.
async function showSections(on) {
  if (on && !data.extruded) {
    const members = await data.members;
    data.extruded = M.membersExtruded(data.geom, new Map(members.map((m) => [m.id, m.section])), data.outlines);
    layers.model.add(data.extruded);
  }
  if (data.extruded) data.extruded.visible = on;
  data.lines.visible = !on;
  state.sections = on;
  state.sectionFaces = data.extruded ? data.extruded.userData.faceIds.length : 0;
}

// sceneCounts counts what the scene draws, not what the API returned.
function sceneCounts(supports) {
  const pts = layers.model.children.find((o) => o.userData.kind === 'node');
  return {
    nodes: pts.geometry.getAttribute('position').count,
    members: data.lines.geometry.getAttribute('position').count / 2,
    plates: new Set(data.plateMesh.userData.faceIds).size,
    supports: supports.children.reduce((n, m) => n + m.count, 0),
  };
}

function screenOf(kind, id) {
  let p;
  if (kind === 'member') {
    const g = data.geomById.get(id);
    p = new THREE.Vector3(g.pointA.x, g.pointA.y, g.pointA.z).lerp(new THREE.Vector3(g.pointB.x, g.pointB.y, g.pointB.z), 0.5);
  } else if (kind === 'node') {
    const n = data.nodeById.get(id);
    p = new THREE.Vector3(n.x, n.y, n.z);
  } else {
    const pl = data.plates.find((x) => x.plate === id);
    p = new THREE.Vector3(pl.centroid.x, pl.centroid.y, pl.centroid.z);
  }
  p.project(camera);
  const r = canvas.getBoundingClientRect();
  return { x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
}

// lengthPerSectionUnit converts section dimensions to the length unit.
function lengthPerSectionUnit(units) {
  const metres = { m: 1, cm: 0.01, mm: 0.001, ft: 0.3048, in: 0.0254 };
  return (metres[units.sectionProperties] || 1) / (metres[units.length] || 1);
}

let resultCases = new Set();
async function loadAvailability(flags) {
  state.available = { static: !!flags.hasStaticResults, buckling: !!flags.hasBucklingResults, dynamic: !!flags.hasDynamicResults };
  resultCases = new Set();
  if (flags.hasStaticResults) {
    const info = (await api.get('/job/analysis/static/info')).body;
    for (const c of info.loadCases) if (c.hasResults) resultCases.add(c.loadCase);
  }
  $('static-results').hidden = !flags.hasStaticResults;
  const modeSel = $('mode');
  modeSel.innerHTML = '';
  modeSel.add(new Option('none', ''));
  for (const [kind, path, flag] of [['buckling', 'buckling', flags.hasBucklingResults], ['dynamic', 'dynamic-frequency', flags.hasDynamicResults]]) {
    if (!flag) continue;
    const info = (await api.get(`/job/analysis/${path}/info`)).body;
    for (const c of info.loadCases) {
      for (let m = 1; m <= c.modes; m++) modeSel.add(new Option(`${kind} case ${c.loadCase} mode ${m}`, `${kind}:${c.loadCase}:${m}`));
    }
  }
  $('modes').hidden = modeSel.options.length <= 1;
  state.modesOffered = modeSel.options.length - 1;
}

// Results of a case.
let caseRows = {};
async function selectCase(id) {
  id = Number(id);
  state.busy = true;
  try {
    state.loadCase = id;
    await drawLoads(id);
    layers.results.clear();
    deformable = null;
    memberShape = null;
    animating = false;
    caseRows = {};
    if (!resultCases.has(id)) {
      // The overlays of the previous case go too.
      await drawDiagramAndColour();
      state.deflected = { loadCase: id, hasResults: false, checksum: 0, segments: 0 };
      status(`Load case ${id} has no static results: run an analysis through the API.`);
      return;
    }
    const q = { loadCases: id };
    const [disp, nodeDisp] = await Promise.all([
      data.geom.length ? api.all('/job/query/analysis/static/member-intermediate-displacements', q, 5000) : [],
      data.plates.length ? api.all('/job/query/analysis/static/node-displacements', q) : [],
    ]);
    deformable = R.deflectedMembers(data.geomById, disp, data.toLength);
    memberShape = deformable;
    layers.results.add(deformable.object);
    if (data.plates.length) {
      const byNode = new Map(nodeDisp.map((r) => [r.node, [r.tx, r.ty, r.tz]]));
      const plateShape = R.nodalShape([], data.plates, byNode, data.toLength, 0xd35400);
      layers.results.add(plateShape.object);
      deformable = mergeDeformables(deformable, plateShape);
    }
    applyScale();
    state.deflected = { loadCase: id, hasResults: true, checksum: deformable.checksum(), segments: deformable.pos.length / 6,
      maxDisplacement: deformable.maxDisp() / data.toLength, drawnAtMs: performance.now() };
    await drawDiagramAndColour();
    status(`Load case ${id}: largest displacement ${state.deflected.maxDisplacement.toPrecision(4)} ${state.job.units.translation}`);
  } catch (e) {
    fail(e);
  } finally {
    state.busy = false;
  }
}

let memberShape = null; // the members' part of the deflected shape
function displacementAt(member, station) {
  if (!memberShape) return null;
  const ids = memberShape.object.userData.ids;
  const first = ids.indexOf(member);
  if (first < 0) return null;
  const seg = first + Math.max(0, station - 2);
  const v = 2 * seg + (station >= 2 ? 1 : 0);
  return [0, 1, 2].map((i) => memberShape.disp[3 * v + i] / data.toLength);
}

// mergeDeformables scales two shapes as one.
function mergeDeformables(a, b) {
  return {
    setScale: (s) => { a.setScale(s); b.setScale(s); },
    checksum: () => a.checksum() + b.checksum(),
    maxDisp: () => Math.max(a.maxDisp(), b.maxDisp()),
    pos: { length: a.pos.length + b.pos.length },
  };
}

// scaleValue maps the slider to a drawing scale: at 1 the largest
// displacement is drawn at 5 % of the model's size.
function scaleValue() {
  if (!deformable) return 1;
  const m = deformable.maxDisp();
  const f = Number($('scale').value);
  return m > 0 ? (f * 0.05 * data.size) / m : 0;
}

function applyScale() {
  if (!deformable) return;
  const s = scaleValue();
  deformable.setScale($('deflected').checked ? s : 0);
  layers.results.visible = $('deflected').checked || animating;
  $('scale-label').textContent = `×${s.toPrecision(3)}`;
}

// caseResult reads a static result query of the chosen case once, and
// keeps it until another case is chosen.
async function caseResult(query, pageSize) {
  if (!caseRows[query]) {
    caseRows[query] = await api.all(`/job/query/analysis/static/${query}`, { loadCases: state.loadCase }, pageSize);
  }
  return caseRows[query];
}

const memberForces = () => caseResult('member-intermediate-forces', 5000);
const plateForces = () => caseResult('plate-element-forces');

let diagramObject = null;
async function drawDiagramAndColour() {
  if (diagramObject) layers.model.remove(diagramObject);
  diagramObject = null;
  const comp = $('diagram').value, colourBy = $('colour').value;
  $('legend').hidden = true;
  state.diagram = state.memberColour = null;
  await colourPlates();
  if (!resultCases.has(state.loadCase) || !data.geom.length) {
    R.uncolourMembers(data.lines, M.colours.member);
    return;
  }
  const units = state.job.units;
  if (comp) {
    const d = R.diagram(data.geomById, await memberForces(), comp, data.size * 0.06);
    diagramObject = d.object;
    layers.model.add(diagramObject);
    state.diagram = { component: comp, segments: d.object.geometry.getAttribute('position').count / 2, max: d.max };
  }
  if (colourBy) {
    const range = R.colourMembers(data.lines, await memberForces(), colourBy);
    const unit = units[R.components[colourBy].unit];
    $('legend').hidden = false;
    $('legend-title').textContent = `|${colourBy}| max along member (${unit})`;
    $('legend-min').textContent = '0';
    $('legend-max').textContent = range.max.toPrecision(4);
    state.memberColour = { component: colourBy, min: 0, max: range.max, unit };
  } else {
    R.uncolourMembers(data.lines, M.colours.member);
  }
}

// colourPlates colours the plates by the chosen plate force, with its
// legend, or restores their plain colour.
async function colourPlates() {
  const field = $('plate-colour').value;
  $('plate-legend').hidden = true;
  state.plateColour = null;
  if (!data.plateMesh || !data.plates.length) return;
  if (!field || !resultCases.has(state.loadCase)) {
    R.uncolourPlates(data.plateMesh, M.colours.plate);
    return;
  }
  const rows = await plateForces();
  if (!rows.length) {
    R.uncolourPlates(data.plateMesh, M.colours.plate);
    return;
  }
  const range = R.colourPlates(data.plateMesh, rows, field);
  const [num, den] = R.plateComponents[field];
  const unit = `${state.job.units[num]}/${state.job.units[den]}`;
  $('plate-legend').hidden = false;
  $('plate-legend-title').textContent = `plate ${field} (${unit})`;
  $('plate-legend-min').textContent = range.min.toPrecision(4);
  $('plate-legend-max').textContent = range.max.toPrecision(4);
  state.plateColour = { component: field, min: range.min, max: range.max, plates: range.coloured, unit };
}

// Loads of the chosen case as arrows.
async function drawLoads(id) {
  layers.loads.clear();
  if (!$('loads').checked) return;
  const q = { loadCases: id };
  const [nodeLoads, dist, conc] = await Promise.all([
    api.all('/job/loads/node-loads', q),
    api.all('/job/loads/member-distributed-loads', q),
    api.all('/job/loads/member-concentrated-loads', q),
  ]);
  const len = data.size * 0.08;
  const list = [];
  const add = (at, v) => {
    if (v.length() > 0) list.push({ at, dir: v, length: len });
  };
  for (const l of nodeLoads) {
    const n = data.nodeById.get(l.node);
    if (n) add(new THREE.Vector3(n.x, n.y, n.z), new THREE.Vector3(l.fx, l.fy, l.fz));
  }
  const along = (g, pos, units) => {
    const f = units === 'Percent' ? pos / 100 : pos / (g.length || 1);
    return new THREE.Vector3(g.pointA.x, g.pointA.y, g.pointA.z).lerp(new THREE.Vector3(g.pointB.x, g.pointB.y, g.pointB.z), f);
  };
  const dirOf = (g, axes, x, y, z) => {
    if (axes !== 'Local') return new THREE.Vector3(x, y, z);
    const a = g.localAxes;
    return new THREE.Vector3().addScaledVector(a.xAxis, x).addScaledVector(a.yAxis, y).addScaledVector(a.zAxis, z);
  };
  for (const l of dist) {
    const g = data.geomById.get(l.member);
    if (!g) continue;
    for (let k = 0; k <= 4; k++) {
      const t = k / 4;
      const p = l.startPosition + t * (l.finishPosition - l.startPosition);
      add(along(g, p, l.positionUnits), dirOf(g, l.axes, l.fxStart + t * (l.fxFinish - l.fxStart),
        l.fyStart + t * (l.fyFinish - l.fyStart), l.fzStart + t * (l.fzFinish - l.fzStart)));
    }
  }
  for (const l of conc) {
    const g = data.geomById.get(l.member);
    if (g) add(along(g, l.position, l.positionUnits), dirOf(g, l.axes, l.fx, l.fy, l.fz));
  }
  layers.loads.add(M.arrows(list, M.colours.load));
  state.loadArrows = list.length;
}

// Mode shapes, animated.
async function selectMode(kind, lc, mode) {
  layers.results.clear();
  deformable = null;
  animating = false;
  state.mode = null;
  if (!kind) {
    if (state.loadCase !== null) await selectCase(state.loadCase);
    return;
  }
  const rows = await api.all(`/job/query/analysis/${kind}/mode-shapes`, { loadCases: lc, modes: mode });
  const byNode = new Map();
  for (const r of rows) r.node.forEach((n, i) => byNode.set(n, [r.tx[i], r.ty[i], r.tz[i]]));
  deformable = R.nodalShape(data.geom, data.plates, byNode, 1, 0x8e44ad);
  layers.results.add(deformable.object);
  layers.results.visible = true;
  animating = true;
  state.mode = { kind, loadCase: Number(lc), mode: Number(mode), checksum: deformable.checksum() };
}

// Picking.
const raycaster = new THREE.Raycaster();
async function pick(ev) {
  const r = canvas.getBoundingClientRect();
  const ndc = new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
  raycaster.setFromCamera(ndc, camera);
  raycaster.params.Line.threshold = data.size * 0.01;
  raycaster.params.Points.threshold = data.size * 0.01;
  const targets = layers.model.children.filter((o) => o.visible);
  const hit = raycaster.intersectObjects(targets, true).find((h) => h.object.userData.kind);
  if (!hit) return;
  const u = hit.object.userData;
  let kind = u.kind, id;
  if (u.ids && hit.index !== undefined && !hit.object.isInstancedMesh) id = u.ids[kind === 'member' ? Math.floor(hit.index / 2) : hit.index];
  else if (hit.object.isInstancedMesh) id = u.ids[hit.instanceId];
  else if (u.faceIds) id = u.faceIds[hit.faceIndex];
  if (id === undefined) return;
  await showPicked(kind, id);
}

async function showPicked(kind, id) {
  const lc = state.loadCase;
  const lines = [`${kind} ${id}`];
  const units = state.job.units;
  try {
    if (kind === 'node' || kind === 'support') {
      const n = data.nodeById.get(id);
      lines.push(`at (${n.x}, ${n.y}, ${n.z}) ${units.length}`);
      if (resultCases.has(lc)) {
        const [d] = await api.all('/job/query/analysis/static/node-displacements', { loadCases: lc, nodes: id });
        if (d) lines.push(`case ${lc}: tx ${d.tx.toPrecision(4)}, ty ${d.ty.toPrecision(4)}, tz ${d.tz.toPrecision(4)} ${units.translation}`);
      }
    } else if (kind === 'member') {
      const g = data.geomById.get(id);
      lines.push(`nodes ${g.nodeA.id}–${g.nodeB.id}, length ${g.length.toPrecision(4)} ${units.length}`);
      if (resultCases.has(lc)) {
        const [f] = await api.all('/job/query/analysis/static/member-end-forces', { loadCases: lc, members: id });
        if (f) {
          for (const [i, end] of [[0, 'A'], [1, 'B']]) {
            lines.push(`end ${end}: N ${f.fx[i].toPrecision(4)}, Vy ${f.fy[i].toPrecision(4)}, Vz ${f.fz[i].toPrecision(4)} ${units.force}; ` +
              `T ${f.mx[i].toPrecision(4)}, My ${f.my[i].toPrecision(4)}, Mz ${f.mz[i].toPrecision(4)} ${units.moment}`);
          }
        }
      }
    } else if (kind === 'plate') {
      if (resultCases.has(lc)) {
        const [f] = await api.all('/job/query/analysis/static/plate-element-forces', { loadCases: lc, plates: id });
        if (f) lines.push(`case ${lc}: mx ${f.mx.toPrecision(4)}, my ${f.my.toPrecision(4)}, mxy ${f.mxy.toPrecision(4)} ${units.moment}/${units.length}`);
      }
    }
  } catch (e) {
    lines.push(String(e.message || e));
  }
  $('picked').textContent = lines.join('\n');
  state.picked = { kind, id, text: lines.join('\n') };
}

// Wiring of the controls.
function wire() {
  $('case').addEventListener('change', (e) => selectCase(e.target.value));
  $('scale').addEventListener('input', applyScale);
  $('deflected').addEventListener('change', applyScale);
  $('sections').addEventListener('change', (e) => showSections(e.target.checked).catch(fail));
  $('loads').addEventListener('change', () => state.loadCase !== null && drawLoads(state.loadCase).catch(fail));
  $('diagram').addEventListener('change', () => drawDiagramAndColour().catch(fail));
  $('colour').addEventListener('change', () => drawDiagramAndColour().catch(fail));
  $('plate-colour').addEventListener('change', () => drawDiagramAndColour().catch(fail));
  $('mode').addEventListener('change', (e) => {
    const [kind, lc, mode] = e.target.value.split(':');
    selectMode(kind, lc, mode).catch(fail);
  });
  for (const v of ['iso', 'front', 'side', 'top']) $(`view-${v}`).addEventListener('click', () => setView(v));
  $('view-fit').addEventListener('click', () => setView('iso'));
  canvas.addEventListener('click', (e) => pick(e).catch(fail));
  $('keyform').addEventListener('submit', (e) => {
    e.preventDefault();
    setKey($('key').value.trim());
    $('keyform').hidden = true;
    start();
  });
}

function start() {
  state.errors = [];
  load().catch(fail);
}

wire();
requestAnimationFrame(frame);
start();
