// @ts-check
'use strict';

// compile: Signal B. The repository is type-checked twice with the compiler
// the driver loaded (the repository's own): a baseline, and an overlay whose
// module resolution sends the analyzed packages to a temporary node_modules
// holding the target versions. Only diagnostics the overlay has and the
// baseline lacks are new (a multiset on file, code and message: positions
// move when a file's errors change).
//
// Both programs are built by the same host. Parsed SourceFiles are shared
// through a cache keyed by path and file version (sources.js), with Signal
// A's programs as well, so the baseline parses nothing the usage scan
// already read and the overlay only the target's declarations; both
// programs type-check only the files in
// scope. No oldProgram: structure reuse would carry the baseline's module
// resolutions over, and resolutions are exactly what differs.
//
// The host installs its resolver both ways compilers ask for one
// (resolveModuleNameLiterals from TypeScript 5, resolveModuleNames before it;
// the same for type reference directives), so TypeScript 4.x to 6.x run the
// same code.

const fs = require('fs');
const path = require('path');
const { real, inside, isBare, packageOf, requireAbs, uniq, rootsOf, typedModule } = require('./paths');
const { builtinModules } = require('module');
const { DriverError } = require('./protocol');
const { traceRoots } = require('./cause');
const { shareSources, forgetInside, fileVersion } = require('./sources');
const compat = require('./compat');
const { sourcePathsOf, withSourcePaths } = require('./wssource');
const { deprecatedKeys } = require('./deprecated');
const { loadProjects } = require('./tsconfig');
const { isChecked } = require('./references');

/**
 * @typedef {import('typescript').Program} Program
 * @typedef {import('typescript').SourceFile} SourceFile
 * @typedef {import('typescript').CompilerOptions} CompilerOptions
 * @typedef {import('typescript').Diagnostic} TSDiagnostic
 * @typedef {{file: string, line: number, column: number, start: number, length: number, code: number, message: string}} Diag
 * @typedef {{root: string, packages: string[], remap: {name: string, dir: string, kept?: boolean}[], leftOut?: string[], keep?: {dir: string, names: string[]}[]}} Mapping
 *   root: the overlay directory (its node_modules holds the links);
 *   packages: module names resolved from the overlay root instead of the importing file;
 *   remap: linked packages (real directories) whose own imports resolve from the overlay;
 *     kept: a real install's copy, whose parsed files later programs read again.
 * @typedef {import('./tsconfig').Project} Project
 * @typedef {{importer: string, specifier: string}} Unresolved
 * @typedef {{files: string[], options: CompilerOptions, cache: SourceCache, roots: string[], legacyHooks: boolean, config: string}} Unit
 */

// Codes that mean "this import does not resolve".
const UNRESOLVED_CODES = new Set([2307, 2792]);
// Past this many caches (distinct compiler options) the oldest goes: each
// holds a parsed repository.
const MAX_CACHES = 2;
const ANCHOR = '__uptide_overlay__.ts';

/** @type {Map<string, SourceCache>} */
const caches = new Map();

/**
 * Module resolutions of one set of compiler options, with the baseline's
 * diagnostics per file: they are computed once per driver process and file,
 * however many packages are checked.
 */
class SourceCache {
  /**
   * @param {typeof import('typescript')} ts
   * @param {CompilerOptions} options
   */
  constructor(ts, options) {
    /** @type {Map<string, {version: string, diags: TSDiagnostic[]}>} */
    this.baseline = new Map();
    // Module resolutions from the repository's files are shared by the
    // baseline and the overlay: a mapped name is resolved from the
    // overlay's directory and a linked package's imports from its place in
    // the overlay, with a cache of the program's own, since the overlay
    // gains packages between dependency rounds and a cached miss (or a
    // missing package.json) would outlive them.
    const cwd = ts.sys.getCurrentDirectory();
    const canonical = ts.sys.useCaseSensitiveFileNames ? (/** @type {string} */ f) => f : (/** @type {string} */ f) => f.toLowerCase();
    this.moduleCache = ts.createModuleResolutionCache(cwd, canonical, options);
    this.typeCache = typeCacheFor(ts, cwd, canonical, options, this.moduleCache);
  }
}

/**
 * A type reference cache sharing the module cache's package.json reads,
 * where the compiler has both (TypeScript 4.3+).
 * @param {typeof import('typescript')} ts
 * @param {string} cwd
 * @param {(f: string) => string} canonical
 * @param {CompilerOptions} options
 * @param {import('typescript').ModuleResolutionCache} moduleCache
 */
function typeCacheFor(ts, cwd, canonical, options, moduleCache) {
  if (typeof ts.createTypeReferenceDirectiveResolutionCache !== 'function') return undefined;
  const pj = typeof moduleCache.getPackageJsonInfoCache === 'function' ? moduleCache.getPackageJsonInfoCache() : undefined;
  return ts.createTypeReferenceDirectiveResolutionCache(cwd, canonical, options, pj);
}

/**
 * @param {typeof import('typescript')} ts
 * @param {string} key
 * @param {CompilerOptions} options
 */
function cacheFor(ts, key, options) {
  let c = caches.get(key);
  if (c) {
    caches.delete(key);
    caches.set(key, c);
    return c;
  }
  c = new SourceCache(ts, options);
  caches.set(key, c);
  while (caches.size > MAX_CACHES) {
    const oldest = caches.keys().next().value;
    if (oldest === undefined) break;
    caches.delete(oldest);
  }
  return c;
}

const BUILTINS = new Set(builtinModules);

