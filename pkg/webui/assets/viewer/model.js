// Geometry of the model for three.js: every kind of object is one merged
// or instanced draw (grid-30 has 86,490 members), and each keeps a table
// from its vertices or instances back to ids, for picking.

import * as THREE from 'three';

export const colours = {
  background: 0xf4f5f7,
  node: 0x1f2933,
  member: 0x3e4c59,
  plate: 0x7fb3d5,
  plateEdge: 0x2e6da4,
  support: 0xc0392b,
  release: 0xf39c12,
  offset: 0x8e44ad,
  load: 0x27ae60,
  deflected: 0xd35400,
  selected: 0xe91e63,
};

const v3 = (p) => new THREE.Vector3(p.x, p.y, p.z);

/** membersLines draws members as line segments between their physical ends. */
export function membersLines(geom) {
  const pos = new Float32Array(geom.length * 6);
  geom.forEach((g, i) => {
    pos.set([g.pointA.x, g.pointA.y, g.pointA.z, g.pointB.x, g.pointB.y, g.pointB.z], i * 6);
  });
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  const lines = new THREE.LineSegments(bg, new THREE.LineBasicMaterial({ color: colours.member }));
  lines.userData = { kind: 'member', ids: geom.map((g) => g.member) };
  return lines;
}

/** offsetLines draws the rigid end zones: node to physical end, where they differ. */
export function offsetLines(geom) {
  const pts = [];
  for (const g of geom) {
    for (const [n, p] of [[g.nodeA, g.pointA], [g.nodeB, g.pointB]]) {
      if (n.x !== p.x || n.y !== p.y || n.z !== p.z) pts.push(n.x, n.y, n.z, p.x, p.y, p.z);
    }
  }
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
  return new THREE.LineSegments(bg, new THREE.LineBasicMaterial({ color: colours.offset }));
}

/**
 * sectionOutline is the outline of a section in its local (y, z) plane, in
 * length units: the true shape for I, channel, box, tube, angle, rectangle
 * and round families, else the rectangle of the same area and second
 * moments (b = √(12·Iy/A), d = √(12·Iz/A)).
 */
export function sectionOutline(section, toLength) {
  const s = (section.shapes && section.shapes[0]) || null;
  const k = toLength;
  if (s && s.d > 0) {
    const d = s.d * k, b = (s.b || s.d) * k, tf = (s.tf || 0) * k, tw = (s.tw || s.t || 0) * k;
    switch (s.family) {
      case 'I':
        return [[-b / 2, d / 2], [b / 2, d / 2], [b / 2, d / 2 - tf], [tw / 2, d / 2 - tf], [tw / 2, -d / 2 + tf],
          [b / 2, -d / 2 + tf], [b / 2, -d / 2], [-b / 2, -d / 2], [-b / 2, -d / 2 + tf], [-tw / 2, -d / 2 + tf],
          [-tw / 2, d / 2 - tf], [-b / 2, d / 2 - tf]].map(([z, y]) => [y, z]);
      case 'C':
        return [[0, d / 2], [b, d / 2], [b, d / 2 - tf], [tw, d / 2 - tf], [tw, -d / 2 + tf], [b, -d / 2 + tf],
          [b, -d / 2], [0, -d / 2]].map(([z, y]) => [y, z - b / 2]);
      case 'L':
        return [[0, 0], [b, 0], [b, tw], [tw, tw], [tw, d], [0, d]].map(([z, y]) => [y - d / 2, z - b / 2]);
      case 'CHS':
      case 'O':
      case 'Round': {
        const pts = [];
        for (let i = 0; i < 16; i++) pts.push([(d / 2) * Math.cos((i * Math.PI) / 8), (d / 2) * Math.sin((i * Math.PI) / 8)]);
        return pts;
      }
      default:
        return [[-d / 2, -b / 2], [d / 2, -b / 2], [d / 2, b / 2], [-d / 2, b / 2]];
    }
  }
  const a = section.a, iy = section.iy, iz = section.iz;
  if (a > 0 && iy > 0 && iz > 0) {
    const b = Math.sqrt((12 * iy) / a) * k, d = Math.sqrt((12 * iz) / a) * k;
    return [[-d / 2, -b / 2], [d / 2, -b / 2], [d / 2, b / 2], [-d / 2, b / 2]];
  }
  return null;
}

/**
 * membersExtruded draws each member as its section outline swept from end
 * A to end B in its local axes (local y up the outline's first coordinate,
 * local z the second): one merged mesh of side quads.
 */
export function membersExtruded(geom, memberSection, outlines) {
  const pos = [];
  const ids = [];
  for (const g of geom) {
    const outline = outlines.get(memberSection.get(g.member));
    if (!outline) continue;
    const ly = v3(g.localAxes.yAxis), lz = v3(g.localAxes.zAxis);
    const a = v3(g.pointA), b = v3(g.pointB);
    const ring = (o) => outline.map(([y, z]) => o.clone().addScaledVector(ly, y).addScaledVector(lz, z));
    const ra = ring(a), rb = ring(b);
    for (let i = 0; i < outline.length; i++) {
      const j = (i + 1) % outline.length;
      for (const p of [ra[i], ra[j], rb[j], ra[i], rb[j], rb[i]]) pos.push(p.x, p.y, p.z);
      ids.push(g.member, g.member);
    }
  }
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  bg.computeVertexNormals();
  const mesh = new THREE.Mesh(bg, new THREE.MeshLambertMaterial({ color: colours.member, side: THREE.DoubleSide }));
  mesh.userData = { kind: 'member', faceIds: ids };
  return mesh;
}

