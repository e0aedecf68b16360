// @ts-check
'use strict';

// extractSurface: entry points → exports per entry → collision scoping →
// subtrees → paths, aliasOf and foreign augmentations.

const fs = require('fs');
const path = require('path');
const { DriverError } = require('./protocol');
const { findEntries, readPackageJSON } = require('./entries');
const { createProgram } = require('./program');
const { Walker } = require('./walk');
const { Printer, segment, scope } = require('./serialize');
const { PathIndex } = require('./pathindex');

/**
 * @typedef {import('./walk').Node} Node
 * @typedef {{subpath: string, file: string, moduleSymbol?: import('typescript').Symbol}} Entry
 * @typedef {{path: string, node: Node, exportedFrom: string[], depth: number, declName: boolean, aliasOf?: string, exportEquals?: boolean}} Placed
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {{pkgDir: string, name: string}} params
 */
function extractSurface(ts, params) {
  const opened = openPackage(ts, params.pkgDir, params.name);
  const analysis = analyze(ts, params, { rewrite: undefined, opened });
  const { index, umd } = installedFacts(ts, opened, analysis);
  /** @type {Record<string, string[]>} */
  const exportEquals = {};
  for (const [subpath, roots] of index.exportEquals) exportEquals[subpath] = roots.map((r) => r.path);
  /** @type {Record<string, unknown>} */
  const out = {
    entryPoints: analysis.entryPoints,
    symbols: analysis.placed.map(toSymbol),
  };
  // What Signal A's position map needs beyond the symbols, so a check that
  // has this surface spares the scan a second program over the package.
  if (index.exportEquals.size > 0) out.exportEqualsRoots = exportEquals;
  if (umd) out.umd = true;
  return out;
}

/**
 * The installed surface's position map, the export = roots of each entry
 * (the top-level unscoped paths emitted at the declarations its target
 * resolves to) and whether an entry is a UMD module (export as namespace).
 * @param {typeof import('typescript')} ts
 * @param {ReturnType<typeof openPackage>} opened after analyze, which sets each entry's moduleSymbol
 * @param {ReturnType<typeof analyze>} a
 */
function installedFacts(ts, opened, a) {
  const index = new PathIndex(a.placed);
  let umd = false;
  for (const e of opened.entries) {
    const globalExports = e.moduleSymbol && /** @type {any} */ (e.moduleSymbol).globalExports;
    if (globalExports && globalExports.size > 0) umd = true;
    const eq = e.moduleSymbol && e.moduleSymbol.exports && e.moduleSymbol.exports.get(/** @type {any} */ ('export='));
    if (!eq) continue;
    const target = a.walker.resolve(eq);
    /** @type {import('./pathindex').PathSym[]} */
    const roots = [];
    for (const d of target.declarations || []) {
      const loc = a.walker.location(d);
      if (loc.file === undefined) continue;
      for (const s of index.at(loc.file, loc.pos)) if (s.depth === 0 && !s.scoped && !roots.includes(s)) roots.push(s);
    }
    index.exportEquals.set(e.subpath, roots);
  }
  return { index, umd };
}

/**
 * Opens a package: its entry points and a program over them.
 * @param {typeof import('typescript')} ts
 * @param {string} pkgDir
 * @param {string} name
 */
function openPackage(ts, pkgDir, name) {
  if (typeof pkgDir !== 'string' || pkgDir === '') throw new DriverError('BAD_REQUEST', 'pkgDir is required');
  let realDir;
  try {
    realDir = fs.realpathSync(pkgDir);
  } catch {
    throw new DriverError('BAD_REQUEST', `${pkgDir} does not exist`);
  }
  const pkg = readPackageJSON(realDir);
  if (!pkg) throw new DriverError('BAD_REQUEST', `${path.join(pkgDir, 'package.json')} is missing or not JSON`);
  const entries = findEntries(realDir, pkg, ts.version);
  if (entries.length === 0) {
    throw new DriverError('NO_TYPES', `${name || pkg.name}: no declaration files (no types/typings, no .d.ts next to main, no index.d.ts, no typed exports)`);
  }
  return { realDir, pkg, entries: /** @type {Entry[]} */ (entries) };
}

/**
 * @param {typeof import('typescript')} ts
 * @param {{pkgDir: string, name: string}} params
 * @param {{rewrite?: (f: string, t: string) => string, program?: import('typescript').Program, walker?: Walker, opened?: ReturnType<typeof openPackage>, onlyTops?: Set<string>, globalAlias?: string}} opts
 *   onlyTops limits the walk to the exports with these top-level path
 *   segments (compareTypes asks about a few paths of a large package).
 *   globalAlias names the namespace compareTypes rewrote this copy's
 *   declare global blocks to, read as the global scope.
 */
