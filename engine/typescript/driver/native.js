// @ts-check
'use strict';

// nativePlan: what the engine needs to judge with a repository's native
// TypeScript (7 or newer, a program without a JavaScript API). The native
// tsc runs on generated tsconfigs that extend the workspace's and list the
// files in scope; this answers, with the pinned compiler's parser and
// resolver, what those tsconfigs must say:
//
//   - the projects owning the files in scope (the workspace's tsconfig and
//     its references, as tsconfig.js groups them) with their roots;
//   - each project's effective paths (absolute: the generated tsconfig lives
//     elsewhere and replaces them wholesale) and type roots (the defaults
//     depend on the tsconfig's directory, which the generated one changes);
//   - for each materialized overlay ("side"), the paths entries sending every
//     specifier of a mapped package to the exact file the resolver picks from
//     inside it. A paths entry naming a package directory would bypass the
//     package's exports map, hence one exact entry per specifier.

const fs = require('fs');
const path = require('path');
const { real, inside, isBare, packageOf, requireAbs, uniq, rootsOf, typesName, typedModule } = require('./paths');
const { DriverError } = require('./protocol');
const { sourcePathsOf } = require('./wssource');
const { loadProjects } = require('./tsconfig');
const compat = require('./compat');
const { readText } = require('./regular');

const ANCHOR = '__uptide_native__.ts';

/**
 * @typedef {import('typescript').CompilerOptions} CompilerOptions
 * @typedef {{configFile: string, options: CompilerOptions, fileNames: string[]}} Project
 * @typedef {{name: string, root: string, packages: string[]}} Side
 */

/**
 * @param {typeof import('typescript')} ts
 * @param {any} params
 */
function nativePlan(ts, params) {
  const workspace = requireAbs(params.workspace || params.repoRoot, 'workspace');
  if (params.files !== undefined && params.files !== null && !Array.isArray(params.files)) {
    throw new DriverError('BAD_REQUEST', 'files must be a list of absolute paths');
  }
  /** @type {Side[]} */
  const sides = (Array.isArray(params.sides) ? params.sides : []).map((/** @type {any} */ s, /** @type {number} */ i) => {
    if (!s || typeof s.name !== 'string' || !Array.isArray(s.packages)) throw new DriverError('BAD_REQUEST', `sides[${i}] needs name, root and packages`);
    return { name: s.name, root: real(requireAbs(s.root, `sides[${i}].root`)), packages: s.packages.filter((/** @type {any} */ p) => typeof p === 'string' && p !== '') };
  });
  /** @type {Record<string, string[]>} */
  const sourcePaths = sourcePathsOf(params) || {};
  const asked = Array.isArray(params.files) ? params.files.map((/** @type {any} */ f) => requireAbs(f, 'files')) : null;
  const wantJs = !!asked && asked.some((/** @type {string} */ f) => /\.(c|m)?jsx?$/.test(f));
  // The projects tsconfig.js loads for compile.js too, invalid ones left
  // out: the driver's answer has skipped their files already.
  const loaded = loadProjects(ts, workspace, params.tsconfig || '', wantJs);
  const kind = loaded.kind;
  const projects = loaded.projects.filter((p) => !p.invalid);

  /** @type {Map<string, {project: Project, listed: string}>} */
  const owner = new Map();
  for (const p of projects) {
    for (const f of p.fileNames) {
      const r = real(f);
      if (!owner.has(r)) owner.set(r, { project: p, listed: f });
    }
  }
  /** @type {Map<Project, string[]>} */
  const byProject = new Map();
  for (const f of uniq((asked || [...owner.keys()]).map(real))) {
    const o = owner.get(f);
    if (!o || !fs.existsSync(f)) continue;
    const list = byProject.get(o.project) || [];
    list.push(o.listed);
    byProject.set(o.project, list);
  }

  const units = [];
  for (const [project, files] of byProject) {
    const roots = rootsOf(project, files);
    const options = project.options;
    const formats = new Map(roots.map((f) => [f, impliedFormat(ts, f, options)]));
    /** @type {Record<string, any>} */
    const sideOut = {};
    for (const side of sides) {
      sideOut[side.name] = legacyJudge(params.judge) ? directoryPaths(side) : sidePaths(ts, side, options, roots, files, formats);
    }
    units.push({
      config: project.configFile,
      files,
      roots,
      // The workspace dependencies' sources (wssource.js), under the
      // repository's own paths, as the driver's compile merges them.
      paths: { ...sourcePaths, ...absolutePaths(options) },
      typeRoots: effectiveTypeRoots(ts, options, project.configFile ? path.dirname(project.configFile) : workspace),
      // ${configDir} in an extended tsconfig would name the generated
      // one's directory: what module resolution reads is given resolved.
      rootDirs: (options.rootDirs || []).map((d) => path.resolve(d)),
      allowJs: !!(options.allowJs || options.checkJs),
      // Without a tsconfig to extend, the generated one carries the
      // defaults tsconfig.js gives such a program itself.
      skipLibCheck: !project.configFile && !!options.skipLibCheck,
      // ...and resolves modules as Node loads them (tsconfig.js), where
      // the native compiler's own default is the bundler's resolution.
      noConfig: !project.configFile,
      // Whether tsc -p of the tsconfig judges as the generated one does
      // (native_seed.go): the options differ in emit alone, JavaScript is
      // not left unchecked there and checked here, no references.
      seedable: seedable(project),
      sides: sideOut,
    });
  }
  return { kind, units };
}

