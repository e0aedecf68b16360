// @ts-check
'use strict';

// tsconfig: which projects a workspace compiles with, read as the
// repository's own compiler reads them. Both the driver's compile
// (compile.js) and the native tsc plan (native.js) start from this, so it
// lives apart from either.

const path = require('path');
const compat = require('./compat');

/**
 * @typedef {import('typescript').CompilerOptions} CompilerOptions
 * @typedef {import('typescript').Diagnostic} TSDiagnostic
 * @typedef {{configFile: string, options: CompilerOptions, fileNames: string[], explicitFiles?: string[], invalid: string}} Project
 */

/**
 * The workspace's own tsconfig (its references one level down), else the
 * nearest one above for options only (the file list stays the
 * workspace's), else compiler defaults over the workspace's sources.
 * @param {typeof import('typescript')} ts
 * @param {string} workspace
 * @param {string} explicit
 * @param {boolean} wantJs
 */
function loadProjects(ts, workspace, explicit, wantJs) {
  /** @type {TSDiagnostic[]} */
  const warnings = [];
  /** @type {Project[]} */
  const projects = [];
  const own = explicit || configIn(ts, workspace);
  if (own) {
    const root = parseConfig(ts, own, warnings);
    if (root.invalid) return { configFile: own, kind: 'own', invalid: root.invalid, projects, warnings };
    if (root.fileNames.length > 0 || !(root.references && root.references.length)) projects.push(root);
    for (const ref of root.references || []) {
      const refFile = ts.resolveProjectReferencePath(ref);
      projects.push(parseConfig(ts, refFile, warnings));
    }
    return { configFile: own, kind: 'own', invalid: '', projects, warnings };
  }
  const above = configAbove(ts, workspace, '');
  const include = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];
  /** @type {Record<string, any>} */
  const compilerOptions = {};
  if (!above) {
    // No tsconfig anywhere: nothing of the repository's configures a
    // compile, so the program is the one tsc gives plain JavaScript (and
    // stray TypeScript) by default, minus what only reports on code the
    // repository does not own: declaration files are not checked (a
    // dependency's .d.ts naming node:tty without @types/node is no error
    // of an app that never runs tsc), the JavaScript itself is not
    // type-checked (checkJs off: the overlay judges its sites on its own),
    // and nothing is emitted. Its modules resolve as Node loads them
    // (compat.nodeModuleOptions, set once the options are parsed): tsc's
    // own default (node10 before TypeScript 6) ignores exports maps and a
    // package's "type".
    compilerOptions.skipLibCheck = true;
    compilerOptions.checkJs = false;
    compilerOptions.noEmit = true;
  }
  if (wantJs) {
    include.push('**/*.js', '**/*.jsx', '**/*.mjs', '**/*.cjs');
    compilerOptions.allowJs = true;
  }
  /** @type {Record<string, any>} */
  const json = { files: [], include, exclude: ['**/node_modules', '**/dist', '**/build'], compilerOptions };
  if (above) json.extends = above;
  const parsed = ts.parseJsonConfigFileContent(json, parseHost(ts), workspace, undefined, path.join(workspace, 'tsconfig.json'));
  const invalid = fatalConfigError(ts, parsed.errors, above) || compat.rejectedOption(ts, parsed.errors, above);
  warnings.push(...parsed.errors.filter((d) => !isFatalConfig(d)));
  if (!above) Object.assign(parsed.options, compat.nodeModuleOptions(ts));
  projects.push({ configFile: above, options: parsed.options, fileNames: parsed.fileNames, invalid: '' });
  return { configFile: above, kind: above ? 'above' : 'none', invalid, projects, warnings };
}

// The names a directory's program config goes by, in the order tsserver
// (the editor's compiler) looks for them: a tsconfig.json wins over a
// jsconfig.json beside it. A jsconfig.json is a tsconfig whose defaults
// are allowJs, maxNodeModuleJsDepth 2, allowSyntheticDefaultImports,
// skipLibCheck and noEmit: the compiler applies them itself to a config
// file of that name (getDefaultCompilerOptions), extended ones included.
const CONFIG_NAMES = ['tsconfig.json', 'jsconfig.json'];

/**
 * The program config of dir itself, '' when it has none.
 * @param {typeof import('typescript')} ts
 * @param {string} dir
 */
function configIn(ts, dir) {
  for (const name of CONFIG_NAMES) {
    const f = path.join(dir, name);
    if (ts.sys.fileExists(f)) return f;
  }
  return '';
}