/** @param {string} name */
function isBuiltin(name) {
  return name.startsWith('node:') || BUILTINS.has(name) || BUILTINS.has(name.split('/')[0]);
}

/**
 * @param {typeof import('typescript')} ts
 * @param {any} params
 */
function compile(ts, params) {
  const repoRoot = requireAbs(params.repoRoot, 'repoRoot');
  const workspace = requireAbs(params.workspace || params.repoRoot, 'workspace');
  if (params.files !== undefined && params.files !== null && !Array.isArray(params.files)) {
    throw new DriverError('BAD_REQUEST', 'files must be a list of absolute paths');
  }
  const sourcePaths = sourcePathsOf(params);
  const baselineMap = mappingOf(params.baseline, 'baseline');
  const overlayMap = mappingOf(params.overlay, 'overlay');
  // Tests only: install the 4.x resolver hooks alone, so a newer compiler
  // takes the path TypeScript 4.x takes.
  const legacyHooks = !!params.legacyHooks;
  if (params.resolveOnly && !overlayMap) throw new DriverError('BAD_REQUEST', 'resolveOnly needs an overlay');
  const { rel, msg } = relativizer(repoRoot, [baselineMap, overlayMap]);

  /** @type {string[] | null} */
  const askedInput = Array.isArray(params.files) ? params.files.map((/** @type {any} */ f) => requireAbs(f, 'files')) : null;
  const wantJs = !!askedInput && askedInput.some((f) => /\.(c|m)?jsx?$/.test(f));
  const loaded = loadProjects(ts, workspace, params.tsconfig || '', wantJs);

  const result = {
    typescript: ts.version,
    config: loaded.configFile ? rel(loaded.configFile) : '',
    configKind: loaded.kind,
    configWarnings: loaded.warnings.map((d) => toDiag(ts, d, rel, msg)),
    newDiagnostics: /** @type {Diag[]} */ ([]),
    preExisting: 0,
    preExistingDiagnostics: /** @type {Diag[]} */ ([]),
    overlaySkipped: '',
    // judgeResolved only: the compile stopped at what the overlay lacks.
    unjudged: false,
    coverage: { asked: 0, compiled: 0, skipped: /** @type {{file: string, reason: string, outside?: boolean}[]} */ ([]) },
    unresolvedInTarget: /** @type {Unresolved[]} */ ([]),
    newerTypeScript: /** @type {{diagnostics: Diag[]} | null} */ (null),
    // Every project skips checking declaration files: what a library's
    // declarations need only to type-check does not matter here.
    skipLibCheck: loaded.projects.length > 0 && loaded.projects.every((p) => !!p.options.skipLibCheck),
    deprecatedKeys: /** @type {import('./deprecated').DeprecatedKey[]} */ ([]),
    // The files in scope the repository does not type-check (JavaScript
    // without checkJs or // @ts-check, @ts-nocheck): the compile checks
    // them all, so that the arbiter, not the compile, decides there.
    unchecked: /** @type {string[]} */ ([]),
    timing: { baselineMs: 0, overlayMs: 0, baselineShared: 0, baselineCached: 0 },
    // shareBaseline only: the baseline per file in scope and per project,
    // for later compiles of the same workspace (knownBaseline).
    baseline: /** @type {any} */ (undefined),
  };

  /** @type {Map<string, string>} real path -> path as the config lists it */
  const listed = new Map();
  /** @type {Map<string, Project>} */
  const ownerOf = new Map();
  for (const p of loaded.projects) {
    if (p.invalid) continue;
    for (const f of p.fileNames) {
      const r = real(f);
      if (!ownerOf.has(r)) {
        ownerOf.set(r, p);
        listed.set(r, f);
      }
    }
  }
  const asked = askedInput || [...ownerOf.keys()];
  result.coverage.asked = new Set(asked.map(real)).size;

  if (loaded.invalid) {
    const reason = msg(loaded.invalid);
    result.overlaySkipped = reason;
    for (const f of uniq(asked.map(real))) result.coverage.skipped.push({ file: rel(f), reason });
    return result;
  }

  /** @type {Map<Project, string[]>} */
  const byProject = new Map();
  for (const f of uniq(asked.map(real))) {
    if (!fs.existsSync(f)) {
      result.coverage.skipped.push({ file: rel(f), reason: 'file not found' });
      continue;
    }
    const p = ownerOf.get(f);
    if (!p) {
      const invalidRef = loaded.projects.find((q) => q.invalid && inside(path.dirname(q.configFile), f));
      const reason = invalidRef ? msg(invalidRef.invalid) : `outside the workspace's tsconfig (${loaded.configFile ? rel(loaded.configFile) : 'none'})`;
      result.coverage.skipped.push(invalidRef ? { file: rel(f), reason } : { file: rel(f), reason, outside: true });
      continue;
    }
    const list = byProject.get(p) || [];
    list.push(/** @type {string} */ (listed.get(f)));
    byProject.set(p, list);
  }

  for (const [project, files] of byProject) {
    for (const f of files) {
      if (!typeChecked(ts, f, project.options)) result.unchecked.push(rel(f));
    }
  }
  result.unchecked.sort();

  /** @type {Unit[]} */
  const units = [];
  for (const [project, files] of byProject) {
    const options = withSourcePaths(judgingOptions(project.options), sourcePaths);
    const cache = cacheFor(ts, optionsKey(options), options);
    units.push({ files, options, cache, roots: rootsOf(project, files), legacyHooks, config: project.configFile });
  }

  if (params.resolveOnly && overlayMap) {
    // A dependency round of a native judge (native_compile.go): only what
    // the overlay lacks inside the targets. That judge's tsc compiles the
    // baseline (and finds a structurally broken one); this compiler's
    // baseline would be thrown away, at the cost of a whole compile.
    const t1 = Date.now();
    /** @type {Unresolved[]} */
    const unresolved = [];
    /** @type {{u: Unit, program: Program}[]} */
    const programs = [];
    for (const u of units) {
      const { program, state } = buildProgram(ts, u, overlayMap);
      programs.push({ u, program });
      unresolved.push(...state.unresolvedIn(program));
    }
    result.unresolvedInTarget = dedupeUnresolved(unresolved);
    const baselineOf = memoBaseline(ts, baselineMap);
    if (Array.isArray(params.trace)) {
      // A native tsc judged (native.js): its new diagnostics take their roots here.
      result.newDiagnostics = require('./native').traceNative(ts, programs, params.trace, rel, (/** @type {Diag[]} */ ds) => traceRoots(ts, { repoRoot, rel, mapping: overlayMap, baselineMapping: baselineMap, programs, baseline: baselineOf }, ds));
    }
    // And the deprecated keys, which no tsc reports.
    if (params.deprecatedKeys) result.deprecatedKeys = deprecatedKeys(ts, programs, overlayMap.remap, baselineOf, rel, namesOf(params));
    result.timing.overlayMs = Date.now() - t1;
    return sortResult(result);
  }

  // Baseline: from a shared one (sharedBaseline) when it covers the
  // unit, else computed here (and cached in this process).
  const t0 = Date.now();
  const known = baselineMap ? null : knownBaseline(params.knownBaseline);
  const share = params.shareBaseline && !baselineMap ? { files: /** @type {Record<string, Diag[]>} */ ({}), projects: /** @type {Record<string, Diag[]>} */ ({}) } : null;
  /** @type {Diag[]} */
  const baseDiags = [];
  let filesWithUnresolved = 0;
  let filesChecked = 0;
  for (const u of units) {
    const shared = known && sharedRest(known, u);
    /** @type {Map<string, Diag[]>} */
    const diags = new Map();
    let missing = u.files;
    if (known && shared) {
      missing = u.files.filter((f) => !has(known.files, f));
      for (const f of u.files) if (has(known.files, f)) diags.set(f, known.files[f]);
      diags.set('', shared);
      result.timing.baselineShared += u.files.length - missing.length;
    }
    if (!shared || missing.length) {
      // A file the shared baseline did not foresee takes its errors from
      // a program of this compile's; the rest stays the shared one's.
      for (const [f, ds] of baselineDiagnostics(ts, shared ? { ...u, files: missing } : u, baselineMap, result.timing)) {
        if (!shared || (f !== '' && f !== LIB_KEY)) diags.set(f, ds.map((d) => toDiag(ts, d, rel, msg)));
      }
    }
    for (const f of u.files) {
      const ds = diags.get(f) || [];
      baseDiags.push(...ds);
      filesChecked++;
      if (ds.some((d) => UNRESOLVED_CODES.has(d.code))) filesWithUnresolved++;
      if (share) share.files[f] = ds;
    }
    const rest = [...(diags.get('') || []), ...(diags.get(LIB_KEY) || [])];
    baseDiags.push(...rest);
    if (share) share.projects[u.config] = rest;
  }
  if (share) result.baseline = share;
  result.timing.baselineMs = Date.now() - t0;
  result.preExisting = baseDiags.length;
  result.preExistingDiagnostics = sortDiags(baseDiags.slice());

  /** @param {string} reason */
  const skipAll = (reason) => {
    result.overlaySkipped = reason;
    for (const u of units) for (const f of u.files) result.coverage.skipped.push({ file: rel(f), reason });
  };
  if (filesChecked > 0 && filesWithUnresolved * 2 > filesChecked) {
    skipAll(`the baseline is structurally broken: ${filesWithUnresolved} of ${filesChecked} files cannot resolve their imports (are dependencies installed?)`);
    return sortResult(result);
  }
  if (!overlayMap) {
    result.coverage.compiled = filesChecked;
    return sortResult(result);
  }

  // Overlay.
  const t1 = Date.now();
  /** @type {TSDiagnostic[]} */
  const overDiags = [];
  /** @type {TSDiagnostic[]} */
  const parseErrors = [];
  /** @type {Unresolved[]} */
  const unresolved = [];
  /** @type {{u: Unit, program: Program}[]} */
  const programs = [];
  /** @type {ReturnType<typeof buildProgram>[]} */
  const built = [];
  for (const u of units) {
    const b = buildProgram(ts, u, overlayMap);
    programs.push({ u, program: b.program });
    built.push(b);
    unresolved.push(...b.state.unresolvedIn(b.program));
  }
  if (params.judgeResolved && unresolved.length) {
    // The targets import what the overlay lacks: no judging yet. This was
    // a dependency round (the targets' parsed files stay for the next).
    result.unjudged = true;
    result.unresolvedInTarget = dedupeUnresolved(unresolved);
    result.timing.overlayMs = Date.now() - t1;
    return sortResult(result);
  }
  for (const [i, u] of units.entries()) {
    const { program, state } = built[i];
    for (const sf of program.getSourceFiles()) {
      if (state.remapOf(sf.fileName)) parseErrors.push(...program.getSyntacticDiagnostics(sf));
    }
    if (parseErrors.length) continue;
    for (const f of u.files) {
      const sf = program.getSourceFile(f);
      if (!sf) continue;
      overDiags.push(...errorsOf(program, sf));
    }
    overDiags.push(...program.getGlobalDiagnostics().filter(isError), ...libErrors(program, u, state, overlayMap));
  }
  result.timing.overlayMs = Date.now() - t1;
  // The targets are parsed once per compile: keeping every target's
  // declarations for the whole run would grow with each package checked.
  // A kept one is the install the fix runner's compile after the upgrade
  // reads next, file for file.
  forgetInside(overlayMap.remap.filter((r) => !r.kept).map((r) => r.dir));
  result.unresolvedInTarget = dedupeUnresolved(unresolved);
  result.coverage.compiled = filesChecked;
  if (parseErrors.length) {
    // What the repository's tsc would print: parse errors in the target's
    // declarations and nothing else. Never "no new errors".
    result.newerTypeScript = { diagnostics: sortDiags(parseErrors.map((d) => toDiag(ts, d, rel, msg))) };
    return sortResult(result);
  }
  result.newDiagnostics = newOnly(baseDiags, overDiags.map((d) => toDiag(ts, d, rel, msg)));
  const baselineOf = memoBaseline(ts, baselineMap);
  traceRoots(ts, { repoRoot, rel, mapping: overlayMap, baselineMapping: baselineMap, programs, baseline: baselineOf }, result.newDiagnostics);
  result.deprecatedKeys = deprecatedKeys(ts, programs, overlayMap.remap, baselineOf, rel, namesOf(params));
  return sortResult(result);
}