function analyze(ts, params, opts) {
  const name = params.name;
  const opened = opts.opened || openPackage(ts, params.pkgDir, name);
  const { realDir, entries } = opened;
  const program = opts.program || createProgram(ts, [...new Set(entries.map((e) => e.file))], [realDir], opts.rewrite);
  const checker = program.getTypeChecker();
  const walker = opts.walker || new Walker(ts, checker, [realDir], new Printer(ts));
  const own = ownAmbientModules(ts, checker, walker, name);

  for (const e of entries) {
    const sf = program.getSourceFile(e.file);
    const sym = sf && checker.getSymbolAtLocation(sf);
    e.moduleSymbol = sym || own.get(e.subpath);
  }
  for (const [subpath, sym] of own) {
    if (!entries.some((e) => e.subpath === subpath)) entries.push({ subpath, file: '', moduleSymbol: sym });
  }
  const entryPoints = entries.filter((e) => e.moduleSymbol).map((e) => e.subpath).sort(bySubpath);

  // Export names per entry, then one path per (name, declaration) decided
  // over all entries at once (rule 8).
  /** @type {Map<string, Map<import('typescript').Symbol, {subpaths: string[], exp: import('typescript').Symbol}>>} */
  const byName = new Map();
  for (const e of entries) {
    if (!e.moduleSymbol) continue;
    for (const { exportName, target, exp } of entryExports(ts, checker, walker, e.moduleSymbol)) {
      let m = byName.get(exportName);
      if (!m) byName.set(exportName, (m = new Map()));
      const g = m.get(target);
      if (g) {
        if (!g.subpaths.includes(e.subpath)) g.subpaths.push(e.subpath);
      } else m.set(target, { subpaths: [e.subpath], exp });
    }
  }

  /** @type {Placed[]} */
  const placed = [];
  for (const exportName of [...byName.keys()].sort()) {
    const groups = /** @type {Map<import('typescript').Symbol, {subpaths: string[], exp: import('typescript').Symbol}>} */ (byName.get(exportName));
    const collide = groups.size > 1;
    for (const [target, { subpaths, exp }] of groups) {
      subpaths.sort(bySubpath);
      const top = (collide && !subpaths.includes('.') ? scope(subpaths[0]) : '') + segment(exportName);
      if (opts.onlyTops && !opts.onlyTops.has(top)) continue;
      const nodes = target.declarations && target.declarations.length ? walker.walkDeclaration(target) : [walker.unresolvedNode(exp, '')];
      const declName = ts.symbolName(target) === exportName;
      // The diff's export-shape equivalence (export = f ≡ export default f
      // plus named exports) engages only on a root marked as export =.
      const isExportEquals = ts.symbolName(exp) === 'export=';
      for (const node of nodes) {
        /** @type {Placed} */
        const p = { path: top + node.suffix, node, exportedFrom: subpaths, depth: depthOf(node.suffix), declName };
        if (isExportEquals && node.suffix === '') p.exportEquals = true;
        placed.push(p);
      }
    }
  }

  // Foreign augmentations and global declarations: always scoped.
  const allEntries = entryPoints.length ? entryPoints : ['.'];
  for (const { specifier, symbols } of augmentations(ts, checker, program, walker, name, opts.globalAlias)) {
    for (const [memberName, sym] of symbols) {
      if (opts.onlyTops && !opts.onlyTops.has(scope(specifier) + segment(memberName))) continue;
      for (const node of walker.walkDeclaration(sym)) {
        placed.push({
          path: scope(specifier) + segment(memberName) + node.suffix,
          node: { ...node, key: 'A' + node.key },
          exportedFrom: allEntries,
          depth: 99,
          declName: true,
        });
      }
    }
  }

  assignAliases(placed);
  placed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  /** @type {Placed[]} */
  const unique = [];
  for (const p of placed) {
    if (unique.length && unique[unique.length - 1].path === p.path) continue;
    unique.push(p);
  }
  return { entryPoints, placed: unique, program, checker, walker };
}

/**
 * The export names of one entry module. export = puts its target under the
 * declared name of a nominal declaration (default for a variable) and does
 * not flatten its members; export default does the same.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {Walker} walker
 * @param {import('typescript').Symbol} moduleSymbol
 */
