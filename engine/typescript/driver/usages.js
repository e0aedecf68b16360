// @ts-check
'use strict';

// findUsages (Signal A): every reference in a workspace to a symbol of one
// installed package, as a canonical surface path. The installed copy is
// walked once more with the surface walker to learn which paths each
// declaration (file and name offset) was emitted under; then the
// workspace's own program resolves references with the checker and the map
// turns the declarations they reach into paths. No name matching decides a
// path except where the checker cannot type a load (require() returning
// any in a TypeScript file, via require) or a receiver is any (via
// inferred).
//
// Two tiers keep the cost proportional to the package: files that load it,
// or a local barrel re-exporting it, are resolved in full; any other file
// only at member names the surface declares whose receiver chain starts at
// an import binding (or names so rare in the surface that any receiver
// will do), and at object literals that visibly flow into the package.

const fs = require('fs');
const path = require('path');
const { DriverError } = require('./protocol');
const { typesName, typedModule } = require('./paths');
const { analyze, openPackage, installedFacts } = require('./surface');
const { PathIndex } = require('./pathindex');
const { planWorkspace, openWorkspace, inside } = require('./workspace');
const { fileFacts } = require('./loads');
const { FileScan, rel, realOr, cmp, isSignature, isChecked } = require('./references');
const { bareUsages } = require('./bare');
const { readText } = require('./regular');

/**
 * @typedef {import('./pathindex').PathSym} PathSym
 * @typedef {import('./loads').Load} Load
 */

const KEEP_INDEXES = 8;

/** @type {{key: string, index: PathIndex | null, noTypes: string, umd: boolean}[]} */
const indexes = [];

/**
 * @param {typeof import('typescript')} ts
 * @param {{workspaceDir: string, repoRoot?: string, name: string, pkgDir?: string, tsconfig?: string, exclude?: string[], installed?: Installed}} params
 */
function findUsages(ts, params) {
  if (typeof params.name !== 'string' || params.name === '') throw new DriverError('BAD_REQUEST', 'name is required');
  const planned = planWorkspace(ts, params);
  const pkg = resolvePackage(ts, planned, params);
  let index = null;
  let noTypes = '';
  let umd = false;
  if (pkg) ({ index, noTypes, umd } = installedIndex(ts, pkg.dir, params.name, pkg.typesFrom ? undefined : params.installed));
  // A package declaring globals (declare global, export as namespace) can
  // be used by any file without a load.
  let keep = index && (index.globals.size > 0 || umd) ? null : candidateRoots(ts, planned, params.name, pkg ? pkg.dir : '');
  // Most of the workspace: its whole program, kept for the next package,
  // costs no more than one of its own, and reads the same usages.
  if (keep && keep.size * 2 > new Set(planned.plans.flatMap((p) => p.roots)).size) keep = null;
  const ws = openWorkspace(ts, planned, keep);
  const scan = new Scan(ts, ws, params.name, pkg ? pkg.dir : '', index);
  const out = scan.run();
  return {
    packageDir: pkg ? pkg.dir : '',
    typesFrom: pkg && pkg.typesFrom ? pkg.typesFrom : undefined,
    unresolved: pkg ? undefined : `${params.name} does not resolve from ${ws.wsDir}: is it installed?`,
    noTypes: noTypes || undefined,
    tsconfig: ws.config ? rel(ws.repoRoot, ws.config) : '',
    configKind: ws.configRole,
    includesJs: ws.includesJs,
    ...out,
  };
}

