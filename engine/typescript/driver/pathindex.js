// @ts-check
'use strict';

// The installed surface as Signal A needs it: which paths a declaration
// (package-relative file and name offset) was emitted under, the children of
// a path by name (for require() values the checker cannot type), and how
// many symbols carry a member name (the second tier only resolves names the
// surface declares, and few-carrier names even off an import).

/**
 * @typedef {{path: string, aliasOf: string, exportedFrom: string[], kind: string, file?: string, pos?: number, name: string, parent: string, depth: number, scoped: boolean}} PathSym
 */

class PathIndex {
  /**
   * @param {{path: string, node: {kind: string, file?: string, pos?: number}, exportedFrom: string[], aliasOf?: string}[]} placed
   */
  constructor(placed) {
    /** @type {Map<string, PathSym[]>} */
    this.byPos = new Map();
    /** @type {Map<string, PathSym>} */
    this.byPath = new Map();
    /** @type {Map<string, Map<string, PathSym[]>>} children by parent path, '' for the unscoped top level */
    this.children = new Map();
    /** @type {Map<string, Set<string>>} canonical paths per member name */
    this.carriers = new Map();
    /** @type {Set<string>} every segment name (for the cheap prefilter) */
    this.names = new Set();
    /** @type {Set<string>} names declared in the global scope ("global":X) */
    this.globals = new Set();
    /** @type {Map<string, PathSym[]>} export = roots by subpath */
    this.exportEquals = new Map();
    for (const p of placed) {
      const parts = splitPath(p.path);
      if (!parts) continue;
      const last = parts.segs[parts.segs.length - 1];
      /** @type {PathSym} */
      const sym = {
        path: p.path,
        aliasOf: p.aliasOf || '',
        exportedFrom: p.exportedFrom || [],
        kind: p.node.kind,
        file: p.node.file,
        pos: p.node.pos || 0,
        name: last.name,
        parent: p.path.slice(0, last.start),
        depth: parts.segs.length - 1,
        scoped: parts.scope !== '',
      };
      this.byPath.set(sym.path, sym);
      if (sym.file !== undefined) {
        const key = sym.file + ':' + sym.pos;
        const list = this.byPos.get(key);
        if (list) list.push(sym);
        else this.byPos.set(key, [sym]);
      }
      if (isSignatureSegment(sym.name)) continue;
      for (const s of parts.segs) this.names.add(s.name);
      if (sym.depth === 0 && parts.scope === '"global":') this.globals.add(sym.name);
      const parentKey = sym.depth === 0 ? (sym.scoped ? parts.scope : '') : sym.parent;
      let m = this.children.get(parentKey);
      if (!m) this.children.set(parentKey, (m = new Map()));
      const list = m.get(sym.name);
      if (list) list.push(sym);
      else m.set(sym.name, [sym]);
      if (sym.depth > 0) {
        let c = this.carriers.get(sym.name);
        if (!c) this.carriers.set(sym.name, (c = new Set()));
        c.add(sym.aliasOf || sym.path);
      }
    }
  }

  /**
   * Paths emitted for a declaration.
   * @param {string} file package-relative slash path
   * @param {number} pos
   */
  at(file, pos) {
    return this.byPos.get(file + ':' + pos) || [];
  }

  /** @param {string} name */
  carrierCount(name) {
    const c = this.carriers.get(name);
    return c ? c.size : 0;
  }

  /**
   * The one symbol carrying a member name, when exactly one does.
   * @param {string} name
   */
  uniqueMember(name) {
    const c = this.carriers.get(name);
    if (!c || c.size !== 1) return undefined;
    return this.byPath.get([...c][0]);
  }

  /**
   * Children of a path named name ('' parent: the unscoped top level).
   * @param {string} parent
   * @param {string} name
   */
  child(parent, name) {
    const m = this.children.get(parent);
    return (m && m.get(name)) || [];
  }
}

/** @param {string} name */
function isSignatureSegment(name) {
  return name === '()' || name === 'new()' || name === '' || name.startsWith('[');
}

/**
 * Splits a canonical path into its scope and segments: each segment's join
 * ('' for the first, '.', '#', '[]'), its name (unquoted) and the offset its
 * join starts at, so p.slice(0, seg.start) is the parent path.
 * @param {string} p
 * @returns {{scope: string, segs: {join: string, name: string, start: number}[]} | null}
 */
function splitPath(p) {
  let i = 0;
  let scope = '';
  /** @param {number} at */
  const skipQuoted = (at) => {
    let j = at + 1;
    while (j < p.length && p[j] !== '"') j += p[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  if (p.startsWith('"')) {
    const j = skipQuoted(0);
    if (p[j] === ':') {
      scope = p.slice(0, j + 1);
      i = j + 1;
    }
  }
  /** @type {{join: string, name: string, start: number}[]} */
  const segs = [];
  while (i < p.length) {
    const start = i;
    let join = '';
    if (segs.length > 0) {
      if (p.startsWith('[]', i)) {
        segs.push({ join: '[]', name: '', start });
        i += 2;
        continue;
      }
      if (p[i] !== '.' && p[i] !== '#') return null;
      join = p[i];
      i++;
    }
    let name;
    if (p[i] === '"') {
      const j = skipQuoted(i);
      try {
        name = JSON.parse(p.slice(i, j));
      } catch {
        return null;
      }
      i = j;
    } else if (p[i] === '[') {
      const j = p.indexOf(']', i);
      if (j < 0) return null;
      name = p.slice(i, j + 1);
      i = j + 1;
    } else if (p[i] === '(') {
      if (!p.startsWith('()', i)) return null;
      name = '()';
      i += 2;
    } else {
      let j = i;
      while (j < p.length && /[A-Za-z0-9_$]/.test(p[j])) j++;
      if (j === i) return null;
      name = p.slice(i, j);
      if (name === 'new' && p.startsWith('()', j)) {
        name = 'new()';
        j += 2;
      }
      i = j;
    }
    segs.push({ join, name, start });
  }
  if (segs.length === 0) return null;
  return { scope, segs };
}

module.exports = { PathIndex, splitPath };
