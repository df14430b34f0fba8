// Results drawn over the model: deflected shapes through the member
// intermediate displacements (so members curve as they bend), mode shapes
// through the nodes, member diagrams and colouring by a result. Each keeps
// its undeformed positions and its displacements apart, so that the scale
// slider and the mode animation only rewrite one position buffer.

import * as THREE from 'three';

/** Length of one translation unit in the job's length unit. */
export function translationToLength(units) {
  const metres = { m: 1, cm: 0.01, mm: 0.001, ft: 0.3048, in: 0.0254, inch: 0.0254 };
  return (metres[units.translation] || 1) / (metres[units.length] || 1);
}

/**
 * Deformable is a line-segment drawing whose vertices are base + s·disp,
 * where s is the drawing scale.
 */
export class Deformable {
  constructor(base, disp, colour, meta) {
    this.base = base;
    this.disp = disp;
    this.pos = new Float32Array(base.length);
    const bg = new THREE.BufferGeometry();
    bg.setAttribute('position', new THREE.BufferAttribute(this.pos, 3));
    this.object = new THREE.LineSegments(bg, new THREE.LineBasicMaterial({ color: colour }));
    this.object.userData = meta || {};
    this.setScale(1);
  }

  setScale(s) {
    for (let i = 0; i < this.pos.length; i++) this.pos[i] = this.base[i] + s * this.disp[i];
    const attr = this.object.geometry.getAttribute('position');
    attr.needsUpdate = true;
    this.object.geometry.computeBoundingSphere();
  }

  /** checksum sums the drawn coordinates: tests compare it between cases. */
  checksum() {
    let s = 0;
    for (let i = 0; i < this.pos.length; i++) s += this.pos[i] * ((i % 7) + 1);
    return s;
  }

  /** maxDisp is the largest displacement vector's length, in drawing units. */
  maxDisp() {
    let m = 0;
    for (let i = 0; i < this.disp.length; i += 3) {
      m = Math.max(m, Math.hypot(this.disp[i], this.disp[i + 1], this.disp[i + 2]));
    }
    return m;
  }
}

/**
 * deflectedMembers builds the deflected shape of members from their
 * intermediate displacement rows (global components, translation units,
 * at stations located along the physical member from end A).
 */
export function deflectedMembers(geomById, rows, toLength) {
  const base = [];
  const disp = [];
  const ids = [];
  for (const r of rows) {
    const g = geomById.get(r.member);
    if (!g) continue;
    const a = g.pointA, b = g.pointB, len = g.length || 1;
    const at = (k) => {
      const f = r.location[k] / len;
      return [a.x + f * (b.x - a.x), a.y + f * (b.y - a.y), a.z + f * (b.z - a.z)];
    };
    const d = (k) => [r.txGlobal[k] * toLength, r.tyGlobal[k] * toLength, r.tzGlobal[k] * toLength];
    for (let k = 0; k + 1 < r.location.length; k++) {
      base.push(...at(k), ...at(k + 1));
      disp.push(...d(k), ...d(k + 1));
      ids.push(r.member);
    }
  }
  return new Deformable(new Float32Array(base), new Float32Array(disp), 0xd35400, { kind: 'member', ids });
}

/**
 * nodalShape builds a shape from node values (mode shapes, or plates'
 * deflections): members as chords between their nodes and plate edges,
 * each node moved by its (tx, ty, tz) in translation units.
 */
export function nodalShape(geom, plates, dispByNode, toLength, colour) {
  const base = [];
  const disp = [];
  const ids = [];
  const push = (n) => {
    const d = dispByNode.get(n.id) || [0, 0, 0];
    base.push(n.x, n.y, n.z);
    disp.push(d[0] * toLength, d[1] * toLength, d[2] * toLength);
  };
  for (const g of geom) {
    push(g.nodeA);
    push(g.nodeB);
    ids.push(g.member);
  }
  for (const p of plates) {
    const c = p.nodeCorners;
    for (let i = 0; i < c.length; i++) {
      push(c[i]);
      push(c[(i + 1) % c.length]);
      ids.push(-p.plate);
    }
  }
  return new Deformable(new Float32Array(base), new Float32Array(disp), colour, { kind: 'shape', ids });
}

/** Member force components, the local axis each diagram is drawn along, and its unit kind. */
export const components = {
  N: { field: 'fx', axis: 'yAxis', unit: 'force' },
  Vy: { field: 'fy', axis: 'yAxis', unit: 'force' },
  Vz: { field: 'fz', axis: 'zAxis', unit: 'force' },
  T: { field: 'mx', axis: 'yAxis', unit: 'moment' },
  My: { field: 'my', axis: 'zAxis', unit: 'moment' },
  Mz: { field: 'mz', axis: 'yAxis', unit: 'moment' },
};