/**
 * Whether the baseline of a unit may be read from tsc -p of its tsconfig
 * over the same files: the generated tsconfig extends it and changes only
 * what is written, unless JavaScript is allowed without being checked (it
 * checks it), the project has references (extends does not carry them), a
 * single output file makes tsc -p report what the generated one turns
 * off, or declaration diagnostics join the errors (noEmitOnError).
 * @param {Project & {references?: readonly any[]}} project
 */
function seedable(project) {
  const o = /** @type {any} */ (project.options);
  if (!project.configFile || (project.references || []).length > 0) return false;
  if (o.allowJs && !o.checkJs) return false;
  if (o.outFile || o.out) return false;
  return !(o.noEmitOnError && (o.declaration || o.composite));
}

/**
 * The paths entries sending a side's mapped packages into it: each
 * specifier the roots import, each subpath the packages export, and for a
 * package without an exports map its whole directory.
 * @param {typeof import('typescript')} ts
 * @param {Side} side
 * @param {CompilerOptions} options
 * @param {string[]} roots
 * @param {string[]} files
 * @param {Map<string, any>} formats
 */
function sidePaths(ts, side, options, roots, files, formats) {
  const anchor = path.join(side.root, ANCHOR);
  const nm = path.join(side.root, 'node_modules');
  const mapped = new Set(side.packages);
  // The repository's own paths and baseUrl would send a name back into the
  // repository: the side is resolved as a plain node_modules.
  const opts = { ...options };
  for (const k of ['paths', 'baseUrl', 'pathsBasePath']) delete (/** @type {any} */ (opts))[k];
  const dominant = dominantFormat(files.map((f) => formats.get(f)));

  /** @type {Map<string, {mode: any, imported: boolean}>} specifier -> how it is asked */
  const wanted = new Map();
  for (const f of roots) {
    let text = '';
    try {
      text = readText(f);
    } catch {
      continue;
    }
    for (const ref of ts.preProcessFile(text, true, true).importedFiles) {
      const spec = ref.fileName;
      if (!isBare(spec) || !(mapped.has(spec) || mapped.has(packageOf(spec)))) continue;
      if (!wanted.has(spec)) wanted.set(spec, { mode: formats.get(f), imported: true });
    }
  }
  for (const name of side.packages) {
    if (name.startsWith('@types/')) continue;
    for (const sub of exportedSubpaths(path.join(nm, name), path.join(nm, typesName(name)))) {
      const spec = sub === '.' ? name : name + sub.slice(1);
      if (!wanted.has(spec)) wanted.set(spec, { mode: dominant, imported: false });
    }
  }

  /** @type {Record<string, string[]>} */
  const paths = {};
  /** @type {Set<string>} */
  const wildcards = new Set();
  for (const [spec, how] of [...wanted].sort((a, b) => cmp(a[0], b[0]))) {
    const res = ts.resolveModuleName(spec, anchor, opts, ts.sys, undefined, undefined, how.mode).resolvedModule;
    const file = res ? path.resolve(res.resolvedFileName) : '';
    if (file && inside(side.root, file)) {
      paths[spec] = [file];
      const dir = packageDirOf(nm, file);
      if (dir && !hasExports(dir) && packageOf(spec) === spec) wildcards.add(spec + '\0' + dir);
    } else if (how.imported) {
      // Resolved nowhere in the side (a subpath the target dropped): a
      // missing file, so tsc reports the import as the driver's overlay
      // does instead of falling back to the repository's copy.
      paths[spec] = [path.join(side.root, '__unresolved__', spec)];
    }
  }
  for (const w of wildcards) {
    const [name, dir] = w.split('\0');
    if (!paths[name + '/*']) paths[name + '/*'] = [path.join(dir, '*')];
  }
  return { paths };
}