/**
 * The member names the targets deprecate (deprecatedNames), as a set.
 * @param {any} params
 * @returns {Set<string>}
 */
function namesOf(params) {
  const names = Array.isArray(params.deprecatedNames) ? params.deprecatedNames : [];
  return new Set(names.filter((/** @type {any} */ n) => typeof n === 'string' && n !== ''));
}

/**
 * @typedef {{files: Record<string, Diag[]>, projects: Record<string, Diag[]>}} KnownBaseline
 *   what a shareBaseline compile of the same workspace answered: the
 *   baseline's errors per file in scope (as its project lists it) and,
 *   per project (its tsconfig), the errors of no file in scope.
 */

/**
 * @param {any} k
 * @returns {KnownBaseline | null}
 */
function knownBaseline(k) {
  if (!k || typeof k !== 'object' || !k.files || !k.projects || typeof k.files !== 'object' || typeof k.projects !== 'object') return null;
  return k;
}

/**
 * The project's errors of no file in scope (global ones, and those in
 * declaration files when skipLibCheck is off) as the shared baseline has
 * them, null when it did not compile the project. Every compile given it
 * subtracts the same ones, whichever driver runs it: with each driver's
 * own, which declaration files a program holds would depend on which
 * packages that driver happened to check first.
 * @param {KnownBaseline} known
 * @param {Unit} u
 * @returns {Diag[] | null}
 */