/** platesMesh draws plates as filled polygons (quads as two triangles). */
export function platesMesh(plates) {
  const pos = [];
  const ids = [];
  const edges = [];
  for (const p of plates) {
    const c = p.pointCorners;
    const tris = c.length === 4 ? [[0, 1, 2], [0, 2, 3]] : [[0, 1, 2]];
    for (const t of tris) {
      for (const i of t) pos.push(c[i].x, c[i].y, c[i].z);
      ids.push(p.plate);
    }
    for (let i = 0; i < c.length; i++) {
      const a = c[i], b = c[(i + 1) % c.length];
      edges.push(a.x, a.y, a.z, b.x, b.y, b.z);
    }
  }
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  bg.setAttribute('color', new THREE.Float32BufferAttribute(new Float32Array(pos.length).fill(1), 3));
  const mesh = new THREE.Mesh(bg, new THREE.MeshBasicMaterial({
    color: colours.plate, vertexColors: true, side: THREE.DoubleSide, transparent: true, opacity: 0.75,
    polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1,
  }));
  mesh.userData = { kind: 'plate', faceIds: ids };
  const eg = new THREE.BufferGeometry();
  eg.setAttribute('position', new THREE.Float32BufferAttribute(edges, 3));
  const outline = new THREE.LineSegments(eg, new THREE.LineBasicMaterial({ color: colours.plateEdge }));
  return { mesh, outline };
}

/** nodesPoints draws nodes as points. */
export function nodesPoints(nodes) {
  const pos = new Float32Array(nodes.length * 3);
  nodes.forEach((n, i) => pos.set([n.x, n.y, n.z], i * 3));
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.BufferAttribute(pos, 3));
  const pts = new THREE.Points(bg, new THREE.PointsMaterial({ color: colours.node, size: 4, sizeAttenuation: false }));
  pts.userData = { kind: 'node', ids: nodes.map((n) => n.id) };
  return pts;
}

/**
 * supportsMesh draws a symbol under each restrained node: a cube where
 * all six directions are fixed, a cone pointing at the node where only
 * translations are, a sphere for any other restraint (springs, partial).
 */
export function supportsMesh(restraints, nodeById, size, up) {
  const groups = { fixed: [], pinned: [], other: [] };
  for (const r of restraints) {
    const n = nodeById.get(r.node);
    if (!n) continue;
    const code = r.restraintCode || '';
    const kind = code === 'FFFFFF' ? 'fixed' : code.startsWith('FFF') && !code.slice(3).includes('F') ? 'pinned' : 'other';
    groups[kind].push({ node: r.node, p: v3(n), code });
  }
  const shapes = {
    fixed: new THREE.BoxGeometry(size, size, size),
    pinned: new THREE.ConeGeometry(size * 0.6, size, 12),
    other: new THREE.SphereGeometry(size * 0.45, 12, 8),
  };
  const out = new THREE.Group();
  const q = new THREE.Quaternion().setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
  const m = new THREE.Matrix4();
  for (const [kind, list] of Object.entries(groups)) {
    if (!list.length) continue;
    const inst = new THREE.InstancedMesh(shapes[kind], new THREE.MeshLambertMaterial({ color: colours.support }), list.length);
    list.forEach((s, i) => {
      const at = s.p.clone().addScaledVector(up, -size / 2);
      m.compose(at, q, new THREE.Vector3(1, 1, 1));
      inst.setMatrixAt(i, m);
    });
    inst.userData = { kind: 'support', ids: list.map((s) => s.node), codes: list.map((s) => s.code) };
    out.add(inst);
  }
  return out;
}

/** releaseMarks puts a dot near each end of a member with a released end. */
export function releaseMarks(geom, releasesById, frac = 0.08) {
  const pts = [];
  for (const g of geom) {
    const r = releasesById.get(g.member);
    if (!r) continue;
    const a = v3(g.pointA), b = v3(g.pointB);
    if (r.fixityCodeAtA && r.fixityCodeAtA !== 'FFFFFF') pts.push(...a.clone().lerp(b, frac).toArray());
    if (r.fixityCodeAtB && r.fixityCodeAtB !== 'FFFFFF') pts.push(...b.clone().lerp(a, frac).toArray());
  }
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.Float32BufferAttribute(pts, 3));
  return new THREE.Points(bg, new THREE.PointsMaterial({ color: colours.release, size: 8, sizeAttenuation: false }));
}

/**
 * arrows draws load arrows as line segments with two-stroke heads: each
 * {at, dir, length} points at 'at' (a load acting on the point).
 */
export function arrows(list, colour) {
  const pos = [];
  const side = new THREE.Vector3();
  for (const { at, dir, length } of list) {
    const d = dir.clone().normalize();
    const tail = at.clone().addScaledVector(d, -length);
    pos.push(...tail.toArray(), ...at.toArray());
    side.set(1, 0, 0);
    if (Math.abs(side.dot(d)) > 0.9) side.set(0, 1, 0);
    side.cross(d).normalize().multiplyScalar(length * 0.12);
    for (const s of [side, side.clone().negate()]) {
      const h = at.clone().addScaledVector(d, -length * 0.25).add(s);
      pos.push(...h.toArray(), ...at.toArray());
    }
  }
  const bg = new THREE.BufferGeometry();
  bg.setAttribute('position', new THREE.Float32BufferAttribute(pos, 3));
  return new THREE.LineSegments(bg, new THREE.LineBasicMaterial({ color: colour }));
}
