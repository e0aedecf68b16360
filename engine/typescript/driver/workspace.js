// @ts-check
'use strict';

// The programs Signal A reads one workspace with: its own tsconfig (and the
// projects it references, one level down, each a program of its own so each
// file is read with the options its build uses); without one, the nearest
// tsconfig above for options only over the workspace's own sources; without
// any, the workspace's **/*.{ts,tsx,js,jsx,mjs,cjs} with modern defaults
// (JavaScript read, never type-checked). A usage scan
// roots the programs at the files that can reach its package (usages.js),
// so each package reads programs of its own; they are kept between requests
// while nothing they read changed, and the files they parse (and bind) are
// shared with each other and with the compile (sources.js).

const fs = require('fs');
const path = require('path');
const { DriverError } = require('./protocol');
const { shareSources, current } = require('./sources');
const compat = require('./compat');
const { sourcePathsOf, withSourcePaths } = require('./wssource');
const { configIn, configAbove } = require('./tsconfig');
const { isRegular: isFile } = require('./regular');
const { inside } = require('./entries');

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
const JS_EXTENSIONS = ['.js', '.jsx', '.mjs', '.cjs'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build']);
// Programs over every file a workspace includes (a package declaring
// globals), and the smaller ones over the files that reach one package:
// kept apart, so scanning a few packages of a workspace does not evict the
// whole workspace's program another package reads.
const KEEP_WORKSPACES = 2;
const KEEP_SCOPED = 4;

/**
 * @typedef {{configFile: string, program: import('typescript').Program, checker: import('typescript').TypeChecker, options: import('typescript').CompilerOptions, roots: string[]}} Project
 * @typedef {{key: string, signature: string, scoped: boolean, projects: Project[], files: {fileName: string, project: Project}[], config: string, configRole: 'own' | 'above' | 'none', includesJs: boolean}} Workspace
 */

/** @type {Workspace[]} most recently used first */
const kept = [];


/**
 * @typedef {{configFile: string, options: import('typescript').CompilerOptions, roots: string[]}} Plan
 * @typedef {{wsDir: string, repoRoot: string, exclude: string[], key: string, plans: Plan[], config: string, configRole: 'own' | 'above' | 'none', includesJs: boolean}} WorkspacePlan
 */

/**
 * The workspace's programs as planned (configs, options, every root file
 * they include), before any is built.
 * @param {typeof import('typescript')} ts
 * @param {{workspaceDir: string, repoRoot?: string, tsconfig?: string, exclude?: string[], sourcePaths?: Record<string, string[]>}} params
 * @returns {WorkspacePlan}
 */
function planWorkspace(ts, params) {
  if (typeof params.workspaceDir !== 'string' || params.workspaceDir === '') throw new DriverError('BAD_REQUEST', 'workspaceDir is required');
  const wsDir = realDir(params.workspaceDir, 'workspaceDir');
  const repoRoot = params.repoRoot ? realDir(params.repoRoot, 'repoRoot') : wsDir;
  if (!inside(repoRoot, wsDir)) throw new DriverError('BAD_REQUEST', `workspace ${wsDir} is not inside the repository ${repoRoot}`);
  const exclude = (Array.isArray(params.exclude) ? params.exclude : []).filter((d) => typeof d === 'string' && d !== '').map(realOrResolved);
  const excluded = (/** @type {string} */ f) => exclude.some((d) => inside(d, f)) || path.relative(repoRoot, f).split(path.sep).includes('node_modules');

  const configs = findConfigs(ts, wsDir, repoRoot, params.tsconfig);
  const key = JSON.stringify([wsDir, repoRoot, params.tsconfig || '', exclude]);

  /** @type {Plan[]} */
  const plans = [];
  let includesJs = false;
  if (configs.role === 'own') {
    const own = parseConfig(ts, configs.file);
    /** @type {{configFile: string, options: import('typescript').CompilerOptions, fileNames: string[]}[]} */
    const all = [{ configFile: configs.file, options: own.options, fileNames: own.fileNames }];
    for (const ref of own.projectReferences || []) {
      const refFile = ts.resolveProjectReferencePath(ref);
      if (!fs.existsSync(refFile)) continue;
      const parsed = parseConfig(ts, refFile);
      all.push({ configFile: refFile, options: parsed.options, fileNames: parsed.fileNames });
    }
    for (const c of all) {
      const roots = c.fileNames.map((f) => path.resolve(f)).filter((f) => !excluded(f));
      if (roots.length === 0) continue;
      plans.push({ configFile: c.configFile, options: c.options, roots });
    }
    if (plans.length === 0) {
      // A solution-style config whose references list nothing readable:
      // its options over the workspace's sources.
      plans.push({ configFile: configs.file, options: own.options, roots: globSources(wsDir, !!own.options.allowJs, excluded) });
    }
  } else {
    const options = configs.role === 'above' ? parseConfig(ts, configs.file).options : defaultOptions(ts);
    plans.push({ configFile: configs.file, options, roots: globSources(wsDir, !!options.allowJs, excluded) });
  }
  const sourcePaths = sourcePathsOf(params);
  for (const p of plans) {
    p.options = withSourcePaths({ ...p.options, noEmit: true }, sourcePaths);
    for (const k of ['composite', 'incremental', 'tsBuildInfoFile', 'declaration', 'declarationMap', 'emitDeclarationOnly', 'outFile', 'out']) delete p.options[k];
    if (p.options.allowJs) includesJs = true;
  }
  return { wsDir, repoRoot, exclude, key, plans, config: configs.file, configRole: configs.role, includesJs };
}

/**
 * The workspace's programs over the root files keep admits (all of them
 * when keep is null); the compiler adds what those files import.
 * @param {typeof import('typescript')} ts
 * @param {WorkspacePlan} planned
 * @param {Set<string> | null} keep
 * @returns {Workspace & {wsDir: string, repoRoot: string, exclude: string[]}}
 */
function openWorkspace(ts, planned, keep) {
  const { wsDir, repoRoot, exclude } = planned;
  // Plans keep their order, so a file still belongs to the first program
  // that includes it; a plan left with no roots would only read the libs.
  const plans = keep ? planned.plans.map((p) => ({ ...p, roots: p.roots.filter((f) => keep.has(f)) })).filter((p) => p.roots.length > 0) : planned.plans;
  const signature = JSON.stringify(plans.map((p) => [p.configFile, p.options, p.roots]));
  // One kept program per root set: the packages of a workspace now read
  // programs of their own, which share the parsed and bound files.
  const key = planned.key + '|' + signature;
  const found = kept.findIndex((w) => w.key === key);
  if (found >= 0) {
    const w = kept[found];
    kept.splice(found, 1);
    if (w.signature === signature && unchanged(w)) {
      kept.unshift(w);
      return { ...w, wsDir, repoRoot, exclude };
    }
  }

  /** @type {Project[]} */
  const projects = [];
  const assigned = new Set();
  /** @type {{fileName: string, project: Project}[]} */
  const files = [];
  for (const p of plans) {
    const program = ts.createProgram({ rootNames: p.roots, options: p.options, host: shareSources(ts, ts.createCompilerHost(p.options), p.options) });
    const project = { configFile: p.configFile, program, checker: program.getTypeChecker(), options: p.options, roots: p.roots };
    projects.push(project);
    for (const f of p.roots) {
      if (assigned.has(f) || !program.getSourceFile(f)) continue;
      assigned.add(f);
      files.push({ fileName: f, project });
    }
  }
  /** @type {Workspace} */
  const w = { key, signature, scoped: keep !== null, projects, files, config: planned.config, configRole: planned.configRole, includesJs: planned.includesJs };
  kept.unshift(w);
  let whole = 0;
  let scoped = 0;
  for (let i = 0; i < kept.length; i++) {
    const over = kept[i].scoped ? ++scoped > KEEP_SCOPED : ++whole > KEEP_WORKSPACES;
    if (over) kept.splice(i--, 1);
  }
  return { ...w, wsDir, repoRoot, exclude };
}

/**
 * The workspace's own tsconfig or jsconfig (or the one the caller names),
 * else the nearest above it inside the repository, for options only.
 * @param {typeof import('typescript')} ts
 * @param {string} wsDir
 * @param {string} repoRoot
 * @param {string | undefined} explicit
 * @returns {{file: string, role: 'own' | 'above' | 'none'}}
 */
function findConfigs(ts, wsDir, repoRoot, explicit) {
  if (explicit) {
    const file = path.resolve(wsDir, explicit);
    if (!isFile(file)) throw new DriverError('BAD_REQUEST', `${file} does not exist: pass an existing tsconfig or none`);
    return { file, role: 'own' };
  }
  const own = configIn(ts, wsDir);
  if (own) return { file: own, role: 'own' };
  const above = wsDir === repoRoot ? '' : configAbove(ts, wsDir, repoRoot);
  return above ? { file: above, role: 'above' } : { file: '', role: 'none' };
}

/**
 * @param {typeof import('typescript')} ts
 * @param {string} file
 */
function parseConfig(ts, file) {
  /** @type {string[]} */
  const fatal = [];
  const host = {
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    readDirectory: ts.sys.readDirectory,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    getCurrentDirectory: () => path.dirname(file),
    onUnRecoverableConfigFileDiagnostic: (/** @type {import('typescript').Diagnostic} */ d) => {
      fatal.push(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  };
  const parsed = ts.getParsedCommandLineOfConfigFile(file, {}, host);
  if (!parsed || fatal.length) {
    throw new DriverError('BAD_CONFIG', `${file}: ${fatal.join('; ') || 'cannot be read'}: fix the tsconfig and run again`);
  }
  const rejected = compat.rejectedOption(ts, parsed.errors, file);
  if (rejected) throw new DriverError('BAD_CONFIG', rejected);
  return parsed;
}

/**
 * The options a workspace without any tsconfig is read with.
 * @param {typeof import('typescript')} ts
 * @returns {import('typescript').CompilerOptions}
 */
function defaultOptions(ts) {
  // JavaScript too (never type-checked: checkJs stays off): a repository
  // without a tsconfig is often plain JavaScript, and what it loads is used.
  // Its modules resolve as Node loads them, as the compile's default
  // program does (tsconfig.js).
  return {
    allowJs: true,
    checkJs: false,
    target: ts.ScriptTarget.ESNext,
    ...compat.nodeModuleOptions(ts),
    jsx: ts.JsxEmit.Preserve,
    esModuleInterop: true,
    allowSyntheticDefaultImports: true,
    resolveJsonModule: true,
    skipLibCheck: true,
    noEmit: true,
  };
}

/**
 * The workspace's sources: **\/*.{ts,tsx} (and JavaScript under allowJs)
 * minus node_modules, dist and build.
 * @param {string} dir
 * @param {boolean} allowJs
 * @param {(f: string) => boolean} excluded
 */
function globSources(dir, allowJs, excluded) {
  const exts = allowJs ? [...TS_EXTENSIONS, ...JS_EXTENSIONS] : TS_EXTENSIONS;
  /** @type {string[]} */
  const out = [];
  const walk = (/** @type {string} */ d) => {
    let ents;
    try {
      ents = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    ents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of ents) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) {
        if (!SKIPPED_DIRS.has(e.name) && !excluded(p + '/')) walk(p);
      } else if (e.isFile() && exts.some((x) => e.name.endsWith(x)) && !excluded(p)) {
        out.push(p);
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * Whether every file a kept workspace's programs read is as it was.
 * @param {Workspace} w
 */
function unchanged(w) {
  for (const p of w.projects) {
    for (const sf of p.program.getSourceFiles()) {
      if (!current(sf)) return false;
    }
  }
  return true;
}

/** @param {string} p @param {string} what */
function realDir(p, what) {
  try {
    const r = fs.realpathSync(p);
    if (fs.statSync(r).isDirectory()) return r;
  } catch {
    // reported below
  }
  throw new DriverError('BAD_REQUEST', `${what} ${p} is not a directory`);
}

/** @param {string} p */
function realOrResolved(p) {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

/** Drops the kept programs (the check that read them is over). */
function release() {
  kept.length = 0;
}

module.exports = { planWorkspace, openWorkspace, inside, release };