function entryExports(ts, checker, walker, moduleSymbol) {
  /** @type {{exportName: string, target: import('typescript').Symbol, exp: import('typescript').Symbol}[]} */
  const out = [];
  const exportEquals = moduleSymbol.exports && moduleSymbol.exports.get(/** @type {any} */ ('export='));
  if (exportEquals) {
    const target = walker.resolve(exportEquals);
    out.push({ exportName: nominalName(ts, walker, target) || 'default', target, exp: exportEquals });
    return out;
  }
  const exports = checker.getExportsOfModule(moduleSymbol);
  const named = new Map(exports.map((s) => [ts.symbolName(s), walker.resolve(s)]));
  for (const exp of exports) {
    let exportName = ts.symbolName(exp);
    const target = walker.resolve(exp);
    if (exportName === 'default') {
      const declared = nominalName(ts, walker, target);
      if (declared && (!named.has(declared) || named.get(declared) === target)) exportName = declared;
    }
    out.push({ exportName, target, exp });
  }
  return out;
}

/**
 * The declared name consumers know a default or export = target by, when it
 * is a nominal declaration (class, function, enum, interface, namespace).
 * @param {typeof import('typescript')} ts
 * @param {Walker} walker
 * @param {import('typescript').Symbol} target
 */
function nominalName(ts, walker, target) {
  const decls = target.declarations || [];
  if (decls.length === 0) return '';
  const kind = walker.kindOf(walker.ownDecls(target));
  if (!['class', 'function', 'enum', 'interface', 'namespace'].includes(kind)) return '';
  for (const d of decls) {
    const n = /** @type {any} */ (d).name;
    if (n && ts.isIdentifier(n) && n.text !== 'default') return n.text;
  }
  return '';
}

/**
 * Ambient modules the package declares under its own name ("pkg", "pkg/sub"),
 * by subpath: they are the package's entry points.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {Walker} walker
 * @param {string} name
 */
function ownAmbientModules(ts, checker, walker, name) {
  /** @type {Map<string, import('typescript').Symbol>} */
  const out = new Map();
  if (!name) return out;
  for (const m of checker.getAmbientModules()) {
    if (!(m.declarations || []).some((d) => walker.inPackage(d))) continue;
    const spec = stripQuotes(ts.symbolName(m));
    if (spec === name) out.set('.', m);
    else if (spec.startsWith(name + '/')) out.set('.' + spec.slice(name.length), m);
  }
  return out;
}

/**
 * Declarations the package adds to modules it does not own (declare module
 * 'express' {…}, in a script or as a module augmentation) and to the global
 * scope (declare global {…}), as [specifier, [name, symbol][]].
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {import('typescript').Program} program
 * @param {Walker} walker
 * @param {string} name
 * @param {string} [globalAlias]
 */
function augmentations(ts, checker, program, walker, name, globalAlias) {
  /** @type {{specifier: string, symbols: [string, import('typescript').Symbol][]}[]} */
  const out = [];
  for (const sf of program.getSourceFiles()) {
    if (!walker.inPackage(sf)) continue;
    const isModule = ts.isExternalModule(sf);
    if (!isModule) {
      // A script's top-level declarations are global (@types/jest's
      // describe): scoped like declare global. compareTypes wraps B's in
      // the globalAlias namespace, whose body is that top level.
      /** @type {import('typescript').Statement[]} */
      let top = [...sf.statements];
      const wrapped = globalAlias ? top.find((st) => ts.isModuleDeclaration(st) && ts.isIdentifier(st.name) && st.name.text === globalAlias) : undefined;
      if (wrapped && ts.isModuleDeclaration(wrapped) && wrapped.body && ts.isModuleBlock(wrapped.body)) {
        top = [...top.filter((st) => st !== wrapped), ...wrapped.body.statements];
      }
      /** @type {[string, import('typescript').Symbol][]} */
      const globals = [];
      for (const stmt of top) {
        for (const n of declaredNames(ts, stmt)) {
          const sym = checker.getSymbolAtLocation(n);
          if (sym) globals.push([n.text, walker.resolve(sym)]);
        }
      }
      if (globals.length) out.push({ specifier: 'global', symbols: globals });
    }
    for (const stmt of sf.statements) {
      if (!ts.isModuleDeclaration(stmt) || !stmt.body || !ts.isModuleBlock(stmt.body)) continue;
      let specifier;
      if (ts.isStringLiteral(stmt.name)) {
        specifier = stmt.name.text;
        if (name && (specifier === name || specifier.startsWith(name + '/'))) continue;
        // A relative specifier augments one of the package's own modules
        // (@types/react 18's canary.d.ts: declare module "." { function
        // use… }): the checker merges it into that module, and the walk of
        // the module finds it there, under the path consumers import.
        if (specifier.startsWith('.') && ownModule(ts, checker, walker, stmt)) continue;
      } else if (isModule && stmt.name.text === 'global' && stmt.flags & ts.NodeFlags.GlobalAugmentation) {
        specifier = 'global';
      } else if (isModule && globalAlias && stmt.name.text === globalAlias) {
        specifier = 'global';
      } else continue;
      /** @type {[string, import('typescript').Symbol][]} */
      const symbols = [];
      for (const inner of stmt.body.statements) {
        for (const n of declaredNames(ts, inner)) {
          const sym = checker.getSymbolAtLocation(n);
          if (sym) symbols.push([n.text, walker.resolve(sym)]);
        }
      }
      out.push({ specifier, symbols });
    }
  }
  return out;
}