/**
 * Whether the judging tsc predates exports maps and the .d.mts/.d.cts
 * extensions (TypeScript 4.6 and older): a file this compiler resolves
 * for a package (index.d.cts) may be one that tsc cannot read, and it
 * would then fall back to the repository's installed copy.
 * @param {any} judge the judging tsc's version
 */
function legacyJudge(judge) {
  if (typeof judge !== 'string' || judge === '') return false;
  const [major, minor] = judge.split('.').map(Number);
  return major < 4 || (major === 4 && minor < 7);
}

/**
 * The paths entries sending a side's mapped packages into it as whole
 * directories, which the judging tsc resolves itself (its package.json
 * reading, its extensions), as it does the real install's node_modules.
 * A module typed by a DefinitelyTyped package in the side (express by
 * @types/express) is sent to that package after its own directory: tsc
 * tries the substitutions in order, and one that finds no declarations
 * falls back to the repository's node_modules, whose @types copy is the
 * installed one, not the upgrade's.
 * @param {Side} side
 */
function directoryPaths(side) {
  const nm = path.join(side.root, 'node_modules');
  /** @type {Map<string, {own: string[], types: string[]}>} module -> its directories in the side */
  const dirs = new Map();
  for (const name of [...side.packages].sort(cmp)) {
    const dir = path.join(nm, name);
    if (!fs.existsSync(dir)) continue;
    const typed = typedModule(name);
    const mod = typed || name;
    const d = dirs.get(mod) || { own: [], types: [] };
    (typed ? d.types : d.own).push(dir);
    dirs.set(mod, d);
  }
  /** @type {Record<string, string[]>} */
  const paths = {};
  for (const [mod, d] of [...dirs].sort((a, b) => cmp(a[0], b[0]))) {
    const ds = [...d.own, ...d.types];
    paths[mod] = ds;
    paths[mod + '/*'] = ds.map((dir) => path.join(dir, '*'));
  }
  return { paths };
}

/**
 * The subpaths ("." and "./x") the exports maps of a package and of its
 * types package name, patterns left out (the roots' own imports cover them).
 * @param {...string} dirs
 */
function exportedSubpaths(...dirs) {
  /** @type {Set<string>} */
  const out = new Set(['.']);
  for (const dir of dirs) {
    const pj = readJson(path.join(dir, 'package.json'));
    if (!pj || pj.exports === undefined || pj.exports === null) continue;
    const ex = pj.exports;
    if (typeof ex !== 'object' || Array.isArray(ex)) continue;
    for (const k of Object.keys(ex)) {
      if (k.startsWith('./') && !k.includes('*') && k !== './package.json' && !k.endsWith('/')) out.add(k);
    }
  }
  return [...out];
}

/** @param {string} dir */
function hasExports(dir) {
  const pj = readJson(path.join(dir, 'package.json'));
  return !!pj && pj.exports !== undefined && pj.exports !== null;
}

/**
 * The package directory under nm holding file (node_modules/x or
 * node_modules/@s/x), "" when it is not under nm.
 * @param {string} nm
 * @param {string} file
 */
