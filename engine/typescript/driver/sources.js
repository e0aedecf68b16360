// @ts-check
'use strict';

// The parsed repository, shared by every program the driver builds from
// the repository's files: Signal A's workspace programs (workspace.js) and
// Signal B's baseline and overlay (compile.js). A check reads the same
// workspace with the same tsconfig in both, so the lib files, the installed
// packages' declarations and the sources are parsed (and bound) once per
// driver process, not once per signal.
//
// Files are parsed without the parser's parent pass, as tsc parses them:
// every program here creates its checker, whose binder sets the parents of
// every node before anything reads them.
//
// A SourceFile is handed out again only to a program that would have
// produced the same one: the key holds what parsing and binding read and
// store (keyedOptions, the language version, the module format, the JSDoc
// parsing), and the entry its file's size and modification time.

const fs = require('fs');
const path = require('path');
const { inside } = require('./paths');
const { atLeast, tscJSDocMode } = require('./compat');

const MAX_SOURCES = 50000;

/** @type {Map<string, {version: string, sf: import('typescript').SourceFile}>} */
const files = new Map();
/** The SourceFiles files holds. @type {WeakSet<import('typescript').SourceFile>} */
let live = new WeakSet();
/** The files parsed since the last takeParsed, while recording (tests). @type {string[] | null} */
let parsed = null;

/**
 * The options that change what parsing and binding store on a SourceFile:
 * the ones the compiler itself flags (affectsSourceFile,
 * affectsBindDiagnostics), the ones older compilers do not flag yet
 * (importHelpers and jsxImportSource add imports to file.imports; the
 * binder's unreachable-code and unused-label errors follow
 * allowUnreachableCode and allowUnusedLabels), and, before TypeScript 5.1,
 * which keeps a program's module resolutions on the SourceFile, the ones
 * that change resolution.
 * @type {WeakMap<object, string[]>}
 */
const keyedByCompiler = new WeakMap();
const ALWAYS_KEYED = ['target', 'module', 'moduleResolution', 'moduleDetection', 'jsx', 'jsxImportSource', 'importHelpers', 'strict',
  'alwaysStrict', 'noFallthroughCasesInSwitch', 'allowUnreachableCode', 'allowUnusedLabels', 'preserveConstEnums', 'isolatedModules',
  'verbatimModuleSyntax'];

/** @param {typeof import('typescript')} ts */
function keyedOptions(ts) {
  let names = keyedByCompiler.get(ts);
  if (names) return names;
  const set = new Set(ALWAYS_KEYED);
  const resolutionsOnFile = !atLeast(ts, 5, 1);
  const decls = /** @type {any[]} */ ((/** @type {any} */ (ts)).optionDeclarations || []);
  for (const d of decls) {
    if (d.affectsSourceFile || d.affectsBindDiagnostics || (resolutionsOnFile && d.affectsModuleResolution)) set.add(d.name);
  }
  names = [...set].sort();
  keyedByCompiler.set(ts, names);
  return names;
}

/**
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CompilerOptions} options
 */
function optionsKey(ts, options) {
  const o = /** @type {any} */ (options);
  return JSON.stringify(keyedOptions(ts).map((n) => o[n]));
}

/** @param {string} f */
function fileVersion(f) {
  try {
    const st = fs.statSync(f);
    return `${st.mtimeMs}:${st.size}`;
  } catch {
    return '';
  }
}

/**
 * Installs the shared cache as host.getSourceFile, and tsc's JSDoc parsing.
 * Programs whose module resolution must not meet another's on an older
 * compiler's SourceFiles share among themselves only, under a namespace.
 * @param {typeof import('typescript')} ts
 * @param {import('typescript').CompilerHost} host
 * @param {import('typescript').CompilerOptions} options
 * @param {string} [namespace]
 */
function shareSources(ts, host, options, namespace = '') {
  const jsDocMode = tscJSDocMode(ts);
  if (jsDocMode !== undefined) /** @type {any} */ (host).jsDocParsingMode = jsDocMode;
  const canonical = host.getCanonicalFileName.bind(host);
  const orig = host.getSourceFile.bind(host);
  const optKey = optionsKey(ts, options) + '|' + String(jsDocMode) + '|' + namespace;
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    const lv = /** @type {any} */ (languageVersionOrOptions);
    const mode = typeof lv === 'object' && lv ? `${lv.languageVersion}|${lv.impliedNodeFormat}` : String(lv);
    const key = canonical(path.resolve(fileName)) + '|' + mode + '|' + optKey;
    const version = fileVersion(fileName);
    const hit = files.get(key);
    if (hit && version && hit.version === version && !shouldCreateNewSourceFile) return hit.sf;
    const sf = orig(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    if (sf && parsed) parsed.push(path.resolve(fileName));
    if (sf && version) {
      /** @type {any} */ (sf).version = version;
      if (files.size >= MAX_SOURCES) {
        files.clear();
        live = new WeakSet();
      }
      const old = files.get(key);
      if (old) live.delete(old.sf);
      files.set(key, { version, sf });
      live.add(sf);
    }
    return sf;
  };
  return host;
}

/**
 * Whether sf is the file the cache holds for its name, as it is on disk.
 * @param {import('typescript').SourceFile} sf
 */
function current(sf) {
  const v = /** @type {any} */ (sf).version;
  return !!v && live.has(sf) && v === fileVersion(sf.fileName);
}

/**
 * Drops the parsed files inside dirs (a target's declarations: parsed once
 * per compile, not kept for the run).
 * @param {string[]} dirs
 */
function forgetInside(dirs) {
  for (const [key, entry] of files) {
    const f = path.resolve(entry.sf.fileName);
    if (dirs.some((d) => inside(d, f))) {
      files.delete(key);
      live.delete(entry.sf);
    }
  }
}

/**
 * The files parsed since the last call, and whether to record the next
 * ones: what tests see of the sharing.
 * @param {boolean} record
 */
function takeParsed(record) {
  const out = parsed || [];
  parsed = record ? [] : null;
  return out;
}

module.exports = { shareSources, forgetInside, fileVersion, current, takeParsed };