/**
 * diagram draws a member force component as an outline offset from each
 * member along the component's local axis, the largest value at
 * 'height' drawing units.
 */
export function diagram(geomById, rows, comp, height) {
  const c = components[comp];
  let vmax = 0;
  for (const r of rows) for (const v of r[c.field]) vmax = Math.max(vmax, Math.abs(v));
  const k = vmax > 0 ? height / vmax : 0;
  const pos = [];
  for (const r of rows) {
    const g = geomById.get(r.member);
    if (!g) continue;
    const a = g.pointA, b = g.pointB, len = g.length || 1, ax = g.localAxes[c.axis];
    const pt = (i, off) => {
      const f = r.location[i] / len;
      return [a.x + f * (b.x - a.x) + off * ax.x, a.y + f * (b.y - a.y) + off * ax.y, a.z + f * (b.z - a.z) + off * ax.z];
    };
    const vals = r[c.field];
    for (let i = 0; i < vals.length; i++) {
      pos.push(...pt(i, 0), ...pt(i, vals[i] * k)); // hatch
      if (i + 1 < vals.length) pos.push(...pt(i, vals[i] * k), ...pt(i + 1, vals[i + 1] * k));
    }
  }
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  return { object: new THREE.LineSegments(bg, new THREE.LineBasicMaterial({ color: 0x2471a3 })), max: vmax };
}

/** ramp maps t in [0, 1] to a blue–green–red colour. */
export function ramp(t) {
  const c = new THREE.Color();
  c.setHSL((1 - Math.min(1, Math.max(0, t))) * 0.66, 0.85, 0.5);
  return c;
}

/**
 * colourMembers colours the member lines by the largest |value| of a
 * component along each member, and returns the legend's top (its bottom
 * is 0).
 */
export function colourMembers(lines, rows, comp) {
  const field = components[comp].field;
  const peak = new Map();
  let vmax = 0;
  for (const r of rows) {
    let m = 0;
    for (const v of r[field]) m = Math.max(m, Math.abs(v));
    peak.set(r.member, m);
    vmax = Math.max(vmax, m);
  }
  const ids = lines.userData.ids;
  const col = new Float32Array(ids.length * 6);
  ids.forEach((id, i) => {
    const c = ramp(vmax > 0 ? (peak.get(id) || 0) / vmax : 0);
    col.set([c.r, c.g, c.b, c.r, c.g, c.b], i * 6);
  });
  lines.geometry.setAttribute('color', new THREE.BufferAttribute(col, 3));
  lines.material.vertexColors = true;
  lines.material.color.set(0xffffff);
  lines.material.needsUpdate = true;
  return { max: vmax };
}

/**
 * plateComponents are the plate-element-forces fields a plate can be
 * coloured by, with their quantity in the job's units.
 */
export const plateComponents = {
  fx: ['force', 'length'], fy: ['force', 'length'], fxy: ['force', 'length'],
  mx: ['moment', 'length'], my: ['moment', 'length'], mxy: ['moment', 'length'],
  vxz: ['force', 'length'], vyz: ['force', 'length'],
};

/**
 * colourPlates colours each plate of the mesh by its signed value of a
 * plate-element-forces field, from the smallest (blue) to the largest
 * (red), and returns that range and how many plates had a value. The
 * mesh keeps each plate's value (userData.values). Plates without a row
 * stay white.
 */
export function colourPlates(mesh, rows, field) {
  const value = new Map(rows.map((r) => [r.plate, r[field]]));
  let min = Infinity, max = -Infinity;
  for (const v of value.values()) { min = Math.min(min, v); max = Math.max(max, v); }
  const ids = mesh.userData.faceIds;
  const col = mesh.geometry.getAttribute('color');
  let coloured = 0;
  ids.forEach((id, i) => {
    const v = value.get(id);
    const c = v === undefined ? new THREE.Color(1, 1, 1) : ramp(max > min ? (v - min) / (max - min) : 0.5);
    for (let k = 0; k < 3; k++) col.setXYZ(i * 3 + k, c.r, c.g, c.b);
  });
  for (const id of new Set(ids)) if (value.has(id)) coloured++;
  mesh.userData.values = value;
  col.needsUpdate = true;
  mesh.material.color.set(0xffffff);
  return { min, max, coloured };
}

/** uncolourPlates restores the plain plate colour. */
export function uncolourPlates(mesh, colour) {
  const col = mesh.geometry.getAttribute('color');
  col.array.fill(1);
  col.needsUpdate = true;
  mesh.userData.values = null;
  mesh.material.color.set(colour);
}

/** uncolourMembers restores the plain member colour. */
export function uncolourMembers(lines, colour) {
  lines.geometry.deleteAttribute('color');
  lines.material.vertexColors = false;
  lines.material.color.set(colour);
  lines.material.needsUpdate = true;
}