// What makes a root file a root of every package's program: declarations
// every file sees (an ambient or augmenting declaration, a script's top
// level), or a load fileFacts reports as unanalyzed whatever it loads (a
// computed require() or import()). Both tests err towards keeping a file.
const GLOBAL_SCOPE = /\bdeclare\s+(?:global|module|namespace)\b/;
const MODULE_SYNTAX = /^[ \t]*(?:import|export)\b|\brequire\s*\(|\bmodule\.exports\b|\bexports\.[A-Za-z_$]/m;
const COMPUTED_LOAD = /\b(?:require|import)\s*\((?!\s*(['"`])[^'"`\\\n$]*\1\s*\))/;
const LOAD_TEXT = /\b(?:from|import|require)\s*\(?\s*(['"`])([^'"`\\\n]+)\1/g;
const RELATIVE_TEXT = /(['"`])(\.\.?(?:\/[^'"`\\\n]*)?)\1/g;
const DECLARATION_FILE = /\.d\.[cm]?ts$|\.d\.[^/\\]*\.ts$/;

/**
 * The root files that can meet the package: those whose imports (as the
 * compiler resolves them, through the repository, other workspaces'
 * sources and node_modules) reach a file that loads or names it, plus the
 * files every other file sees and those with a computed load. Any other
 * file has no import binding, type or value from the package, so neither
 * tier of the scan can find anything in it, and the compiler still reads
 * whatever a kept file imports. null: every root, because a file every
 * file sees reaches the package.
 * @param {typeof import('typescript')} ts
 * @param {import('./workspace').WorkspacePlan} planned
 * @param {string} name
 * @param {string} pkgDir real path, '' when unresolved
 * @returns {Set<string> | null}
 */
function candidateRoots(ts, planned, name, pkgDir) {
  /** @type {Map<string, string>} */
  const reals = new Map();
  // One system call per file (the JavaScript realpath stats every parent).
  const real = (/** @type {string} */ p) => {
    let r = reals.get(p);
    if (r === undefined) {
      try {
        r = fs.realpathSync.native(p);
      } catch {
        r = p;
      }
      reals.set(p, r);
    }
    return r;
  };
  /** @type {Map<string, string[]>} real path -> root file names */
  const rootsAt = new Map();
  /** @type {[string, import('typescript').CompilerOptions][]} */
  const queue = [];
  for (const p of planned.plans) {
    for (const f of p.roots) {
      const r = real(f);
      const names = rootsAt.get(r);
      if (names) {
        if (!names.includes(f)) names.push(f);
        continue;
      }
      rootsAt.set(r, [f]);
      queue.push([r, p.options]);
    }
  }
  const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A specifier, a type reference, a JSDoc import() type or a JSX pragma
  // naming the package.
  // A relative specifier without an extension naming a root file's path
  // minus .ts: the compiler's first probe, which it takes when the file
  // exists, unless suffixes or virtual root directories come first. Saves
  // the resolver most of a workspace's imports.
  const sibling = (/** @type {string} */ spec, /** @type {string} */ dir, /** @type {import('typescript').CompilerOptions} */ o) => {
    if (!(spec.startsWith('./') || spec.startsWith('../')) || o.moduleSuffixes || o.rootDirs || /\.[cm]?[jt]sx?$|\/$|\.$/.test(spec)) return '';
    const f = path.join(dir, spec) + '.ts';
    return rootsAt.has(f) ? f : '';
  };
  const mention = new RegExp('[\'"`]' + quoted + '(?:/[^\'"`\\s]*)?[\'"`]|@jsxImportSource\\s+' + quoted + '(?![\\w@/.-])');
  // The automatic JSX runtime imports <jsxImportSource>/jsx-runtime into
  // every JSX file without a word in it.
  const jsxFrom = (/** @type {import('typescript').CompilerOptions} */ o) =>
    (o.jsx === ts.JsxEmit.ReactJSX || o.jsx === ts.JsxEmit.ReactJSXDev) && (o.jsxImportSource || 'react') === name;
  /** @type {Set<string>} */
  const keep = new Set();
  /** @type {Set<string>} */
  const global = new Set();
  /** @type {string[]} files that load or name the package themselves */
  const seeds = [];
  /** @type {Map<string, string[]>} file -> the files importing it */
  const importedBy = new Map();
  /** @type {Set<string>} */
  const visited = new Set();
  /** @type {Map<import('typescript').CompilerOptions, Map<string, string>>} */
  const resolved = new Map();
  for (let i = 0; i < queue.length; i++) {
    const [file, options] = queue[i];
    if (visited.has(file)) continue;
    visited.add(file);
    const text = ts.sys.readFile(file);
    const root = rootsAt.has(file);
    if (text === undefined) {
      if (root) keep.add(file);
      continue;
    }
    if (root) {
      if (COMPUTED_LOAD.test(text)) keep.add(file);
      if (DECLARATION_FILE.test(file) || GLOBAL_SCOPE.test(text) || !MODULE_SYNTAX.test(text)) global.add(file);
    }
    if ((text.includes(name) && mention.test(text)) || (/\.[jt]sx$/.test(file) && jsxFrom(options))) {
      seeds.push(file);
      continue;
    }
    const info = ts.preProcessFile(text, true, true);
    const dir = path.dirname(file);
    /** @type {string[]} */
    const targets = info.referencedFiles.map((r) => real(path.resolve(dir, r.fileName)));
    let byDir = resolved.get(options);
    if (!byDir) resolved.set(options, (byDir = new Map()));
    // The scanner lists what well-formed imports load; the parser also
    // recovers an import from broken ones (import{a from'./a', import{a}'./a'),
    // so a quoted name after from, import or require, and any quoted
    // relative path, count too.
    const specs = new Set(info.importedFiles.map((r) => r.fileName));
    for (const m of text.matchAll(LOAD_TEXT)) specs.add(m[2]);
    for (const m of text.matchAll(RELATIVE_TEXT)) specs.add(m[2]);
    for (const spec of specs) {
      const key = dir + '\0' + spec;
      let target = byDir.get(key);
      if (target === undefined) {
        target = sibling(spec, dir, options) || resolveFrom(ts, spec, file, options, real);
        byDir.set(key, target);
      }
      if (target) targets.push(target);
    }
    for (const t of targets) {
      if (pkgDir && inside(pkgDir, t)) {
        seeds.push(file);
        break;
      }
      const by = importedBy.get(t);
      if (by) by.push(file);
      else importedBy.set(t, [file]);
      if (!visited.has(t)) queue.push([t, options]);
    }
  }
  /** @type {Set<string>} */
  const reach = new Set();
  for (const stack = [...seeds]; stack.length;) {
    const f = /** @type {string} */ (stack.pop());
    if (reach.has(f)) continue;
    reach.add(f);
    for (const by of importedBy.get(f) || []) if (!reach.has(by)) stack.push(by);
  }
  for (const f of global) if (reach.has(f)) return null;
  /** @type {Set<string>} */
  const out = new Set();
  for (const [real, names] of rootsAt) {
    if (reach.has(real) || keep.has(real) || global.has(real)) for (const n of names) out.add(n);
  }
  return out;
}

/**
 * The real file a specifier resolves to from a file, '' when none, tried
 * in the module formats the scan tries.
 * @param {typeof import('typescript')} ts
 * @param {string} spec
 * @param {string} fromFile
 * @param {import('typescript').CompilerOptions} options
 * @param {(p: string) => string} real
 */
function resolveFrom(ts, spec, fromFile, options, real) {
  for (const mode of [undefined, ts.ModuleKind.ESNext, ts.ModuleKind.CommonJS]) {
    try {
      const r = /** @type {any} */ (ts).resolveModuleName(spec, fromFile, options, ts.sys, undefined, undefined, mode);
      if (r.resolvedModule) return real(r.resolvedModule.resolvedFileName);
    } catch {
      // unresolvable: reaches nothing
    }
  }
  return '';
}

/**
 * The package directory the workspace resolves the bare specifier to,
 * through symlinks (pnpm's store), else node's own lookup.
 * @param {typeof import('typescript')} ts
 * @param {import('./workspace').WorkspacePlan} planned
 * @param {{name: string, pkgDir?: string}} params
 * @returns {{dir: string, typesFrom?: string} | null}
 */
function resolvePackage(ts, planned, params) {
  const name = params.name;
  if (params.pkgDir) {
    try {
      return withTypes(fs.realpathSync(params.pkgDir), name);
    } catch {
      throw new DriverError('BAD_REQUEST', `pkgDir ${params.pkgDir} does not exist`);
    }
  }
  const options = planned.plans.length ? planned.plans[0].options : {};
  const from = path.join(planned.wsDir, '__uptide_usages__.ts');
  for (const mode of [undefined, ts.ModuleKind.ESNext, ts.ModuleKind.CommonJS]) {
    let resolved;
    try {
      const r = /** @type {any} */ (ts).resolveModuleName(name, from, options, ts.sys, undefined, undefined, mode);
      resolved = r.resolvedModule && r.resolvedModule.resolvedFileName;
    } catch {
      resolved = undefined;
    }
    if (!resolved) continue;
    const dir = packageRootOf(realOr(resolved), name);
    if (dir) return withTypes(dir, name);
  }
  for (let d = planned.wsDir; ; d = path.dirname(d)) {
    for (const cand of [path.join(d, 'node_modules', name), path.join(d, 'node_modules', typesName(name))]) {
      if (fs.existsSync(path.join(cand, 'package.json'))) return withTypes(realOr(cand), name);
    }
    if (path.dirname(d) === d) break;
  }
  return null;
}

/** @param {string} dir @param {string} name */
function withTypes(dir, name) {
  const pkg = readJSON(path.join(dir, 'package.json'));
  return pkg && pkg.name === typesName(name) ? { dir, typesFrom: pkg.name } : { dir };
}

/**
 * The directory of the package (or its @types) a resolved file belongs to.
 * @param {string} file
 * @param {string} name
 */
function packageRootOf(file, name) {
  for (let d = path.dirname(file); path.dirname(d) !== d; d = path.dirname(d)) {
    const pkg = readJSON(path.join(d, 'package.json'));
    if (pkg && (pkg.name === name || pkg.name === typesName(name))) return d;
    if (path.basename(d) === 'node_modules') break;
  }
  return '';
}


/**
 * The installed surface's position map, kept per directory and manifest.
 * From the surface the caller already extracted from the same directory
 * when it sends one (params.installed), else from a program of its own.
 * @param {typeof import('typescript')} ts
 * @param {string} dir
 * @param {string} name
 * @param {Installed} [installed]
 * @returns {{index: PathIndex | null, noTypes: string, umd: boolean}}
 */
function installedIndex(ts, dir, name, installed) {
  const fromSurface = installed ? sameDir(installed.dir, dir) : false;
  const key = JSON.stringify([dir, name, stamp(path.join(dir, 'package.json')), fromSurface ? installed && installed.key : '']);
  const hit = indexes.findIndex((e) => e.key === key);
  if (hit >= 0) {
    const e = indexes.splice(hit, 1)[0];
    indexes.unshift(e);
    return e;
  }
  /** @type {{key: string, index: PathIndex | null, noTypes: string, umd: boolean}} */
  let entry;
  if (installed && fromSurface) {
    entry = { key, ...indexFromSurface(installed) };
  } else {
    try {
      const opened = openPackage(ts, dir, name);
      const a = analyze(ts, { pkgDir: dir, name }, { opened });
      const { index, umd } = installedFacts(ts, opened, a);
      entry = { key, index, noTypes: '', umd };
    } catch (err) {
      if (!(err instanceof DriverError) || err.code !== 'NO_TYPES') throw err;
      entry = { key, index: null, noTypes: err.message, umd: false };
    }
  }
  indexes.unshift(entry);
  if (indexes.length > KEEP_INDEXES) indexes.length = KEEP_INDEXES;
  return entry;
}

/**
 * @typedef {{dir: string, key?: string, symbols: [string, string, string, number, string[], string][], exportEquals?: Record<string, string[]>, umd?: boolean}} Installed
 *   symbols: path, kind, file ('' for none), pos, exportedFrom, aliasOf
 */

/** @param {string} a @param {string} b */
function sameDir(a, b) {
  if (typeof a !== 'string' || a === '') return false;
  return realOr(a) === realOr(b);
}

/**
 * The position map of a surface extracted by extractSurface: the same
 * symbols analyze placed, in the order it sorted them.
 * @param {Installed} installed
 * @returns {{index: PathIndex, noTypes: string, umd: boolean}}
 */
function indexFromSurface(installed) {
  if (!Array.isArray(installed.symbols)) throw new DriverError('BAD_REQUEST', 'installed.symbols must be an array');
  const placed = installed.symbols.map((s) => {
    if (!Array.isArray(s) || typeof s[0] !== 'string') throw new DriverError('BAD_REQUEST', 'installed.symbols: each symbol is [path, kind, file, pos, exportedFrom, aliasOf]');
    const [p, kind, file, pos, exportedFrom, aliasOf] = s;
    return { path: p, node: { kind, file: file || undefined, pos: pos || 0 }, exportedFrom: exportedFrom || [], aliasOf: aliasOf || '' };
  });
  placed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const index = new PathIndex(placed);
  for (const [subpath, paths] of Object.entries(installed.exportEquals || {})) {
    /** @type {PathSym[]} */
    const roots = [];
    for (const p of paths) {
      const s = index.byPath.get(p);
      if (s && !roots.includes(s)) roots.push(s);
    }
    index.exportEquals.set(subpath, roots);
  }
  return { index, noTypes: '', umd: !!installed.umd };
}

/**
 * One package's scan of one workspace.
 */
class Scan {
  /**
   * @param {typeof import('typescript')} ts
   * @param {ReturnType<typeof openWorkspace>} ws
   * @param {string} name
   * @param {string} pkgDir real path, '' when unresolved
   * @param {PathIndex | null} index
   */
  constructor(ts, ws, name, pkgDir, index) {
    this.ts = ts;
    this.ws = ws;
    this.name = name;
    this.pkgDir = pkgDir;
    this.index = index;
    /** @type {any[]} */
    this.usages = [];
    /** @type {any[]} */
    this.unanalyzed = [];
    /** @type {any[]} computed loads that cannot load the package */
    this.computed = [];
    /** @type {Set<string>} */
    this.seen = new Set();
    /** @type {Map<string, boolean>} */
    this.inPkgFile = new Map();
    /** @type {Map<string, string>} */
    this.resolved = new Map();
    /** @type {Map<string, string>} package-relative paths of the package's files */
    this.pkgFile = new Map();
    this.unmapped = 0;
  }

  run() {
    const ts = this.ts;
    const entries = this.ws.files.map((e) => {
      const sf = /** @type {import('typescript').SourceFile} */ (e.project.program.getSourceFile(e.fileName));
      return { ...e, sf, facts: fileFacts(ts, sf) };
    });
    // Which loads reach the package, directly or through a barrel: a repo
    // file re-exporting it. Barrels of barrels count, to a fixpoint.
    /** @type {Set<string>} */
    const barrels = new Set();
    /** @type {Map<string, Map<Load, {target: 'pkg' | 'barrel', subpath: string}>>} */
    const hits = new Map();
    for (let changed = true; changed;) {
      changed = false;
      for (const e of entries) {
        /** @type {Map<Load, {target: 'pkg' | 'barrel', subpath: string}>} */
        const h = new Map();
        for (const l of e.facts.loads) {
          if (l.computed) continue;
          const t = this.targetOf(l.spec, e.sf.fileName, e.project.options, barrels);
          if (t) h.set(l, t);
        }
        hits.set(e.fileName, h);
        if (barrels.has(e.fileName) || h.size === 0) continue;
        const boundHere = new Set([...h.keys()].flatMap((l) => l.names));
        if ([...h.keys()].some((l) => l.kind === 'export' || l.reexport) || e.facts.exportedLocals.some((n) => boundHere.has(n))) {
          barrels.add(e.fileName);
          changed = true;
        }
      }
    }

    /** @type {string[]} */
    const importers = [];
    let scanned = 0;
    for (const e of entries) {
      const h = /** @type {Map<Load, {target: 'pkg' | 'barrel', subpath: string}>} */ (hits.get(e.fileName));
      const tier1 = h.size > 0;
      if (tier1) importers.push(rel(this.ws.repoRoot, e.fileName));
      for (const l of e.facts.loads) {
        if (!l.computed) continue;
        const kind = l.kind === 'dynamic' ? 'import' : 'require';
        const v = this.computedLoad(l, e.sf, tier1, barrels);
        if (v.counts) this.addUnanalyzed(e.sf, l.node, kind, v.reason, l.text);
        else this.addComputed(e.sf, l.node, kind, v.reason, l.text);
      }
      if (!this.index) {
        // No declarations: the loads and the chains read from them, for
        // the runtime probe to judge.
        if (tier1 && this.pkgDir) this.usages.push(...bareUsages(ts, e.sf, rel(this.ws.repoRoot, e.fileName), h, isChecked(e.sf, e.project.options)));
        continue;
      }
      scanned++;
      new FileScan(this, e.sf, e.project, e.facts, h, tier1).run();
    }
    const byFile = (/** @type {any} */ a, /** @type {any} */ b) => cmp(a.file, b.file) || a.start - b.start || a.end - b.end ||
      cmp(a.symbolPath, b.symbolPath) || cmp(a.access, b.access) || cmp(a.kind || '', b.kind || '');
    return {
      files: scanned,
      importers: importers.sort(),
      barrels: [...barrels].map((f) => rel(this.ws.repoRoot, f)).sort(),
      usages: this.usages.sort(byFile),
      unanalyzed: this.unanalyzed.sort((a, b) => cmp(a.file, b.file) || a.line - b.line || cmp(a.kind, b.kind)),
      computedLoads: this.computed.sort((a, b) => cmp(a.file, b.file) || a.line - b.line || cmp(a.kind, b.kind)),
      unmapped: this.unmapped,
    };
  }

  /**
   * The subpath a specifier names the package by ("." or "./sub"): its own
   * name, or for a types package the module it types; '' for another
   * module.
   * @param {string} spec
   */
  subpathNamed(spec) {
    for (const n of [this.name, typedModule(this.name)]) {
      if (!n) continue;
      if (spec === n) return '.';
      if (spec.startsWith(n + '/')) return '.' + spec.slice(n.length);
    }
    return '';
  }

  /**
   * Whether a module specifier loads the package (and which subpath) or a
   * barrel of it.
   * @param {string} spec
   * @param {string} fromFile
   * @param {import('typescript').CompilerOptions} options
   * @param {Set<string>} barrels
   * @returns {{target: 'pkg' | 'barrel', subpath: string} | null}
   */
  targetOf(spec, fromFile, options, barrels) {
    const name = this.name;
    if (spec === name) return { target: 'pkg', subpath: '.' };
    if (spec.startsWith(name + '/')) return { target: 'pkg', subpath: '.' + spec.slice(name.length) };
    // A types package is loaded by the name of the module it types
    // ("react" for @types/react), when that name resolves into it: code
    // imports react, never @types/react.
    const typed = typedModule(name);
    if (typed && (spec === typed || spec.startsWith(typed + '/'))) {
      const file = this.resolveSpec(spec, fromFile, options);
      if (file && this.pkgDir && inside(this.pkgDir, file)) return { target: 'pkg', subpath: '.' + spec.slice(typed.length) };
    }
    const relative = spec.startsWith('.') || spec.startsWith('/');
    if (!relative && !options.paths) return null;
    const file = this.resolveSpec(spec, fromFile, options);
    if (!file) return null;
    if (this.pkgDir && inside(this.pkgDir, file)) return { target: 'pkg', subpath: '.' };
    if (barrels.has(file)) return { target: 'barrel', subpath: '' };
    return null;
  }

  /**
   * @param {string} spec
   * @param {string} fromFile
   * @param {import('typescript').CompilerOptions} options
   */
  resolveSpec(spec, fromFile, options) {
    const key = path.dirname(fromFile) + '\0' + spec;
    let out = this.resolved.get(key);
    if (out !== undefined) return out;
    out = '';
    const ts = this.ts;
    for (const mode of [undefined, ts.ModuleKind.ESNext, ts.ModuleKind.CommonJS]) {
      try {
        const r = /** @type {any} */ (ts).resolveModuleName(spec, fromFile, options, ts.sys, undefined, undefined, mode);
        if (r.resolvedModule) {
          out = realOr(r.resolvedModule.resolvedFileName);
          break;
        }
      } catch {
        // unresolvable: not the package
      }
    }
    this.resolved.set(key, out);
    return out;
  }

  /** @param {import('typescript').Node} decl */
  inPkg(decl) {
    if (!this.pkgDir) return false;
    const f = decl.getSourceFile().fileName;
    let v = this.inPkgFile.get(f);
    if (v === undefined) {
      v = inside(this.pkgDir, realOr(f));
      this.inPkgFile.set(f, v);
    }
    return v;
  }

  /** @param {import('typescript').Symbol} sym */
  symInPkg(sym) {
    return (sym.declarations || []).some((d) => this.inPkg(d));
  }

  /**
   * The surface paths a checker symbol's declarations were emitted under.
   * @param {import('typescript').Symbol} sym
   * @returns {PathSym[]}
   */
  candidates(sym) {
    const index = /** @type {PathIndex} */ (this.index);
    /** @type {PathSym[]} */
    const out = [];
    for (const d of sym.declarations || []) {
      for (const s of this.pathsAtDecl(d)) if (!out.includes(s)) out.push(s);
    }
    const named = out.filter((s) => !isSignature(s.name));
    return named.length ? named : out;
  }

  /** @param {import('typescript').Node} d */
  pathsAtDecl(d) {
    const ts = this.ts;
    if (!this.inPkg(d)) return [];
    const sf = d.getSourceFile();
    let file = this.pkgFile.get(sf.fileName);
    if (file === undefined) {
      file = path.relative(this.pkgDir, realOr(sf.fileName)).split(path.sep).join('/');
      this.pkgFile.set(sf.fileName, file);
    }
    let pos = 0;
    if (!ts.isSourceFile(d)) {
      const named = /** @type {any} */ (d).name;
      pos = named && typeof named.getStart === 'function' ? named.getStart(sf) : d.getStart(sf);
    }
    return /** @type {PathIndex} */ (this.index).at(file, pos);
  }

  /**
   * @param {import('typescript').SourceFile} sf
   * @param {import('typescript').Node} node
   * @param {string} kind
   * @param {string} reason
   */
  addUnanalyzed(sf, node, kind, reason, specifier = '') {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const file = rel(this.ws.repoRoot, sf.fileName);
    const key = file + ':' + line + ':' + kind + ':' + reason;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.unanalyzed.push(specifier ? { file, line, kind, reason, specifier } : { file, line, kind, reason });
  }

  /**
   * A computed load that cannot load the package: reported once by the
   * engine, not against the package.
   * @param {import('typescript').SourceFile} sf
   * @param {import('typescript').Node} node
   * @param {string} kind
   * @param {string} reason
   * @param {string} specifier
   */
  addComputed(sf, node, kind, reason, specifier) {
    const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;
    const file = rel(this.ws.repoRoot, sf.fileName);
    this.computed.push({ file, line, kind, reason, specifier });
  }

  /**
   * Whether a computed require() or import() could load the package, and
   * why. The rule (README "Computed loads"):
   *  - a static prefix that is a bare specifier counts when it can still
   *    become the package's name or one of its subpaths ("lodash/", "@s/",
   *    "lo"), never otherwise ("node:", "./", "date-fns/");
   *  - a relative or absolute prefix counts when a file under it re-exports
   *    the package (a barrel) or it reaches into node_modules/<package>;
   *  - a fully computed specifier counts when the file also loads the
   *    package (or a barrel of it), or names it in a string literal
   *    (`require(process.env.IMPL || "slugkit")`); a file that neither loads
   *    nor names the package gives the specifier nothing to be it.
   * @param {Load} l
   * @param {import('typescript').SourceFile} sf
   * @param {boolean} loadsPkg the file loads the package or a barrel statically
   * @param {Set<string>} barrels
   * @returns {{counts: boolean, reason: string}}
   */
  computedLoad(l, sf, loadsPkg, barrels) {
    const name = this.name;
    const p = l.prefix;
    if (p.startsWith('.') || p.startsWith('/')) {
      const base = p.startsWith('/') ? p : path.join(path.dirname(sf.fileName), p);
      const nm = base.lastIndexOf('/node_modules/');
      if (nm >= 0 && couldName(base.slice(nm + '/node_modules/'.length), name)) {
        return { counts: true, reason: `the module specifier is computed: its prefix "${p}" reaches into node_modules/${name}` };
      }
      for (const b of [...barrels].sort()) {
        if (b.startsWith(base)) return { counts: true, reason: `the module specifier is computed: its prefix "${p}" can reach ${rel(this.ws.repoRoot, b)}, which re-exports ${name}` };
      }
      return { counts: false, reason: `its static prefix "${p}" is a path that reaches no file re-exporting a checked package` };
    }
    if (p !== '') {
      if (couldName(p, name)) return { counts: true, reason: `the module specifier is computed: its prefix "${p}" can name ${name}` };
      return { counts: false, reason: `its static prefix "${p}" names another module` };
    }
    if (loadsPkg) return { counts: true, reason: `the module specifier is computed, in a file that loads ${name}` };
    if (namesInString(sf.text, name)) return { counts: true, reason: `the module specifier is computed, in a file that names ${name} in a string` };
    return { counts: false, reason: 'the module specifier is computed, in a file that neither loads nor names a checked package' };
  }
}

/**
 * Whether a specifier starting with prefix can be name or a subpath of it.
 * @param {string} prefix
 * @param {string} name
 */
function couldName(prefix, name) {
  return name.startsWith(prefix) || prefix.startsWith(name + '/');
}

/**
 * Whether text holds a string literal that is name or starts with a
 * subpath of it.
 * @param {string} text
 * @param {string} name
 */
function namesInString(text, name) {
  const q = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(['"\`])${q}(?:\\1|/)`).test(text);
}

/** @param {string} f */
function readJSON(f) {
  try {
    return JSON.parse(readText(f));
  } catch {
    return null;
  }
}

/** @param {string} f */
function stamp(f) {
  try {
    const st = fs.statSync(f);
    return st.size + ':' + st.mtimeMs;
  } catch {
    return '';
  }
}

module.exports = { findUsages, Scan };