function sharedRest(known, u) {
  return has(known.projects, u.config) ? known.projects[u.config] : null;
}

/**
 * @param {object} o
 * @param {string} k
 */
function has(o, k) {
  return Object.prototype.hasOwnProperty.call(o, k);
}

/**
 * The baseline program of a unit, built once per compile whoever asks (the
 * cause tracer, the deprecated keys).
 * @param {typeof import('typescript')} ts
 * @param {Mapping | null} baselineMap
 */
function memoBaseline(ts, baselineMap) {
  /** @type {Map<Unit, Program>} */
  const built = new Map();
  return (/** @type {Unit} */ u) => {
    let p = built.get(u);
    if (!p) {
      p = buildProgram(ts, u, baselineMap).program;
      built.set(u, p);
    }
    return p;
  };
}

/**
 * @param {any} m
 * @param {string} what
 * @returns {Mapping | null}
 */
function mappingOf(m, what) {
  if (m === undefined || m === null) return null;
  const root = requireAbs(m.root, what + '.root');
  if (!Array.isArray(m.packages) || m.packages.some((/** @type {any} */ p) => typeof p !== 'string' || p === '')) {
    throw new DriverError('BAD_REQUEST', `${what}.packages must be a list of package names`);
  }
  const remap = Array.isArray(m.remap) ? m.remap : [];
  for (const r of remap) {
    if (!r || typeof r.name !== 'string' || typeof r.dir !== 'string') throw new DriverError('BAD_REQUEST', `${what}.remap entries need name and dir`);
  }
  return {
    root: real(root),
    packages: m.packages,
    remap: remap.map((/** @type {any} */ r) => ({ name: r.name, dir: real(r.dir), kept: r.kept === true })),
    leftOut: Array.isArray(m.leftOut) ? m.leftOut.filter((/** @type {any} */ n) => typeof n === 'string') : [],
    keep: (Array.isArray(m.keep) ? m.keep : [])
      .filter((/** @type {any} */ k) => k && typeof k.dir === 'string' && Array.isArray(k.names))
      .map((/** @type {any} */ k) => ({ dir: real(k.dir), names: k.names.filter((/** @type {any} */ n) => typeof n === 'string') })),
  };
}

/**
 * Repository-relative, slash-separated names; files inside an overlay read
 * node_modules/<name>/<file>, lib and other outside files keep their
 * absolute path.
 * @param {string} repoRoot
 * @param {(Mapping | null)[]} mappings
 */