/**
 * The nearest program config above dir, up to stop (inclusive; '' is the
 * file system's root), '' when there is none.
 * @param {typeof import('typescript')} ts
 * @param {string} dir
 * @param {string} stop
 */
function configAbove(ts, dir, stop) {
  let d = dir;
  while (d !== stop && path.dirname(d) !== d) {
    d = path.dirname(d);
    const rel = stop ? path.relative(stop, d) : '';
    if (rel.startsWith('..') || path.isAbsolute(rel)) break;
    const f = configIn(ts, d);
    if (f) return f;
  }
  return '';
}

/** @param {typeof import('typescript')} ts */
function parseHost(ts) {
  return {
    useCaseSensitiveFileNames: ts.sys.useCaseSensitiveFileNames,
    readDirectory: ts.sys.readDirectory,
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
  };
}

/**
 * @param {typeof import('typescript')} ts
 * @param {string} file
 * @param {TSDiagnostic[]} warnings
 * @returns {Project & {references?: readonly import('typescript').ProjectReference[]}}
 */
function parseConfig(ts, file, warnings) {
  if (!ts.sys.fileExists(file)) {
    return { configFile: file, options: {}, fileNames: [], invalid: invalidConfig(ts, file, 'the file does not exist') };
  }
  const source = ts.readJsonConfigFile(file, ts.sys.readFile);
  const syntax = /** @type {any} */ (source).parseDiagnostics || [];
  if (syntax.length) {
    return { configFile: file, options: {}, fileNames: [], invalid: invalidConfig(ts, file, syntax[0]) };
  }
  const parsed = ts.parseJsonSourceFileConfigFileContent(source, parseHost(ts), path.dirname(file), undefined, file);
  const invalid = fatalConfigError(ts, parsed.errors, file) || compat.rejectedOption(ts, parsed.errors, file);
  warnings.push(...parsed.errors.filter((d) => !isFatalConfig(d)));
  return { configFile: file, options: parsed.options, fileNames: parsed.fileNames, explicitFiles: explicitFilesOf(parsed.raw, path.dirname(file)), invalid, references: parsed.projectReferences };
}

/**
 * The files a tsconfig lists by name (`files`), absolute: they are roots of
 * the repository's own compile whatever imports them.
 * @param {any} raw
 * @param {string} dir
 */
function explicitFilesOf(raw, dir) {
  if (!raw || !Array.isArray(raw.files)) return [];
  return raw.files.filter((/** @type {any} */ f) => typeof f === 'string' && f !== '').map((/** @type {string} */ f) => path.resolve(dir, f));
}

// A config the compiler cannot load at all: unreadable, a missing extends,
// an extends cycle (TS18000: tsc goes on without the options of the files
// in the cycle, so its program is not the repository's). An unknown or
// deprecated option is the repository's compiler's to judge, and tsc
// compiles anyway.
const FATAL_CONFIG = new Set([5083, 6053, 18000, 18001, 5081]);

/** @param {TSDiagnostic} d */
function isFatalConfig(d) {
  return FATAL_CONFIG.has(d.code) || (d.file !== undefined && /\.json$/.test(d.file.fileName) && d.code >= 1000 && d.code < 1500);
}

/**
 * @param {typeof import('typescript')} ts
 * @param {readonly TSDiagnostic[]} errors
 * @param {string} file
 */
function fatalConfigError(ts, errors, file) {
  const fatal = errors.find(isFatalConfig);
  if (fatal) return invalidConfig(ts, file, fatal);
  if (errors.some((d) => d.code === 18003)) return `no input files in ${file || 'the workspace'}`;
  return '';
}

/**
 * Why a tsconfig stops the compile: where (the file at fault, an extended
 * one's line when the compiler gives it), what is wrong and what to do —
 * the repository's own build fails on it the same way.
 * @param {typeof import('typescript')} ts
 * @param {string} file the tsconfig read
 * @param {TSDiagnostic | string} d
 */
function invalidConfig(ts, file, d) {
  let where = file || 'tsconfig.json';
  let what = d;
  if (typeof d !== 'string') {
    what = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file && d.start !== undefined) where = `${d.file.fileName}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`;
  }
  return `invalid tsconfig ${where}: ${String(what).replace(/\.$/, '')}: fix it and run again`;
}

module.exports = { loadProjects, configIn, configAbove };