function packageDirOf(nm, file) {
  if (!inside(nm, file)) return '';
  const parts = path.relative(nm, file).split(path.sep);
  const n = parts[0].startsWith('@') ? 2 : 1;
  if (parts.length <= n) return '';
  return path.join(nm, ...parts.slice(0, n));
}

/** @param {string} file */
function readJson(file) {
  try {
    return JSON.parse(readText(file));
  } catch {
    return null;
  }
}

/**
 * @param {typeof import('typescript')} ts
 * @param {string} file
 * @param {CompilerOptions} options
 */
function impliedFormat(ts, file, options) {
  return compat.impliedNodeFormat(ts, file, options);
}

/** @param {any[]} formats */
function dominantFormat(formats) {
  /** @type {Map<any, number>} */
  const count = new Map();
  for (const f of formats) count.set(f, (count.get(f) || 0) + 1);
  let best;
  let n = 0;
  for (const [f, c] of count) {
    if (c > n) {
      best = f;
      n = c;
    }
  }
  return best;
}

/**
 * The project's paths with absolute targets: relative ones are relative to
 * baseUrl, else to the tsconfig that declared them.
 * @param {CompilerOptions} options
 */
function absolutePaths(options) {
  /** @type {Record<string, string[]>} */
  const out = {};
  const p = options.paths;
  if (!p) return out;
  const base = options.baseUrl || /** @type {any} */ (options).pathsBasePath || '';
  for (const k of Object.keys(p)) {
    out[k] = (p[k] || []).map((t) => (path.isAbsolute(t) || !base ? t : path.resolve(base, t)));
  }
  return out;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {CompilerOptions} options
 * @param {string} dir
 */
function effectiveTypeRoots(ts, options, dir) {
  if (options.typeRoots) return options.typeRoots.map((r) => path.resolve(dir, r));
  const roots = /** @type {any} */ (ts).getEffectiveTypeRoots(options, {
    directoryExists: (/** @type {string} */ d) => ts.sys.directoryExists(d),
    getCurrentDirectory: () => dir,
  });
  return Array.isArray(roots) ? roots.map((/** @type {string} */ r) => path.resolve(dir, r)) : [];
}


/**
 * @param {string} a
 * @param {string} b
 */
function cmp(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The native judgment's new diagnostics with the roots the tracer finds on
 * the pinned compiler's overlay programs (compile.js builds them, and calls
 * this for a resolveOnly request carrying trace). tsc prints no length,
 * which the tracer needs to find a diagnostic's node: a diagnostic takes
 * the length of the pinned compiler's at the same place, so only the files
 * with new errors are checked here.
 * @param {typeof import('typescript')} ts
 * @param {{u: {files: string[]}, program: import('typescript').Program}[]} programs
 * @param {any[]} diags
 * @param {(f: string) => string} rel
 * @param {(ds: any[]) => void} trace
 */
function traceNative(ts, programs, diags, rel, trace) {
  const out = diags.map((d) => ({
    file: String(d.file || ''), line: d.line | 0, column: d.column | 0, start: d.start | 0, length: d.length | 0, code: d.code | 0, message: String(d.message || ''),
  }));
  /** @type {Map<string, {program: import('typescript').Program, sf: import('typescript').SourceFile}>} */
  const byFile = new Map();
  for (const c of programs) {
    for (const f of c.u.files) {
      const sf = c.program.getSourceFile(f);
      if (sf && !byFile.has(rel(sf.fileName))) byFile.set(rel(sf.fileName), { program: c.program, sf });
    }
  }
  /** @type {Map<string, readonly import('typescript').Diagnostic[]>} */
  const pinned = new Map();
  for (const d of out) {
    const at = d.length ? undefined : byFile.get(d.file);
    if (!at) continue;
    let ds = pinned.get(d.file);
    if (!ds) {
      ds = [...at.program.getSyntacticDiagnostics(at.sf), ...at.program.getSemanticDiagnostics(at.sf)];
      pinned.set(d.file, ds);
    }
    const same = ds.find((x) => x.start === d.start && x.code === d.code) || ds.find((x) => x.start === d.start);
    if (same && same.length) d.length = same.length;
  }
  trace(out);
  return out;
}

module.exports = { nativePlan, traceNative };