function relativizer(repoRoot, mappings) {
  const roots = uniq([repoRoot, real(repoRoot)]);
  /** @type {[string, string][]} directory -> its name in an overlay */
  const linked = [];
  for (const m of mappings) {
    if (!m) continue;
    for (const r of m.remap) linked.push([r.dir, 'node_modules/' + r.name]);
    linked.push([path.join(m.root, 'node_modules'), 'node_modules']);
  }
  // Messages can print paths (import("/tmp/…/index").Options): the same
  // names, so a message does not change with the overlay's directory.
  /** @type {[string, string][]} */
  const prefixes = [...linked.map(([dir, name]) => /** @type {[string, string]} */ ([dir + path.sep, name + '/'])), ...roots.map((r) => /** @type {[string, string]} */ ([r + path.sep, '']))];
  prefixes.sort((a, b) => b[0].length - a[0].length);
  const msg = (/** @type {string} */ m) => {
    for (const [from, to] of prefixes) if (m.includes(from)) m = m.split(from).join(to);
    return m;
  };
  const rel = (/** @type {string} */ f) => installedName(relOf(f));
  const relOf = (/** @type {string} */ f) => {
    if (!f) return '';
    const abs = path.resolve(f);
    for (const [dir, name] of linked) {
      if (inside(dir, abs)) return (name + '/' + path.relative(dir, abs)).split(path.sep).join('/');
    }
    for (const root of roots) {
      if (inside(root, abs)) return path.relative(root, abs).split(path.sep).join('/');
    }
    const r = real(abs);
    for (const root of roots) {
      if (inside(root, r)) return path.relative(root, r).split(path.sep).join('/');
    }
    return abs.split(path.sep).join('/');
  };
  return { rel, msg };
}

/**
 * An installed package's file by the name the upgraded install gives it
 * ("node_modules/.pnpm/x@1.0.0/node_modules/x/index.d.ts" and the overlay's
 * link are both "node_modules/x/index.d.ts"), so an error in a package's
 * declarations is the same error before and after the upgrade.
 * @param {string} f
 */
function installedName(f) {
  const i = f.lastIndexOf('node_modules/');
  if (i <= 0 || !f.startsWith('node_modules/')) return f;
  return f.slice(i);
}

/**
 * Whether the repository type-checks file under options (references.js's
 * isChecked), parsing it only when a directive could say otherwise.
 * @param {typeof import('typescript')} ts
 * @param {string} file
 * @param {CompilerOptions} options
 */
function typeChecked(ts, file, options) {
  const js = /\.(js|jsx|mjs|cjs)$/.test(file);
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return !js || !!options.checkJs;
  }
  if (!text.includes('@ts-')) return !js || !!options.checkJs;
  return isChecked(ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false), options);
}

/**
 * The repository's options with nothing emitted.
 * Options that only make sense for a whole build (composite's "every file
 * listed", incremental's build info) would misfire on a scoped program.
 * @param {CompilerOptions} options
 */
function judgingOptions(options) {
  const o = { ...options, noEmit: true };
  // JavaScript the program holds is checked on both sides. Without allowJs
  // there is none to check, and checkJs would turn allowJs on (TypeScript
  // 5+), which changes what imports resolve to.
  if (o.allowJs || o.checkJs) o.checkJs = true;
  for (const k of ['composite', 'incremental', 'tsBuildInfoFile', 'emitDeclarationOnly', 'declarationMap', 'sourceMap', 'inlineSourceMap', 'outFile', 'out', 'build']) {
    delete (/** @type {any} */ (o))[k];
  }
  return o;
}

/** @param {CompilerOptions} options */
function optionsKey(options) {
  const sorted = Object.keys(options).sort().filter((k) => k !== 'configFilePath' && k !== 'configFile');
  return JSON.stringify(sorted.map((k) => [k, /** @type {any} */ (options)[k]]));
}

/**
 * @param {typeof import('typescript')} ts
 * @param {Unit} u
 * @param {Mapping | null} mapping
 * @param {{baselineCached: number}} [timing] counts the files the cache served
 * @returns {Map<string, TSDiagnostic[]>} per file in scope, '' for global ones
 */
function baselineDiagnostics(ts, u, mapping, timing) {
  const mapKey = mapping ? JSON.stringify(mapping) : '';
  /** @type {Map<string, TSDiagnostic[]>} */
  const out = new Map();
  /** @param {string} f */
  const key = (f) => mapKey + '\0' + f;
  const missing = u.files.filter((f) => {
    if (!u.options.skipLibCheck && !u.cache.baseline.get(key(LIB_KEY))) return true;
    const hit = u.cache.baseline.get(key(f));
    if (hit && hit.version === fileVersion(f)) {
      out.set(f, hit.diags);
      return false;
    }
    return true;
  });
  if (timing) timing.baselineCached += u.files.length - missing.length;
  const globalHit = u.cache.baseline.get(key(''));
  if (missing.length === 0 && globalHit) {
    out.set('', globalHit.diags);
    const libHit = u.cache.baseline.get(key(LIB_KEY));
    out.set(LIB_KEY, libHit ? libHit.diags : []);
    return out;
  }
  const { program, state } = buildProgram(ts, u, mapping);
  for (const f of missing) {
    const sf = program.getSourceFile(f);
    const diags = sf ? errorsOf(program, sf) : [];
    out.set(f, diags);
    u.cache.baseline.set(key(f), { version: fileVersion(f), diags });
  }
  const globals = program.getGlobalDiagnostics().filter(isError);
  out.set('', globals);
  u.cache.baseline.set(key(''), { version: '', diags: globals });
  const lib = libErrors(program, u, state, mapping);
  out.set(LIB_KEY, lib);
  u.cache.baseline.set(key(LIB_KEY), { version: '', diags: lib });
  return out;
}

// The baseline cache's key for the errors in declaration files.
const LIB_KEY = '\0lib';