/**
 * Whether a module augmentation resolves to a module of the package itself.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').TypeChecker} checker
 * @param {Walker} walker
 * @param {import('typescript').ModuleDeclaration} stmt
 */
function ownModule(ts, checker, walker, stmt) {
  const target = checker.getSymbolAtLocation(stmt.name);
  return !!target && (target.declarations || []).some((d) => d !== stmt && walker.inPackage(d));
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').Statement} stmt
 * @returns {import('typescript').Identifier[]}
 */
function declaredNames(ts, stmt) {
  if (ts.isVariableStatement(stmt)) {
    return stmt.declarationList.declarations.map((d) => d.name).filter((n) => ts.isIdentifier(n));
  }
  if (ts.isClassDeclaration(stmt) || ts.isFunctionDeclaration(stmt) || ts.isInterfaceDeclaration(stmt) ||
    ts.isTypeAliasDeclaration(stmt) || ts.isEnumDeclaration(stmt) || (ts.isModuleDeclaration(stmt) && ts.isIdentifier(stmt.name))) {
    return stmt.name && ts.isIdentifier(stmt.name) ? [stmt.name] : [];
  }
  return [];
}

/**
 * One declaration reached under several paths: every path but the canonical
 * one (fewest segments, then the declared name, then shortest, then first in
 * order) carries aliasOf.
 * @param {Placed[]} placed
 */
function assignAliases(placed) {
  /** @type {Map<string, Placed[]>} */
  const byKey = new Map();
  for (const p of placed) {
    const list = byKey.get(p.node.key);
    if (list) list.push(p);
    else byKey.set(p.node.key, [p]);
  }
  for (const list of byKey.values()) {
    if (list.length < 2) continue;
    const best = [...list].sort(canonicalOrder)[0];
    for (const p of list) if (p !== best && p.path !== best.path) p.aliasOf = best.path;
  }
}

/** @param {Placed} a @param {Placed} b */
function canonicalOrder(a, b) {
  const da = pathDepth(a.path);
  const db = pathDepth(b.path);
  if (da !== db) return da - db;
  if (a.declName !== b.declName) return a.declName ? -1 : 1;
  if (a.path.length !== b.path.length) return a.path.length - b.path.length;
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** @param {string} p */
function pathDepth(p) {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === '.' || c === '#' || c === '[') n++;
  }
  return n;
}

/**
 * The top-level part of a path: its scope, if any, and first segment.
 * @param {string} p
 */
function topOf(p) {
  let i = 0;
  /** @param {number} at */
  const skipQuoted = (at) => {
    let j = at + 1;
    while (j < p.length && p[j] !== '"') j += p[j] === '\\' ? 2 : 1;
    return j + 1;
  };
  if (p.startsWith('"')) {
    i = skipQuoted(0);
    if (p[i] === ':') i++;
    else return p.slice(0, i);
  }
  if (p[i] === '"') return p.slice(0, skipQuoted(i));
  while (i < p.length && p[i] !== '.' && p[i] !== '#' && p[i] !== '[') i++;
  return p.slice(0, i);
}

/** @param {string} suffix */
function depthOf(suffix) {
  return pathDepth(suffix);
}

/** @param {Placed} p */
function toSymbol(p) {
  const n = p.node;
  /** @type {Record<string, unknown>} */
  const s = { path: p.path, kind: n.kind, signature: n.signature };
  if (n.optional) s.optional = true;
  if (n.deprecated) s.deprecated = n.deprecated;
  if (n.visibility) s.visibility = n.visibility;
  s.exportedFrom = p.exportedFrom;
  if (p.aliasOf) s.aliasOf = p.aliasOf;
  if (p.exportEquals) s.exportEquals = true;
  if (n.file) s.file = n.file;
  if (n.pos) s.pos = n.pos;
  return s;
}

/** @param {string} a @param {string} b */
function bySubpath(a, b) {
  if (a === b) return 0;
  if (a === '.') return -1;
  if (b === '.') return 1;
  return a < b ? -1 : 1;
}

/** @param {string} s */
function stripQuotes(s) {
  return s.replace(/^["']|["']$/g, '');
}

module.exports = { extractSurface, analyze, openPackage, installedFacts, topOf };