// Options that change what a program writes, never its errors: tsc -p's
// command line (project.js) and what judgingOptions takes out.
const EMIT_ONLY = ['project', 'pretty', 'listFiles', 'noEmit', 'composite', 'incremental', 'tsBuildInfoFile', 'emitDeclarationOnly', 'declarationMap', 'sourceMap', 'inlineSourceMap', 'outFile', 'out', 'build'];

/**
 * @param {CompilerOptions} options
 * @returns {CompilerOptions}
 */
function withoutEmit(options) {
  const o = { ...options };
  for (const k of EMIT_ONLY) delete (/** @type {any} */ (o))[k];
  return o;
}

/**
 * Fills the baseline cache a compile with these options reads from a
 * whole project's program tsc -p built (project.js) over the same,
 * unchanged files: each file's errors, the global ones and those in
 * declaration files, as baselineDiagnostics would compute them, so a
 * check after it type-checks only its overlay. Only when that program
 * judged as a compile's would (its options differ in emit alone: no
 * allowJs without checkJs) and has no project references; a compile whose
 * options differ (a workspace's sources mapped) keys another cache and
 * finds nothing here.
 * @param {typeof import('typescript')} ts
 * @param {Program} program
 * @param {CompilerOptions} options the program's
 * @returns {number} the files seeded
 */
function seedBaseline(ts, program, options) {
  if ((program.getProjectReferences() || []).length > 0) return 0;
  const judged = judgingOptions(withoutEmit(options));
  if (optionsKey(withoutEmit(judged)) !== optionsKey(withoutEmit(options))) return 0;
  const cache = cacheFor(ts, optionsKey(judged), judged);
  /** @type {string[]} */
  const files = [];
  for (const sf of program.getSourceFiles()) {
    if (sf.isDeclarationFile || program.isSourceFileDefaultLibrary(sf) || program.isSourceFileFromExternalLibrary(sf)) continue;
    const f = sf.fileName;
    cache.baseline.set('\0' + f, { version: fileVersion(f), diags: errorsOf(program, sf) });
    files.push(f);
  }
  cache.baseline.set('\0', { version: '', diags: program.getGlobalDiagnostics().filter(isError) });
  const u = /** @type {Unit} */ ({ files, options: judged });
  cache.baseline.set('\0' + LIB_KEY, { version: '', diags: libErrors(program, u, { remapOf: () => null }, null) });
  return files.length;
}

/**
 * The errors tsc reports in the program's declaration files (installed
 * packages, the targets, the repository's own .d.ts) when the repository
 * does not skip them (skipLibCheck off): a target whose declarations no
 * longer check is an error the user's build prints. The compiler's default
 * libraries are left out, as skipDefaultLibCheck would; they do not move.
 * A linked package's import the overlay could not serve is the overlay's
 * gap, not the install's, unless it is a peer the install leaves out.
 * @param {Program} program
 * @param {Unit} u
 * @param {{remapOf: (f: string) => any}} state
 * @param {Mapping | null} mapping
 */
function libErrors(program, u, state, mapping) {
  if (u.options.skipLibCheck) return [];
  const asked = new Set(u.files);
  const leftOut = new Set(mapping && Array.isArray(mapping.leftOut) ? mapping.leftOut : []);
  /** @type {TSDiagnostic[]} */
  const out = [];
  for (const sf of program.getSourceFiles()) {
    if (!sf.isDeclarationFile || asked.has(sf.fileName) || program.isSourceFileDefaultLibrary(sf)) continue;
    const linked = !!state.remapOf(sf.fileName);
    for (const d of program.getSemanticDiagnostics(sf)) {
      if (!isError(d)) continue;
      if (linked && UNRESOLVED_CODES.has(d.code) && d.start !== undefined) {
        const spec = sf.text.slice(d.start, d.start + (d.length || 0)).replace(/^['"`]|['"`]$/g, '');
        if (!leftOut.has(packageOf(spec))) continue;
      }
      out.push(d);
    }
  }
  return out;
}

/**
 * @param {Program} program
 * @param {SourceFile} sf
 */
function errorsOf(program, sf) {
  return [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].filter(isError);
}

/** @param {TSDiagnostic} d */
function isError(d) {
  return d.category === 1;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {Unit} u
 * @param {Mapping | null} mapping
 */
function buildProgram(ts, u, mapping) {
  const { host, state } = createHost(ts, u.options, u.cache, mapping, u.legacyHooks);
  const program = ts.createProgram({ rootNames: u.roots, options: u.options, host });
  return { program, state };
}

/**
 * @param {typeof import('typescript')} ts
 * @param {CompilerOptions} options
 * @param {SourceCache} cache
 * @param {Mapping | null} mapping
 * @param {boolean} legacyHooks
 */
function createHost(ts, options, cache, mapping, legacyHooks) {
  const host = shareSources(ts, ts.createCompilerHost(options), options);
  const getCanonical = host.getCanonicalFileName.bind(host);

  const anchor = mapping ? path.join(mapping.root, ANCHOR) : '';
  const mapped = new Set(mapping ? mapping.packages : []);
  // A type reference "react" goes to the overlay when @types/react is linked.
  const mappedTypes = new Set();
  for (const p of mapped) {
    const typed = typedModule(p);
    if (typed) mappedTypes.add(typed);
  }
  const remap = mapping ? mapping.remap : [];
  const keep = mapping && mapping.keep ? mapping.keep : [];
  // An installed package whose own range of a target excludes it keeps
  // the installed line, nested under it by the upgraded install: its
  // imports of that package resolve where they do now.
  /** @type {Map<string, string>} */
  const realOf = new Map();
  /** @param {string} name @param {string} file */
  const keeps = (name, file) => {
    if (keep.length === 0) return false;
    let r = realOf.get(file);
    if (r === undefined) {
      try {
        r = fs.realpathSync(file);
      } catch {
        r = path.resolve(file);
      }
      realOf.set(file, r);
    }
    const p = packageOf(name);
    for (const k of keep) if ((k.names.includes(p) || k.names.includes(name)) && inside(k.dir, /** @type {string} */ (r))) return true;
    return false;
  };
  const linkDir = (/** @type {string} */ name) => (mapping ? path.join(mapping.root, 'node_modules', name) : '');
  // A linked package's file, by its real path or (preserveSymlinks) by its
  // name inside the overlay.
  /** @param {string} file */
  const remapOf = (file) => {
    const abs = path.resolve(file);
    for (const r of remap) if (inside(r.dir, abs) || inside(linkDir(r.name), abs)) return r;
    return undefined;
  };
  // Its bare imports resolve from its place in the overlay, where the
  // versions it declares are linked next to it. Its relative imports stay
  // where the file is: the compiler follows no symlink for those, so from
  // the overlay's link they would name a second copy of a file its bare
  // imports reach by its real path (@types/react's jsx-runtime.d.ts reads
  // "./"), and a unique symbol's types would be two.
  /** @param {string} file */
  const fromOverlay = (file) => {
    const abs = path.resolve(file);
    for (const r of remap) if (inside(r.dir, abs)) return path.join(linkDir(r.name), path.relative(r.dir, abs));
    return file;
  };

  const cwd = host.getCurrentDirectory();
  const overlayModuleCache = ts.createModuleResolutionCache(cwd, getCanonical, options);
  const overlayTypeCache = typeCacheFor(ts, cwd, getCanonical, options, overlayModuleCache);
  /** @type {Unresolved[]} */
  const unresolved = [];

  /**
   * @param {string} name
   * @param {string} containingFile
   * @param {CompilerOptions} opts
   * @param {any} redirected
   * @param {any} mode
   */
  const resolveModule = (name, containingFile, opts, redirected, mode) => {
    const isMapped = mapping && isBare(name) && (mapped.has(packageOf(name)) || mapped.has(name)) && !keeps(name, containingFile);
    const from = isMapped ? anchor : isBare(name) ? fromOverlay(containingFile) : containingFile;
    const onOverlay = mapping !== null && inside(mapping.root, from);
    const res = ts.resolveModuleName(name, from, opts, host, onOverlay ? overlayModuleCache : cache.moduleCache, redirected, mode);
    if (!isMapped && isBare(name) && !isBuiltin(name) && (!res.resolvedModule || untyped(res.resolvedModule))) {
      // A linked package's import that found nothing, or only JavaScript:
      // the installed runtime linked next to it has its types in @types,
      // which the upgraded install hoists beside it (next's `declare module
      // 'react'` augments @types/react; without it the augmentation is
      // dropped and every prop it adds is an error tsc does not report).
      const r = remapOf(containingFile);
      if (r) unresolved.push({ importer: r.name, specifier: name });
    }
    return res;
  };
  /**
   * @param {string} name
   * @param {string} containingFile
   * @param {CompilerOptions} opts
   * @param {any} redirected
   * @param {any} mode
   */
  const resolveType = (name, containingFile, opts, redirected, mode) => {
    // By its package, as imports are: "react/canary" reaches @types/react's
    // canary.d.ts, whose "./index" would otherwise be the installed line
    // beside the target's (its global JSX hiding the target's removal), and
    // next-env.d.ts's "next" is the target next, which types itself.
    const pkg = packageOf(name);
    if (mapping && (mappedTypes.has(pkg) || mapped.has(pkg)) && !keeps(name, containingFile) && !keeps('@types/' + pkg, containingFile)) {
      const o = { ...opts, typeRoots: [path.join(mapping.root, 'node_modules', '@types')] };
      return ts.resolveTypeReferenceDirective(name, anchor, o, host, redirected, undefined, mode);
    }
    const from = fromOverlay(containingFile);
    const onOverlay = mapping !== null && inside(mapping.root, from);
    return ts.resolveTypeReferenceDirective(name, from, opts, host, redirected, onOverlay ? overlayTypeCache : cache.typeCache, mode);
  };

  const h = /** @type {any} */ (host);
  h.getModuleResolutionCache = () => cache.moduleCache;
  // TypeScript 5+. legacyHooks leaves these out so a newer compiler takes
  // the 4.x path below, which tests cannot otherwise reach.
  if (!legacyHooks) {
    h.resolveModuleNameLiterals = (/** @type {any[]} */ literals, /** @type {string} */ containingFile, /** @type {any} */ redirected, /** @type {CompilerOptions} */ opts, /** @type {SourceFile} */ containingSourceFile) => {
      const modeOptions = (redirected && redirected.commandLine && redirected.commandLine.options) || opts;
      return literals.map((lit) => {
        const mode = compat.modeForUsage(ts, containingSourceFile, lit, modeOptions);
        return resolveModule(lit.text, containingFile, opts, redirected, mode);
      });
    };
    h.resolveTypeReferenceDirectiveReferences = (/** @type {any[]} */ refs, /** @type {string} */ containingFile, /** @type {any} */ redirected, /** @type {CompilerOptions} */ opts, /** @type {SourceFile | undefined} */ containingSourceFile) => {
      const fileMode = containingSourceFile ? /** @type {any} */ (containingSourceFile).impliedNodeFormat : undefined;
      return refs.map((ref) => {
        const name = typeof ref === 'string' ? ref : ref.fileName;
        const mode = (typeof ref === 'string' ? undefined : ref.resolutionMode) || fileMode;
        return resolveType(name, containingFile, opts, redirected, mode);
      });
    };
  }
  // TypeScript 4.x.
  h.resolveModuleNames = (/** @type {string[]} */ names, /** @type {string} */ containingFile, /** @type {any} */ _reused, /** @type {any} */ redirected, /** @type {CompilerOptions} */ opts, /** @type {SourceFile | undefined} */ containingSourceFile) => {
    return names.map((name, i) => {
      const mode = compat.modeAtIndex(ts, containingSourceFile, i, opts || options);
      return resolveModule(name, containingFile, opts || options, redirected, mode).resolvedModule;
    });
  };
  h.resolveTypeReferenceDirectives = (/** @type {any[]} */ names, /** @type {string} */ containingFile, /** @type {any} */ redirected, /** @type {CompilerOptions} */ opts, /** @type {any} */ containingFileMode) => {
    return names.map((ref) => {
      const name = typeof ref === 'string' ? ref : ref.fileName;
      const mode = (typeof ref === 'string' ? undefined : ref.resolutionMode) || containingFileMode;
      return resolveType(name, containingFile, opts || options, redirected, mode).resolvedTypeReferenceDirective;
    });
  };

  const state = {
    remapOf,
    /**
     * Bare imports inside linked packages that nothing resolved and no
     * ambient module declares (@types/node's "fs" is not missing).
     * @param {Program} program
     */
    unresolvedIn(program) {
      const ambient = ambientNames(program);
      return unresolved.filter((u) => !ambient.exact.has(u.specifier) && !ambient.patterns.some((re) => re.test(u.specifier)));
    },
  };
  return { host, state };
}

/**
 * Whether a resolution found JavaScript without declarations.
 * @param {{extension?: string}} m
 */
function untyped(m) {
  return typeof m.extension === 'string' && /^\.(c|m)?jsx?$/.test(m.extension);
}

/** @param {Program} program */
function ambientNames(program) {
  /** @type {Set<string>} */
  const exact = new Set();
  /** @type {RegExp[]} */
  const patterns = [];
  for (const sf of program.getSourceFiles()) {
    const names = /** @type {any} */ (sf).ambientModuleNames;
    if (!Array.isArray(names)) continue;
    for (const n of names) {
      if (typeof n !== 'string') continue;
      if (n.includes('*')) {
        const [pre, post] = n.split('*', 2);
        patterns.push(new RegExp('^' + escapeRe(pre) + '.*' + escapeRe(post) + '$'));
      } else {
        exact.add(n);
      }
    }
  }
  return { exact, patterns };
}

/** @param {string} s */
function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** @param {Unresolved[]} list */
function dedupeUnresolved(list) {
  const seen = new Set();
  /** @type {Unresolved[]} */
  const out = [];
  for (const u of list) {
    const k = u.importer + '\0' + u.specifier;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(u);
  }
  return out.sort((a, b) => cmp(a.importer, b.importer) || cmp(a.specifier, b.specifier));
}

/**
 * @param {typeof import('typescript')} ts
 * @param {TSDiagnostic} d
 * @param {(f: string) => string} rel
 * @param {(m: string) => string} msg
 * @returns {Diag}
 */
function toDiag(ts, d, rel, msg) {
  const message = msg(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (!d.file || d.start === undefined) {
    return { file: d.file ? rel(d.file.fileName) : '', line: 0, column: 0, start: 0, length: 0, code: d.code, message };
  }
  const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
  return { file: rel(d.file.fileName), line: line + 1, column: character + 1, start: d.start, length: d.length || 0, code: d.code, message };
}

/** @param {Diag} d */
function diagKey(d) {
  return d.file + '\0' + d.code + '\0' + d.message;
}

/**
 * The overlay's diagnostics minus the baseline's, as multisets keyed on
 * file, code and message. Same-key diagnostics at an unchanged position are
 * matched first, so the ones reported are the ones that moved or appeared.
 * @param {Diag[]} base
 * @param {Diag[]} over
 */
function newOnly(base, over) {
  /** @type {Map<string, Diag[]>} */
  const left = new Map();
  for (const d of base) {
    const k = diagKey(d);
    const list = left.get(k) || [];
    list.push(d);
    left.set(k, list);
  }
  /** @type {Diag[]} */
  const unmatched = [];
  for (const d of over) {
    const list = left.get(diagKey(d));
    const i = list ? list.findIndex((b) => b.start === d.start) : -1;
    if (list && i >= 0) list.splice(i, 1);
    else unmatched.push(d);
  }
  /** @type {Diag[]} */
  const out = [];
  for (const d of unmatched) {
    const list = left.get(diagKey(d));
    if (list && list.length) list.shift();
    else out.push(d);
  }
  return sortDiags(out);
}

/** @param {Diag[]} ds */
function sortDiags(ds) {
  return ds.sort((a, b) => cmp(a.file, b.file) || a.start - b.start || a.code - b.code || cmp(a.message, b.message));
}

/** @param {any} r */
function sortResult(r) {
  r.coverage.skipped.sort((/** @type {any} */ a, /** @type {any} */ b) => cmp(a.file, b.file));
  return r;
}

/**
 * @param {string} a
 * @param {string} b
 */
function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Drops the caches of module resolutions and baseline diagnostics. */
function release() {
  caches.clear();
}

module.exports = { compile, newOnly, release, seedBaseline };
